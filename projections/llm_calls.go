package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// LLMCalls keeps one row per event whose payload came from an LLM: the
// call its metadata records (prompt, provider, model, latency, tokens,
// outcome, fallback), with the event, the negotiation tree and the actor.
// The filter is on metadata, not on event types, so it folds every event.
type LLMCalls struct{ modelMethods[LLMCalls] }

// Model declares the llm_calls read model.
func (LLMCalls) Model() Model { return llmCallsModel }

var llmCallsModel = Model{
	Name:     "llm_calls",
	Apply:    applyLLMCall,
	Reset:    (*sqlcdb.Queries).DeleteLLMCalls,
	Rebuild:  (*sqlcdb.Queries).RebuildLLMCalls,
	Checksum: fingerprint((*sqlcdb.Queries).ChecksumLLMCalls),
}

func applyLLMCall(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, _ event.Payload) error {
	c := e.Metadata.LLMCall
	if c == nil {
		return nil
	}
	var attempts json.RawMessage
	if len(c.Attempts) > 0 {
		b, err := json.Marshal(c.Attempts)
		if err != nil {
			return fmt.Errorf("llm call attempts: %w", err)
		}
		attempts = b
	}
	return q.InsertLLMCall(ctx, sqlcdb.InsertLLMCallParams{
		Position: e.Position, EventID: e.EventID, EventType: string(e.Type), StreamID: e.StreamID,
		DemandID: e.Metadata.CorrelationID, Actor: e.Metadata.Actor, AgentID: text(agentOf(e.Metadata.Actor)),
		PromptKey: c.PromptKey, Provider: c.Provider, Model: c.Model, LatencyMs: c.LatencyMS,
		InputTokens: int32(c.InputTokens), OutputTokens: int32(c.OutputTokens), Outcome: c.Outcome,
		FallbackUsed: c.FallbackUsed, Error: c.Error, RecordedAt: e.RecordedAt, Attempts: attempts,
	})
}

// agentOf returns the agent id of an "agent:<id>" actor, "" for any other.
func agentOf(actor string) string {
	if id, ok := strings.CutPrefix(actor, "agent:"); ok {
		return id
	}
	return ""
}

// LLMCallView is one row of the llm_calls read model.
type LLMCallView struct {
	Cursor       int64     `json:"cursor" doc:"position of the event that carries the call: the list's page cursor"`
	EventID      string    `json:"event_id"`
	EventType    string    `json:"event_type" example:"towow.offer.submitted"`
	StreamID     string    `json:"stream_id"`
	DemandID     string    `json:"demand_id" doc:"the root demand of the negotiation tree (the event's correlation id)"`
	Actor        string    `json:"actor" example:"agent:user_agent_bob" doc:"who produced the event: agent:<id>, coordinator, channel_admin or system"`
	AgentID      string    `json:"agent_id,omitempty" doc:"the agent, for an agent:<id> actor"`
	PromptKey    string    `json:"prompt_key" example:"response_generation"`
	Provider     string    `json:"provider" example:"builtin"`
	Model        string    `json:"model,omitempty"`
	LatencyMS    int64     `json:"latency_ms"`
	InputTokens  int       `json:"input_tokens"`
	OutputTokens int       `json:"output_tokens"`
	Outcome      string    `json:"outcome" enum:"ok,error,timeout,breaker_open,parse_error"`
	FallbackUsed bool      `json:"fallback_used" doc:"the prompt's fallback answer was used instead of the model's"`
	Error        string    `json:"error,omitempty"`
	RecordedAt   time.Time `json:"recorded_at"`
	// Attempts are the call's attempts when it took more than one
	// (transport retries, replies asked again because they did not
	// parse), in order.
	Attempts []event.LLMAttempt `json:"attempts,omitempty"`
}

// LLMCallSummary aggregates the calls of one prompt.
type LLMCallSummary struct {
	PromptKey    string  `json:"prompt_key"`
	Calls        int64   `json:"calls"`
	Errors       int64   `json:"errors" doc:"calls whose outcome is not ok"`
	Fallbacks    int64   `json:"fallbacks" doc:"calls answered by the prompt's fallback"`
	AvgLatencyMS float64 `json:"avg_latency_ms"`
	P50LatencyMS float64 `json:"p50_latency_ms" doc:"median latency (continuous percentile)"`
	P95LatencyMS float64 `json:"p95_latency_ms" doc:"95th percentile latency (continuous percentile)"`
}

