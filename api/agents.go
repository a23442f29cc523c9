package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/projections"
)

// The agent directory: reads from the agents read model (open), writes as
// events on the agent streams (admin token). A change applies to the next
// negotiation without a restart.

// agentHandlers serve the agent directory (reads, and the operator's
// writes) and the external agents (their answers and their inbox).
type agentHandlers struct {
	commands Commands
	events   EventReader
	reads    ReadModels
	guard    guard
	// workflows finds an external agent's running workflow tasks.
	workflows *workflowReader
}

// actorAdmin is the actor recorded on the events the admin API writes.
const actorAdmin = "admin"

// ListAgentsInput filters GET /api/v1/agents.
type ListAgentsInput struct {
	MinCursor
	Active   string `query:"active" enum:"true,false" doc:"only active (true) or deactivated (false) agents"`
	Mode     string `query:"mode" enum:"twin,external"`
	Tag      string `query:"tag" doc:"only agents with this tag" example:"场地"`
	Location string `query:"location" example:"北京"`
	Q        string `query:"q" maxLength:"100" doc:"substring of the agent id, name or profile summary (case-insensitive)"`
	Cursor   string `query:"cursor" doc:"next_cursor of the previous page"`
	Limit    int    `query:"limit" minimum:"1" maximum:"500" default:"100"`
}

// ListAgentsOutput is a page of agents, by agent id.
type ListAgentsOutput struct {
	Body struct {
		Agents     []projections.AgentView `json:"agents"`
		NextCursor string                  `json:"next_cursor,omitempty" doc:"pass as cursor for the next page; absent on the last page"`
	}
}

// AgentInput names one agent.
type AgentInput struct {
	MinCursor
	AgentID string `path:"agent_id" example:"user_agent_bob"`
}

// AgentOutput is one agent of the read model.
type AgentOutput struct {
	Body projections.AgentView
}

// AgentHistoryInput pages through an agent's negotiations.
type AgentHistoryInput struct {
	AgentInput
	Cursor int64 `query:"cursor" minimum:"0" doc:"next_cursor of the previous page"`
	Limit  int   `query:"limit" minimum:"1" maximum:"200" default:"50"`
}

// AgentHistoryOutput is a page of an agent's negotiations, newest first.
type AgentHistoryOutput struct {
	Body struct {
		AgentID        string                      `json:"agent_id"`
		Participations []projections.Participation `json:"participations"`
		NextCursor     int64                       `json:"next_cursor,omitempty" doc:"pass as cursor for the next page; absent on the last page"`
	}
}

// readModelsOfHistory are the read models the history joins.
var readModelsOfHistory = []string{projections.Agents{}.Name(), projections.Channels{}.Name(), projections.Demands{}.Name()}

func (h *agentHandlers) registerAgentViews(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "list-agents",
		Method:      http.MethodGet,
		Path:        "/api/v1/agents",
		Summary:     "List agents with their profiles and participation statistics",
		Tags:        []string{"agents"},
	}, func(ctx context.Context, in *ListAgentsInput) (*ListAgentsOutput, error) {
		if err := waitFor(ctx, h.reads, in.MinCursor, projections.Agents{}.Name()); err != nil {
			return nil, err
		}
		f := projections.AgentFilter{Mode: in.Mode, Tag: in.Tag, Location: in.Location, Query: in.Q, AfterID: in.Cursor, Limit: in.Limit}
		if in.Active != "" {
			active := in.Active == "true"
			f.Active = &active
		}
		rows, err := h.reads.ListAgents(ctx, f)
		if err != nil {
			return nil, problem(err)
		}
		out := &ListAgentsOutput{}
		out.Body.Agents = rows
		if len(rows) == in.Limit {
			out.Body.NextCursor = rows[len(rows)-1].AgentID
		}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "get-agent",
		Method:      http.MethodGet,
		Path:        "/api/v1/agents/{agent_id}",
		Summary:     "An agent: profile, mode, whether it is active, participation statistics",
		Tags:        []string{"agents"},
	}, func(ctx context.Context, in *AgentInput) (*AgentOutput, error) {
		if err := waitFor(ctx, h.reads, in.MinCursor, projections.Agents{}.Name()); err != nil {
			return nil, err
		}
		a, err := h.reads.GetAgent(ctx, in.AgentID)
		if errors.Is(err, projections.ErrNotFound) {
			return nil, notFound(fmt.Sprintf("no agent %s", in.AgentID))
		}
		if err != nil {
			return nil, problem(err)
		}
		return &AgentOutput{Body: a}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "agent-history",
		Method:      http.MethodGet,
		Path:        "/api/v1/agents/{agent_id}/history",
		Summary:     "Every negotiation an agent was invited to, with what it offered and answered",
		Description: "Newest first. Each entry has the channel, its demand and status, the agent's offer, its feedback on each proposal version, and whether it is in the final proposal.",
		Tags:        []string{"agents", "audit"},
	}, func(ctx context.Context, in *AgentHistoryInput) (*AgentHistoryOutput, error) {
		if err := waitFor(ctx, h.reads, in.MinCursor, readModelsOfHistory...); err != nil {
			return nil, err
		}
		if _, err := h.reads.GetAgent(ctx, in.AgentID); errors.Is(err, projections.ErrNotFound) {
			return nil, notFound(fmt.Sprintf("no agent %s", in.AgentID))
		} else if err != nil {
			return nil, problem(err)
		}
		p := principalOf(ctx)
		if p.Kind == identity.KindAgent && p.ID != in.AgentID {
			return nil, notFound(fmt.Sprintf("no agent %s", in.AgentID)) // another agent's history is not its to read
		}
		rows, err := h.reads.AgentHistory(ctx, in.AgentID, in.Cursor, in.Limit)
		if err != nil {
			return nil, problem(err)
		}
		out := &AgentHistoryOutput{}
		out.Body.AgentID, out.Body.Participations = in.AgentID, []projections.Participation{}
		if len(rows) == in.Limit {
			out.Body.NextCursor = rows[len(rows)-1].Cursor
		}
		// A user sees the agent's part in their own negotiations only (a
		// page may then list fewer than limit; next_cursor still goes on).
		for _, r := range rows {
			ok := p.Kind == identity.KindAgent || p.IsAdmin()
			if !ok {
				if ok, err = h.guard.owners.canSee(ctx, p, demandRes, r.RootDemandID); err != nil {
					return nil, problem(err)
				}
			}
			if ok {
				out.Body.Participations = append(out.Body.Participations, r)
			}
		}
		return out, nil
	})
}

