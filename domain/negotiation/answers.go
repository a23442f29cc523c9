package negotiation

// The answers an agent gives and the understanding of a demand: one shape
// each, shared by the prompt results of the llm package (prompts 1, 3 and
// 5), the external agents' request bodies and the events that record them.
//
// The json tags are those of the stored events (an answer's fields are
// inlined in its event), so they must not change. The other tags (enum,
// maxLength, maxItems, minimum, maximum, doc, required) are for the HTTP
// API, which validates and documents an external agent's answer with them;
// required:"false" marks a field that the API does not require although
// the stored event always writes it.

// OfferAnswer is an agent's answer to a demand: the
// part of an [Offer] the agent decides, whether its twin (prompt 3) or the
// agent itself (an external agent's offer) answers. [Channel.SubmitOffer]
// requires a contribution (贡献描述) unless the agent declines, and at
// least one condition (条件列表) for a conditional offer; the decline
// reason (拒绝原因) explains a decline, the reasoning (决策理由) any
// decision; the confidence is 0-100.
type OfferAnswer struct {
	Decision      OfferDecision `json:"decision" enum:"participate,decline,conditional"`
	Contribution  string        `json:"contribution" required:"false" maxLength:"2000" doc:"what the agent brings (required unless it declines)" personal:"true"`
	Conditions    []string      `json:"conditions,omitempty" maxItems:"20" doc:"required for conditional" personal:"true"`
	Reasoning     string        `json:"reasoning,omitempty" maxLength:"2000" personal:"true"`
	DeclineReason string        `json:"decline_reason,omitempty" maxLength:"2000" personal:"true"`
	Confidence    int           `json:"confidence,omitempty" minimum:"0" maximum:"100"`
}

// FeedbackAnswer is a participant's verdict on a proposal: the part of a [ProposalFeedback] the participant decides, whether
// its twin (prompt 5) or the agent itself (an external agent's feedback)
// answers. A negotiate needs an adjustment request ([Channel.SubmitFeedback]
// checks it); the confidence is 0-100. The enum tag lists what an external
// agent may send; a twin's answer may also be [FeedbackReject] (or
// [FeedbackNoAnswer] when the model could not answer for it), and a
// feedback that timed out is an accept.
type FeedbackAnswer struct {
	FeedbackType      FeedbackType `json:"feedback_type" enum:"accept,negotiate,withdraw"`
	Reasoning         string       `json:"reasoning" required:"false" maxLength:"2000" personal:"true"`
	AdjustmentRequest string       `json:"adjustment_request,omitempty" maxLength:"2000" doc:"what should change (for negotiate)" personal:"true"`
	Concerns          []string     `json:"concerns,omitempty" maxItems:"20" personal:"true"`
	Confidence        int          `json:"confidence,omitempty" minimum:"0" maximum:"100"`
	// ProposedChanges are the concrete changes a negotiate feedback asks
	// for: each a field, its new value and why.
	ProposedChanges []ProposedChange `json:"proposed_changes,omitempty" maxItems:"20"`
}

// ProposedChange is one change a participant asks of a proposal: which
// field, its new value, and why.
type ProposedChange struct {
	Field  string `json:"field" minLength:"1" maxLength:"200" doc:"what to change, e.g. timeline.start_date or my responsibility"`
	Value  string `json:"value" maxLength:"2000" doc:"the value asked for" personal:"true"`
	Reason string `json:"reason,omitempty" maxLength:"2000" personal:"true"`
}

// Understanding is a demand as understood by prompt 1: what
// the user asks for, why, which capabilities it needs and in which
// context. [DemandUnderstood] records it; the later prompts read it.
type Understanding struct {
	SurfaceDemand     string            `json:"surface_demand"`
	DeepUnderstanding DeepUnderstanding `json:"deep_understanding"`
	CapabilityTags    []string          `json:"capability_tags"`
	Needs             []Need            `json:"needs,omitempty"`
	Context           DemandContext     `json:"context"`
	Uncertainties     []string          `json:"uncertainties,omitempty"`
	Confidence        Confidence        `json:"confidence"`
}

// Understood returns the payload recording u as the understanding of
// demand demandID. The deep understanding and the context are always
// recorded, as objects that may be empty.
func (u Understanding) Understood(demandID string) *DemandUnderstood {
	return &DemandUnderstood{DemandID: demandID, SurfaceDemand: u.SurfaceDemand, CapabilityTags: u.CapabilityTags, Needs: u.Needs,
		Confidence: u.Confidence, DeepUnderstanding: &u.DeepUnderstanding, Context: &u.Context, Uncertainties: u.Uncertainties}
}

// Understanding returns the understanding e records; a deep understanding
// or a context that e lacks is zero.
func (e *DemandUnderstood) Understanding() Understanding {
	u := Understanding{SurfaceDemand: e.SurfaceDemand, CapabilityTags: e.CapabilityTags, Needs: e.Needs, Uncertainties: e.Uncertainties,
		Confidence: e.Confidence}
	if e.DeepUnderstanding != nil {
		u.DeepUnderstanding = *e.DeepUnderstanding
	}
	if e.Context != nil {
		u.Context = *e.Context
	}
	return u
}
