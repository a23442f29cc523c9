// Package api serves ToWow's HTTP surface with Huma v2 (OpenAPI 3.1 at
// /openapi.json, docs at /docs). Operations are grouped by resource
// (demands.go, events.go, channels.go); every error is problem+json with a
// TOWOW_* code (errors.go).
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/web"
)

// Version is reported in the OpenAPI document.
const Version = "0.1.0"

// Server holds what the operations need.
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
	// Logger logs refused input (WARN) and every 5xx with its cause
	// (ERROR), with the request id; nil: discard.
	Logger *slog.Logger
	// Mounts are further handlers served beside the operations (see
	// Mount), behind the same edge checks and CORS.
	Mounts []Mount

	frames *frameCache
}

// Read-your-writes: every read-model endpoint takes min_cursor (a cursor
// a write returned) and waits, at most readWait, until the read models it
// reads have folded the log that far.

// CodeBehind is returned when a read model has not reached the min_cursor
// the client asked for within 5 s (retry later).
const CodeBehind = "TOWOW_READMODEL_001"

// readWait bounds how long a read waits for its read models to reach
// min_cursor.
const readWait = 5 * time.Second

// MinCursor is the read-your-writes parameter of read-model endpoints.
type MinCursor struct {
	MinCursor int64 `query:"min_cursor" minimum:"0" doc:"wait (at most 5 s) until the read model has folded the log up to this cursor, e.g. the cursor a submit returned"`
}

// waitFor waits until the named read models reach the min_cursor.
func (s *Server) waitFor(ctx context.Context, m MinCursor, names ...string) error {
	if m.MinCursor == 0 {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, readWait)
	defer cancel()
	if err := s.ReadModels.WaitFor(wctx, m.MinCursor, names...); err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return newProblem(http.StatusServiceUnavailable, CodeBehind,
				fmt.Sprintf("the read model has not reached cursor %d within %s; retry", m.MinCursor, readWait))
		}
		return problem(err)
	}
	return nil
}

// Handler builds the HTTP handler with every operation registered.
func (s *Server) Handler() http.Handler {
	s.frames = newFrameCache(8192)
	mux := http.NewServeMux()
	cfg := huma.DefaultConfig("ToWow API", Version)
	cfg.Info.Description = "Event-sourced backend for LLM-driven multi-agent negotiation."
	cfg.Components.SecuritySchemes = securitySchemes()
	cfg.Transformers = append(cfg.Transformers, s.logServerErrors)
	api := humago.New(mux, cfg)
	s.registerHealth(api)
	s.registerReady(api)
	if s.Commands != nil {
		s.registerDemands(api)
		s.registerEvents(api)
		s.registerCatalog(api)
		s.registerChannels(api)
		s.registerReplay(api)
		s.registerNegotiationView(api)
		s.registerAgentAdmin(api)
		s.registerExternalAgents(api)
		s.registerStatus(api)
		s.registerWorkflows(api)
		s.registerCanvas(api)
		registerNodeTypes(api)
	}
	if s.ReadModels != nil {
		s.registerDemandViews(api)
		s.registerChannelViews(api)
		s.registerAgentViews(api)
		s.registerAdmin(api)
		s.registerLLMCalls(api)
		s.registerQuality(api)
		s.registerCompare(api)
		s.registerForks(api)
	}
	documentErrors(api.OpenAPI())
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
		if allow := allowedMethods(mux, r); len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeProblem(w, newProblem(http.StatusMethodNotAllowed, CodeMethod,
				r.Method+" "+r.URL.Path+" is not an operation; this path answers "+strings.Join(allow, ", ")))
			return
		}
		writeProblem(w, newProblem(http.StatusNotFound, CodeNotFound, "no such API path: "+r.Method+" "+r.URL.Path+" (see /docs)"))
	})
	return withCORS(s.CORSOrigins, s.edge(routeNamed(mux)))
}

// allowedMethods lists the methods whose operations answer r's path (none:
// the path is unknown).
func allowedMethods(mux *http.ServeMux, r *http.Request) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/api/" {
			allow = append(allow, m)
		}
	}
	return allow
}

// HealthOutput is the body of GET /healthz.
type HealthOutput struct {
	Body struct {
		Status string `json:"status" example:"ok" doc:"ok when the database answers"`
	}
}

func (s *Server) registerHealth(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "healthz",
		Method:      http.MethodGet,
		Path:        "/healthz",
		Summary:     "Liveness and database reachability",
		Description: "200 once the server runs with a reachable, migrated database (the server migrates before it listens); 503 when the database does not answer within 2 s.",
		Tags:        []string{"operations"},
	}, func(ctx context.Context, _ *struct{}) (*HealthOutput, error) {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if err := s.DB.Ping(pctx); err != nil {
			return nil, huma.Error503ServiceUnavailable("database unreachable")
		}
		out := &HealthOutput{}
		out.Body.Status = "ok"
		return out, nil
	})
}
