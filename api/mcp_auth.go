package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/towow/towow/identity"
)

// A Mount with OAuth (the MCP endpoint, /mcp) is an OAuth 2.0 protected
// resource, as the MCP authorization specification describes:
//
//   - it admits the bearer tokens authenticate already resolved to a
//     person (a user: an ID token of the OpenID Connect issuer, or in local
//     mode a token from `towow token --user NAME`) or to the operator (the
//     admin token). An external agent's token is refused with 403: agents
//     act through the agent tools, which take their agent_token. The
//     console's session cookie is not a bearer token and opens nothing
//     here;
//   - go-sdk's auth.RequireBearerToken hands the handler an auth.TokenInfo:
//     UserID is the caller's actor ("user:alice", "admin"), so the SDK's
//     Streamable HTTP handler refuses a session used by anyone but its
//     creator, and Extra["token"] is the caller's bearer token, with which
//     the tools call the API as that caller (mcpserver.TokenInfoKey);
//   - any other request is a problem+json 401 (TOWOW_AUTH_001) whose
//     detail says what to send; its WWW-Authenticate challenge carries the
//     same text as error_description, so a client that shows no body
//     still shows the person why. With an OpenID Connect issuer the
//     challenge also points at the resource's metadata (resource_metadata=
//     "<base>/.well-known/oauth-protected-resource<path>", RFC 9728),
//     where a client that implements MCP's authorization finds the issuer
//     to sign in with. In local mode (and when no one signs in) there is
//     no authorization server: the challenge points nowhere, as a client
//     sent to sign in would only reach a dead end;
//   - that metadata document (also at /.well-known/oauth-protected-resource)
//     names the resource and the issuer (none in local mode: tokens come
//     from `towow token`);
//   - in local mode the OAuth endpoints a client falls back to when no
//     authorization server is named (/register, /authorize, /token at the
//     root) answer 404 saying what to send instead, so a client that tries
//     to sign in anyway shows it to the person.

// wellKnownResource is the RFC 9728 metadata path prefix.
const wellKnownResource = "/.well-known/oauth-protected-resource"

// tokenInfoToken is the auth.TokenInfo.Extra key of the caller's bearer
// token (mcpserver.TokenInfoKey reads it).
const tokenInfoToken = "token"

// unknownExpiry bounds the TokenInfo of a token without an expiry of its
// own (the admin token; each request is checked again anyway).
const unknownExpiry = time.Hour

// oauthScopes are the scopes a client asks the issuer for: an ID token
// with the person's name.
var oauthScopes = []string{"openid", "profile", "email"}

// mcpRealm is the realm of a protected resource's challenge.
const mcpRealm = "ToWow"

// fallbackOAuthEndpoints are the endpoints an OAuth client uses at the
// server's root when no authorization server is named.
var fallbackOAuthEndpoints = []string{"/register", "/authorize", "/token"}

// mountResource registers m as a protected resource: its handler behind
// the bearer check, and its metadata.
func (s *Server) mountResource(mux *http.ServeMux, m Mount) {
	path := strings.TrimSuffix(m.Pattern, "/")
	mux.Handle(m.Pattern, s.protect(path, m.Handler))
	meta := s.resourceMetadata(path)
	mux.Handle(wellKnownResource+path, meta)
	// The root document too (clients that look there first, RFC 9728
	// §3.1's default): the first protected mount's.
	probe := &http.Request{Method: http.MethodGet, Host: "x", URL: &url.URL{Path: wellKnownResource}}
	if _, pattern := mux.Handler(probe); pattern != wellKnownResource {
		mux.Handle(wellKnownResource, meta)
	}
	if s.oidc() != nil {
		return
	}
	for _, p := range fallbackOAuthEndpoints {
		probe := &http.Request{Method: http.MethodPost, Host: "x", URL: &url.URL{Path: p}}
		if _, pattern := mux.Handler(probe); pattern == "" {
			mux.Handle(p, s.noAuthorizationServer(path))
		}
	}
}

