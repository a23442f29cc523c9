package timeline

import (
	"fmt"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

// The SSE bridge of the OpenAgents prototype: a frontend written against
// the OpenAgents prototype receives `{event, data, timestamp}` messages
// named channel_created, channel_status, agent_response, agent_feedback,
// negotiation_progress ("n/m"), proposal_sent, subnet_created,
// channel_completed and channel_failed. Which towow.* event gives which
// bridge event is the table bridgeRoutes (aliases.go), resolved through
// the alias table; this file folds a negotiation tree's events into those
// frames' data.

// BridgeFrame is one message of the SSE bridge: the bridge event's name
// and its data (the timestamp is the event's, added by whoever
// sends the frame).
type BridgeFrame struct {
	Event string
	Data  any
}

// Bridge turns the events of one negotiation tree, in log order, into the
// SSE bridge's frames. It is a fold: negotiation_progress counts the
// offers each channel received against the agents it asked, and
// channel_created carries the demand's understanding, so a Bridge must see
// every event of the tree from the start (a resumed stream folds the
// events before its cursor first and drops their frames). Not safe for
// concurrent use.
type Bridge struct {
	understood map[string]*negotiation.DemandUnderstood // by demand id
	asked      map[string]map[string]bool               // channel → agents asked for an offer
	answered   map[string]map[string]bool               // channel → agents that offered
}

// NewBridge returns a Bridge that has seen nothing yet.
func NewBridge() *Bridge {
	return &Bridge{understood: map[string]*negotiation.DemandUnderstood{}, asked: map[string]map[string]bool{},
		answered: map[string]map[string]bool{}}
}

// bridgeIndex is bridgeRoutes by the towow.* type each resolves to.
var bridgeIndex = func() map[event.EventType][]string {
	idx := map[event.EventType][]string{}
	for _, r := range BridgeRoutes() {
		if r.Type == "" {
			panic(fmt.Sprintf("timeline: bridge route %q names no event type", r.From))
		}
		idx[r.Type] = append(idx[r.Type], r.Event)
	}
	return idx
}()

// Frames folds p and returns its bridge frames: none for an event with no
// bridge counterpart, two for an offer (agent_response, then
// negotiation_progress).
func (b *Bridge) Frames(p event.Payload) []BridgeFrame {
	b.fold(p)
	var out []BridgeFrame
	for _, name := range bridgeIndex[p.EventType()] {
		if data := b.data(name, p); data != nil {
			out = append(out, BridgeFrame{Event: name, Data: data})
		}
	}
	return out
}

// fold keeps what later frames need.
func (b *Bridge) fold(p event.Payload) {
	switch e := p.(type) {
	case *negotiation.DemandUnderstood:
		b.understood[e.DemandID] = e
	case *negotiation.ChannelCreated:
		for _, a := range e.InvitedAgents {
			b.ask(e.ChannelID, a)
		}
		for _, c := range e.Candidates {
			b.ask(e.ChannelID, c.AgentID)
		}
	case *negotiation.ChannelInviteSent:
		b.ask(e.ChannelID, e.AgentID)
	case *negotiation.OfferRequested:
		b.ask(e.ChannelID, e.AgentID)
	case *negotiation.OfferSubmitted:
		b.ask(e.ChannelID, e.AgentID)
		if b.answered[e.ChannelID] == nil {
			b.answered[e.ChannelID] = map[string]bool{}
		}
		b.answered[e.ChannelID][e.AgentID] = true
	}
}

func (b *Bridge) ask(channel, agent string) {
	if agent == "" {
		return
	}
	if b.asked[channel] == nil {
		b.asked[channel] = map[string]bool{}
	}
	b.asked[channel][agent] = true
}

// The data of each bridge event: the prototype's fields first (what its
// transformers and notices sent), then what a frontend of this backend
// also needs (marked "beyond the prototype").

// BridgeEvents is each bridge event's name and its data's type (a zero
// value), in the prototype's order: a frame named Name carries a Data of
// that type. The API's document describes each bridge message from it.
var BridgeEvents = []BridgeFrame{
	{Event: "channel_created", Data: BridgeChannelCreated{}},
	{Event: "channel_status", Data: BridgeChannelStatus{}},
	{Event: "agent_response", Data: BridgeAgentResponse{}},
	{Event: "agent_feedback", Data: BridgeAgentFeedback{}},
	{Event: "negotiation_progress", Data: BridgeProgress{}},
	{Event: "proposal_sent", Data: BridgeProposalSent{}},
	{Event: "subnet_created", Data: BridgeSubnetCreated{}},
	{Event: "channel_completed", Data: BridgeChannelCompleted{}},
	{Event: "channel_failed", Data: BridgeChannelFailed{}},
}

// BridgeChannelCreated is channel_created's data: a channel opened for a demand, its candidates and the demand's understanding.
type BridgeChannelCreated struct {
	DemandID   string                        `json:"demand_id"`
	ChannelID  string                        `json:"channel_id"`
	Candidates []negotiation.Candidate       `json:"candidates"`
	Analysis   *negotiation.DemandUnderstood `json:"analysis"`
	// beyond the prototype: the parent channel of a sub-negotiation and its depth
	ParentChannelID string `json:"parent_channel_id,omitempty"`
	Depth           int    `json:"depth"`
}

// BridgeChannelStatus is channel_status's data: a channel moved from one status to another.
type BridgeChannelStatus struct {
	ChannelID string                    `json:"channel_id"`
	OldStatus negotiation.ChannelStatus `json:"old_status"`
	NewStatus negotiation.ChannelStatus `json:"new_status"`
	Reason    string                    `json:"reason"`
}

// BridgeChannelCompleted is channel_completed's data: a channel agreed on its final proposal (or was force-finalized).
type BridgeChannelCompleted struct {
	ChannelID     string               `json:"channel_id"`
	FinalProposal negotiation.Proposal `json:"final_proposal"`
	Participants  []string             `json:"participants"`
	// beyond the prototype: a force-finalized compromise and who still negotiated
	ForceFinalized       bool     `json:"force_finalized"`
	OptionalParticipants []string `json:"optional_participants,omitempty"`
}

// BridgeChannelFailed is channel_failed's data: a channel failed, and why.
type BridgeChannelFailed struct {
	ChannelID string                    `json:"channel_id"`
	Reason    negotiation.FailureReason `json:"reason"`
	// beyond the prototype
	ErrorCode string `json:"error_code,omitempty"`
}

// BridgeAgentResponse is agent_response's data: an agent's offer, or its decline.
type BridgeAgentResponse struct {
	AgentID   string `json:"agent_id"`
	ChannelID string `json:"channel_id"`
	// ResponseType is "proposal" (the prototype's only value), "decline",
	// or "no_answer" (the model could not answer for the agent).
	ResponseType string `json:"response_type" enum:"proposal,decline,no_answer"`
	Content      string `json:"content"`
	// beyond the prototype
	Decision negotiation.OfferDecision `json:"decision"`
}

// BridgeAgentFeedback is agent_feedback's data: an agent's feedback on a proposal.
type BridgeAgentFeedback struct {
	AgentID   string `json:"agent_id"`
	ChannelID string `json:"channel_id"`
	Accepted  bool   `json:"accepted"`
	Reason    string `json:"reason"`
	// beyond the prototype
	FeedbackType negotiation.FeedbackType `json:"feedback_type" enum:"accept,negotiate,withdraw"`
	Round        int                      `json:"round"`
}

// BridgeProgress is negotiation_progress's data: the offers a channel received against the agents it asked.
type BridgeProgress struct {
	ChannelID string `json:"channel_id"`
	AgentID   string `json:"agent_id"`
	Progress  string `json:"progress"` // offers received / agents asked, "3/5"
}

// BridgeProposalSent is proposal_sent's data: a proposal distributed for a round.
type BridgeProposalSent struct {
	ChannelID string               `json:"channel_id"`
	Proposal  negotiation.Proposal `json:"proposal"`
	// beyond the prototype
	Round int `json:"round"`
}

// BridgeSubnetCreated is subnet_created's data: a sub-negotiation opened for a gap.
type BridgeSubnetCreated struct {
	ChannelID string   `json:"channel_id"` // the parent channel
	Gaps      []string `json:"gaps"`
	Depth     int      `json:"depth"`
	// beyond the prototype: it started one sub-negotiation for all gaps,
	// this backend one per gap
	SubChannelID string `json:"sub_channel_id"`
	SubDemandID  string `json:"sub_demand_id"`
}

// data is the bridge event name's data for p (nil when p is not an event
// that bridge event is made from).
func (b *Bridge) data(name string, p event.Payload) any {
	switch e := p.(type) {
	case *negotiation.ChannelCreated:
		if name == "channel_created" {
			return BridgeChannelCreated{DemandID: e.DemandID, ChannelID: e.ChannelID, Candidates: nonNil(e.Candidates),
				Analysis: b.understood[e.DemandID], ParentChannelID: e.ParentChannel, Depth: e.RecursionDepth}
		}
	case *negotiation.ChannelStatusChanged:
		if name == "channel_status" {
			return BridgeChannelStatus{ChannelID: e.ChannelID, OldStatus: e.OldStatus, NewStatus: e.NewStatus, Reason: e.Reason}
		}
	case *negotiation.ProposalFinalized:
		if name == "channel_completed" {
			return BridgeChannelCompleted{ChannelID: e.ChannelID, FinalProposal: e.FinalProposal, Participants: nonNil(e.Participants)}
		}
	case *negotiation.NegotiationForceFinalized:
		if name == "channel_completed" {
			return BridgeChannelCompleted{ChannelID: e.ChannelID, FinalProposal: e.FinalProposal,
				Participants: nonNil(e.ConfirmedParticipants), ForceFinalized: true, OptionalParticipants: e.OptionalParticipants}
		}
	case *negotiation.NegotiationFailed:
		if name == "channel_failed" {
			return BridgeChannelFailed{ChannelID: e.ChannelID, Reason: e.Reason, ErrorCode: e.ErrorCode}
		}
	case *negotiation.OfferSubmitted:
		switch name {
		case "agent_response":
			r := BridgeAgentResponse{AgentID: e.AgentID, ChannelID: e.ChannelID, ResponseType: "proposal",
				Content: e.Contribution, Decision: e.Decision}
			switch e.Decision {
			case negotiation.OfferDecisionDecline:
				r.ResponseType, r.Content = "decline", e.DeclineReason
			case negotiation.OfferDecisionNoAnswer: // the model could not answer for the agent
				r.ResponseType, r.Content = "no_answer", ""
			}
			return r
		case "negotiation_progress":
			return BridgeProgress{ChannelID: e.ChannelID, AgentID: e.AgentID,
				Progress: fmt.Sprintf("%d/%d", len(b.answered[e.ChannelID]), len(b.asked[e.ChannelID]))}
		}
	case *negotiation.ProposalFeedback:
		if name == "agent_feedback" {
			return BridgeAgentFeedback{AgentID: e.AgentID, ChannelID: e.ChannelID, Accepted: e.FeedbackType == negotiation.FeedbackAccept,
				Reason: e.Reasoning, FeedbackType: e.FeedbackType, Round: e.Round}
		}
	case *negotiation.ProposalDistributed:
		if name == "proposal_sent" {
			return BridgeProposalSent{ChannelID: e.ChannelID, Proposal: e.Proposal, Round: e.Round}
		}
	case *negotiation.SubnetTriggered:
		if name == "subnet_created" {
			return BridgeSubnetCreated{ChannelID: e.ParentChannelID, Gaps: []string{e.GapType}, Depth: e.RecursionDepth,
				SubChannelID: e.SubChannelID, SubDemandID: e.SubDemandID}
		}
	}
	return nil
}

// nonNil is s, or an empty slice for nil (JSON [] rather than null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
