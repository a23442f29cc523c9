package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/projections"
)

// External agents: an agent with mode external answers for itself. It finds
// what it is asked for in its inbox (or on the SSE streams) and posts its
// offer and its feedback with its own token. Wrong round, not invited,
// after the deadline or a second answer is a 409/422 with its TOWOW_* code,
// and nothing is written.

// SubmitOfferInput is the body of POST /api/v1/channels/{channel_id}/offers.
type SubmitOfferInput struct {
	ChannelID string `path:"channel_id" example:"collab-3f9a1c2b4d5e"`
	Body      struct {
		negotiation.OfferAnswer
	}
}

// SubmitFeedbackInput is the body of POST /api/v1/channels/{channel_id}/feedback.
type SubmitFeedbackInput struct {
	ChannelID string `path:"channel_id" example:"collab-3f9a1c2b4d5e"`
	Body      struct {
		Round int `json:"round" minimum:"1" doc:"the round whose proposal this answers (an answer to a closed round is refused)"`
		negotiation.FeedbackAnswer
	}
}

// AnswerOutput is the answer to an accepted offer or feedback.
type AnswerOutput struct {
	Body struct {
		ChannelID string `json:"channel_id"`
		AgentID   string `json:"agent_id"`
		Cursor    int64  `json:"cursor" doc:"global position of the recorded answer"`
	}
}

// InboxInput is the request of GET /api/v1/agent/inbox.
type InboxInput struct {
	MinCursor
}

// Task is one thing an external agent is asked for now.
type Task struct {
	Kind      string                `json:"kind" enum:"offer,feedback,task" doc:"offer: submit an offer; feedback: answer the proposal of this round; task: report on a running workflow task (POST /api/v1/workflows/{workflow_id}/nodes/{node_id}/report)"`
	ChannelID string                `json:"channel_id"`
	DemandID  string                `json:"demand_id"`
	Demand    string                `json:"demand,omitempty" doc:"the demand's text"`
	Round     int                   `json:"round,omitempty" doc:"for feedback: the round to name in the answer"`
	Proposal  *negotiation.Proposal `json:"proposal,omitempty" doc:"for feedback: the proposal under review"`
	Reason    string                `json:"reason,omitempty" doc:"for offer: why the agent was chosen"`
	// WorkflowID and Node are a task's workflow and node.
	WorkflowID string                 `json:"workflow_id,omitempty" doc:"for task: the workflow"`
	Node       *workflow.WorkflowNode `json:"node,omitempty" doc:"for task: the node to report on"`
}

// InboxOutput lists an external agent's open tasks.
type InboxOutput struct {
	Body struct {
		AgentID string `json:"agent_id"`
		Tasks   []Task `json:"tasks"`
	}
}

// inboxScan bounds how many recent invitations the inbox looks at.
const inboxScan = 200

