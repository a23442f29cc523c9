package llm

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/towow/towow/domain"
)

// The reply of each prompt, declared once: the JSON object the prompt's
// template asks the model for (001 §3.3, 004; the output section of each
// prompts/*.tmpl). The parsers decode a reply into these types leniently
// (the field types of flex.go, and elements given as a bare id or name
// where an object was expected) and validate it into the prompt's result;
// the builtin brain fills them and encodes them as its reply, with every
// field the template asks for present.

// UnderstandReply is prompt 1's reply (需求理解).
type UnderstandReply struct {
	SurfaceDemand     Text                           `json:"surface_demand"`
	DeepUnderstanding Object[ReplyDeepUnderstanding] `json:"deep_understanding"`
	CapabilityTags    TextList                       `json:"capability_tags"`
	Needs             List[ReplyNeed]                `json:"needs"`
	Context           Object[ReplyDemandContext]     `json:"context"`
	Uncertainties     TextList                       `json:"uncertainties"`
	Confidence        Scalar                         `json:"confidence"` // high | medium | low
}

// ReplyNeed is one need of prompt 1's reply: a role, the capability tags
// that serve it and how many people (a number; absent means one). A bare
// string is taken for the role.
type ReplyNeed struct {
	Role           Text     `json:"role"`
	CapabilityTags TextList `json:"capability_tags"`
	Count          Scalar   `json:"count"`
}

// UnmarshalJSON accepts a need object or a bare role.
func (n *ReplyNeed) UnmarshalJSON(b []byte) error {
	type plain ReplyNeed
	return decodeObjectOrString(b, (*plain)(n), func(s string) { n.Role = Text(s) })
}

// ReplyDeepUnderstanding is the deep understanding of prompt 1's reply.
type ReplyDeepUnderstanding struct {
	Motivation        Text     `json:"motivation"`
	LikelyPreferences TextList `json:"likely_preferences"`
	EmotionalContext  Text     `json:"emotional_context"`
}

// ReplyDemandContext is the context of prompt 1's reply.
type ReplyDemandContext struct {
	Location          Text   `json:"location"`
	ExpectedAttendees Scalar `json:"expected_attendees"` // a number
	Date              Text   `json:"date"`
	Budget            Text   `json:"budget"`
	Urgency           Text   `json:"urgency"` // low | normal | high
}

// FilterReply is prompt 2's reply (智能筛选).
type FilterReply struct {
	Analysis          Text                 `json:"analysis"`
	DefinitelyRelated List[ReplyCandidate] `json:"definitely_related"`
	PossiblyRelated   List[ReplyCandidate] `json:"possibly_related"`
	TotalCandidates   Scalar               `json:"total_candidates"` // a number
}

// ReplyCandidate is one candidate of prompt 2's reply. A bare string is
// taken for its agent id.
type ReplyCandidate struct {
	AgentID     Text   `json:"agent_id"`
	DisplayName Text   `json:"display_name"`
	Reason      Text   `json:"reason"`
	MatchType   Text   `json:"match_type"` // explicit | inferred
	Confidence  Scalar `json:"confidence"` // 0..1
}

// UnmarshalJSON accepts a candidate object or a bare agent id.
func (c *ReplyCandidate) UnmarshalJSON(b []byte) error {
	type plain ReplyCandidate
	return decodeObjectOrString(b, (*plain)(c), func(s string) { c.AgentID = Text(s) })
}

// OfferReply is prompt 3's reply (响应生成).
type OfferReply struct {
	Decision      Text     `json:"decision"` // participate | decline | conditional
	Contribution  Text     `json:"contribution"`
	Conditions    TextList `json:"conditions"`
	Reasoning     Text     `json:"reasoning"`
	DeclineReason Text     `json:"decline_reason"`
	Confidence    Scalar   `json:"confidence"` // 0-100
}

// AggregateReply is prompt 4's reply (方案聚合): a proposal (001 §4.3).
type AggregateReply struct {
	Summary     Text                  `json:"summary"`
	Objective   Text                  `json:"objective"`
	Assignments List[ReplyAssignment] `json:"assignments"`
	// Alternates are willing agents beyond a need's count: named, not
	// assigned (issue 12).
	Alternates List[ReplyAssignment] `json:"alternates,omitempty"`
	Timeline   Object[ReplyTimeline] `json:"timeline"`
	Rationale  Text                  `json:"rationale"`
	Gaps       TextList              `json:"gaps"`
	Confidence Scalar                `json:"confidence"` // high | medium | low
	// SuccessCriteria and Risks are 004's prompt-6 fields, asked of
	// prompts 4 and 6; OpenQuestions is 002's open_questions (prompt 4).
	SuccessCriteria TextList `json:"success_criteria,omitempty"`
	Risks           TextList `json:"risks,omitempty"`
	OpenQuestions   TextList `json:"open_questions,omitempty"`
}

