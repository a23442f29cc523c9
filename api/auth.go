package api

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
)

// Authentication: every request is read once for who it comes from, before
// any operation sees it (authenticate), and its operation's access rule
// (access.go) decides what that principal may do. The credentials:
//
//   - Authorization: Bearer <admin token>: the operator (TOWOW_ADMIN_TOKEN);
//   - Authorization: Bearer <agent token>: an external agent's own token;
//   - Authorization: Bearer <user token>: a person, with an ID token of
//     the configured OpenID Connect issuer, or in local mode a token from
//     `towow token --user NAME`;
//   - the console's session cookie (SessionCookieName), set when a person
//     signs in on the console; a write with it must come from the
//     console's own origin (cross-site request forgery is refused).

// Security scheme names in the OpenAPI document.
const (
	schemeAdmin   = "adminToken"
	schemeAgent   = "agentToken"
	schemeUser    = "userToken"
	schemeSession = "session"
)

// securitySchemes are the schemes the OpenAPI document declares.
func securitySchemes() map[string]*huma.SecurityScheme {
	return map[string]*huma.SecurityScheme{
		schemeAdmin: {Type: "http", Scheme: "bearer",
			Description: "The operator's token: TOWOW_ADMIN_TOKEN, or the random token `towow serve` prints at start when it is unset."},
		schemeAgent: {Type: "http", Scheme: "bearer", BearerFormat: negotiation.AgentTokenPrefix + "…",
			Description: "An external agent's own token, issued when the agent is created (or by POST /api/v1/agents/{agent_id}/token)."},
		schemeUser: {Type: "http", Scheme: "bearer", BearerFormat: "JWT",
			Description: "A person: an ID token of the OpenID Connect issuer (TOWOW_OIDC_ISSUER, audience TOWOW_OIDC_AUDIENCE), or in local mode (no issuer) a token from `towow token --user NAME`."},
		schemeSession: {Type: "apiKey", In: "cookie", Name: SessionCookieName,
			Description: "The console's session, set when a person signs in (POST /auth/local in local mode, GET /auth/login with an issuer)."},
	}
}

// securityOf is the OpenAPI security requirement of the principals w
// admits (nil: none needed).
func securityOf(w who) []map[string][]string {
	people := []map[string][]string{{schemeUser: {}}, {schemeSession: {}}, {schemeAdmin: {}}}
	switch w {
	case signedIn:
		return append(people, map[string][]string{schemeAgent: {}})
	case users:
		return people
	case admins:
		return []map[string][]string{{schemeAdmin: {}}}
	case agentOnly:
		return []map[string][]string{{schemeAgent: {}}}
	}
	return nil
}

// bearer returns the token of an `Authorization: Bearer <token>` header.
func bearer(ctx huma.Context) (string, bool) { return bearerToken(ctx.Header("Authorization")) }

// bearerToken returns the token of an Authorization header value
// "Bearer <token>".
func bearerToken(h string) (string, bool) {
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// challenge is the WWW-Authenticate of a 401: what to send.
const challenge = `Bearer realm="towow"`

// writeUnauthorized writes an operation's 401 with its challenge.
func writeUnauthorized(api huma.API, ctx huma.Context, msg string) {
	ctx.SetHeader("WWW-Authenticate", challenge)
	_ = huma.WriteErr(api, ctx, http.StatusUnauthorized, msg)
}

// isAdminToken says whether token is the admin token (never when none is
// set).
func isAdminToken(adminToken, token string) bool {
	return adminToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(adminToken)) == 1
}

// authResult is what authenticate found: a principal (the zero one when
// no credentials came), or why the credentials that came are refused.
type authResult struct {
	principal identity.Principal
	err       error
	// cookie: the principal came from the session cookie.
	cookie bool
}

type authKey struct{}

// authOf returns the request's authentication.
func authOf(ctx context.Context) authResult {
	a, _ := ctx.Value(authKey{}).(authResult)
	return a
}

// principalOf returns who the request comes from.
func principalOf(ctx context.Context) identity.Principal { return authOf(ctx).principal }

// agentOf returns the external agent a request comes from ("" if none).
func agentOf(ctx context.Context) string {
	if p := principalOf(ctx); p.Kind == identity.KindAgent {
		return p.ID
	}
	return ""
}

// errBadCredentials: credentials came and prove nothing (401).
type errBadCredentials struct{ why string }

func (e errBadCredentials) Error() string { return e.why }

// errAgentRefused: a known agent that may not act now (403).
type errAgentRefused struct{ why string }

func (e errAgentRefused) Error() string { return e.why }

// guard holds what authentication and the access rules need.
type guard struct {
	// adminToken is the operator's token; empty: no one is the admin.
	adminToken string
	// commands authenticates the external agents' tokens.
	commands Commands
	// people verifies users' tokens and sessions (nil: no one signs in).
	people *identity.Authority
	// owners answers who owns a demand, channel or workflow.
	owners *owners
	// limits are the per-user limits.
	limits *limiter
}