// LLMCallFilter selects calls for ListLLMCalls and SummarizeLLMCalls. Zero
// fields do not filter.
type LLMCallFilter struct {
	PromptKey, Outcome, Provider, DemandID, AgentID string
	FallbackUsed                                    *bool     // nil: either
	Since, Until                                    time.Time // recorded_at in [Since, Until)
	After                                           int64     // page cursor: calls after this position (ListLLMCalls only)
	Limit                                           int       // default 100, at most 1000 (ListLLMCalls only)
}

// LLMCallsMaxLimit is the largest page ListLLMCalls returns.
const LLMCallsMaxLimit = 1000

// ListLLMCalls returns calls oldest first (in log order), after f.After.
func ListLLMCalls(ctx context.Context, db DB, f LLMCallFilter) ([]LLMCallView, error) {
	if f.Limit <= 0 || f.Limit > LLMCallsMaxLimit {
		f.Limit = 100
	}
	p := sqlcdb.ListLLMCallsParams{AfterPosition: f.After, PromptKey: text(f.PromptKey), Outcome: text(f.Outcome),
		Provider: text(f.Provider), DemandID: text(f.DemandID), AgentID: text(f.AgentID),
		FallbackUsed: boolFilter(f.FallbackUsed), Since: timeFilter(f.Since), Until: timeFilter(f.Until),
		MaxCount: int32(f.Limit)}
	rows, err := sqlcdb.New(db).ListLLMCalls(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("list llm calls: %w", err)
	}
	out := make([]LLMCallView, len(rows))
	for i, r := range rows {
		out[i] = LLMCallView{Cursor: r.Position, EventID: r.EventID.String(), EventType: r.EventType, StreamID: r.StreamID,
			DemandID: r.DemandID, Actor: r.Actor, AgentID: r.AgentID.String, PromptKey: r.PromptKey, Provider: r.Provider,
			Model: r.Model, LatencyMS: r.LatencyMs, InputTokens: int(r.InputTokens), OutputTokens: int(r.OutputTokens),
			Outcome: r.Outcome, FallbackUsed: r.FallbackUsed, Error: r.Error, RecordedAt: r.RecordedAt}
		if len(r.Attempts) > 0 {
			if err := json.Unmarshal(r.Attempts, &out[i].Attempts); err != nil {
				return nil, fmt.Errorf("list llm calls: the attempts of %d: %w", r.Position, err)
			}
		}
	}
	return out, nil
}

// SummarizeLLMCalls aggregates, per prompt (ordered by prompt key), every
// call f selects; f.After and f.Limit are ignored, so every page of a
// listing carries the same summary.
func SummarizeLLMCalls(ctx context.Context, db DB, f LLMCallFilter) ([]LLMCallSummary, error) {
	rows, err := sqlcdb.New(db).SummarizeLLMCalls(ctx, sqlcdb.SummarizeLLMCallsParams{PromptKey: text(f.PromptKey),
		Outcome: text(f.Outcome), Provider: text(f.Provider), DemandID: text(f.DemandID), AgentID: text(f.AgentID),
		FallbackUsed: boolFilter(f.FallbackUsed), Since: timeFilter(f.Since), Until: timeFilter(f.Until)})
	if err != nil {
		return nil, fmt.Errorf("summarize llm calls: %w", err)
	}
	out := make([]LLMCallSummary, len(rows))
	for i, r := range rows {
		out[i] = LLMCallSummary{PromptKey: r.PromptKey, Calls: r.Calls, Errors: r.Errors, Fallbacks: r.Fallbacks,
			AvgLatencyMS: r.AvgLatencyMs, P50LatencyMS: r.P50LatencyMs, P95LatencyMS: r.P95LatencyMs}
	}
	return out, nil
}

func boolFilter(b *bool) pgtype.Bool {
	if b == nil {
		return pgtype.Bool{}
	}
	return pgtype.Bool{Bool: *b, Valid: true}
}

func timeFilter(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
