package api

import (
	"context"
	"net/http"
	"slices"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/agents"
	"github.com/towow/towow/domain"
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
		Decision      domain.OfferDecision `json:"decision" enum:"participate,decline,conditional"`
		Contribution  string               `json:"contribution,omitempty" maxLength:"2000" doc:"what the agent brings (required unless it declines)"`
		Conditions    []string             `json:"conditions,omitempty" maxItems:"20" doc:"required for conditional"`
		Reasoning     string               `json:"reasoning,omitempty" maxLength:"2000"`
		DeclineReason string               `json:"decline_reason,omitempty" maxLength:"2000"`
		Confidence    int                  `json:"confidence,omitempty" minimum:"0" maximum:"100"`
	}
}

// SubmitFeedbackInput is the body of POST /api/v1/channels/{channel_id}/feedback.
type SubmitFeedbackInput struct {
	ChannelID string `path:"channel_id" example:"collab-3f9a1c2b4d5e"`
	Body      struct {
		Round             int                 `json:"round" minimum:"1" doc:"the round whose proposal this answers (an answer to a closed round is refused)"`
		FeedbackType      domain.FeedbackType `json:"feedback_type" enum:"accept,negotiate,withdraw"`
		Reasoning         string              `json:"reasoning,omitempty" maxLength:"2000"`
		AdjustmentRequest string              `json:"adjustment_request,omitempty" maxLength:"2000" doc:"what should change (for negotiate)"`
		Concerns          []string            `json:"concerns,omitempty" maxItems:"20"`
		Confidence        int                 `json:"confidence,omitempty" minimum:"0" maximum:"100"`
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
	Kind      string           `json:"kind" enum:"offer,feedback" doc:"offer: submit an offer; feedback: answer the proposal of this round"`
	ChannelID string           `json:"channel_id"`
	DemandID  string           `json:"demand_id"`
	Demand    string           `json:"demand,omitempty" doc:"the demand's text"`
	Round     int              `json:"round,omitempty" doc:"for feedback: the round to name in the answer"`
	Proposal  *domain.Proposal `json:"proposal,omitempty" doc:"for feedback: the proposal under review"`
	Reason    string           `json:"reason,omitempty" doc:"for offer: why the agent was chosen"`
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

func (s *Server) registerExternalAgents(api huma.API) {
	huma.Register(api, s.externalAgent(api, huma.Operation{
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
		b := in.Body
		pos, err := s.Engine.SubmitOffer(ctx, in.ChannelID, agentID, agents.OfferCommand{Decision: b.Decision,
			Contribution: b.Contribution, Conditions: b.Conditions, Reasoning: b.Reasoning, DeclineReason: b.DeclineReason,
			Confidence: b.Confidence})
		if err != nil {
			return nil, problem(err)
		}
		return answered(in.ChannelID, agentID, pos), nil
	})
	huma.Register(api, s.externalAgent(api, huma.Operation{
		OperationID:   "submit-feedback",
		Method:        http.MethodPost,
		Path:          "/api/v1/channels/{channel_id}/feedback",
		Summary:       "An external agent answers the proposal of a round",
		Description:   "Not a participant of the round: 422 TOWOW_CHANNEL_005. A round that is not open: 409 TOWOW_PROPOSAL_005. A second answer: 409 TOWOW_CHANNEL_006. After the round closed: 409 TOWOW_PROPOSAL_003. Nothing is written then.",
		Tags:          []string{"external agents"},
		DefaultStatus: http.StatusCreated,
		MaxBodyBytes:  64 << 10,
	}), func(ctx context.Context, in *SubmitFeedbackInput) (*AnswerOutput, error) {
		agentID := agentOf(ctx)
		b := in.Body
		pos, err := s.Engine.SubmitFeedback(ctx, in.ChannelID, agentID, agents.FeedbackCommand{Round: b.Round,
			FeedbackType: b.FeedbackType, Reasoning: b.Reasoning, AdjustmentRequest: b.AdjustmentRequest,
			Concerns: b.Concerns, Confidence: b.Confidence})
		if err != nil {
			return nil, problem(err)
		}
		return answered(in.ChannelID, agentID, pos), nil
	})
	if s.Projections == nil {
		return
	}
	huma.Register(api, s.externalAgent(api, huma.Operation{
		OperationID: "agent-inbox",
		Method:      http.MethodGet,
		Path:        "/api/v1/agent/inbox",
		Summary:     "An external agent's open tasks: offers to submit, proposals to answer",
		Description: "Looks at the agent's latest invitations (agents read model) and folds each open channel from its events, so a task is listed exactly while the engine would accept the answer.",
		Tags:        []string{"external agents"},
	}), func(ctx context.Context, in *InboxInput) (*InboxOutput, error) {
		agentID := agentOf(ctx)
		if err := s.waitFor(ctx, in.MinCursor, readModelsOfHistory...); err != nil {
			return nil, err
		}
		recent, err := projections.AgentHistory(ctx, s.Pool, agentID, 0, inboxScan)
		if err != nil {
			return nil, problem(err)
		}
		out := &InboxOutput{}
		out.Body.AgentID, out.Body.Tasks = agentID, []Task{}
		for _, p := range recent {
			if s := domain.ChannelStatus(p.Status); s == domain.ChannelStatusFinalized || s == domain.ChannelStatusFailed ||
				s == domain.ChannelStatusForceFinalized {
				continue
			}
			c, err := s.Engine.Channel(ctx, p.ChannelID)
			if err != nil {
				return nil, problem(err)
			}
			t := Task{ChannelID: c.ID, DemandID: c.DemandID, Demand: p.Demand}
			switch {
			case c.Status == domain.ChannelStatusCollecting && slices.Contains(c.MissingOffers(), agentID):
				t.Kind = "offer"
				for _, cand := range c.Candidates {
					if cand.AgentID == agentID {
						t.Reason = cand.Reason
					}
				}
			case c.AwaitingFeedback() && slices.Contains(c.MissingFeedback(), agentID):
				t.Kind, t.Round, t.Proposal = "feedback", c.Round, c.Proposal
			default:
				continue
			}
			out.Body.Tasks = append(out.Body.Tasks, t)
		}
		return out, nil
	})
}

func answered(channelID, agentID string, pos int64) *AnswerOutput {
	out := &AnswerOutput{}
	out.Body.ChannelID, out.Body.AgentID, out.Body.Cursor = channelID, agentID, pos
	return out
}
