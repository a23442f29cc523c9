package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/negotiation"
)

// StatusOutput is the body of GET /api/v1/status: what the console's
// operations view shows.
type StatusOutput struct {
	Body struct {
		Version string `json:"version"`
		LLM     struct {
			Provider string `json:"provider" example:"builtin" doc:"builtin is the offline simulation, not a language model"`
			Breaker  string `json:"breaker" enum:"closed,half-open,open" doc:"the LLM circuit breaker"`
		} `json:"llm"`
		Rules         negotiation.Rules `json:"rules" doc:"stamped on new channels"`
		RiverJobs     map[string]int64  `json:"river_jobs" doc:"River jobs by state (all processes on this database)"`
		ProjectionLag map[string]int64  `json:"projection_lag" doc:"events each read model trails the log by"`
		Head          int64             `json:"head" doc:"the log's last settled cursor"`
		Unsettled     int64             `json:"unsettled_events" doc:"committed events no reader can reach yet, because a write transaction of this database that began writing before them is still open; it stays near 0 unless a transaction is held open"`
	}
}

func (h *opsHandlers) registerStatus(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "status",
		Method:      http.MethodGet,
		Path:        "/api/v1/status",
		Summary:     "Operations at a glance: LLM provider and breaker, River jobs by state, read-model lag",
		Tags:        []string{"operations"},
	}, func(ctx context.Context, _ *struct{}) (*StatusOutput, error) {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		out := &StatusOutput{}
		b := &out.Body
		b.Version = Version
		b.LLM.Provider, b.LLM.Breaker = h.status.LLMProvider(), h.status.LLMBreaker()
		b.Rules = h.status.Rules()
		var err error
		if b.RiverJobs, err = h.status.Jobs(ctx); err != nil {
			return nil, problem(err)
		}
		if b.Head, err = h.events.HeadPosition(ctx); err != nil {
			return nil, problem(err)
		}
		if b.Unsettled, err = h.events.Unsettled(ctx); err != nil {
			return nil, problem(err)
		}
		b.ProjectionLag = map[string]int64{}
		if h.ready.Lag != nil {
			if b.ProjectionLag, err = h.ready.Lag(ctx); err != nil {
				return nil, problem(err)
			}
		}
		return out, nil
	})
}
