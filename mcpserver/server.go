// Package mcpserver is ToWow as a Model Context Protocol server: tools to
// submit a demand, read and wait for a negotiation, list and search the
// agent directory, act as an external agent (inbox, offer, feedback, a
// workflow task) with that agent's token, fork and compare negotiations,
// read and change the workflow an agreement became (decisions, the
// conversation agent, approvals), and a resource template for a
// negotiation's timeline. Every tool goes through ToWow's public REST API
// (in process or over HTTP), so validation, authentication and errors are
// the API's: a refusal becomes a tool error naming its TOWOW_* code.
package mcpserver

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Version is the MCP server's version, as it introduces itself.
const Version = "1.0.0"

// Config says how the tools reach the REST API.
type Config struct {
	// BaseURL is the API's root, e.g. http://127.0.0.1:8080 (with
	// InProcess any absolute URL does, e.g. http://towow.internal).
	BaseURL string
	// HTTPClient sends the requests (nil: http.DefaultClient); InProcess
	// serves them with a handler of this process.
	HTTPClient *http.Client
	// Logger logs the MCP sessions (nil: discard).
	Logger *slog.Logger
	// Token is the bearer token the tools call the API with (a user's
	// token, or the admin token for an operator) when the request names no
	// caller (stdio: `towow mcp`); a request over HTTP acts as its caller
	// instead (TokenInfoKey), and NewHTTPHandler ignores Token. An
	// external agent's tools send the agent_token they are given instead
	// of either.
	Token string
}

// TokenInfoKey is the key of the request's auth.TokenInfo.Extra (go-sdk's
// auth package: the API's guard of /mcp puts it there) holding the
// caller's bearer token: the tools call the API with it, as the caller.
const TokenInfoKey = "token"

// instructions tell a connected client how the tools fit together.
const instructions = `ToWow runs LLM-driven multi-agent negotiations. Submit a demand (submit_demand), then
wait_for_outcome (repeat while it says still running) and get_negotiation for the plan. Read the
resource towow://negotiations/{demand_id}/timeline for the event-by-event story with cursors;
fork_negotiation forks a finished negotiation after one of those cursors with a change, and
compare_negotiations shows two side by side. An agreement becomes a workflow (the plan to carry
out): get_workflow (by workflow_id or the negotiation's demand_id) shows its steps, status and
version; decide_workflow changes it through the Coordinator (create_node, update_node, delete_node,
connect, disconnect, move_node, execute_workflow to run it, cancel_workflow), based on that version;
send_workflow_message talks to its conversation agent and returns the reply (get_workflow_messages
reads the conversation); list_pending_approvals lists the approval steps waiting for you and
answer_approval approves or rejects one. list_agents and search_agents browse the agent
directory. An external agent acts with its own token (agent_token): agent_inbox, submit_offer,
submit_feedback, complete_workflow_task. Errors name the API's TOWOW_* code.`

// New builds the MCP server with every tool and the timeline resource.
func New(cfg Config) *mcp.Server {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	c := &client{base: strings.TrimSuffix(cfg.BaseURL, "/"), http: hc, token: cfg.Token}
	s := mcp.NewServer(&mcp.Implementation{Name: "towow", Title: "ToWow", Version: Version},
		&mcp.ServerOptions{Instructions: instructions, Logger: cfg.Logger, Capabilities: &mcp.ServerCapabilities{}})
	s.AddReceivingMiddleware(actAsCaller)
	addNegotiationTools(s, c)
	addForkTools(s, c)
	addAgentTools(s, c)
	addExternalTools(s, c)
	addWorkflowTools(s, c)
	addTimeline(s, c)
	return s
}

// sessionTimeout closes an HTTP session that has sent no request for this
// long (a client that went away without ending it).
const sessionTimeout = 30 * time.Minute

// NewHTTPHandler serves the server over MCP's Streamable HTTP transport
// (the /mcp endpoint of `towow serve`). It has no token of its own
// (Config.Token is ignored): each request's tools act as its caller, with
// the bearer token the API's guard put in the request's auth.TokenInfo
// (TokenInfoKey); a request without one calls the API without a token,
// and the API refuses it. The guard also gives the TokenInfo the caller's
// UserID, so a session answers only the caller who opened it.
func NewHTTPHandler(cfg Config) http.Handler {
	cfg.Token = ""
	s := New(cfg)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Logger: cfg.Logger, SessionTimeout: sessionTimeout})
}

// callerKey carries, in a tool's context, the bearer token of the MCP
// request's caller.
type callerKey struct{}

// actAsCaller is the receiving middleware that puts the request's caller's
// bearer token (TokenInfoKey of its auth.TokenInfo, over HTTP) in the
// context, where client.call finds it.
func actAsCaller(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if extra := req.GetExtra(); extra != nil && extra.TokenInfo != nil {
			if token, ok := extra.TokenInfo.Extra[TokenInfoKey].(string); ok && token != "" {
				ctx = context.WithValue(ctx, callerKey{}, token)
			}
		}
		return next(ctx, method, req)
	}
}

// callerToken is the bearer token of the MCP request's caller ("" over
// stdio).
func callerToken(ctx context.Context) string {
	token, _ := ctx.Value(callerKey{}).(string)
	return token
}
