package negotiation

import "github.com/towow/towow/domain/event"

// GapIdentified is the payload of [EventGapIdentified] (what the
// willing offers, and the proposal when there is one, leave uncovered,
// and how complete that is; in older logs, an agreed proposal's gaps).
type GapIdentified struct {
	ChannelID         string `json:"channel_id"`
	DemandID          string `json:"demand_id"`
	Gaps              []Gap  `json:"gaps"`
	OverallCompletion int    `json:"overall_completion,omitempty"` // percent
	// IsComplete and Analysis are prompt 7's verdict and reasoning (absent
	// in older events). A complete proposal may still list
	// minor gaps.
	IsComplete bool   `json:"is_complete,omitempty"`
	Analysis   string `json:"analysis,omitempty" personal:"true"`
}

// EventType implements [event.Payload].
func (*GapIdentified) EventType() event.EventType { return EventGapIdentified }

// SubnetTriggered is the payload of [EventSubnetTriggered]
// (the gap it fills, gap_type, and the sub-demand at its depth).
type SubnetTriggered struct {
	ParentChannelID string     `json:"parent_channel_id"`
	ParentDemandID  string     `json:"parent_demand_id"`
	SubDemandID     string     `json:"sub_demand_id"`
	SubChannelID    string     `json:"sub_channel_id"`
	GapType         string     `json:"gap_type"`
	RecursionDepth  int        `json:"recursion_depth"` // depth of the sub-channel, ≥ 1
	SubDemand       *SubDemand `json:"sub_demand,omitempty"`
	// NeedCount is how many people the gap still needs (0 in older
	// events: one or more).
	NeedCount int `json:"need_count,omitempty"`
	// Decision is prompt 8's answer that triggered it (absent in older
	// events).
	Decision *RecursionDecision `json:"recursion_decision,omitempty"`
}

// RecursionDecision is prompt 8's answer as recorded: whether
// to recurse, the three conditions with their analyses, and the cost
// estimate the prompt was given.
type RecursionDecision struct {
	ShouldRecurse bool                 `json:"should_recurse"`
	Conditions    []RecursionCondition `json:"conditions,omitempty"`
	EstimatedCost *SubnetCost          `json:"estimated_cost,omitempty"`
	// Budget, when set, held sub-negotiations back: the tree's token
	// budget could not pay for all that the answer asked for.
	Budget *BudgetHold `json:"budget,omitempty"`
}

// BudgetHold records why a tree's token budget held sub-negotiations
// back: what it had spent, what each sub-negotiation was estimated to
// cost, the budget, and how many of those asked for it kept.
type BudgetHold struct {
	Limit     int `json:"limit"`
	Spent     int `json:"spent"`
	PerSubnet int `json:"per_subnet"`
	Asked     int `json:"asked"`
	Kept      int `json:"kept"`
}

// RecursionCondition is one of prompt 8's three conditions: 需求满足度
// (the gap matters), 利益相关方 (someone can fill it), 成本效益 (worth
// the cost).
type RecursionCondition struct {
	Name string `json:"name"`
	// Met is what the answer stated (absent: it did not say).
	Met      *bool  `json:"met,omitempty"`
	Analysis string `json:"analysis,omitempty" personal:"true"`
}

// SubnetCost is what a sub-negotiation is expected to cost
// (estimated_cost): LLM tokens and wall-clock seconds.
type SubnetCost struct {
	Tokens      int `json:"tokens"`
	TimeSeconds int `json:"time_seconds"`
}

// EventType implements [event.Payload].
func (*SubnetTriggered) EventType() event.EventType { return EventSubnetTriggered }

// SubnetDeclined is the payload of [EventSubnetDeclined] (prompt 8
// started no sub-negotiation for the gaps found, or the tree's budget
// held every one back).
type SubnetDeclined struct {
	ChannelID string             `json:"channel_id"`
	DemandID  string             `json:"demand_id"`
	Decision  *RecursionDecision `json:"recursion_decision,omitempty"`
}

// EventType implements [event.Payload].
func (*SubnetDeclined) EventType() event.EventType { return EventSubnetDeclined }

// SubnetCompleted is the payload of [EventSubnetCompleted]
// (whether it succeeded; result is the sub-channel's final proposal).
type SubnetCompleted struct {
	ParentChannelID string        `json:"parent_channel_id"`
	SubChannelID    string        `json:"sub_channel_id"`
	SubDemandID     string        `json:"sub_demand_id,omitempty"`
	Status          ChannelStatus `json:"status,omitempty" enum:"finalized,force_finalized,failed"` // the sub-channel's terminal status
	Success         bool          `json:"success"`
	Result          *Proposal     `json:"result,omitempty"`
	FailureReason   string        `json:"failure_reason,omitempty"`
}

// EventType implements [event.Payload].
func (*SubnetCompleted) EventType() event.EventType { return EventSubnetCompleted }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[GapIdentified]("Gaps (missing capabilities) were identified in a proposal."),
		event.NewSpec[SubnetTriggered]("A sub-negotiation was started to fill a gap."),
		event.NewSpec[SubnetDeclined]("Gaps were found, and no sub-negotiation was started for them."),
		event.NewSpec[SubnetCompleted]("A sub-negotiation ended, successfully or not."),
	)
}