// ReplyAssignment is one assignment of a proposal reply (prompts 4, 6
// and 9). A bare string is taken for its agent id.
type ReplyAssignment struct {
	AgentID        Text     `json:"agent_id"`
	DisplayName    Text     `json:"display_name"`
	Role           Text     `json:"role"`
	Need           Text     `json:"need,omitempty"` // the role of the demand's need it serves
	Responsibility Text     `json:"responsibility"`
	Dependencies   TextList `json:"dependencies"`
	Notes          Text     `json:"notes"`
	// ConditionsAccepted says whether the proposal takes in all the
	// conditions of the agent's offer (002 §2.2); a boolean.
	ConditionsAccepted Scalar `json:"conditions_accepted,omitzero"`
}

// UnmarshalJSON accepts an assignment object or a bare agent id.
func (a *ReplyAssignment) UnmarshalJSON(b []byte) error {
	type plain ReplyAssignment
	return decodeObjectOrString(b, (*plain)(a), func(s string) { a.AgentID = Text(s) })
}

// ReplyTimeline is the timeline of a proposal reply (prompts 4 and 6).
type ReplyTimeline struct {
	StartDate  Text                 `json:"start_date"`
	Milestones List[ReplyMilestone] `json:"milestones"`
}

// ReplyMilestone is one milestone of a timeline. A bare string is taken
// for its name.
type ReplyMilestone struct {
	Name        Text `json:"name"`
	Date        Text `json:"date"`
	Deliverable Text `json:"deliverable"`
}

// UnmarshalJSON accepts a milestone object or a bare name.
func (m *ReplyMilestone) UnmarshalJSON(b []byte) error {
	type plain ReplyMilestone
	return decodeObjectOrString(b, (*plain)(m), func(s string) { m.Name = Text(s) })
}

// FeedbackReply is prompt 5's reply (方案反馈).
type FeedbackReply struct {
	FeedbackType      Text     `json:"feedback_type"` // accept | negotiate | withdraw
	Reasoning         Text     `json:"reasoning"`
	AdjustmentRequest Text     `json:"adjustment_request"`
	Concerns          TextList `json:"concerns"`
	Confidence        Scalar   `json:"confidence"` // 0-100
	// ProposedChanges: 001's object {"<field>": "<new value>", "reason":
	// "…"} or a list of {"field", "value" (or "new_value"), "reason"}.
	ProposedChanges ReplyChanges `json:"proposed_changes,omitzero"`
}

// ReplyChanges is prompt 5's proposed_changes in either of its shapes.
type ReplyChanges []ReplyProposedChange

// ReplyProposedChange is one proposed change of prompt 5's reply.
type ReplyProposedChange struct {
	Field    Text `json:"field"`
	Value    Text `json:"value"`
	NewValue Text `json:"new_value,omitempty"`
	Reason   Text `json:"reason"`
}