// noAuthorizationServer answers an OAuth endpoint in local mode: there is
// no authorization server; the resource at path takes a bearer token.
func (s *Server) noAuthorizationServer(path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeReadableProblem(w, newProblem(http.StatusNotFound, CodeNotFound,
			"there is no OAuth sign-in on this server: "+path+" needs "+s.whatToSend()))
	})
}

// writeReadableProblem writes p as writeProblem does, its text as written
// (a client that shows the body raw shows "<token>", not "\u003ctoken\u003e").
func writeReadableProblem(w http.ResponseWriter, p *Problem) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(p.Status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p)
}

// protect admits a user's or the operator's bearer token to next, with
// the caller's auth.TokenInfo in the request's context.
func (s *Server) protect(path string, next http.Handler) http.Handler {
	require := auth.RequireBearerToken(verifyCaller, &auth.RequireBearerTokenOptions{ClockSkew: s.tokenSkew()})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.admitCaller(w, r, path) {
			return
		}
		// The SDK's middleware, for its TokenInfo: it cannot refuse what
		// admitCaller admitted but for an expiry (authenticate tolerates
		// the same skew); should it refuse, its plain-text answer is
		// turned into the problem+json 401.
		sdk := &refusal{header: http.Header{}}
		passed := false
		require(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			passed = true
			next.ServeHTTP(w, r)
		})).ServeHTTP(sdk, r)
		if !passed {
			s.writeResourceUnauthorized(w, r, path, true, "the token was refused ("+strings.TrimSpace(sdk.body.String())+"). ")
		}
	})
}

// admitCaller says whether r comes from a user's or the operator's bearer
// token; if not, it has written the refusal.
func (s *Server) admitCaller(w http.ResponseWriter, r *http.Request, path string) bool {
	a := authOf(r.Context())
	var bad errBadCredentials
	var refused errAgentRefused
	switch {
	case errors.As(a.err, &bad):
		s.writeResourceUnauthorized(w, r, path, true, bad.why+". ")
	case errors.As(a.err, &refused):
		writeProblem(w, newProblem(http.StatusForbidden, CodeForbidden, refused.why+"; "+agentNotHere))
	case a.err != nil:
		var p *Problem
		if !errors.As(problem(a.err), &p) {
			p = newProblem(http.StatusInternalServerError, CodeInternal, "internal error")
		}
		s.logger().ErrorContext(r.Context(), "request failed", "request_id", requestID(r.Context()), "method", r.Method,
			"path", r.URL.Path, "status", p.Status, "code", p.Code, "err", a.err)
		if p.Status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", retryAfterSeconds)
		}
		writeProblem(w, p)
	case a.cookie:
		s.writeResourceUnauthorized(w, r, path, false, "the console's session does not open "+path+". ")
	case a.principal.Kind == identity.KindAgent:
		writeProblem(w, newProblem(http.StatusForbidden, CodeForbidden, "an external agent's token does not open "+path+"; "+agentNotHere))
	case a.principal.IsUser(), a.principal.IsAdmin():
		return true
	default:
		s.writeResourceUnauthorized(w, r, path, false, "")
	}
	return false
}

// agentNotHere tells an external agent how it uses the MCP tools.
const agentNotHere = "connect with a person's token or the admin token, and give the agent tools (agent_inbox, submit_offer, submit_feedback, complete_workflow_task) the agent's token as agent_token"

// verifyCaller is the SDK's TokenVerifier: the principal authenticate
// resolved from the same Authorization header, as a TokenInfo.
func verifyCaller(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	a := authOf(r.Context())
	p := a.principal
	if sent, _ := bearerToken(r.Header.Get("Authorization")); a.err != nil || a.cookie || sent != token || !(p.IsUser() || p.IsAdmin()) {
		return nil, auth.ErrInvalidToken
	}
	exp := time.Now().Add(unknownExpiry)
	if p.IsUser() {
		if t, ok := jwtExpiry(token); ok {
			exp = t
		}
	}
	return &auth.TokenInfo{UserID: p.Actor(), Expiration: exp, Extra: map[string]any{tokenInfoToken: token}}, nil
}