// authenticate reads the request's credentials, puts the result in its
// context (authOf; identity.With for the commands, which record the
// principal on the events they write), and refuses a cookie-authenticated
// write that does not come from the console's own origin.
func (g guard) authenticate(csrf *http.CrossOriginProtection, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A request reads what it wrote: its commands (an agent's first
		// contact, recorded while its token is resolved, among them)
		// return once their events are readable.
		r = r.WithContext(eventstore.ReadsItsWrites(r.Context()))
		a := g.resolve(r)
		if a.cookie && a.err == nil {
			if err := csrf.Check(r); err != nil {
				writeProblem(w, newProblem(http.StatusForbidden, CodeForbidden,
					"a signed-in write must come from the console's own page (cross-origin request refused)"))
				return
			}
		}
		if limited(r.URL.Path) {
			if wait := g.limits.request(a.principal, clientAddress(r), g.people != nil && g.people.Local()); wait > 0 {
				secs := retryAfter(wait)
				w.Header().Set("Retry-After", secs)
				writeProblem(w, newProblem(http.StatusTooManyRequests, CodeTooManyRequests,
					fmt.Sprintf("more than %g requests a second from you; retry in %s s", g.limits.limits.RequestsPerSecond, secs)))
				return
			}
		}
		ctx := context.WithValue(r.Context(), authKey{}, a)
		if !a.principal.Anonymous() {
			ctx = identity.With(ctx, a.principal)
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// limited reports whether a path counts against the per-user request
// limit: the API's operations and the MCP endpoint, not the console's
// files or its sign-in.
func limited(path string) bool {
	return strings.HasPrefix(path, "/api/") || path == "/mcp" || strings.HasPrefix(path, "/mcp/")
}

// clientAddress is the host of the request's peer.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// resolve finds who r comes from.
func (g guard) resolve(r *http.Request) authResult {
	ctx := r.Context()
	if h := r.Header.Get("Authorization"); h != "" {
		token, ok := bearerToken(h)
		switch {
		case !ok:
			return authResult{err: errBadCredentials{"Authorization must be \"Bearer <token>\""}}
		case isAdminToken(g.adminToken, token):
			return authResult{principal: identity.Admin()}
		case strings.HasPrefix(token, negotiation.AgentTokenPrefix):
			if g.commands == nil {
				return authResult{err: errBadCredentials{"the agent token is not valid"}}
			}
			a, err := g.commands.AuthenticateAgent(ctx, token)
			var de *event.Error
			switch {
			case errors.Is(err, negotiation.ErrBadAgentToken):
				return authResult{err: errBadCredentials{"the agent token is not valid (unknown, or replaced by a newer one)"}}
			case errors.As(err, &de):
				return authResult{err: errAgentRefused{de.Message}}
			case err != nil:
				return authResult{err: err}
			}
			return authResult{principal: identity.Agent(a.ID)}
		case g.people == nil:
			return authResult{err: errBadCredentials{"the token is not valid (no one signs in on this server)"}}
		}
		p, err := g.people.VerifyBearer(ctx, token)
		if err != nil {
			why := err.Error()
			if !errors.Is(err, identity.ErrBadToken) { // its message says so already
				why = "the token is not valid: " + why
			}
			return authResult{err: errBadCredentials{why}}
		}
		return authResult{principal: p}
	}
	if c, err := r.Cookie(SessionCookieName); err == nil && g.people != nil {
		p, err := g.people.VerifySession(ctx, c.Value)
		if err != nil {
			// An ended session: as if signed out (the console asks again).
			return authResult{}
		}
		return authResult{principal: p, cookie: true}
	}
	return authResult{}
}

// writeAuthError answers refused credentials: 401 with what to send, 403
// for an agent that may not act now, else (the directory could not be
// read) as problem does.
func writeAuthError(api huma.API, ctx huma.Context, err error) {
	var bad errBadCredentials
	var refused errAgentRefused
	switch {
	case errors.As(err, &bad):
		ctx.SetHeader("WWW-Authenticate", challenge+`, error="invalid_token"`)
		_ = huma.WriteErr(api, ctx, http.StatusUnauthorized, bad.why)
	case errors.As(err, &refused):
		_ = huma.WriteErr(api, ctx, http.StatusForbidden, refused.why)
	default:
		writeErr(api, ctx, problem(err))
	}
}

// admin documents op as an operator operation (its rule in accessRules
// is admin()): the 401 and 403 it may answer.
func (g guard) admin(_ huma.API, op huma.Operation) huma.Operation {
	op.Errors = append(op.Errors, http.StatusUnauthorized, http.StatusForbidden)
	return op
}

// externalAgent documents op as an external agent's operation (its rule
// is agent()): the 401 and 403 it may answer; the handler finds the
// agent with agentOf.
func (g guard) externalAgent(_ huma.API, op huma.Operation) huma.Operation {
	op.Errors = append(op.Errors, http.StatusUnauthorized, http.StatusForbidden)
	return op
}
