package negotiation

import "github.com/towow/towow/domain/event"

// RoundOutcome is what the evaluation of a round's feedback decided
// (accept rate ≥ 0.8 finalize, < 0.5 fail, otherwise the next round, or
// force-finalize after the last round).
type RoundOutcome string

// Evaluation decisions.
const (
	RoundFinalize      RoundOutcome = "finalize"
	RoundNext          RoundOutcome = "next_round"
	RoundFail          RoundOutcome = "fail"
	RoundForceFinalize RoundOutcome = "force_finalize"
)

// FailureReason says why a negotiation failed. The field is free text; the
// constants are the reasons used by the design documents.
type FailureReason string

// Failure reasons: why a negotiation failed.
const (
	FailureLowAcceptance      FailureReason = "low_acceptance"       // accept rate < 0.5
	FailureNoFeedback         FailureReason = "no_feedback"          // no feedback after the last round
	FailureNoResponsesTimeout FailureReason = "no_responses_timeout" // no offer before the offer timeout
	FailureNegotiateTimeout   FailureReason = "negotiate_timeout"    // no feedback before the feedback timeout
	FailureStuckTimeout       FailureReason = "stuck_timeout"        // non-terminal for over 600 s
	FailureNoCandidates       FailureReason = "no_candidates"        // smart filtering found nobody (TOWOW_FILTER_001)
	FailureNoParticipants     FailureReason = "no_participants"      // every invited agent declined
	FailureModelUnavailable   FailureReason = "llm_unavailable"      // the model could not answer for most of those asked
	FailureDemandRejected     FailureReason = "demand_rejected"      // unclear demand (towow.demand.rejected, TOWOW_DEMAND_001)
)

// FeedbackEvaluated is the payload of [EventFeedbackEvaluated]: the
// round's tally and what it decided. Rejects count both reject and
// withdraw feedback.
type FeedbackEvaluated struct {
	ChannelID  string `json:"channel_id"`
	Accepts    int    `json:"accepts"`
	Rejects    int    `json:"rejects"`
	Negotiates int    `json:"negotiates"`
	// Replaced counts withdrawals an alternate will fill (not in Rejects,
	// not in the rate).
	Replaced int `json:"replaced,omitempty"`
	// NoAnswers counts the members whose twin could not answer (the
	// model failed): in the rate's total, never accepts.
	NoAnswers  int          `json:"no_answers,omitempty"`
	AcceptRate float64      `json:"accept_rate"` // accepts / (total + no answers), 0..1
	Round      int          `json:"round"`
	Decision   RoundOutcome `json:"decision"`
}

// EventType implements [event.Payload].
func (*FeedbackEvaluated) EventType() event.EventType { return EventFeedbackEvaluated }

// NegotiationRoundStarted is the payload of [EventNegotiationRoundStarted]:
// the round, out of the channel's maximum.
type NegotiationRoundStarted struct {
	ChannelID string `json:"channel_id"`
	DemandID  string `json:"demand_id"`
	Round     int    `json:"round"`      // 1-based
	MaxRounds int    `json:"max_rounds"` // the channel's MaxRounds (5 by default)
}

// EventType implements [event.Payload].
func (*NegotiationRoundStarted) EventType() event.EventType { return EventNegotiationRoundStarted }

// NegotiationForceFinalized is the payload of
// [EventNegotiationForceFinalized]: the last round ended with an accept rate
// between 0.5 and 0.8. Who accepted is confirmed, who still negotiated
// is optional; the other fields follow towow.proposal.finalized and
// towow.feedback.evaluated.
type NegotiationForceFinalized struct {
	ChannelID             string   `json:"channel_id"`
	DemandID              string   `json:"demand_id"`
	FinalProposal         Proposal `json:"final_proposal"`
	ConfirmedParticipants []string `json:"confirmed_participants"` // accepted the last proposal
	OptionalParticipants  []string `json:"optional_participants"`  // still negotiating
	RoundsTaken           int      `json:"rounds_taken"`
	AcceptRate            float64  `json:"accept_rate"`
}

// EventType implements [event.Payload].
func (*NegotiationForceFinalized) EventType() event.EventType {
	return EventNegotiationForceFinalized
}

// NegotiationFailed is the payload of [EventNegotiationFailed]: the reason,
// its TOWOW_* code and the last proposal.
type NegotiationFailed struct {
	ChannelID    string        `json:"channel_id"`
	DemandID     string        `json:"demand_id"`
	Reason       FailureReason `json:"reason"`
	LastProposal *Proposal     `json:"last_proposal,omitempty"`
	ErrorCode    string        `json:"error_code,omitempty"`                 // e.g. TOWOW_FILTER_001
	Suggestion   string        `json:"suggestion,omitempty" personal:"true"` // what the user can do next
}

// EventType implements [event.Payload].
func (*NegotiationFailed) EventType() event.EventType { return EventNegotiationFailed }

// NegotiationCompleted is the payload of [EventNegotiationCompleted]: a
// channel reached its terminal status and every sub-negotiation it spawned
// has ended too. It is the last event of a channel and carries the whole
// result of its negotiation tree.
type NegotiationCompleted struct {
	ChannelID     string            `json:"channel_id"`
	DemandID      string            `json:"demand_id"`
	Status        ChannelStatus     `json:"status" enum:"finalized,force_finalized,failed"`
	FinalProposal *Proposal         `json:"final_proposal,omitempty"`
	RoundsTaken   int               `json:"rounds_taken,omitempty"`
	SubResults    []SubnetCompleted `json:"sub_results,omitempty"`
	// MergedPlan is the final proposal with the agreed sub-negotiations'
	// assignments merged in, each marked with its sub-channel, without the
	// gaps they filled; absent when no sub-negotiation agreed.
	MergedPlan *Proposal `json:"merged_plan,omitempty"`
	// RecursionDecision is, in older logs, prompt 8's answer when it
	// decided against sub-negotiations (now on towow.subnet.declined).
	RecursionDecision *RecursionDecision `json:"recursion_decision,omitempty"`
}

// EventType implements [event.Payload].
func (*NegotiationCompleted) EventType() event.EventType { return EventNegotiationCompleted }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[FeedbackEvaluated]("The feedback of a round was counted and the next step decided."),
		event.NewSpec[NegotiationRoundStarted]("A new negotiation round started."),
		event.NewSpec[NegotiationForceFinalized]("The last round ended without consensus; the proposal was force-finalized."),
		event.NewSpec[NegotiationFailed]("The negotiation failed."),
		event.NewSpec[NegotiationCompleted]("A channel and all its sub-negotiations ended; carries the result of the tree."),
	)
}

// EndedStreams: a channel's completion ends its channel and demand streams.
func (e *NegotiationCompleted) EndedStreams() []string {
	return []string{ChannelStream(e.ChannelID), DemandStream(e.DemandID)}
}

// EndedStreams: a demand that failed before it had a channel ends its
// demand stream (a channel's failure ends nothing until its completion).
func (e *NegotiationFailed) EndedStreams() []string {
	if e.ChannelID != "" {
		return nil
	}
	return []string{DemandStream(e.DemandID)}
}