// UnmarshalJSON accepts a list of changes, one change object, or 001's
// object of field → new value with an optional "reason"; anything else
// (null, a bare string) is no change.
func (c *ReplyChanges) UnmarshalJSON(b []byte) error {
	*c = nil
	var list []ReplyProposedChange
	if json.Unmarshal(b, &list) == nil {
		*c = list
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil {
		return nil
	}
	if _, ok := obj["field"]; ok {
		var one ReplyProposedChange
		if json.Unmarshal(b, &one) == nil {
			*c = ReplyChanges{one}
		}
		return nil
	}
	var reason Text
	if r, ok := obj["reason"]; ok {
		_ = json.Unmarshal(r, &reason)
	}
	keys := slices.Sorted(maps.Keys(obj))
	for _, k := range keys {
		if k == "reason" {
			continue
		}
		var v Text
		_ = json.Unmarshal(obj[k], &v)
		*c = append(*c, ReplyProposedChange{Field: Text(k), Value: v, Reason: reason})
	}
	return nil
}

// AdjustReply is prompt 6's reply (方案调整): prompt 4's proposal plus
// the adjustment summary.
type AdjustReply struct {
	AggregateReply
	AdjustmentSummary Object[ReplyAdjustment] `json:"adjustment_summary"`
}

// ReplyAdjustment is the adjustment summary of prompt 6's reply.
type ReplyAdjustment struct {
	Round             Scalar              `json:"round"` // a number
	ChangesMade       List[ReplyChange]   `json:"changes_made"`
	RequestsAddressed TextList            `json:"requests_addressed"`
	RequestsDeclined  List[ReplyDeclined] `json:"requests_declined"`
}

// ReplyChange is one change of an adjustment summary. A bare string is
// taken for its aspect.
type ReplyChange struct {
	Aspect Text `json:"aspect"`
	Before Text `json:"before"`
	After  Text `json:"after"`
	Reason Text `json:"reason"`
}

// UnmarshalJSON accepts a change object or a bare description.
func (c *ReplyChange) UnmarshalJSON(b []byte) error {
	type plain ReplyChange
	return decodeObjectOrString(b, (*plain)(c), func(s string) { c.Aspect = Text(s) })
}

// ReplyDeclined is one declined request of an adjustment summary. A bare
// string is taken for the request.
type ReplyDeclined struct {
	Request Text `json:"request"`
	Reason  Text `json:"reason"`
}

// UnmarshalJSON accepts a declined-request object or a bare request.
func (d *ReplyDeclined) UnmarshalJSON(b []byte) error {
	type plain ReplyDeclined
	return decodeObjectOrString(b, (*plain)(d), func(s string) { d.Request = Text(s) })
}

// GapsReply is prompt 7's reply (缺口识别).
type GapsReply struct {
	IsComplete Scalar         `json:"is_complete"` // a boolean
	Analysis   Text           `json:"analysis"`
	Gaps       List[ReplyGap] `json:"gaps"`
}

// ReplyGap is one gap of prompt 7's reply. A bare string is taken for its
// gap type.
type ReplyGap struct {
	GapType                 Text     `json:"gap_type"`
	Importance              Scalar   `json:"importance"` // 0-100
	Reason                  Text     `json:"reason"`
	SuggestedCapabilityTags TextList `json:"suggested_capability_tags"`
	Description             Text     `json:"description,omitempty"` // 002 §2.2 GapInfo
}

// UnmarshalJSON accepts a gap object or a bare gap type.
func (g *ReplyGap) UnmarshalJSON(b []byte) error {
	type plain ReplyGap
	return decodeObjectOrString(b, (*plain)(g), func(s string) { g.GapType = Text(s) })
}

// RecursionReply is prompt 8's reply (递归判断): the decision, the three
// conditions of 001 §3.3.8 with their analyses, and the sub-demands.
type RecursionReply struct {
	ShouldRecurse      Scalar               `json:"should_recurse"` // a boolean
	Condition1Met      Scalar               `json:"condition_1_met"`
	Condition1Analysis Text                 `json:"condition_1_analysis"`
	Condition2Met      Scalar               `json:"condition_2_met"`
	Condition2Analysis Text                 `json:"condition_2_analysis"`
	Condition3Met      Scalar               `json:"condition_3_met"`
	Condition3Analysis Text                 `json:"condition_3_analysis"`
	SubDemands         List[ReplySubDemand] `json:"sub_demands"`
}

// ReplySubDemand is one sub-demand of prompt 8's reply. A bare string is
// taken for its description.
type ReplySubDemand struct {
	GapType        Text     `json:"gap_type"`
	Description    Text     `json:"description"`
	CapabilityTags TextList `json:"capability_tags"`
	Priority       Text     `json:"priority"` // high | medium | low
}

// UnmarshalJSON accepts a sub-demand object or a bare description.
func (s *ReplySubDemand) UnmarshalJSON(b []byte) error {
	type plain ReplySubDemand
	return decodeObjectOrString(b, (*plain)(s), func(v string) { s.Description = Text(v) })
}

// CompromiseReply is prompt 9's reply (妥协方案). The template does not
// ask for an objective, a timeline, a rationale or gaps, but a compromise
// is a proposal and a model may give them: they are read when present and
// not written when empty.
type CompromiseReply struct {
	Summary     Text                  `json:"summary"`
	Type        Text                  `json:"type"` // compromise
	Objective   Text                  `json:"objective,omitempty"`
	Assignments List[ReplyAssignment] `json:"assignments"`
	Timeline    Object[ReplyTimeline] `json:"timeline,omitzero"`
	Rationale   Text                  `json:"rationale,omitempty"`
	Gaps        TextList              `json:"gaps,omitempty"`
	Compromises List[ReplyCompromise] `json:"compromises"`
	Unresolved  TextList              `json:"unresolved"`
	Suggestions TextList              `json:"suggestions"`
	Confidence  Scalar                `json:"confidence"` // low | medium
}

// proposal is the proposal part of the reply, as prompt 4 gives it.
func (r *CompromiseReply) proposal() *AggregateReply {
	return &AggregateReply{Summary: r.Summary, Objective: r.Objective, Assignments: r.Assignments, Timeline: r.Timeline,
		Rationale: r.Rationale, Gaps: r.Gaps, Confidence: r.Confidence}
}

// ReplyCompromise is one compromise of prompt 9's reply. A bare string is
// taken for its issue.
type ReplyCompromise struct {
	Issue      Text `json:"issue"`
	Resolution Text `json:"resolution"`
	Rationale  Text `json:"rationale"`
}

// UnmarshalJSON accepts a compromise object or a bare issue.
func (c *ReplyCompromise) UnmarshalJSON(b []byte) error {
	type plain ReplyCompromise
	return decodeObjectOrString(b, (*plain)(c), func(s string) { c.Issue = Text(s) })
}

// TaskReply is prompt 10's reply (任务执行): whether the assignee did its
// part of a workflow task, what it did, or what stands in the way.
type TaskReply struct {
	Status  Text `json:"status"` // done | problem
	Summary Text `json:"summary"`
	Problem Text `json:"problem"`
}

// ConverseReply is prompt 11's reply (对话): one ReAct step of the
// conversation agent, a thought and either a tool with its arguments or
// the reply that ends the turn. The builtin brain writes one of the two
// shapes ({"thought", "tool", "args", "confidence"} or {"thought",
// "reply"}); the parser accepts both and decides (parseConverse).
type ConverseReply struct {
	Thought    Text      `json:"thought"`
	Tool       Text      `json:"tool,omitempty"`
	Args       ReplyArgs `json:"args,omitzero"`
	Confidence Scalar    `json:"confidence,omitzero"` // 0-1
	Reply      Text      `json:"reply,omitempty"`
}

// ReplyArgs are a tool's arguments in prompt 11's reply: a JSON object
// decoded into a domain.DecisionPayload (for get_node its node_id, for
// ask_user the question in reason). Decoding never fails: Present says the
// field was there and not null, OK that it was an object that decoded (a
// single id where after or before expect a list is taken as that list),
// Err why it did not. Make one to encode with ArgsOf.
type ReplyArgs struct {
	V       domain.DecisionPayload
	Present bool
	OK      bool
	Err     string
}

// ArgsOf returns the arguments p (encoded as an object, {} when empty).
func ArgsOf(p domain.DecisionPayload) ReplyArgs { return ReplyArgs{V: p, Present: true, OK: true} }

// UnmarshalJSON implements json.Unmarshaler.
func (a *ReplyArgs) UnmarshalJSON(b []byte) error {
	*a = ReplyArgs{}
	switch firstByte(b) {
	case 'n', 0:
		return nil
	case '{':
	default:
		a.Present, a.Err = true, "args is not an object"
		return nil
	}
	a.Present = true
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		a.Err = err.Error()
		return nil
	}
	for k, v := range fields { // "after": "task-1" → ["task-1"]
		if (strings.EqualFold(k, "after") || strings.EqualFold(k, "before")) && firstByte(v) == '"' {
			fields[k] = append(append([]byte{'['}, v...), ']')
		}
	}
	fixed, err := json.Marshal(fields)
	if err == nil {
		err = json.Unmarshal(fixed, &a.V)
	}
	if err != nil {
		a.V, a.Err = domain.DecisionPayload{}, err.Error()
		return nil
	}
	a.OK = true
	return nil
}

// MarshalJSON implements json.Marshaler: the payload, or null when not OK.
func (a ReplyArgs) MarshalJSON() ([]byte, error) {
	if !a.OK {
		return []byte("null"), nil
	}
	return marshalRaw(a.V)
}
