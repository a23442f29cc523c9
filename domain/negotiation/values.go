package negotiation

import "time"

// DemandStatus is the processing status of a [Demand].
type DemandStatus string

// Demand statuses.
const (
	DemandStatusProcessing DemandStatus = "processing"
	DemandStatusCompleted  DemandStatus = "completed"
	DemandStatusFailed     DemandStatus = "failed"
)

// Demand is a user's demand as understood by the system (需求).
type Demand struct {
	DemandID          string             `json:"demand_id"`    // e.g. "d-abc12345"
	RequesterID       string             `json:"requester_id"` // e.g. "agent_alice"
	RawInput          string             `json:"raw_input"`    // the user's original words
	SurfaceDemand     string             `json:"surface_demand"`
	DeepUnderstanding *DeepUnderstanding `json:"deep_understanding,omitempty"`
	CapabilityTags    []string           `json:"capability_tags"`
	Context           *DemandContext     `json:"context,omitempty"`
	Status            DemandStatus       `json:"status"`
	CreatedAt         time.Time          `json:"created_at"`
}

// DeepUnderstanding is the "deep understanding" of a demand produced by
// prompt 1 (深层理解): the motivation and preferences behind the words.
type DeepUnderstanding struct {
	Motivation        string   `json:"motivation,omitempty" personal:"true"`         // 动机
	LikelyPreferences []string `json:"likely_preferences,omitempty" personal:"true"` // 偏好列表
	EmotionalContext  string   `json:"emotional_context,omitempty" personal:"true"`  // 情绪上下文
}

// DemandContext is the context of a demand extracted by prompt 1
// (上下文: location, time, budget, ...). Dates and budgets are
// free text as written by the user or the LLM.
type DemandContext struct {
	Location          string `json:"location,omitempty"`
	ExpectedAttendees int    `json:"expected_attendees,omitempty"`
	Date              string `json:"date,omitempty"`
	Budget            string `json:"budget,omitempty"`
	// Urgency is how urgent the demand is (low | normal | high),
	// as prompt 1 judged it; absent means normal.
	Urgency Urgency `json:"urgency,omitempty"`
}

// OfferDecision is an agent's answer to a demand: participate, decline
// or conditional.
type OfferDecision string

// Offer decisions. There is no "need more information": an agent that
// wants something first answers conditional, naming its conditions.
const (
	OfferDecisionParticipate OfferDecision = "participate"
	OfferDecisionDecline     OfferDecision = "decline"
	OfferDecisionConditional OfferDecision = "conditional"
	// OfferDecisionNoAnswer: the agent's twin could not answer (the model
	// failed and the offer prompt's fallback stood in): neither a yes nor
	// a no. Only a twin's fallback gives it; an agent answers for itself.
	OfferDecisionNoAnswer OfferDecision = "no_answer"
)

// Participates reports whether the decision takes part (participate or
// conditional), rather than decline or give no answer.
func (d OfferDecision) Participates() bool {
	return d == OfferDecisionParticipate || d == OfferDecisionConditional
}

// Offer is an agent's response to a demand (响应).
type Offer struct {
	OfferID     string    `json:"offer_id,omitempty"` // e.g. "offer_001"
	AgentID     string    `json:"agent_id"`
	DemandID    string    `json:"demand_id"`
	OfferAnswer           // decision, contribution, conditions, reasoning, decline_reason, confidence
	SubmittedAt time.Time `json:"submitted_at,omitzero"`
}

// Gap is a missing capability in a proposal (缺口).
type Gap struct {
	GapType                 string   `json:"gap_type"`               // e.g. "摄影师" (photographer)
	Importance              int      `json:"importance"`             // 0-100
	Reason                  string   `json:"reason" personal:"true"` // why it matters
	SuggestedCapabilityTags []string `json:"suggested_capability_tags,omitempty"`
	Description             string   `json:"description,omitempty" personal:"true"` // what is missing, in a sentence
}

// AgentProfile describes the user behind a user agent (Agent 简介).
type AgentProfile struct {
	AgentID        string            `json:"agent_id"`                        // e.g. "user_agent_bob"
	UserName       string            `json:"user_name" personal:"true"`       // display name
	ProfileSummary string            `json:"profile_summary" personal:"true"` // 200-500 characters
	Location       string            `json:"location"`
	Tags           []string          `json:"tags"`                                   // capability tags used by filtering
	Capabilities   map[string]string `json:"capabilities,omitempty" personal:"true"` // detailed capabilities
	Interests      []string          `json:"interests,omitempty" personal:"true"`
	Availability   string            `json:"availability,omitempty" personal:"true"`
	// Mode says who answers for the agent: "twin" (default: the built-in
	// digital twin, driven by the LLM) or "external" (the agent submits its
	// offers and feedback itself through commands/the API).
	Mode AgentMode `json:"mode,omitempty" enum:"twin,external"`
}

// AgentMode says who answers for an agent.
type AgentMode string

// Agent modes. An empty mode means [AgentModeTwin].
const (
	AgentModeTwin     AgentMode = "twin"
	AgentModeExternal AgentMode = "external"
)

// IsExternal reports whether the agent answers for itself.
func (p AgentProfile) IsExternal() bool { return p.Mode == AgentModeExternal }

// Candidate is an agent chosen by smart filtering, as
// towow.filter.completed lists it.
type Candidate struct {
	AgentID        string `json:"agent_id"`
	DisplayName    string `json:"display_name,omitempty" personal:"true"`
	Reason         string `json:"reason" personal:"true"`    // why it was chosen
	RelevanceScore int    `json:"relevance_score,omitempty"` // 0-100: how well the agent fits
}

// SubDemand is the demand a sub-negotiation works on (one of prompt 8's
// sub_demands).
type SubDemand struct {
	Description    string   `json:"description" personal:"true"`
	CapabilityTags []string `json:"capability_tags,omitempty"`
	Priority       string   `json:"priority,omitempty"` // e.g. "high"
}
