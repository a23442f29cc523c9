package identity

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// SessionTTL is how long a console session lasts.
const SessionTTL = 12 * time.Hour

// LocalTokenTTL is how long a `towow token` lasts.
const LocalTokenTTL = 30 * 24 * time.Hour

// SigningKeyFile is the server's signing key's file in the data folder.
const SigningKeyFile = "signing-key.pem"

// OIDCConfig is the configured identity provider.
type OIDCConfig struct {
	// Issuer is the provider's issuer URL (its discovery document is at
	// Issuer + "/.well-known/openid-configuration").
	Issuer string
	// Audience is the aud the API's bearer tokens must carry (often the
	// API's or the client's id).
	Audience string
	// ClientID and ClientSecret are the console's OAuth client (the
	// authorization code flow with PKCE); no ClientID: the console cannot
	// sign in with the issuer, only bearer tokens work.
	ClientID, ClientSecret string
	// Skew is the clock skew tolerated on a token's expiry.
	Skew time.Duration
}

// Authority knows people: it verifies their bearer tokens and sessions and
// signs sessions. In local mode (no issuer) it also signs user tokens.
type Authority struct {
	signer   *Signer
	bearer   *Verifier
	sessions *Verifier
	oidc     *OIDCConfig
	// login verifies the ID tokens the console's sign-in receives (aud:
	// the client id).
	login *Verifier
	// endpoint is the provider's authorization and token endpoints.
	endpoint oauth2.Endpoint
	// provider answers the userinfo requests of a sign-in (nil in local
	// mode).
	provider *oidc.Provider
}

// LoginConfig is the console's OAuth client for the authorization code
// flow with PKCE, redirecting back to redirectURL (nil in local mode or
// without a client id).
func (a *Authority) LoginConfig(redirectURL string) *oauth2.Config {
	if a.oidc == nil || a.oidc.ClientID == "" {
		return nil
	}
	return &oauth2.Config{ClientID: a.oidc.ClientID, ClientSecret: a.oidc.ClientSecret, Endpoint: a.endpoint,
		RedirectURL: redirectURL, Scopes: []string{"openid", "profile", "email"}}
}

// NewLocal is local mode's authority: the data folder's signing key signs
// the user tokens (`towow token`) and the sessions.
func NewLocal(dataDir string) (*Authority, error) {
	s, err := LoadOrCreateSigner(filepath.Join(dataDir, SigningKeyFile))
	if err != nil {
		return nil, err
	}
	return NewLocalWith(s), nil
}

// NewLocalWith is local mode's authority with a given signer.
func NewLocalWith(s *Signer) *Authority {
	return &Authority{signer: s, bearer: s.Verifier(AudienceAPI, DefaultSkew), sessions: s.Verifier(AudienceSession, DefaultSkew)}
}

// NewOIDC is the authority of an identity provider: bearer tokens are its
// ID tokens; sessions are signed by the data folder's key after the
// console's sign-in verified the provider's token.
func NewOIDC(ctx context.Context, dataDir string, cfg OIDCConfig) (*Authority, error) {
	s, err := LoadOrCreateSigner(filepath.Join(dataDir, SigningKeyFile))
	if err != nil {
		return nil, err
	}
	return NewOIDCWith(ctx, s, cfg)
}

// NewOIDCWith is NewOIDC with a given signer.
func NewOIDCWith(ctx context.Context, s *Signer, cfg OIDCConfig) (*Authority, error) {
	if cfg.Skew == 0 {
		cfg.Skew = DefaultSkew
	}
	if cfg.Audience == "" {
		return nil, fmt.Errorf("an issuer needs an audience for its tokens")
	}
	p, err := discover(ctx, cfg.Issuer)
	if err != nil {
		return nil, err
	}
	a := &Authority{signer: s, bearer: verifierOf(ctx, p, cfg.Issuer, cfg.Audience, cfg.Skew),
		sessions: s.Verifier(AudienceSession, DefaultSkew), oidc: &cfg, endpoint: p.Endpoint(), provider: p}
	if cfg.ClientID != "" {
		a.login = verifierOf(ctx, p, cfg.Issuer, cfg.ClientID, cfg.Skew)
	}
	return a, nil
}

// Local reports whether this is local mode (no identity provider).
func (a *Authority) Local() bool { return a.oidc == nil }

// OIDC is the configured identity provider (nil in local mode).
func (a *Authority) OIDC() *OIDCConfig { return a.oidc }

// VerifyBearer verifies an API bearer token.
func (a *Authority) VerifyBearer(ctx context.Context, token string) (Principal, error) {
	return a.bearer.Verify(ctx, token)
}

// VerifySession verifies a console session.
func (a *Authority) VerifySession(ctx context.Context, token string) (Principal, error) {
	return a.sessions.Verify(ctx, token)
}

// VerifyLogin verifies the ID token the console's sign-in received from
// the provider (its audience is the console's client id).
func (a *Authority) VerifyLogin(ctx context.Context, idToken string) (Principal, error) {
	if a.login == nil {
		return Principal{}, fmt.Errorf("%w: the console has no client id", ErrBadToken)
	}
	return a.login.Verify(ctx, idToken)
}

// MintSession signs a console session for a user.
func (a *Authority) MintSession(p Principal) (string, error) {
	return a.signer.Mint(p.ID, p.Name, AudienceSession, SessionTTL)
}

// MintLocalToken signs a bearer token for a local user name (local mode
// only: with an issuer, people bring the issuer's tokens).
func (a *Authority) MintLocalToken(name string, ttl time.Duration) (string, error) {
	if !a.Local() {
		return "", fmt.Errorf("an identity provider is configured (TOWOW_OIDC_ISSUER): use its tokens")
	}
	if why := CheckLocalName(name); why != "" {
		return "", fmt.Errorf("user %q: %s", name, why)
	}
	return a.signer.Mint(name, name, AudienceAPI, ttl)
}

// NameFromUserInfo is a signed-in person's display name from the
// provider's userinfo endpoint (name, else preferred_username, else
// email), for a sign-in whose ID token named none: "" when the provider
// has no such endpoint, refuses or says none.
func (a *Authority) NameFromUserInfo(ctx context.Context, tok *oauth2.Token) string {
	if a.provider == nil || tok == nil || tok.AccessToken == "" {
		return ""
	}
	info, err := a.provider.UserInfo(oidc.ClientContext(ctx, issuerClient), oauth2.StaticTokenSource(tok))
	if err != nil {
		return ""
	}
	var c struct {
		Name              string `json:"name"`
		PreferredUsername string `json:"preferred_username"`
	}
	if info.Claims(&c) != nil {
		return ""
	}
	return firstOf(strings.TrimSpace(c.Name), strings.TrimSpace(c.PreferredUsername), info.Email)
}
