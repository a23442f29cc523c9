package negotiation

import "github.com/towow/towow/domain/event"

// FeedbackType is a participant's verdict on a proposal: accept,
// negotiate, withdraw or reject.
type FeedbackType string

// Feedback types. Reject and withdraw both count against a proposal.
const (
	FeedbackAccept    FeedbackType = "accept"
	FeedbackNegotiate FeedbackType = "negotiate"
	FeedbackWithdraw  FeedbackType = "withdraw"
	FeedbackReject    FeedbackType = "reject"
	// FeedbackNoAnswer: the participant's twin could not answer (the
	// model failed and the feedback prompt's fallback stood in). It is no
	// acceptance: it counts against the accept rate, never for it, and a
	// round most of whose members gave none is not decided on it.
	FeedbackNoAnswer FeedbackType = "no_answer"
)

// AggregationStarted is the payload of [EventAggregationStarted]: how many
// offers go into the proposal.
type AggregationStarted struct {
	ChannelID   string `json:"channel_id"`
	DemandID    string `json:"demand_id"`
	OffersCount int    `json:"offers_count"`
}

// EventType implements [event.Payload].
func (*AggregationStarted) EventType() event.EventType { return EventAggregationStarted }

// ProposalDistributed is the payload of [EventProposalDistributed]: the
// round and the whole [Proposal] (its version, summary, assignments,
// timeline and open questions).
type ProposalDistributed struct {
	ChannelID string   `json:"channel_id"`
	DemandID  string   `json:"demand_id"`
	Proposal  Proposal `json:"proposal"`
	Round     int      `json:"round"`
}

// EventType implements [event.Payload].
func (*ProposalDistributed) EventType() event.EventType { return EventProposalDistributed }

// ProposalFeedback is the payload of [EventProposalFeedback]: one
// participant's verdict on one proposal version, with what it asks to
// change, its concerns and its confidence.
type ProposalFeedback struct {
	ChannelID       string `json:"channel_id"`
	DemandID        string `json:"demand_id"`
	AgentID         string `json:"agent_id"`
	ProposalVersion int    `json:"proposal_version"`
	Round           int    `json:"round,omitempty"`
	FeedbackAnswer         // feedback_type, reasoning, adjustment_request, concerns, confidence
}

// EventType implements [event.Payload].
func (*ProposalFeedback) EventType() event.EventType { return EventProposalFeedback }

// ProposalAdjusting is the payload of [EventProposalAdjusting]: the round
// whose feedback the proposal is adjusted to.
type ProposalAdjusting struct {
	ChannelID string `json:"channel_id"`
	DemandID  string `json:"demand_id"`
	Round     int    `json:"round"` // the round the adjusted proposal is for
}

// EventType implements [event.Payload].
func (*ProposalAdjusting) EventType() event.EventType { return EventProposalAdjusting }

// ProposalFinalized is the payload of [EventProposalFinalized]: the final
// proposal, its participants, the rounds taken and the time from the
// channel's opening to the last feedback.
type ProposalFinalized struct {
	ChannelID            string   `json:"channel_id"`
	DemandID             string   `json:"demand_id"`
	FinalProposal        Proposal `json:"final_proposal"`
	ParticipantsCount    int      `json:"participants_count"`
	RoundsTaken          int      `json:"rounds_taken"`
	Participants         []string `json:"participants,omitempty"` // agent ids
	TotalDurationSeconds int      `json:"total_duration_seconds"` // from the channel's opening (0 in older events)
}

// EventType implements [event.Payload].
func (*ProposalFinalized) EventType() event.EventType { return EventProposalFinalized }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[AggregationStarted]("Aggregation of the received offers into a proposal started."),
		event.NewSpec[ProposalDistributed]("A proposal was distributed to the participants for review."),
		event.NewSpec[ProposalFeedback]("A participant gave feedback on a proposal: accept, negotiate, withdraw or reject."),
		event.NewSpec[ProposalAdjusting]("The proposal is being adjusted to the feedback of the last round."),
		event.NewSpec[ProposalFinalized]("The negotiation reached consensus on a final proposal."),
	)
}
