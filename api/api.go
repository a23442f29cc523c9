// Package api serves ToWow's HTTP surface with Huma v2 (OpenAPI 3.1 at
// /openapi.json, docs at /docs). Operations are grouped by resource, each
// group a small handler type holding only the dependencies it uses
// (demandHandlers, eventHandlers, channelHandlers, agentHandlers,
// workflowHandlers, qualityHandlers, opsHandlers), registered by
// Server.Handler; every error is problem+json with a TOWOW_* code
// (errors.go).
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/web"
)

// Version is reported in the OpenAPI document.
const Version = "0.7.0"

// Server holds what the operations need; Handler hands each resource
// group's handler type the part it uses.
type Server struct {
	// DB answers /healthz's ping.
	DB Pinger
	// Commands runs demand submission, the external agents' answers and the
	// agent directory's writes; nil in a health-only server (then Events
	// and Status are not used either).
	Commands Commands
	// Events reads the log: audit, time travel, replay, live streams.
	Events EventReader
	// Status feeds GET /api/v1/status.
	Status StatusSource
	// Notifier wakes the live streams: one LISTEN connection per process.
	Notifier *eventstore.Notifier
	// Hub, when set (and running), feeds the live streams from one shared
	// tail of the log instead of a database read per client per commit.
	Hub *eventstore.Hub
	// Heartbeat is the SSE keep-alive interval (default 15 s).
	Heartbeat time.Duration
	// SSEWriteTimeout bounds each write to an SSE client (default 30 s): a
	// client that stops reading until its socket buffers are full is
	// disconnected then, rather than holding its goroutine and buffers
	// forever; it resumes with Last-Event-ID when it reconnects.
	SSEWriteTimeout time.Duration
	// TrustedProxies are the peers (reverse proxies) whose X-Forwarded-For,
	// X-Forwarded-Proto and X-Forwarded-Host are believed: the client's
	// address, HTTPS (Secure cookies, https URLs) and the host asked for.
	// From anyone else those headers are removed. Empty: nobody's.
	TrustedProxies []netip.Prefix
	// BodyTimeout is how long a client has to send a request's body, from
	// the end of its headers (0: DefaultBodyTimeout; negative: no limit);
	// a slower one is answered 408 (TOWOW_REQUEST_005) and disconnected.
	BodyTimeout time.Duration
	// Ready configures /readyz.
	Ready Readiness
	// Metrics, when set, is served at GET /metrics (Prometheus text
	// format, outside the OpenAPI document) and counts the live SSE
	// streams.
	Metrics *metrics.Metrics
	// ReadModels serves the list/get endpoints (waiting for min_cursor)
	// and the rebuilds; when nil those endpoints are not served.
	ReadModels ReadModels
	// CORSOrigins are the browser origins allowed to call the API ("*":
	// any); empty: no CORS headers.
	CORSOrigins []string
	// AdminToken is the bearer token of the operator operations (agent
	// directory writes, rebuilds); empty: every such request is refused.
	AdminToken string
	// People verifies people's bearer tokens and console sessions, and
	// signs the sessions (local mode, or an OpenID Connect issuer); nil: no
	// one signs in, and only the admin and external agents are served.
	People *identity.Authority
	// Limits are the per-user limits (the zero value: none).
	Limits Limits
	// Logger logs refused input (WARN) and every 5xx with its cause
	// (ERROR), with the request id; nil: discard.
	Logger *slog.Logger
	// Personal reveals the sealed personal texts of response bodies and
	// stream frames; nil: they go out as stored.
	Personal Personal
	// Mounts are further handlers served beside the operations (see
	// Mount), behind the same edge checks and CORS.
	Mounts []Mount
}

// Read-your-writes: every read-model endpoint takes min_cursor (a cursor
// a write returned) and waits, at most readWait, until the read models it
// reads have folded the log that far.

// CodeBehind is returned when a read model has not reached the min_cursor
// the client asked for within 5 s, or the log has not settled that far
// (retry later).
const CodeBehind = "TOWOW_READMODEL_001"

// readWait bounds how long a read waits for its read models to reach
// min_cursor.
const readWait = 5 * time.Second

// MinCursor is the read-your-writes parameter of read-model endpoints.
type MinCursor struct {
	MinCursor int64 `query:"min_cursor" minimum:"0" doc:"wait (at most 5 s) until the read model has folded the log up to this cursor, e.g. the cursor a submit returned"`
}