// AgentWrite is the answer of an agent write.
type AgentWrite struct {
	AgentID string                   `json:"agent_id"`
	Mode    string                   `json:"mode" enum:"twin,external"`
	Active  bool                     `json:"active"`
	Profile negotiation.AgentProfile `json:"profile" doc:"the profile as stored (white space trimmed)"`
	Changed bool                     `json:"changed" doc:"false when the request changed nothing (the same profile again)"`
	Token   string                   `json:"token,omitempty" doc:"the external agent's new API token: shown this once, only its SHA-256 is stored"`
	Cursor  int64                    `json:"cursor,omitempty" doc:"global position of the last event written: pass it as min_cursor to read the change"`
}

// AgentWriteOutput wraps AgentWrite.
type AgentWriteOutput struct {
	Body AgentWrite
}

// agentResult answers an agent write: the change, or its error as a
// problem.
func agentResult(c negotiation.AgentChange, err error) (*AgentWriteOutput, error) {
	if err != nil {
		return nil, problem(err)
	}
	return agentWrite(c), nil
}

func agentWrite(c negotiation.AgentChange) *AgentWriteOutput {
	mode := negotiation.AgentModeTwin
	if c.Agent.Profile.IsExternal() {
		mode = negotiation.AgentModeExternal
	}
	return &AgentWriteOutput{Body: AgentWrite{AgentID: c.Agent.ID, Mode: string(mode), Active: c.Agent.Active,
		Profile: c.Agent.Profile, Changed: c.Position > 0, Token: c.Token, Cursor: c.Position}}
}

// CreateAgentInput is the body of POST /api/v1/agents.
type CreateAgentInput struct {
	Body negotiation.AgentProfile
}

// UpdateAgentInput is the body of PUT /api/v1/agents/{agent_id}.
type UpdateAgentInput struct {
	AgentID string                   `path:"agent_id" example:"user_agent_bob"`
	Body    negotiation.AgentProfile `doc:"the whole new profile; its agent_id must match the path"`
}

// DeactivateAgentInput is the request of POST .../deactivate.
type DeactivateAgentInput struct {
	AgentID string `path:"agent_id" example:"user_agent_bob"`
	Body    *struct {
		Reason string `json:"reason,omitempty" maxLength:"500"`
	}
}

// AgentIDInput names one agent in a write.
type AgentIDInput struct {
	AgentID string `path:"agent_id" example:"user_agent_bob"`
}

// BulkAgentsInput is the body of POST /api/v1/agents/bulk: the same JSON
// array as the profiles file (data/mock_profiles.json).
type BulkAgentsInput struct {
	Body []negotiation.AgentProfile `maxItems:"10000"`
}

// BulkAgentsOutput counts what a bulk load did.
type BulkAgentsOutput struct {
	Body struct {
		Registered int               `json:"registered"`
		Updated    int               `json:"updated"`
		Unchanged  int               `json:"unchanged"`
		Tokens     map[string]string `json:"tokens" doc:"agent id → API token of each newly registered external agent (shown this once)"`
		Cursor     int64             `json:"cursor,omitempty" doc:"global position of the last event written (absent: nothing changed)"`
	}
}

