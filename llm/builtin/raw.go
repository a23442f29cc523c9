package builtin

// The raw reply shapes a real model is asked for (001 §3.3, 004). Every
// field is always present, as a model following the prompt writes it; the
// llm package's parser turns these into its typed results.

type rawDeep struct {
	Motivation        string   `json:"motivation"`
	LikelyPreferences []string `json:"likely_preferences"`
	EmotionalContext  string   `json:"emotional_context"`
}

type rawContext struct {
	Location          string `json:"location"`
	ExpectedAttendees int    `json:"expected_attendees"`
	Date              string `json:"date"`
	Budget            string `json:"budget"`
}

// rawUnderstanding is prompt 1's reply.
type rawUnderstanding struct {
	SurfaceDemand     string     `json:"surface_demand"`
	DeepUnderstanding rawDeep    `json:"deep_understanding"`
	CapabilityTags    []string   `json:"capability_tags"`
	Context           rawContext `json:"context"`
	Uncertainties     []string   `json:"uncertainties"`
	Confidence        string     `json:"confidence"`
}

type rawCandidate struct {
	AgentID     string  `json:"agent_id"`
	DisplayName string  `json:"display_name"`
	Reason      string  `json:"reason"`
	MatchType   string  `json:"match_type"`
	Confidence  float64 `json:"confidence"`
}

// rawFilter is prompt 2's reply.
type rawFilter struct {
	Analysis          string         `json:"analysis"`
	DefinitelyRelated []rawCandidate `json:"definitely_related"`
	PossiblyRelated   []rawCandidate `json:"possibly_related"`
	TotalCandidates   int            `json:"total_candidates"`
}

// rawOffer is prompt 3's reply.
type rawOffer struct {
	Decision      string   `json:"decision"`
	Contribution  string   `json:"contribution"`
	Conditions    []string `json:"conditions"`
	Reasoning     string   `json:"reasoning"`
	DeclineReason string   `json:"decline_reason"`
	Confidence    int      `json:"confidence"`
}

type rawAssignment struct {
	AgentID        string   `json:"agent_id"`
	DisplayName    string   `json:"display_name"`
	Role           string   `json:"role"`
	Responsibility string   `json:"responsibility"`
	Dependencies   []string `json:"dependencies"`
	Notes          string   `json:"notes"`
}

type rawMilestone struct {
	Name        string `json:"name"`
	Date        string `json:"date"`
	Deliverable string `json:"deliverable"`
}

type rawTimeline struct {
	StartDate  string         `json:"start_date"`
	Milestones []rawMilestone `json:"milestones"`
}

// rawProposal is prompt 4's reply.
type rawProposal struct {
	Summary     string          `json:"summary"`
	Objective   string          `json:"objective"`
	Assignments []rawAssignment `json:"assignments"`
	Timeline    rawTimeline     `json:"timeline"`
	Rationale   string          `json:"rationale"`
	Gaps        []string        `json:"gaps"`
	Confidence  string          `json:"confidence"`
}

type rawChange struct {
	Aspect string `json:"aspect"`
	Before string `json:"before"`
	After  string `json:"after"`
	Reason string `json:"reason"`
}

type rawDeclined struct {
	Request string `json:"request"`
	Reason  string `json:"reason"`
}

type rawAdjustmentSummary struct {
	Round             int           `json:"round"`
	ChangesMade       []rawChange   `json:"changes_made"`
	RequestsAddressed []string      `json:"requests_addressed"`
	RequestsDeclined  []rawDeclined `json:"requests_declined"`
}

// rawAdjusted is prompt 6's reply: prompt 4's shape plus the adjustment
// summary.
type rawAdjusted struct {
	rawProposal
	AdjustmentSummary rawAdjustmentSummary `json:"adjustment_summary"`
}

// rawFeedback is prompt 5's reply.
type rawFeedback struct {
	FeedbackType      string   `json:"feedback_type"`
	Reasoning         string   `json:"reasoning"`
	AdjustmentRequest string   `json:"adjustment_request"`
	Concerns          []string `json:"concerns"`
	Confidence        int      `json:"confidence"`
}

type rawGap struct {
	GapType                 string   `json:"gap_type"`
	Importance              int      `json:"importance"`
	Reason                  string   `json:"reason"`
	SuggestedCapabilityTags []string `json:"suggested_capability_tags"`
}

// rawGaps is prompt 7's reply.
type rawGaps struct {
	IsComplete bool     `json:"is_complete"`
	Analysis   string   `json:"analysis"`
	Gaps       []rawGap `json:"gaps"`
}

type rawSubDemand struct {
	GapType        string   `json:"gap_type"`
	Description    string   `json:"description"`
	CapabilityTags []string `json:"capability_tags"`
	Priority       string   `json:"priority"`
}

// rawRecursion is prompt 8's reply.
type rawRecursion struct {
	ShouldRecurse      bool           `json:"should_recurse"`
	Condition1Met      bool           `json:"condition_1_met"`
	Condition1Analysis string         `json:"condition_1_analysis"`
	Condition2Met      bool           `json:"condition_2_met"`
	Condition2Analysis string         `json:"condition_2_analysis"`
	Condition3Met      bool           `json:"condition_3_met"`
	Condition3Analysis string         `json:"condition_3_analysis"`
	SubDemands         []rawSubDemand `json:"sub_demands"`
}

type rawCompromiseItem struct {
	Issue      string `json:"issue"`
	Resolution string `json:"resolution"`
	Rationale  string `json:"rationale"`
}

// rawCompromise is prompt 9's reply.
type rawCompromise struct {
	Summary     string              `json:"summary"`
	Type        string              `json:"type"`
	Assignments []rawAssignment     `json:"assignments"`
	Compromises []rawCompromiseItem `json:"compromises"`
	Unresolved  []string            `json:"unresolved"`
	Suggestions []string            `json:"suggestions"`
	Confidence  string              `json:"confidence"`
}

// nonNil returns s, or an empty slice when s is nil, so that JSON has []
// rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