// waitFor waits until the named read models of rm reach the min_cursor.
func waitFor(ctx context.Context, rm ReadModels, m MinCursor, names ...string) error {
	if m.MinCursor == 0 {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, readWait)
	defer cancel()
	if err := rm.WaitFor(wctx, m.MinCursor, names...); err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return newProblem(http.StatusServiceUnavailable, CodeBehind,
				fmt.Sprintf("the read model has not reached cursor %d within %s; retry", m.MinCursor, readWait))
		}
		return problem(err)
	}
	return nil
}

// waitSettled waits, at most readWait, until the log can be read up to
// minCursor (0: no wait): no write that could still commit below it is
// open.
func waitSettled(ctx context.Context, events EventReader, minCursor int64) error {
	if minCursor == 0 {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, readWait)
	defer cancel()
	if err := events.WaitSettled(wctx, minCursor); err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return newProblem(http.StatusServiceUnavailable, CodeBehind,
				fmt.Sprintf("the log has not settled up to cursor %d within %s; retry", minCursor, readWait))
		}
		return problem(err)
	}
	return nil
}

// Handler builds the HTTP handler with every operation registered.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	cfg := huma.DefaultConfig("ToWow API", Version)
	cfg.Info.Description = "Event-sourced backend for LLM-driven multi-agent negotiation."
	// No licence has been granted for ToWow: the document says so rather
	// than leave the field out (SPDX's form for a licence of one's own).
	cfg.Info.License = &huma.License{Name: "Proprietary: all rights reserved", Identifier: "LicenseRef-ToWow-Proprietary"}
	cfg.Components.SecuritySchemes = securitySchemes()
	cfg.Transformers = append(cfg.Transformers, s.logServerErrors, noNullLists, s.revealPersonal)
	cfg.Formats = map[string]huma.Format{"application/json": jsonFormat, "json": jsonFormat}
	api := humago.New(mux, cfg)
	g := s.groups()
	api.UseMiddleware(g.guard.authorize(api))
	g.ops.registerHealth(api)
	g.ops.registerReady(api)
	if s.Commands != nil {
		g.demands.registerDemands(api)
		g.sharing.registerSharing(api)
		g.erasure.registerErasure(api)
		g.notices.registerNotices(api)
		g.events.registerEvents(api)
		g.events.registerCatalog(api)
		g.channels.registerChannels(api)
		g.events.registerReplay(api)
		g.events.registerNegotiationView(api)
		g.agents.registerAgentAdmin(api)
		g.agents.registerExternalAgents(api)
		g.ops.registerStatus(api)
		g.workflows.registerWorkflows(api)
		g.workflows.registerCanvas(api)
		registerNodeTypes(api)
	}
	if s.ReadModels != nil {
		g.demands.registerDemandViews(api)
		g.channels.registerChannelViews(api)
		g.agents.registerAgentViews(api)
		g.ops.registerAdmin(api)
		g.quality.registerLLMCalls(api)
		g.quality.registerQuality(api)
		g.quality.registerCompare(api)
		g.quality.registerForks(api)
	}
	if err := checkRules(api.OpenAPI()); err != nil {
		panic(err) // a programming error: every operation has a rule
	}
	documentErrors(api.OpenAPI())
	applyUnions(api.OpenAPI().Components.Schemas)
	nullableRequestLists(api.OpenAPI())
	if s.Metrics != nil {
		mux.Handle("GET /metrics", s.Metrics.Handler())
	}
	if s.Commands != nil {
		web.Register(mux)
	}
	for _, m := range s.Mounts {
		s.mount(mux, m)
	}
	// Any other request under /api/ is a problem+json 405 (with Allow) when
	// the path answers other methods, else a 404, not the mux's plain text.
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if allow, _ := allowedMethods(mux, r); len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeProblem(w, newProblem(http.StatusMethodNotAllowed, CodeMethod,
				r.Method+" "+excerpt(r.URL.Path)+" is not an operation; this path answers "+strings.Join(allow, ", ")))
			return
		}
		writeProblem(w, newProblem(http.StatusNotFound, CodeNotFound, "no such API path: "+r.Method+" "+excerpt(r.URL.Path)+" (see /docs)"))
	})
	csrf := http.NewCrossOriginProtection()
	for _, o := range s.CORSOrigins {
		if o != "*" {
			_ = csrf.AddTrustedOrigin(o)
		}
	}
	s.registerSignIn(mux, g.guard, csrf)
	return forwarded(s.TrustedProxies, withCORS(s.CORSOrigins, s.edge(g.guard.authenticate(csrf, literalRoutes(mux, routeNamed(mux))))))
}

