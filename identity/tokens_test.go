package identity_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/coreos/go-oidc/v3/oidc/oidctest"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/towow/towow/identity"
)

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func mint(t *testing.T, s *identity.Signer, userID, name, aud string, ttl time.Duration) string {
	t.Helper()
	tok, err := s.Mint(userID, name, aud, ttl)
	if err != nil {
		t.Fatalf("Mint: %v", err)
	}
	return tok
}

func b64JSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// algNone is an unsigned token ("alg": "none") with the given claims.
func algNone(t *testing.T, header map[string]any, claims map[string]any) string {
	t.Helper()
	return b64JSON(t, header) + "." + b64JSON(t, claims) + "."
}

// rewritePayload replaces the claims of a signed token, keeping its header
// and signature.
func rewritePayload(t *testing.T, tok string, edit func(map[string]any)) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts", len(parts))
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatal(err)
	}
	edit(claims)
	parts[1] = b64JSON(t, claims)
	return strings.Join(parts, ".")
}

// flipSignature changes one byte of a signed token's signature.
func flipSignature(t *testing.T, tok string) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		t.Fatal(err)
	}
	sig[len(sig)/2] ^= 0xff
	parts[2] = base64.RawURLEncoding.EncodeToString(sig)
	return strings.Join(parts, ".")
}

// signJWT signs claims with go-jose, outside the Signer.
func signJWT(t *testing.T, alg jose.SignatureAlgorithm, key any, kid string, claims any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("JWT")
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(sig).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func pemBlock(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

func TestLoadOrCreateSigner(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub")
	path := filepath.Join(dir, "key.pem")

	first, err := identity.LoadOrCreateSigner(path)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("key file: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("key file mode = %o, want 600", perm)
	}
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatalf("key folder: %v", err)
	}
	if perm := di.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("key folder mode = %o, want no group or other access", perm)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := pem.Decode(data); b == nil || b.Type != "PRIVATE KEY" {
		t.Errorf("key file is not a PEM PRIVATE KEY:\n%s", data)
	}

	second, err := identity.LoadOrCreateSigner(path)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	again, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Error("loading rewrote the key file")
	}
	other, err := identity.LoadOrCreateSigner(filepath.Join(t.TempDir(), "key.pem"))
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		mintBy, by *identity.Signer
		ok         bool
	}{
		{"first's token, second verifies", first, second, true},
		{"second's token, first verifies", second, first, true},
		{"another file's key", other, second, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok := mint(t, tt.mintBy, "alice", "Alice", identity.AudienceAPI, time.Hour)
			p, err := tt.by.Verifier(identity.AudienceAPI, identity.DefaultSkew).Verify(context.Background(), tok)
			switch {
			case tt.ok && err != nil:
				t.Fatalf("Verify: %v", err)
			case tt.ok && p != identity.User("alice", "Alice"):
				t.Errorf("Verify = %+v, want alice", p)
			case !tt.ok && !errors.Is(err, identity.ErrBadToken):
				t.Errorf("Verify = %+v, %v; want ErrBadToken", p, err)
			}
		})
	}
}

func TestLoadOrCreateSignerBadFile(t *testing.T) {
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	edDER, err := x509.MarshalPKCS8PrivateKey(edKey)
	if err != nil {
		t.Fatal(err)
	}
	sec1DER, err := x509.MarshalECPrivateKey(newKey(t))
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the key path
	}{
		{"not PEM", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "key.pem")
			writeFile(t, p, []byte("this is not a key\n"))
			return p
		}},
		{"empty file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "key.pem")
			writeFile(t, p, nil)
			return p
		}},
		{"PEM of garbage", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "key.pem")
			writeFile(t, p, pemBlock("PRIVATE KEY", []byte("garbage")))
			return p
		}},
		{"Ed25519 key", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "key.pem")
			writeFile(t, p, pemBlock("PRIVATE KEY", edDER))
			return p
		}},
		{"SEC1 EC key, not PKCS#8", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "key.pem")
			writeFile(t, p, pemBlock("EC PRIVATE KEY", sec1DER))
			return p
		}},
		{"path is a folder", func(t *testing.T, dir string) string {
			return dir
		}},
		{"parent is a file", func(t *testing.T, dir string) string {
			f := filepath.Join(dir, "file")
			writeFile(t, f, []byte("x"))
			return filepath.Join(f, "key.pem")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.setup(t, t.TempDir())
			before, _ := os.ReadFile(path)
			s, err := identity.LoadOrCreateSigner(path)
			if err == nil {
				t.Fatalf("LoadOrCreateSigner = %v, want an error", s)
			}
			after, _ := os.ReadFile(path)
			if string(before) != string(after) {
				t.Error("a bad key file was overwritten")
			}
		})
	}
}

