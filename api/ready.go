package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// opsHandlers serve the operations' probes and views: liveness,
// readiness, the status and the read models' rebuilds.
type opsHandlers struct {
	db     Pinger
	ready  Readiness
	status StatusSource
	events EventReader
	reads  ReadModels
	guard  guard
}

// Readiness is what /readyz checks besides the database.
type Readiness struct {
	// Pending reports whether a migration is not applied.
	Pending func(ctx context.Context) (bool, error)
	// Lag reports, per read model, how many events its checkpoint trails
	// the log's settled head by.
	Lag func(ctx context.Context) (map[string]int64, error)
	// MaxLag is the most events a read model may trail and still count
	// as caught up (default 1,000).
	MaxLag int64
	// LLM reports the LLM client's health: ok, degraded (its breaker is
	// open) or unauthorized (the provider refused the key); nil: not shown.
	LLM func() string
	// LLMRequired makes an unauthorized LLM not ready (503).
	LLMRequired bool
}

// HealthOutput is the body of GET /healthz.
type HealthOutput struct {
	Body struct {
		Status string `json:"status" example:"ok" doc:"ok when the database answers"`
	}
}

// registerHealth registers the liveness probe.
func (h *opsHandlers) registerHealth(api huma.API) {
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
		if err := h.db.Ping(pctx); err != nil {
			return nil, huma.Error503ServiceUnavailable("database unreachable")
		}
		out := &HealthOutput{}
		out.Body.Status = "ok"
		return out, nil
	})
}

// ReadyOutput is the body of GET /readyz.
type ReadyOutput struct {
	Body struct {
		Status     string           `json:"status" example:"ready"`
		Migrations string           `json:"migrations" example:"applied"`
		Lag        map[string]int64 `json:"projection_lag" doc:"events each read model trails the log by"`
		LLM        string           `json:"llm,omitempty" enum:"ok,degraded,unauthorized" doc:"the LLM provider: ok; degraded while its circuit breaker is open (calls use their fallbacks); unauthorized when it refused the key (503 with TOWOW_LLM_REQUIRED)"`
	}
}

func (h *opsHandlers) registerReady(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "readyz",
		Method:      http.MethodGet,
		Path:        "/readyz",
		Summary:     "Readiness: database reachable, migrations applied, read models caught up, and the LLM provider's state",
		Tags:        []string{"operations"},
	}, func(ctx context.Context, _ *struct{}) (*ReadyOutput, error) {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		if err := h.db.Ping(ctx); err != nil {
			return nil, huma.Error503ServiceUnavailable("database unreachable")
		}
		out := &ReadyOutput{}
		out.Body.Status, out.Body.Migrations, out.Body.Lag = "ready", "applied", map[string]int64{}
		r := h.ready
		if r.Pending != nil {
			pending, err := r.Pending(ctx)
			if err != nil {
				return nil, huma.Error503ServiceUnavailable("migration status unavailable")
			}
			if pending {
				return nil, huma.Error503ServiceUnavailable("migrations pending")
			}
		}
		if r.Lag != nil {
			lag, err := r.Lag(ctx)
			if err != nil {
				return nil, huma.Error503ServiceUnavailable("projection lag unavailable")
			}
			out.Body.Lag = lag
			maxLag := r.MaxLag
			if maxLag <= 0 {
				maxLag = 1000
			}
			for name, l := range lag {
				if l > maxLag {
					return nil, huma.Error503ServiceUnavailable(fmt.Sprintf("read model %s trails the log by %d events", name, l))
				}
			}
		}
		if r.LLM != nil {
			out.Body.LLM = r.LLM()
			if r.LLMRequired && out.Body.LLM == "unauthorized" {
				return nil, huma.Error503ServiceUnavailable("llm: unauthorized: the LLM provider refused the key")
			}
		}
		return out, nil
	})
}