// jwtExpiry reads the exp claim of a JWT that authenticate has verified.
func jwtExpiry(token string) (time.Time, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return time.Time{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return time.Time{}, false
	}
	var claims struct {
		Exp json.Number `json:"exp"`
	}
	if json.Unmarshal(raw, &claims) != nil {
		return time.Time{}, false
	}
	f, err := claims.Exp.Float64()
	if err != nil || f <= 0 {
		return time.Time{}, false
	}
	return time.Unix(int64(f), 0), true
}

// tokenSkew is the clock skew authenticate tolerates on a person's token's
// expiry, so the SDK's own check never refuses what it admitted.
func (s *Server) tokenSkew() time.Duration {
	skew := identity.DefaultSkew
	if o := s.oidc(); o != nil && o.Skew > skew {
		skew = o.Skew
	}
	return skew
}

// oidc is the configured identity provider (nil in local mode, or when no
// one signs in).
func (s *Server) oidc() *identity.OIDCConfig {
	if s.People == nil {
		return nil
	}
	return s.People.OIDC()
}

// writeResourceUnauthorized writes a protected resource's 401: a problem
// whose detail is why, then what to send, and the Bearer challenge with
// the realm, error="invalid_token" when a token came and is not valid, the
// detail as error_description and, with an identity provider, the
// resource's metadata (none in local mode: there is no authorization
// server to send a client to).
func (s *Server) writeResourceUnauthorized(w http.ResponseWriter, r *http.Request, path string, invalid bool, why string) {
	detail := why + path + " needs " + s.whatToSend()
	params := []string{`realm="` + mcpRealm + `"`}
	if s.oidc() != nil {
		params = append(params, `resource_metadata="`+baseURL(r)+wellKnownResource+path+`"`)
	}
	if invalid {
		params = append(params, `error="invalid_token"`)
	}
	params = append(params, `error_description="`+quotable(detail)+`"`)
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	writeReadableProblem(w, newProblem(http.StatusUnauthorized, CodeUnauthorized, detail))
}

// quotable is s as an error_description may carry it inside a quoted
// string (RFC 6750: printable ASCII but " and \): a quote becomes ', a
// backslash /, anything else outside printable ASCII (a control character,
// a letter beyond ASCII) a space or ?.
func quotable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '"':
			return '\''
		case r == '\\':
			return '/'
		case r < 0x20 || r == 0x7f:
			return ' '
		case r > 0x7e:
			return '?'
		}
		return r
	}, s)
}

// whatToSend says which bearer tokens a protected resource takes.
func (s *Server) whatToSend() string {
	const admin = "the admin token (TOWOW_ADMIN_TOKEN) for an operator"
	switch {
	case s.People == nil:
		return "Authorization: Bearer <token>: " + admin + " (no one signs in on this server)"
	case s.People.Local():
		return "Authorization: Bearer <token>: a person's token from `towow token --user NAME` (local mode: there is no authorization server to sign in with), or " + admin
	}
	o := s.People.OIDC()
	return "Authorization: Bearer <token>: a person's ID token from the identity provider " + o.Issuer +
		" (audience " + o.Audience + "; sign in as the metadata in WWW-Authenticate describes), or " + admin
}

// resourceMetadata serves the RFC 9728 metadata of the resource at path.
func (s *Server) resourceMetadata(path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		meta := &oauthex.ProtectedResourceMetadata{
			Resource:               baseURL(r) + path,
			BearerMethodsSupported: []string{"header"},
			ResourceName:           "ToWow",
		}
		if o := s.oidc(); o != nil {
			meta.AuthorizationServers = []string{o.Issuer}
			meta.ScopesSupported = oauthScopes
		}
		auth.ProtectedResourceMetadataHandler(meta).ServeHTTP(w, r)
	})
}

// baseURL is the scheme and host the request was sent to: https over TLS,
// or when a trusted proxy that ended TLS says so (see forwarded).
func baseURL(r *http.Request) string {
	scheme := "http"
	if isHTTPS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// refusal records what the SDK's middleware answers when it refuses.
type refusal struct {
	header http.Header
	status int
	body   strings.Builder
}

func (f *refusal) Header() http.Header         { return f.header }
func (f *refusal) WriteHeader(status int)      { f.status = status }
func (f *refusal) Write(b []byte) (int, error) { return f.body.Write(b) }
