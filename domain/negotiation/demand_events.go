package negotiation

import "github.com/towow/towow/domain/event"

// Urgency is how urgent a broadcast demand is: low, normal or high.
type Urgency string

// Urgency levels.
const (
	UrgencyLow    Urgency = "low"
	UrgencyNormal Urgency = "normal"
	UrgencyHigh   Urgency = "high"
)

// Valid reports whether u is one of the urgency levels.
func (u Urgency) Valid() bool {
	return u == UrgencyLow || u == UrgencyNormal || u == UrgencyHigh
}

// DemandSubmitted is the payload of [EventDemandSubmitted]: the user's
// words, and for a sub-demand its place in the tree.
type DemandSubmitted struct {
	DemandID          string             `json:"demand_id"`
	UserID            string             `json:"user_id"`
	RawInput          string             `json:"raw_input" personal:"true"`
	SurfaceDemand     string             `json:"surface_demand,omitempty" personal:"true"`
	DeepUnderstanding *DeepUnderstanding `json:"deep_understanding,omitempty"`
	// The fields below are set for a sub-demand spawned to fill a gap.
	RootDemandID    string   `json:"root_demand_id,omitempty"` // the negotiation tree's root demand
	ParentDemandID  string   `json:"parent_demand_id,omitempty"`
	ParentChannelID string   `json:"parent_channel_id,omitempty"`
	RecursionDepth  int      `json:"recursion_depth,omitempty"` // 0 for a root demand
	GapType         string   `json:"gap_type,omitempty"`
	CapabilityTags  []string `json:"capability_tags,omitempty"` // hint from prompt 8
	// NeedCount is how many people the gap still needs: the
	// parent need's count less its assignees; 0 when unknown.
	NeedCount int `json:"need_count,omitempty"`
	// Clarifies is the rejected demand this one answers (the user's
	// clarification).
	Clarifies string `json:"clarifies,omitempty"`
}

// EventType implements [event.Payload].
func (*DemandSubmitted) EventType() event.EventType { return EventDemandSubmitted }

// DemandUnderstood is the payload of [EventDemandUnderstood]
// (the optional fields are the rest of prompt 1's output).
type DemandUnderstood struct {
	DemandID          string             `json:"demand_id"`
	SurfaceDemand     string             `json:"surface_demand" personal:"true"`
	CapabilityTags    []string           `json:"capability_tags"`
	Needs             []Need             `json:"needs,omitempty"` // absent in older events (see NeedsOf)
	Confidence        Confidence         `json:"confidence"`
	DeepUnderstanding *DeepUnderstanding `json:"deep_understanding,omitempty"`
	Context           *DemandContext     `json:"context,omitempty"`
	Uncertainties     []string           `json:"uncertainties,omitempty" personal:"true"`
}

// EventType implements [event.Payload].
func (*DemandUnderstood) EventType() event.EventType { return EventDemandUnderstood }

// DemandBroadcast is the payload of [EventDemandBroadcast]
// (the optional fields tell the agents who asks, what for, where and how
// urgently).
type DemandBroadcast struct {
	ChannelID       string   `json:"channel_id"`
	DemandID        string   `json:"demand_id"`
	RecipientsCount int      `json:"recipients_count"`
	RequesterID     string   `json:"requester_id,omitempty"`
	SurfaceDemand   string   `json:"surface_demand,omitempty" personal:"true"`
	CapabilityTags  []string `json:"capability_tags,omitempty"`
	LocationHint    string   `json:"location_hint,omitempty"`
	Urgency         Urgency  `json:"urgency,omitempty"` // absent means normal
}

// EventType implements [event.Payload].
func (*DemandBroadcast) EventType() event.EventType { return EventDemandBroadcast }

// DemandAccepted is the payload of [EventDemandAccepted]: the demand was
// taken on and given a channel.
type DemandAccepted struct {
	DemandID       string `json:"demand_id"`
	ChannelID      string `json:"channel_id"`
	CandidateCount int    `json:"candidate_count"`
}

// EventType implements [event.Payload].
func (*DemandAccepted) EventType() event.EventType { return EventDemandAccepted }

// DemandRejected is the payload of [EventDemandRejected]: the demand will
// not be negotiated, because nothing in it maps to a capability
// ([RejectUnclear]) or nobody in the network serves any of its needs
// ([RejectNoMatch]). Reason says which; the other fields are what the
// user is told, what they can do, what to clarify and which needs nobody
// serves. A towow.negotiation.failed follows it in the same commit, so
// everything that waits for a negotiation's end hears of it.
type DemandRejected struct {
	DemandID      string   `json:"demand_id"`
	Reason        string   `json:"reason"`
	Message       string   `json:"message,omitempty" personal:"true"`
	Suggestion    string   `json:"suggestion,omitempty" personal:"true"`
	Questions     []string `json:"questions,omitempty" personal:"true"`
	UnservedNeeds []string `json:"unserved_needs,omitempty"` // roles
}

// Rejection reasons of [DemandRejected].
const (
	RejectUnclear = "unclear"  // nothing in the text maps to a capability
	RejectNoMatch = "no_match" // nobody in the network serves any need
)

// EventType implements [event.Payload].
func (*DemandRejected) EventType() event.EventType { return EventDemandRejected }

// FilterStarted is the payload of [EventFilterStarted]: how many agents
// the filter considers (as towow.filter.completed reports it).
type FilterStarted struct {
	DemandID    string `json:"demand_id"`
	TotalAgents int    `json:"total_agents,omitempty"` // agents considered
}

// EventType implements [event.Payload].
func (*FilterStarted) EventType() event.EventType { return EventFilterStarted }

// FilterCompleted is the payload of [EventFilterCompleted]
// (the candidates, out of how many agents, and how long it took).
type FilterCompleted struct {
	DemandID         string      `json:"demand_id"`
	ChannelID        string      `json:"channel_id"`
	CandidatesCount  int         `json:"candidates_count"`
	Candidates       []Candidate `json:"candidates"`
	TotalAgents      int         `json:"total_agents,omitempty"`
	FilterDurationMS int         `json:"filter_duration_ms,omitempty"`
}

// EventType implements [event.Payload].
func (*FilterCompleted) EventType() event.EventType { return EventFilterCompleted }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[DemandSubmitted]("A user submitted a demand in their own words."),
		event.NewSpec[DemandUnderstood]("The demand was understood: surface demand, capability tags and confidence."),
		event.NewSpec[DemandBroadcast]("The demand was broadcast to the candidate agents of a channel."),
		event.NewSpec[DemandAccepted]("The demand was accepted for processing and assigned a channel."),
		event.NewSpec[DemandRejected]("The demand was rejected, e.g. because no suitable agent was found."),
		event.NewSpec[FilterStarted]("Smart filtering of the agents for a demand started."),
		event.NewSpec[FilterCompleted]("Smart filtering chose the candidate agents for a demand."),
	)
}