// bulkMaxBytes bounds a bulk load's body.
const bulkMaxBytes = 16 << 20

func (h *agentHandlers) registerAgentAdmin(api huma.API) {
	huma.Register(api, h.guard.admin(api, huma.Operation{
		OperationID:   "create-agent",
		Method:        http.MethodPost,
		Path:          "/api/v1/agents",
		Summary:       "Register an agent",
		Description:   "An agent with mode external gets its API token in the answer (once). An invalid profile is 422 TOWOW_AGENT_001, an existing id 409 TOWOW_AGENT_002; nothing is written then.",
		Tags:          []string{"agents", "admin"},
		DefaultStatus: http.StatusCreated,
		MaxBodyBytes:  64 << 10,
	}), func(ctx context.Context, in *CreateAgentInput) (*AgentWriteOutput, error) {
		return agentResult(h.commands.CreateAgent(ctx, actorAdmin, in.Body))
	})
	huma.Register(api, h.guard.admin(api, huma.Operation{
		OperationID:  "update-agent",
		Method:       http.MethodPut,
		Path:         "/api/v1/agents/{agent_id}",
		Summary:      "Replace an agent's profile",
		Description:  "Applies from the next negotiation on. An agent that becomes external gets an API token in the answer, if it had none.",
		Tags:         []string{"agents", "admin"},
		MaxBodyBytes: 64 << 10,
	}), func(ctx context.Context, in *UpdateAgentInput) (*AgentWriteOutput, error) {
		p := in.Body
		if p.AgentID != in.AgentID {
			return nil, problem(&event.Error{Code: negotiation.ErrAgentInvalid.Code,
				Message: fmt.Sprintf("agent_id: the body names %s, the path %s", p.AgentID, in.AgentID)})
		}
		return agentResult(h.commands.UpdateAgent(ctx, actorAdmin, p))
	})
	huma.Register(api, h.guard.admin(api, huma.Operation{
		OperationID: "deactivate-agent",
		Method:      http.MethodPost,
		Path:        "/api/v1/agents/{agent_id}/deactivate",
		Summary:     "Deactivate an agent: it is not invited to new negotiations",
		Description: "The negotiations it is already in go on. Deactivating an inactive agent is 409 TOWOW_AGENT_003.",
		Tags:        []string{"agents", "admin"},
	}), func(ctx context.Context, in *DeactivateAgentInput) (*AgentWriteOutput, error) {
		reason := ""
		if in.Body != nil {
			reason = in.Body.Reason
		}
		return agentResult(h.commands.DeactivateAgent(ctx, actorAdmin, in.AgentID, reason))
	})
	huma.Register(api, h.guard.admin(api, huma.Operation{
		OperationID: "reactivate-agent",
		Method:      http.MethodPost,
		Path:        "/api/v1/agents/{agent_id}/reactivate",
		Summary:     "Reactivate a deactivated agent",
		Tags:        []string{"agents", "admin"},
	}), func(ctx context.Context, in *AgentIDInput) (*AgentWriteOutput, error) {
		return agentResult(h.commands.ReactivateAgent(ctx, actorAdmin, in.AgentID))
	})
	huma.Register(api, h.guard.admin(api, huma.Operation{
		OperationID:   "issue-agent-token",
		Method:        http.MethodPost,
		Path:          "/api/v1/agents/{agent_id}/token",
		Summary:       "Issue a new API token to an external agent",
		Description:   "The previous token stops working. A twin agent is 422 TOWOW_AGENT_004, a deactivated one 409 TOWOW_AGENT_003.",
		Tags:          []string{"agents", "admin"},
		DefaultStatus: http.StatusCreated,
	}), func(ctx context.Context, in *AgentIDInput) (*AgentWriteOutput, error) {
		return agentResult(h.commands.IssueAgentToken(ctx, actorAdmin, in.AgentID))
	})
	huma.Register(api, h.guard.admin(api, huma.Operation{
		OperationID:  "bulk-load-agents",
		Method:       http.MethodPost,
		Path:         "/api/v1/agents/bulk",
		Summary:      "Load many profiles at once (the profiles file's JSON array)",
		Description:  "New agents are registered, changed profiles updated, unchanged ones left alone, all in one transaction: one invalid profile (422, naming its index) writes nothing. New external agents get their tokens in the answer.",
		Tags:         []string{"agents", "admin"},
		MaxBodyBytes: bulkMaxBytes,
	}), func(ctx context.Context, in *BulkAgentsInput) (*BulkAgentsOutput, error) {
		res, err := h.commands.RegisterProfiles(ctx, in.Body, "api", true)
		if err != nil {
			return nil, problem(err)
		}
		out := &BulkAgentsOutput{}
		b := &out.Body
		b.Registered, b.Updated, b.Unchanged, b.Tokens, b.Cursor = res.Registered, res.Updated, res.Unchanged, res.Tokens, res.Position
		return out, nil
	})
}
