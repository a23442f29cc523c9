package negotiation

import (
	"time"

	"github.com/towow/towow/domain/event"
)

// ChannelStatus is a state of the channel state machine (see
// CanTransition).
type ChannelStatus string

// Channel statuses.
const (
	ChannelStatusCreated        ChannelStatus = "created"
	ChannelStatusBroadcasting   ChannelStatus = "broadcasting"
	ChannelStatusCollecting     ChannelStatus = "collecting"
	ChannelStatusAggregating    ChannelStatus = "aggregating"
	ChannelStatusProposalSent   ChannelStatus = "proposal_sent"
	ChannelStatusNegotiating    ChannelStatus = "negotiating"
	ChannelStatusFinalized      ChannelStatus = "finalized"
	ChannelStatusForceFinalized ChannelStatus = "force_finalized"
	ChannelStatusFailed         ChannelStatus = "failed"
)

// ChannelStatuses lists the channel statuses, in the order a channel
// reaches them.
var ChannelStatuses = []ChannelStatus{ChannelStatusCreated, ChannelStatusBroadcasting, ChannelStatusCollecting,
	ChannelStatusAggregating, ChannelStatusProposalSent, ChannelStatusNegotiating, ChannelStatusFinalized,
	ChannelStatusForceFinalized, ChannelStatusFailed}

// IsTerminal reports whether s is a final status (finalized,
// force_finalized or failed).
func (s ChannelStatus) IsTerminal() bool {
	switch s {
	case ChannelStatusFinalized, ChannelStatusForceFinalized, ChannelStatusFailed:
		return true
	}
	return false
}

// ChannelCreated is the payload of [EventChannelCreated]: who is invited,
// where the channel sits in the tree, and the rules it runs by.
type ChannelCreated struct {
	ChannelID         string   `json:"channel_id"`
	DemandID          string   `json:"demand_id"`
	ParticipantsCount int      `json:"participants_count"`
	InvitedAgents     []string `json:"invited_agents,omitempty"`
	ParentChannel     string   `json:"parent_channel,omitempty"` // set for a sub-negotiation
	ParentDemandID    string   `json:"parent_demand_id,omitempty"`
	RootDemandID      string   `json:"root_demand_id,omitempty"` // the tree's root demand (correlation id)
	RecursionDepth    int      `json:"recursion_depth"`          // 0 for a root channel
	// Candidates are the invited agents with the reason each was chosen.
	Candidates []Candidate `json:"candidates,omitempty"`
	// The channel's rules, fixed at creation so that every later decision
	// (and a replay) uses the same ones.
	MaxRounds              int `json:"max_rounds,omitempty"`
	OfferTimeoutSeconds    int `json:"offer_timeout_seconds,omitempty"`
	FeedbackTimeoutSeconds int `json:"feedback_timeout_seconds,omitempty"`
	StuckTimeoutSeconds    int `json:"stuck_timeout_seconds,omitempty"`
	MaxDepth               int `json:"max_depth,omitempty"` // sub-negotiation depth limit
	// AcceptPercent and FailPercent are the round thresholds (absent in
	// older events: the design's 80 and 50).
	AcceptPercent int `json:"accept_percent,omitempty"`
	FailPercent   int `json:"fail_percent,omitempty"`
	// CreatedAt is when the channel opened (absent in older events): the
	// start of towow.proposal.finalized's total_duration_seconds.
	CreatedAt time.Time `json:"created_at,omitzero"`
}

// EventType implements [event.Payload].
func (*ChannelCreated) EventType() event.EventType { return EventChannelCreated }

// ChannelInviteSent is the payload of [EventChannelInviteSent]: one agent
// invited, with the demand's summary and why it was chosen.
type ChannelInviteSent struct {
	ChannelID     string `json:"channel_id"`
	AgentID       string `json:"agent_id"`
	DemandSummary string `json:"demand_summary" personal:"true"`
	DemandID      string `json:"demand_id,omitempty"`
	DisplayName   string `json:"display_name,omitempty" personal:"true"`
	// Reason is why the agent was invited: the filter's reason for a
	// candidate the channel was created with, or a fork's add_agent.
	Reason string `json:"reason,omitempty" personal:"true"`
	// Broadcast marks the invitation of a candidate the channel was
	// created with, sent when the demand is broadcast (absent: a candidate
	// added after the channel opened, a fork's add_agent). Read models
	// count the invitation once, from towow.channel.created.
	Broadcast bool `json:"broadcast,omitempty"`
}

// EventType implements [event.Payload].
func (*ChannelInviteSent) EventType() event.EventType { return EventChannelInviteSent }

// ChannelStatusChanged is the payload of [EventChannelStatusChanged]: one
// move of the state machine.
type ChannelStatusChanged struct {
	ChannelID string        `json:"channel_id"`
	OldStatus ChannelStatus `json:"old_status"`
	NewStatus ChannelStatus `json:"new_status"`
	Reason    string        `json:"reason,omitempty"` // e.g. "broadcast_complete"
}

// EventType implements [event.Payload].
func (*ChannelStatusChanged) EventType() event.EventType { return EventChannelStatusChanged }

// ChannelClosed is the payload of [EventChannelClosed]: the terminal
// status and why.
type ChannelClosed struct {
	ChannelID string        `json:"channel_id"`
	Status    ChannelStatus `json:"status" enum:"finalized,force_finalized,failed"` // the terminal status
	Reason    string        `json:"reason,omitempty"`
}

// EventType implements [event.Payload].
func (*ChannelClosed) EventType() event.EventType { return EventChannelClosed }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[ChannelCreated]("A negotiation channel was created for a demand or sub-demand."),
		event.NewSpec[ChannelInviteSent]("An agent was invited to a negotiation channel."),
		event.NewSpec[ChannelStatusChanged]("The channel state machine moved from one status to another."),
		event.NewSpec[ChannelClosed]("A negotiation channel was closed in a terminal status."),
	)
}