// handlerGroups are the operations' handler types, one per resource
// group, each holding only the dependencies its operations use.
type handlerGroups struct {
	guard     guard
	ops       *opsHandlers
	demands   *demandHandlers
	events    *eventHandlers
	channels  *channelHandlers
	agents    *agentHandlers
	workflows *workflowHandlers
	quality   *qualityHandlers
	sharing   *sharingHandlers
	notices   *noticeHandlers
	erasure   *erasureHandlers
}

// groups builds the handler groups from the server's dependencies; the
// pieces several groups share (the credential guard, the live streams,
// the workflow reads) are built once.
func (s *Server) groups() handlerGroups {
	g := guard{adminToken: s.AdminToken, commands: s.Commands, people: s.People, owners: newOwners(s.Events),
		limits: newLimiter(s.Limits, s.ReadModels)}
	streams := &streamer{events: s.Events, hub: s.Hub, notifier: s.Notifier, metrics: s.Metrics,
		frames: newFrameCache(8192, s.revealHeld), shared: &sharedReads{events: s.Events}, heartbeat: s.Heartbeat,
		writeTimeout: s.SSEWriteTimeout, reveal: s.revealJSON}
	flows := &workflowReader{events: s.Events, reads: s.ReadModels}
	return handlerGroups{
		guard:    g,
		ops:      &opsHandlers{db: s.DB, ready: s.Ready, status: s.Status, events: s.Events, reads: s.ReadModels, guard: g},
		demands:  &demandHandlers{commands: s.Commands, reads: s.ReadModels, limits: g.limits},
		events:   &eventHandlers{events: s.Events, streams: streams, owners: g.owners, reveal: s.revealJSON},
		channels: &channelHandlers{events: s.Events, reads: s.ReadModels},
		agents: &agentHandlers{commands: s.Commands, events: s.Events, reads: s.ReadModels, guard: g,
			workflows: flows},
		workflows: &workflowHandlers{commands: s.Commands, workflows: flows, streams: streams, metrics: s.Metrics,
			guard: g},
		sharing: &sharingHandlers{commands: s.Commands, owners: g.owners},
		notices: &noticeHandlers{commands: s.Commands, events: s.Events, streams: streams},
		erasure: &erasureHandlers{commands: s.Commands},
		quality: &qualityHandlers{commands: s.Commands, events: s.Events, reads: s.ReadModels, owners: g.owners, limits: g.limits,
			reveal: s.revealJSON},
	}
}

// literalRoutes answers 405 (with Allow) a request whose path is a literal
// route of other methods, which the mux would give to a wildcard route of
// its own method: GET /api/v1/agents/bulk is not the agent "bulk" (only
// POST answers that path), though GET /api/v1/agents/{agent_id} matches.
func literalRoutes(mux *http.ServeMux, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		_, own := mux.Handler(r)
		if !strings.Contains(own, "{") {
			next.ServeHTTP(w, r)
			return
		}
		allow, wildcards := allowedMethods(mux, r)
		if strings.Count(own, "{") <= wildcards {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeProblem(w, newProblem(http.StatusMethodNotAllowed, CodeMethod,
			r.Method+" "+excerpt(r.URL.Path)+" is not an operation; this path answers "+strings.Join(allow, ", ")))
	})
}

// allowedMethods lists the methods whose operations answer r's path (none:
// the path is unknown): those of the routes that name it most closely,
// with the fewest wildcards, which it returns too. /api/v1/agents/bulk is
// POST's route, not the agent "bulk" of GET and PUT.
func allowedMethods(mux *http.ServeMux, r *http.Request) (allow []string, wildcards int) {
	wildcards = -1
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		_, pattern := mux.Handler(probe)
		if pattern == "" || pattern == "/api/" {
			continue
		}
		switch n := strings.Count(pattern, "{"); {
		case wildcards < 0 || n < wildcards:
			allow, wildcards = []string{m}, n
		case n == wildcards:
			allow = append(allow, m)
		}
	}
	return allow, wildcards
}
