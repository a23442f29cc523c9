package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// The negotiation page's read: a negotiation tree in one answer, folded
// from the tree's events by the domain's own folds (each demand stream by
// DemandState.Apply, each channel stream by Channel.Apply), so the
// console keeps no fold of its own. It reads the log, not a read model:
// the answer is as of its cursor, which a reader following the tree's
// stream compares with the last event it has seen.

// NegotiationViewInput names a negotiation and, optionally, a point of its
// history.
type NegotiationViewInput struct {
	DemandID string `path:"demand_id" maxLength:"64" example:"d-3f9a1c2b4d5e" doc:"a demand: a root demand's view is its whole tree; a sub-demand's, its own sub-tree"`
	At       int64  `query:"at" minimum:"0" doc:"fold the tree's events up to this cursor (inclusive); 0 or absent: all of them"`
}

// NegotiationViewOutput is the body of GET /api/v1/negotiations/{demand_id}/view.
type NegotiationViewOutput struct {
	Body NegotiationView
}

// NegotiationView is a negotiation tree as the console's negotiation page
// shows it: the demand with its understanding, rejection, failure or fork
// origin, and every channel of the tree.
type NegotiationView struct {
	DemandID      string                         `json:"demand_id" doc:"the demand asked for"`
	RootDemandID  string                         `json:"root_demand_id" doc:"the tree's root demand (the demand itself unless it is a sub-demand)"`
	Cursor        int64                          `json:"cursor" doc:"the last event of the tree folded (at most at): a reader that has seen a later event of the tree on its stream reads again"`
	RawInput      string                         `json:"raw_input" doc:"the demand's text"`
	Understanding *negotiation.DemandUnderstood  `json:"understanding,omitempty" doc:"the demand as the coordinator understood it (surface demand, capability tags, needs)"`
	Rejection     *negotiation.DemandRejected    `json:"rejection,omitempty" doc:"why the demand was not negotiated: its reason, the questions to answer, the needs nobody in the network serves, a suggestion"`
	Failure       *negotiation.NegotiationFailed `json:"failure,omitempty" doc:"how the demand failed before a channel opened for it, with a suggestion (a channel's failure is that channel's outcome)"`
	Fork          *negotiation.NegotiationForked `json:"fork,omitempty" doc:"set on a fork: the negotiation it was forked from, the cursor and the change"`
	ChannelID     string                         `json:"channel_id,omitempty" doc:"the demand's channel, once smart filtering accepted the demand"`
	Channels      []NegotiationChannel           `json:"channels" doc:"the demand's channel and every sub-negotiation's under it, in the order they opened (a sub-negotiation's parent comes first)"`
	Names         map[string]string              `json:"names" doc:"agent id → display name, for every agent the tree named"`
}

// NegotiationChannel is one channel of a negotiation tree.
type NegotiationChannel struct {
	ChannelID       string                    `json:"channel_id"`
	DemandID        string                    `json:"demand_id"`
	ParentChannelID string                    `json:"parent_channel_id,omitempty" doc:"the channel whose gap this sub-negotiation fills"`
	Depth           int                       `json:"depth" doc:"0 for the root channel, 1 for its sub-negotiations, …"`
	Status          negotiation.ChannelStatus `json:"status" enum:"created,broadcasting,collecting,aggregating,proposal_sent,negotiating,finalized,force_finalized,failed"`
	Round           int                       `json:"round" doc:"the current round, 1-based; 0 before the first"`
	MaxRounds       int                       `json:"max_rounds"`
	Completed       bool                      `json:"completed" doc:"the channel ended and so did every sub-negotiation it spawned"`
	Candidates      []negotiation.Candidate   `json:"candidates" doc:"the invited agents in invitation order, each with why it was chosen and how well it fits (0-100)"`
	Offers          []negotiation.Offer       `json:"offers" doc:"the agents' answers to the invitation, in the order they arrived"`
	Proposal        *negotiation.Proposal     `json:"proposal,omitempty" doc:"the latest proposal distributed"`
	ProposalRound   int                       `json:"proposal_round,omitempty" doc:"the round that proposal was distributed in"`
	Feedback        []NegotiationFeedback     `json:"feedback" doc:"the feedback on that proposal, in the order of the round's members"`
	Outcome         *NegotiationOutcome       `json:"outcome,omitempty" doc:"how the negotiation ended (absent while it runs)"`
	MergedPlan      *negotiation.Proposal     `json:"merged_plan,omitempty" doc:"the tree's one plan: the agreement with what the sub-negotiations added, each assignment marked with its sub-channel (absent without any)"`
	Gaps            []NegotiationGap          `json:"gaps" doc:"the gaps found in the agreement, each with the sub-negotiation opened to fill it"`
}

// NegotiationFeedback is one participant's feedback on a proposal and who
// recorded it.
type NegotiationFeedback struct {
	negotiation.ProposalFeedback
	Actor string `json:"actor" doc:"who recorded it: the agent (agent:<id>), or system when the round's deadline passed and the missing answer counts as accept"`
}

