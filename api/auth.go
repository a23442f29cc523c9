package api

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

// Authentication. Two bearer schemes, both documented in the OpenAPI
// document: the operator's admin token (TOWOW_ADMIN_TOKEN) for the agent
// directory and rebuilds, and each external agent's own token for its
// offers and feedback. Reads stay open, like the SSE streams.

// Auth error codes.
const (
	CodeUnauthorized = "TOWOW_AUTH_001" // 401: no token, or a token that is not valid
	CodeForbidden    = "TOWOW_AUTH_002" // 403: a valid token that may not do this
)

// Security scheme names in the OpenAPI document.
const (
	schemeAdmin = "adminToken"
	schemeAgent = "agentToken"
)

// securitySchemes are the bearer schemes the OpenAPI document declares.
func securitySchemes() map[string]*huma.SecurityScheme {
	return map[string]*huma.SecurityScheme{
		schemeAdmin: {Type: "http", Scheme: "bearer",
			Description: "The operator's token: TOWOW_ADMIN_TOKEN, or the random token `towow serve` prints at start when it is unset."},
		schemeAgent: {Type: "http", Scheme: "bearer", BearerFormat: negotiation.AgentTokenPrefix + "…",
			Description: "An external agent's own token, issued when the agent is created (or by POST /api/v1/agents/{agent_id}/token)."},
	}
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

// writeUnauthorized writes an operation's 401 with its challenge.
func writeUnauthorized(api huma.API, ctx huma.Context, msg string) {
	ctx.SetHeader("WWW-Authenticate", `Bearer realm="towow"`)
	_ = huma.WriteErr(api, ctx, http.StatusUnauthorized, msg)
}

// isAdminToken says whether token is the admin token (never when none is
// set).
func isAdminToken(adminToken, token string) bool {
	return adminToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(adminToken)) == 1
}

// guard checks the operations' credentials: the operator's admin token,
// and an external agent's own token (authenticated by the command side).
type guard struct {
	// adminToken is the operator's token; empty: every operator
	// operation is refused.
	adminToken string
	// commands authenticates the external agents' tokens.
	commands Commands
}

// admin marks op as an operator operation: it needs the admin token.
func (g guard) admin(api huma.API, op huma.Operation) huma.Operation {
	op.Security = []map[string][]string{{schemeAdmin: {}}}
	op.Errors = append(op.Errors, http.StatusUnauthorized)
	op.Middlewares = append(op.Middlewares, func(ctx huma.Context, next func(huma.Context)) {
		token, ok := bearer(ctx)
		switch {
		case !ok:
			writeUnauthorized(api, ctx, "this operation needs Authorization: Bearer <admin token>")
		case !isAdminToken(g.adminToken, token):
			writeUnauthorized(api, ctx, "the admin token is not valid")
		default:
			next(ctx)
		}
	})
	return op
}

// agentKey is the context key of the authenticated external agent.
type agentKey struct{}

// externalAgent marks op as an external agent's operation: it needs that
// agent's token, and the handler finds the agent with agentOf.
func (g guard) externalAgent(api huma.API, op huma.Operation) huma.Operation {
	op.Security = []map[string][]string{{schemeAgent: {}}}
	op.Errors = append(op.Errors, http.StatusUnauthorized, http.StatusForbidden)
	op.Middlewares = append(op.Middlewares, func(ctx huma.Context, next func(huma.Context)) {
		token, ok := bearer(ctx)
		if !ok {
			writeUnauthorized(api, ctx, "this operation needs Authorization: Bearer <agent token>")
			return
		}
		a, err := g.commands.AuthenticateAgent(ctx.Context(), token)
		var de *event.Error
		switch {
		case errors.Is(err, negotiation.ErrBadAgentToken):
			writeUnauthorized(api, ctx, "the agent token is not valid (unknown, or replaced by a newer one)")
		case errors.As(err, &de):
			_ = huma.WriteErr(api, ctx, http.StatusForbidden, de.Message)
		case err != nil:
			_ = huma.WriteErr(api, ctx, http.StatusServiceUnavailable, "cannot check the token now; retry")
		default:
			next(huma.WithValue(ctx, agentKey{}, a.ID))
		}
	})
	return op
}

// agentOf returns the agent authenticated by externalAgent.
func agentOf(ctx interface{ Value(any) any }) string {
	id, _ := ctx.Value(agentKey{}).(string)
	return id
}
