package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/projections"
)

// ListLLMCallsInput filters GET /api/v1/llm-calls.
type ListLLMCallsInput struct {
	MinCursor
	Prompt   string `query:"prompt" example:"response_generation" doc:"only calls of this prompt key"`
	Outcome  string `query:"outcome" enum:"ok,error,timeout,breaker_open,parse_error" doc:"only calls that ended so"`
	Provider string `query:"provider" example:"builtin" doc:"only calls to this provider"`
	DemandID string `query:"demand_id" doc:"a whole negotiation tree (its root demand id)"`
	AgentID  string `query:"agent_id" doc:"only calls made for this agent (events whose actor is agent:<id>)"`
	// A string, not a bool: Huma cannot tell an absent bool from false.
	FallbackUsed string    `query:"fallback_used" enum:"true,false" doc:"only calls that used (true) or did not use (false) the prompt's fallback; absent: both"`
	Since        time.Time `query:"since" doc:"recorded at or after (RFC 3339)"`
	Before       time.Time `query:"before" doc:"recorded before (RFC 3339)"`
	After        int64     `query:"after" minimum:"0" doc:"only calls after this cursor (exclusive): next_cursor of the previous page"`
	Limit        int       `query:"limit" minimum:"1" maximum:"1000" default:"100"`
}

func (in *ListLLMCallsInput) filter() projections.LLMCallFilter {
	f := projections.LLMCallFilter{PromptKey: in.Prompt, Outcome: in.Outcome, Provider: in.Provider,
		DemandID: in.DemandID, AgentID: in.AgentID, Since: in.Since, Until: in.Before, After: in.After, Limit: in.Limit}
	if in.FallbackUsed != "" {
		used := in.FallbackUsed == "true"
		f.FallbackUsed = &used
	}
	return f
}

// ListLLMCallsOutput is one page of LLM calls in log order, with a
// per-prompt summary of every call the filters select.
type ListLLMCallsOutput struct {
	Body struct {
		Calls      []projections.LLMCallView    `json:"calls"`
		NextCursor int64                        `json:"next_cursor" doc:"pass as after for the next page; 0 when this page is the last"`
		Summary    []projections.LLMCallSummary `json:"summary" doc:"per prompt, over every call the filters select (all pages, not only this one)"`
	}
}

func (h *qualityHandlers) registerLLMCalls(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "list-llm-calls",
		Method:      http.MethodGet,
		Path:        "/api/v1/llm-calls",
		Summary:     "Audit: LLM calls by prompt, outcome, provider, demand, agent, fallback and time, with a per-prompt summary",
		Description: "Every event whose payload came from an LLM records the call in its metadata; this read model lists them " +
			"oldest first (page with after = next_cursor) and summarizes them per prompt: calls, errors (any outcome but ok), " +
			"fallbacks, and mean, median and 95th-percentile latency.",
		Tags: []string{"audit"},
	}, func(ctx context.Context, in *ListLLMCallsInput) (*ListLLMCallsOutput, error) {
		if err := h.owners.oneOfYours(ctx, in.DemandID, "the LLM call list"); err != nil {
			return nil, err
		}
		if err := waitFor(ctx, h.reads, in.MinCursor, projections.LLMCalls{}.Name()); err != nil {
			return nil, err
		}
		f := in.filter()
		calls, err := h.reads.ListLLMCalls(ctx, f)
		if err != nil {
			return nil, problem(err)
		}
		summary, err := h.reads.SummarizeLLMCalls(ctx, f)
		if err != nil {
			return nil, problem(err)
		}
		out := &ListLLMCallsOutput{}
		out.Body.Calls, out.Body.Summary = calls, summary
		if len(calls) == in.Limit {
			out.Body.NextCursor = calls[len(calls)-1].Cursor
		}
		return out, nil
	})
}