// NegotiationOutcome is how a channel ended.
type NegotiationOutcome struct {
	Kind         string                    `json:"kind" enum:"finalized,force_finalized,failed" doc:"finalized (consensus), force_finalized (the last round's compromise) or failed"`
	Proposal     *negotiation.Proposal     `json:"proposal,omitempty" doc:"the final proposal (a failure's: the last one, if any)"`
	Rounds       int                       `json:"rounds,omitempty" doc:"rounds taken"`
	Participants []string                  `json:"participants,omitempty" doc:"finalized: the agents in the agreement"`
	Confirmed    []string                  `json:"confirmed,omitempty" doc:"force_finalized: who accepted the last proposal"`
	Optional     []string                  `json:"optional,omitempty" doc:"force_finalized: who was still negotiating"`
	Reason       negotiation.FailureReason `json:"reason,omitempty" doc:"failed: why"`
	ErrorCode    string                    `json:"error_code,omitempty" doc:"failed: the error code (e.g. TOWOW_FILTER_001)"`
	Suggestion   string                    `json:"suggestion,omitempty" doc:"failed: what the user can do next"`
}

// NegotiationGap is a gap of an agreement and the sub-negotiation that
// fills it.
type NegotiationGap struct {
	negotiation.Gap
	SubChannelID string `json:"sub_channel_id,omitempty" doc:"the sub-negotiation opened for this gap (absent: none was)"`
	SubDemandID  string `json:"sub_demand_id,omitempty" doc:"that sub-negotiation's demand"`
}

func (h *eventHandlers) registerNegotiationView(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "negotiation-view",
		Method:      http.MethodGet,
		Path:        "/api/v1/negotiations/{demand_id}/view",
		Summary:     "A negotiation tree in one read: the demand, and every channel's candidates, offers, proposal, feedback, outcome, gaps and sub-negotiations",
		Description: "Folded from the tree's events by the domain's folds, up to at (a cursor) or the newest event; cursor is the last event folded, so a reader following GET /api/v1/events/negotiations/{demand_id}/stream reads again while the view is behind the stream. An unknown demand, or one not yet submitted at that cursor: 404.",
		Tags:        []string{"demands"},
	}, func(ctx context.Context, in *NegotiationViewInput) (*NegotiationViewOutput, error) {
		var d negotiation.DemandState
		v, err := h.events.Fold(ctx, negotiation.DemandStream(in.DemandID), d.Apply)
		if err != nil {
			return nil, problem(err)
		}
		if v == 0 {
			return nil, notFound(fmt.Sprintf("no demand %s", in.DemandID))
		}
		evs, err := eventstore.ReadEvery(ctx, h.events, 0, eventstore.Filter{CorrelationID: d.RootDemandID, UntilPosition: in.At})
		if err != nil {
			return nil, problem(err)
		}
		t := newTreeFolds()
		for _, e := range evs {
			if err := t.add(e); err != nil {
				return nil, problem(err)
			}
		}
		view, ok := t.view(in.DemandID)
		if !ok {
			return nil, notFound(fmt.Sprintf("demand %s was not submitted yet at cursor %d", in.DemandID, in.At))
		}
		return &NegotiationViewOutput{Body: view}, nil
	})
}

// treeFolds are a negotiation tree's streams, each folded by its own
// aggregate, and what those folds keep no record of: who recorded each
// feedback (its metadata's actor) and whom a consensus named.
type treeFolds struct {
	demands   map[string]*negotiation.DemandState
	channels  map[string]*negotiation.Channel
	opened    []string // channel ids in the order their streams began
	actors    map[feedbackKey]string
	finalized map[string]*negotiation.ProposalFinalized // channel id → its consensus
	cursor    int64
}

// feedbackKey names one agent's feedback on one version of a channel's
// proposal.
type feedbackKey struct {
	channelID, agentID string
	version            int
}

func newTreeFolds() *treeFolds {
	return &treeFolds{demands: map[string]*negotiation.DemandState{}, channels: map[string]*negotiation.Channel{},
		actors: map[feedbackKey]string{}, finalized: map[string]*negotiation.ProposalFinalized{}}
}

// add folds one event of the tree into the aggregate of its stream (the
// tree's workflow, and a type the catalog does not know, are not shown).
func (t *treeFolds) add(e eventstore.RecordedEvent) error {
	t.cursor = e.Position
	demandID, isDemand := strings.CutPrefix(e.StreamID, negotiation.DemandStream(""))
	channelID, isChannel := strings.CutPrefix(e.StreamID, negotiation.ChannelStream(""))
	if _, known := event.Spec(e.Type); !known || (!isDemand && !isChannel) {
		return nil
	}
	p, err := e.Decode()
	if err != nil {
		return fmt.Errorf("negotiation view: event %d: %w", e.Position, err)
	}
	if isDemand {
		if t.demands[demandID] == nil {
			t.demands[demandID] = &negotiation.DemandState{}
		}
		t.demands[demandID].Apply(p)
		return nil
	}
	c := t.channels[channelID]
	if c == nil {
		c = &negotiation.Channel{}
		t.channels[channelID], t.opened = c, append(t.opened, channelID)
	}
	c.Apply(p)
	switch x := p.(type) {
	case *negotiation.ProposalFeedback:
		t.actors[feedbackKey{channelID, x.AgentID, x.ProposalVersion}] = e.Metadata.Actor
	case *negotiation.ProposalFinalized:
		t.finalized[channelID] = x
	}
	return nil
}

