package domain

// GapIdentified is the payload of [EventGapIdentified]
// (001 §4.6; overall_completion from 002 §2.2 GapIdentifiedPayload).
type GapIdentified struct {
	ChannelID         string `json:"channel_id"`
	DemandID          string `json:"demand_id"`
	Gaps              []Gap  `json:"gaps"`
	OverallCompletion int    `json:"overall_completion,omitempty"` // percent
}

// EventType implements [Payload].
func (*GapIdentified) EventType() EventType { return EventGapIdentified }

// SubnetTriggered is the payload of [EventSubnetTriggered]
// (001 §4.6; recursion_depth and sub_demand from 002 §2.2
// SubnetTriggeredPayload, whose gap_being_addressed is gap_type here).
type SubnetTriggered struct {
	ParentChannelID string     `json:"parent_channel_id"`
	ParentDemandID  string     `json:"parent_demand_id"`
	SubDemandID     string     `json:"sub_demand_id"`
	SubChannelID    string     `json:"sub_channel_id"`
	GapType         string     `json:"gap_type"`
	RecursionDepth  int        `json:"recursion_depth"` // depth of the sub-channel, ≥ 1
	SubDemand       *SubDemand `json:"sub_demand,omitempty"`
	// NeedCount is how many people the gap still needs (issue 12; 0 in
	// events written before it: one or more).
	NeedCount int `json:"need_count,omitempty"`
}

// EventType implements [Payload].
func (*SubnetTriggered) EventType() EventType { return EventSubnetTriggered }

// SubnetCompleted is the payload of [EventSubnetCompleted]
// (002 §2.2 SubnetCompletedPayload; result is the sub-channel's final
// proposal, as in 000's subnet_completed message).
type SubnetCompleted struct {
	ParentChannelID string        `json:"parent_channel_id"`
	SubChannelID    string        `json:"sub_channel_id"`
	SubDemandID     string        `json:"sub_demand_id,omitempty"`
	Status          ChannelStatus `json:"status,omitempty"` // the sub-channel's terminal status
	Success         bool          `json:"success"`
	Result          *Proposal     `json:"result,omitempty"`
	FailureReason   string        `json:"failure_reason,omitempty"`
}

// EventType implements [Payload].
func (*SubnetCompleted) EventType() EventType { return EventSubnetCompleted }
