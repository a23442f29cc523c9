package domain

// FeedbackType is a participant's verdict on a proposal
// (001 §3.3.5, 002 §2.2; reject from 004).
type FeedbackType string

// Feedback types. Reject and withdraw both count against a proposal (004).
const (
	FeedbackAccept    FeedbackType = "accept"
	FeedbackNegotiate FeedbackType = "negotiate"
	FeedbackWithdraw  FeedbackType = "withdraw"
	FeedbackReject    FeedbackType = "reject"
)

// AggregationStarted is the payload of [EventAggregationStarted] (001 §4.6).
type AggregationStarted struct {
	ChannelID   string `json:"channel_id"`
	DemandID    string `json:"demand_id"`
	OffersCount int    `json:"offers_count"`
}

// EventType implements [Payload].
func (*AggregationStarted) EventType() EventType { return EventAggregationStarted }

// ProposalDistributed is the payload of [EventProposalDistributed]
// (001 §4.6). 002's flat proposal_version, summary, assignments, timeline
// and open_questions live in the nested [Proposal].
type ProposalDistributed struct {
	ChannelID string   `json:"channel_id"`
	DemandID  string   `json:"demand_id"`
	Proposal  Proposal `json:"proposal"`
	Round     int      `json:"round"`
}

// EventType implements [Payload].
func (*ProposalDistributed) EventType() EventType { return EventProposalDistributed }

// ProposalFeedback is the payload of [EventProposalFeedback]
// (001 §4.6; proposal_version and adjustment_request from 002 §2.2,
// concerns and confidence from 004's feedback contract).
type ProposalFeedback struct {
	ChannelID       string `json:"channel_id"`
	DemandID        string `json:"demand_id"`
	AgentID         string `json:"agent_id"`
	ProposalVersion int    `json:"proposal_version"`
	Round           int    `json:"round,omitempty"`
	FeedbackAnswer         // feedback_type, reasoning, adjustment_request, concerns, confidence
}

// EventType implements [Payload].
func (*ProposalFeedback) EventType() EventType { return EventProposalFeedback }

// ProposalAdjusting is the payload of [EventProposalAdjusting]. 002 defines
// the type without a payload; the fields are this catalog's choice.
type ProposalAdjusting struct {
	ChannelID string `json:"channel_id"`
	DemandID  string `json:"demand_id"`
	Round     int    `json:"round"` // the round the adjusted proposal is for
}

// EventType implements [Payload].
func (*ProposalAdjusting) EventType() EventType { return EventProposalAdjusting }

// ProposalFinalized is the payload of [EventProposalFinalized]
// (001 §4.6; participants and total_duration_seconds from 002 §2.2, whose
// negotiation_rounds is rounds_taken here).
type ProposalFinalized struct {
	ChannelID            string   `json:"channel_id"`
	DemandID             string   `json:"demand_id"`
	FinalProposal        Proposal `json:"final_proposal"`
	ParticipantsCount    int      `json:"participants_count"`
	RoundsTaken          int      `json:"rounds_taken"`
	Participants         []string `json:"participants,omitempty"` // agent ids
	TotalDurationSeconds int      `json:"total_duration_seconds"` // from the channel's opening (0 in older events)
}

// EventType implements [Payload].
func (*ProposalFinalized) EventType() EventType { return EventProposalFinalized }
