package identity

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// ErrBadToken is a token that proves nothing: malformed, badly signed,
// expired, for another audience or from another issuer.
var ErrBadToken = errors.New("the token is not valid")

// LocalIssuer is the issuer of the tokens this server signs.
const LocalIssuer = "towow"

// The audiences of the server-signed tokens: an API bearer token (local
// mode's `towow token`) and the console's session cookie.
const (
	AudienceAPI     = "towow-api"
	AudienceSession = "towow-session"
)

// DefaultSkew is the clock skew tolerated on a token's expiry.
const DefaultSkew = time.Minute

// Verifier turns a token into the user it proves.
type Verifier struct {
	v *oidc.IDTokenVerifier
	// local: the subject is the user id itself (a server-signed token,
	// minted for a checked name or a verified issuer's user); else the
	// user id is "<sub>@<issuer host>".
	local bool
	host  string
}

// Verify checks raw (signature, issuer, audience, expiry with the skew)
// and returns its user; every failure wraps ErrBadToken.
func (v *Verifier) Verify(ctx context.Context, raw string) (Principal, error) {
	tok, err := v.v.Verify(ctx, raw)
	if err != nil {
		return Principal{}, fmt.Errorf("%w: %w", ErrBadToken, err)
	}
	var c struct {
		Name              string `json:"name"`
		PreferredUsername string `json:"preferred_username"`
		Email             string `json:"email"`
	}
	if err := tok.Claims(&c); err != nil {
		return Principal{}, fmt.Errorf("%w: %w", ErrBadToken, err)
	}
	if tok.Subject == "" {
		return Principal{}, fmt.Errorf("%w: no subject", ErrBadToken)
	}
	name := firstOf(c.Name, c.PreferredUsername, c.Email, tok.Subject)
	if v.local {
		return User(tok.Subject, name), nil
	}
	return User(tok.Subject+"@"+v.host, name), nil
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// clock returns now less the skew: a token expired less than skew ago
// still passes.
func clock(now func() time.Time, skew time.Duration) func() time.Time {
	if now == nil {
		now = time.Now
	}
	return func() time.Time { return now().Add(-skew) }
}

// NewOIDCVerifier fetches issuer's discovery document and returns a
// verifier of its ID tokens for audience: signatures checked against the
// issuer's JWKS (fetched again when a token names a key it has not seen,
// so the issuer may rotate its keys), `iss`, `aud` and `exp` with skew.
func NewOIDCVerifier(ctx context.Context, issuer, audience string, skew time.Duration) (*Verifier, error) {
	p, err := discover(ctx, issuer)
	if err != nil {
		return nil, err
	}
	return verifierOf(ctx, p, issuer, audience, skew), nil
}

// issuerClient fetches the issuer's discovery document and keys: an
// issuer that does not answer within its timeout fails the start (or,
// for a key fetch, that token) instead of hanging it.
var issuerClient = &http.Client{Timeout: 10 * time.Second}

// discover fetches the issuer's discovery document.
func discover(ctx context.Context, issuer string) (*oidc.Provider, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("issuer %q is not a URL", issuer)
	}
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, issuerClient), issuer)
	if err != nil {
		return nil, fmt.Errorf("discover issuer %s: %w", issuer, err)
	}
	return p, nil
}

// verifierOf verifies p's tokens for audience.
func verifierOf(ctx context.Context, p *oidc.Provider, issuer, audience string, skew time.Duration) *Verifier {
	u, _ := url.Parse(issuer)
	keys := oidc.ClientContext(context.WithoutCancel(ctx), issuerClient)
	return &Verifier{v: p.VerifierContext(keys, &oidc.Config{ClientID: audience, Now: clock(nil, skew)}),
		host: u.Host}
}

// Signer is the server's own signing key (ES256): it signs local mode's
// user tokens and every console session.
type Signer struct {
	key *ecdsa.PrivateKey
	kid string
	now func() time.Time
}

// LoadOrCreateSigner reads the PEM key at path, creating it (mode 0600,
// with its folder) when there is none.
func LoadOrCreateSigner(path string) (*Signer, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("generate signing key: %w", err)
		}
		der, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			return nil, fmt.Errorf("encode signing key: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("signing key folder: %w", err)
		}
		data = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
		// Written whole to a temporary file, then linked into place: of two
		// processes starting at once, one's key wins and the other reads
		// it, never a half-written file.
		tmp, err := os.CreateTemp(filepath.Dir(path), ".signing-key-*")
		if err != nil {
			return nil, fmt.Errorf("write signing key: %w", err)
		}
		defer os.Remove(tmp.Name())
		_, err = tmp.Write(data)
		if err == nil {
			err = tmp.Sync()
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Link(tmp.Name(), path)
		}
		switch {
		case errors.Is(err, os.ErrExist):
			return LoadOrCreateSigner(path)
		case err != nil:
			return nil, fmt.Errorf("write signing key: %w", err)
		}
		return NewSigner(key), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("signing key %s: not PEM", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %w", path, err)
	}
	key, ok := k.(*ecdsa.PrivateKey)
	if !ok || key.Curve != elliptic.P256() {
		return nil, fmt.Errorf("signing key %s: want an ECDSA P-256 key", path)
	}
	return NewSigner(key), nil
}

// NewSigner signs with key; its key id is a hash of the public key.
func NewSigner(key *ecdsa.PrivateKey) *Signer {
	pub, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	sum := sha256.Sum256(pub)
	return &Signer{key: key, kid: base64.RawURLEncoding.EncodeToString(sum[:12]), now: time.Now}
}

// WithClock returns a copy of s reading the time from now (tests).
func (s *Signer) WithClock(now func() time.Time) *Signer {
	c := *s
	c.now = now
	return &c
}

// Mint signs a token for the user id (a local name, or an issuer's user
// for a session), with a display name, for audience, valid for ttl.
func (s *Signer) Mint(userID, name, audience string, ttl time.Duration) (string, error) {
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: s.key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", s.kid))
	if err != nil {
		return "", fmt.Errorf("signer: %w", err)
	}
	now := s.now()
	claims := jwt.Claims{Issuer: LocalIssuer, Subject: userID, Audience: jwt.Audience{audience},
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(ttl))}
	extra := struct {
		Name string `json:"name,omitempty"`
	}{name}
	tok, err := jwt.Signed(sig).Claims(claims).Claims(extra).Serialize()
	if err != nil {
		return "", fmt.Errorf("sign token: %w", err)
	}
	return tok, nil
}

// Verifier verifies the tokens s signed for audience; a token's subject is
// the user id it was minted for.
func (s *Signer) Verifier(audience string, skew time.Duration) *Verifier {
	keys := &oidc.StaticKeySet{PublicKeys: []crypto.PublicKey{&s.key.PublicKey}}
	v := oidc.NewVerifier(LocalIssuer, keys, &oidc.Config{ClientID: audience, SupportedSigningAlgs: []string{oidc.ES256},
		Now: clock(s.now, skew)})
	return &Verifier{v: v, local: true}
}