// view is the tree as seen from demandID: the demand and its channel with
// every channel under it; false when the demand was not submitted.
func (t *treeFolds) view(demandID string) (NegotiationView, bool) {
	d := t.demands[demandID]
	if d == nil || !d.Exists() {
		return NegotiationView{}, false
	}
	v := NegotiationView{DemandID: d.ID, RootDemandID: d.RootDemandID, Cursor: t.cursor, RawInput: d.RawInput,
		Understanding: d.Understanding, Rejection: d.Rejection, Failure: d.Failure, Fork: d.Fork, ChannelID: d.ChannelID,
		Channels: []NegotiationChannel{}, Names: map[string]string{}}
	for _, sub := range t.demands {
		for _, c := range sub.Candidates {
			v.name(c.AgentID, c.DisplayName)
		}
	}
	in := map[string]bool{}
	for _, id := range t.opened {
		c := t.channels[id]
		if !c.Exists() || (id != d.ChannelID && !in[c.ParentChannelID]) {
			continue
		}
		in[id] = true
		v.Channels = append(v.Channels, t.channel(c))
		for _, cand := range c.Candidates {
			v.name(cand.AgentID, c.DisplayName(cand.AgentID))
		}
		for id := range c.Offers {
			v.name(id, c.DisplayName(id))
		}
	}
	return v, true
}

// name records an agent's display name (an empty one, or the id itself,
// names nothing).
func (v *NegotiationView) name(agentID, name string) {
	if name != "" && name != agentID {
		v.Names[agentID] = name
	}
}

// channel is c as the page shows it.
func (t *treeFolds) channel(c *negotiation.Channel) NegotiationChannel {
	out := NegotiationChannel{ChannelID: c.ID, DemandID: c.DemandID, ParentChannelID: c.ParentChannelID, Depth: c.Depth,
		Status: c.Status, Round: c.Round, MaxRounds: c.Rules.MaxRounds, Completed: c.Completed,
		Candidates: c.Candidates, Offers: []negotiation.Offer{}, Proposal: c.Proposal, Feedback: []NegotiationFeedback{},
		MergedPlan: c.MergedPlan, Gaps: []NegotiationGap{}}
	if out.Candidates == nil {
		out.Candidates = []negotiation.Candidate{}
	}
	seen := map[string]bool{}
	for _, id := range c.OfferOrder {
		if !seen[id] {
			seen[id] = true
			out.Offers = append(out.Offers, c.Offers[id])
		}
	}
	if c.Proposal != nil {
		// While a new round's proposal is awaited, the one shown is the
		// last round's, with the feedback it had.
		feedback := c.FeedbackList()
		out.ProposalRound = c.Round
		if c.AwaitingAdjustment() {
			feedback, out.ProposalRound = c.LastRoundFeedback, c.Round-1
		}
		for _, f := range feedback {
			out.Feedback = append(out.Feedback, NegotiationFeedback{ProposalFeedback: f,
				Actor: t.actors[feedbackKey{c.ID, f.AgentID, f.ProposalVersion}]})
		}
	}
	out.Outcome = t.outcome(c)
	for _, g := range c.Gaps {
		ng := NegotiationGap{Gap: g}
		for _, sn := range c.Subnets {
			if sn.GapType == g.GapType && ng.SubChannelID == "" {
				ng.SubChannelID, ng.SubDemandID = sn.SubChannelID, sn.SubDemandID
			}
		}
		out.Gaps = append(out.Gaps, ng)
	}
	return out
}

// outcome is how c ended: its failure, its consensus or its compromise
// (nil while it runs).
func (t *treeFolds) outcome(c *negotiation.Channel) *NegotiationOutcome {
	switch fin := t.finalized[c.ID]; {
	case c.Failure != nil:
		f := c.Failure
		return &NegotiationOutcome{Kind: string(negotiation.ChannelStatusFailed), Proposal: f.LastProposal, Reason: f.Reason,
			ErrorCode: f.ErrorCode, Suggestion: f.Suggestion}
	case fin != nil:
		return &NegotiationOutcome{Kind: string(negotiation.ChannelStatusFinalized), Proposal: c.FinalProposal, Rounds: c.RoundsTaken,
			Participants: fin.Participants}
	case c.FinalProposal != nil:
		return &NegotiationOutcome{Kind: string(negotiation.ChannelStatusForceFinalized), Proposal: c.FinalProposal, Rounds: c.RoundsTaken,
			Confirmed: c.Confirmed, Optional: c.Optional}
	}
	return nil
}