func TestSignerVerify(t *testing.T) {
	key := newKey(t)
	s := identity.NewSigner(key)
	other := identity.NewSigner(newKey(t))
	now := time.Now()
	at := func(d time.Duration) *identity.Signer {
		return s.WithClock(func() time.Time { return now.Add(d) })
	}
	good := mint(t, s, "alice", "Alice", identity.AudienceAPI, time.Hour)
	validClaims := map[string]any{
		"iss": identity.LocalIssuer, "sub": "alice", "aud": identity.AudienceAPI, "name": "Alice",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}

	tests := []struct {
		name string
		tok  string
		aud  string
		skew time.Duration
		want identity.Principal // zero: want ErrBadToken
	}{
		{"good", good, identity.AudienceAPI, identity.DefaultSkew, identity.User("alice", "Alice")},
		{"no display name", mint(t, s, "bob", "", identity.AudienceAPI, time.Hour),
			identity.AudienceAPI, identity.DefaultSkew, identity.User("bob", "bob")},
		{"issuer user id", mint(t, s, "42@id.example.com", "Ada", identity.AudienceSession, time.Hour),
			identity.AudienceSession, identity.DefaultSkew, identity.User("42@id.example.com", "Ada")},
		{"session on session verifier", mint(t, s, "alice", "Alice", identity.AudienceSession, time.Hour),
			identity.AudienceSession, identity.DefaultSkew, identity.User("alice", "Alice")},
		{"expired within skew", mustMint(t, at(-time.Hour-30*time.Second), identity.AudienceAPI, time.Hour),
			identity.AudienceAPI, identity.DefaultSkew, identity.User("alice", "Alice")},
		{"minted a little in the future", mustMint(t, at(30*time.Second), identity.AudienceAPI, time.Hour),
			identity.AudienceAPI, identity.DefaultSkew, identity.User("alice", "Alice")},
		{"expired beyond skew", mustMint(t, at(-2*time.Hour), identity.AudienceAPI, time.Hour),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"expired just beyond skew", mustMint(t, at(-time.Hour-90*time.Second), identity.AudienceAPI, time.Hour),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"expired with no skew", mustMint(t, at(-time.Hour-5*time.Second), identity.AudienceAPI, time.Hour),
			identity.AudienceAPI, 0, identity.Principal{}},
		{"session token on API verifier", mint(t, s, "alice", "Alice", identity.AudienceSession, time.Hour),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"API token on session verifier", good, identity.AudienceSession, identity.DefaultSkew, identity.Principal{}},
		{"another signer", mint(t, other, "alice", "Alice", identity.AudienceAPI, time.Hour),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"same key, other issuer", signJWT(t, jose.ES256, key, "", map[string]any{
			"iss": "someone-else", "sub": "alice", "aud": identity.AudienceAPI, "exp": now.Add(time.Hour).Unix(),
		}), identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"ES384", signJWT(t, jose.ES384, newP384(t), "", validClaims),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"HS256", signJWT(t, jose.HS256, []byte("0123456789abcdef0123456789abcdef"), "", validClaims),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"no subject", mint(t, s, "", "Nobody", identity.AudienceAPI, time.Hour),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"alg none", algNone(t, map[string]any{"alg": "none", "typ": "JWT"}, validClaims),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"alg none, good token's signature kept", algNone(t, map[string]any{"alg": "none", "typ": "JWT"}, validClaims) +
			strings.Split(good, ".")[2], identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"tampered subject", rewritePayload(t, good, func(c map[string]any) { c["sub"] = "mallory" }),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"tampered expiry", rewritePayload(t, mustMint(t, at(-2*time.Hour), identity.AudienceAPI, time.Hour),
			func(c map[string]any) { c["exp"] = now.Add(time.Hour).Unix() }),
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"tampered signature", flipSignature(t, good), identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"no signature", strings.Join(strings.Split(good, ".")[:2], ".") + ".",
			identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"garbage", "not-a-token", identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"three garbage parts", "a.b.c", identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
		{"empty", "", identity.AudienceAPI, identity.DefaultSkew, identity.Principal{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.Verifier(tt.aud, tt.skew).Verify(context.Background(), tt.tok)
			if tt.want == (identity.Principal{}) {
				if !errors.Is(err, identity.ErrBadToken) {
					t.Fatalf("Verify = %+v, %v; want ErrBadToken", p, err)
				}
				if p != (identity.Principal{}) {
					t.Errorf("Verify refused the token but returned %+v", p)
				}
				return
			}
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if p != tt.want {
				t.Errorf("Verify = %+v, want %+v", p, tt.want)
			}
			if want := "user:" + tt.want.ID; p.Actor() != want {
				t.Errorf("Actor() = %q, want %q", p.Actor(), want)
			}
		})
	}
}

// mustMint mints a token for alice (name Alice) with s.
func mustMint(t *testing.T, s *identity.Signer, aud string, ttl time.Duration) string {
	t.Helper()
	return mint(t, s, "alice", "Alice", aud, ttl)
}

func newP384(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

const testClientID = "towow-client"

// testIssuer is an OpenID provider on httptest, signing with ES256.
type testIssuer struct {
	srv  *oidctest.Server
	url  string
	host string
	key  *ecdsa.PrivateKey
	kid  string
}

func newTestIssuer(t *testing.T) *testIssuer {
	t.Helper()
	key := newKey(t)
	srv := &oidctest.Server{
		PublicKeys: []oidctest.PublicKey{{PublicKey: key.Public(), KeyID: "key-1", Algorithm: oidc.ES256}},
		Algorithms: []string{oidc.ES256},
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	srv.SetIssuer(hs.URL)
	u, err := url.Parse(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &testIssuer{srv: srv, url: hs.URL, host: u.Host, key: key, kid: "key-1"}
}

// claims are valid ID token claims for sub 42, with edits (a nil value
// removes the claim).
func (is *testIssuer) claims(edits map[string]any) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": is.url, "sub": "42", "aud": testClientID,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "name": "Ada Lovelace",
	}
	for k, v := range edits {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

func signID(t *testing.T, key *ecdsa.PrivateKey, kid string, claims map[string]any) string {
	t.Helper()
	b, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	return oidctest.SignIDToken(key, kid, oidc.ES256, string(b))
}

func newOIDCVerifier(t *testing.T, is *testIssuer) *identity.Verifier {
	t.Helper()
	v, err := identity.NewOIDCVerifier(context.Background(), is.url, testClientID, identity.DefaultSkew)
	if err != nil {
		t.Fatalf("NewOIDCVerifier: %v", err)
	}
	return v
}

func TestOIDCVerifier(t *testing.T) {
	is := newTestIssuer(t)
	v := newOIDCVerifier(t, is)
	rogue := newKey(t)
	now := time.Now()
	id := "42@" + is.host

	tests := []struct {
		name string
		tok  string
		want identity.Principal // zero: want ErrBadToken
	}{
		{"name", signID(t, is.key, is.kid, is.claims(nil)), identity.User(id, "Ada Lovelace")},
		{"preferred_username", signID(t, is.key, is.kid, is.claims(map[string]any{
			"name": nil, "preferred_username": "ada", "email": "ada@example.com",
		})), identity.User(id, "ada")},
		{"empty name, preferred_username", signID(t, is.key, is.kid, is.claims(map[string]any{
			"name": "", "preferred_username": "ada",
		})), identity.User(id, "ada")},
		{"email", signID(t, is.key, is.kid, is.claims(map[string]any{
			"name": nil, "email": "ada@example.com",
		})), identity.User(id, "ada@example.com")},
		{"sub", signID(t, is.key, is.kid, is.claims(map[string]any{"name": nil})), identity.User(id, "42")},
		{"audience among others", signID(t, is.key, is.kid, is.claims(map[string]any{
			"aud": []string{"someone-else", testClientID},
		})), identity.User(id, "Ada Lovelace")},
		{"expired within skew", signID(t, is.key, is.kid, is.claims(map[string]any{
			"exp": now.Add(-30 * time.Second).Unix(),
		})), identity.User(id, "Ada Lovelace")},
		{"wrong audience", signID(t, is.key, is.kid, is.claims(map[string]any{"aud": "someone-else"})), identity.Principal{}},
		{"other issuer", signID(t, is.key, is.kid, is.claims(map[string]any{"iss": "https://evil.example.com"})), identity.Principal{}},
		{"issuer with trailing slash", signID(t, is.key, is.kid, is.claims(map[string]any{"iss": is.url + "/"})), identity.Principal{}},
		{"expired", signID(t, is.key, is.kid, is.claims(map[string]any{"exp": now.Add(-2 * time.Minute).Unix()})), identity.Principal{}},
		{"no expiry", signID(t, is.key, is.kid, is.claims(map[string]any{"exp": nil})), identity.Principal{}},
		{"no subject", signID(t, is.key, is.kid, is.claims(map[string]any{"sub": nil})), identity.Principal{}},
		{"key not in JWKS", signID(t, rogue, "rogue", is.claims(nil)), identity.Principal{}},
		{"key not in JWKS, issuer's kid", signID(t, rogue, is.kid, is.claims(nil)), identity.Principal{}},
		{"key not in JWKS, no kid", signJWT(t, jose.ES256, rogue, "", is.claims(nil)), identity.Principal{}},
		{"alg none", algNone(t, map[string]any{"alg": "none", "kid": is.kid}, is.claims(nil)), identity.Principal{}},
		{"tampered subject", rewritePayload(t, signID(t, is.key, is.kid, is.claims(nil)),
			func(c map[string]any) { c["sub"] = "1" }), identity.Principal{}},
		{"garbage", "garbage", identity.Principal{}},
		{"empty", "", identity.Principal{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := v.Verify(context.Background(), tt.tok)
			if tt.want == (identity.Principal{}) {
				if !errors.Is(err, identity.ErrBadToken) {
					t.Fatalf("Verify = %+v, %v; want ErrBadToken", p, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if p != tt.want {
				t.Errorf("Verify = %+v, want %+v", p, tt.want)
			}
		})
	}
}

func TestOIDCKeyRotation(t *testing.T) {
	is := newTestIssuer(t)
	v := newOIDCVerifier(t, is)
	oldTok := signID(t, is.key, is.kid, is.claims(nil))
	newKey, newKid := newKey(t), "key-2"
	newTok := signID(t, newKey, newKid, is.claims(map[string]any{"name": "Ada, rotated"}))
	id := "42@" + is.host

	// go-oidc stores fetched keys just after waking the verification that
	// asked for them, so right after a fetch the next one may still be
	// served the previous keys: an accepted token is retried for a while.
	steps := []struct {
		name   string
		rotate bool // replace the issuer's JWKS by the new key first
		tok    string
		want   identity.Principal // zero: want ErrBadToken
	}{
		{"old key before rotation", false, oldTok, identity.User(id, "Ada Lovelace")},
		{"new key before rotation", false, newTok, identity.Principal{}},
		{"new key after rotation", true, newTok, identity.User(id, "Ada, rotated")},
	}
	for _, st := range steps {
		if st.rotate {
			is.srv.PublicKeys = []oidctest.PublicKey{{PublicKey: newKey.Public(), KeyID: newKid, Algorithm: oidc.ES256}}
		}
		p, err := v.Verify(context.Background(), st.tok)
		if st.want == (identity.Principal{}) {
			if !errors.Is(err, identity.ErrBadToken) {
				t.Errorf("%s: Verify = %+v, %v; want ErrBadToken", st.name, p, err)
			}
			continue
		}
		for deadline := time.Now().Add(2 * time.Second); err != nil && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
			p, err = v.Verify(context.Background(), st.tok)
		}
		if err != nil {
			t.Errorf("%s: Verify: %v", st.name, err)
		} else if p != st.want {
			t.Errorf("%s: Verify = %+v, want %+v", st.name, p, st.want)
		}
	}
}

func TestNewOIDCVerifierErrors(t *testing.T) {
	tests := []struct {
		name   string
		issuer func(t *testing.T) string
	}{
		{"not a URL", func(*testing.T) string { return "not a url" }},
		{"empty", func(*testing.T) string { return "" }},
		{"no scheme", func(*testing.T) string { return "id.example.com" }},
		{"bad syntax", func(*testing.T) string { return "http://[::1" }},
		{"server down", func(t *testing.T) string {
			hs := httptest.NewServer(http.NotFoundHandler())
			u := hs.URL
			hs.Close()
			return u
		}},
		{"no discovery document", func(t *testing.T) string {
			hs := httptest.NewServer(http.NotFoundHandler())
			t.Cleanup(hs.Close)
			return hs.URL
		}},
		{"discovery names another issuer", func(t *testing.T) string {
			srv := &oidctest.Server{Algorithms: []string{oidc.ES256}}
			srv.SetIssuer("https://other.example.com")
			hs := httptest.NewServer(srv)
			t.Cleanup(hs.Close)
			return hs.URL
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			issuer := tt.issuer(t)
			v, err := identity.NewOIDCVerifier(context.Background(), issuer, testClientID, identity.DefaultSkew)
			if err == nil {
				t.Fatalf("NewOIDCVerifier(%q) = %v, want an error", issuer, v)
			}
		})
	}
}