func (h *agentHandlers) registerExternalAgents(api huma.API) {
	huma.Register(api, h.guard.externalAgent(api, huma.Operation{
		OperationID:   "submit-offer",
		Method:        http.MethodPost,
		Path:          "/api/v1/channels/{channel_id}/offers",
		Summary:       "An external agent submits its offer",
		Description:   "Not invited: 422 TOWOW_CHANNEL_004. A second offer: 409 TOWOW_CHANNEL_006. After the offer deadline: 409 TOWOW_CHANNEL_007. A malformed offer (conditional without conditions, ...): 422 TOWOW_CHANNEL_008. Nothing is written then.",
		Tags:          []string{"external agents"},
		DefaultStatus: http.StatusCreated,
		MaxBodyBytes:  64 << 10,
	}), func(ctx context.Context, in *SubmitOfferInput) (*AnswerOutput, error) {
		agentID := agentOf(ctx)
		pos, err := h.commands.SubmitOffer(ctx, in.ChannelID, agentID, in.Body.OfferAnswer)
		if err != nil {
			return nil, problem(err)
		}
		return answered(in.ChannelID, agentID, pos), nil
	})
	huma.Register(api, h.guard.externalAgent(api, huma.Operation{
		OperationID:   "submit-feedback",
		Method:        http.MethodPost,
		Path:          "/api/v1/channels/{channel_id}/feedback",
		Summary:       "An external agent answers the proposal of a round",
		Description:   "Not a participant of the round: 422 TOWOW_CHANNEL_005. A round that is not open: 409 TOWOW_PROPOSAL_005. A second answer: 409 TOWOW_CHANNEL_006. After the round closed: 409 TOWOW_PROPOSAL_006. Nothing is written then.",
		Tags:          []string{"external agents"},
		DefaultStatus: http.StatusCreated,
		MaxBodyBytes:  64 << 10,
	}), func(ctx context.Context, in *SubmitFeedbackInput) (*AnswerOutput, error) {
		agentID := agentOf(ctx)
		pos, err := h.commands.SubmitFeedback(ctx, in.ChannelID, agentID, in.Body.Round, in.Body.FeedbackAnswer)
		if err != nil {
			return nil, problem(err)
		}
		return answered(in.ChannelID, agentID, pos), nil
	})
	if h.reads == nil {
		return
	}
	huma.Register(api, h.guard.externalAgent(api, huma.Operation{
		OperationID: "agent-inbox",
		Method:      http.MethodGet,
		Path:        "/api/v1/agent/inbox",
		Summary:     "An external agent's open tasks: offers to submit, proposals to answer, workflow tasks to report on",
		Description: "Looks at the agent's latest invitations (agents read model) and folds each open channel, and the workflow of each agreement the agent is in, from its events, so a task is listed exactly while the engine would accept the answer.",
		Tags:        []string{"external agents"},
	}), func(ctx context.Context, in *InboxInput) (*InboxOutput, error) {
		agentID := agentOf(ctx)
		if err := waitFor(ctx, h.reads, in.MinCursor, readModelsOfHistory...); err != nil {
			return nil, err
		}
		recent, err := h.reads.AgentHistory(ctx, agentID, 0, inboxScan)
		if err != nil {
			return nil, problem(err)
		}
		out := &InboxOutput{}
		out.Body.AgentID, out.Body.Tasks = agentID, []Task{}
		seen := map[string]bool{}
		var open map[string][]projections.OpenNode // the agent's running workflow tasks, read at the first agreement
		for _, p := range recent {
			if negotiation.ChannelStatus(p.Status).IsTerminal() {
				if !p.InFinal || seen[p.RootDemandID] {
					continue
				}
				seen[p.RootDemandID] = true
				if open == nil {
					if open, err = h.workflows.openTasks(ctx, agentID); err != nil {
						return nil, err
					}
				}
				for _, n := range open[workflow.WorkflowIDFor(p.RootDemandID)] {
					out.Body.Tasks = append(out.Body.Tasks, Task{Kind: "task", ChannelID: n.ChannelID, DemandID: n.DemandID,
						Demand: p.Demand, WorkflowID: n.WorkflowID, Node: &n.Node})
				}
				continue
			}
			c := &negotiation.Channel{}
			if _, err := h.events.Fold(ctx, negotiation.ChannelStream(p.ChannelID), c.Apply); err != nil {
				return nil, problem(err)
			}
			task, open := c.OpenTaskFor(agentID)
			if !open {
				continue
			}
			out.Body.Tasks = append(out.Body.Tasks, Task{Kind: string(task.Kind), ChannelID: c.ID, DemandID: c.DemandID,
				Demand: p.Demand, Round: task.Round, Proposal: task.Proposal, Reason: task.Reason})
		}
		return out, nil
	})
}

func answered(channelID, agentID string, pos int64) *AnswerOutput {
	out := &AnswerOutput{}
	out.Body.ChannelID, out.Body.AgentID, out.Body.Cursor = channelID, agentID, pos
	return out
}
