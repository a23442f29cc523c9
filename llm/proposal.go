package llm

import (
	"strings"

	"github.com/towow/towow/domain/negotiation"
)

// The proposal shape shared by prompts 4 (aggregate), 6 (adjust) and 9
// (compromise): the views of offers and feedback they read, the reply's
// assignments and timeline, and how a reply becomes a negotiation.Proposal.

// OfferView is one offer as the aggregation prompts see it, with the
// matchmaker's word on its agent (prompt 2's reason and relevance score:
// where the agent is, how well its profile fits), so that of several
// agents offering the same thing the plan can take the one who fits best.
type OfferView struct {
	AgentID      string                    `json:"agent_id"`
	DisplayName  string                    `json:"display_name"`
	Decision     negotiation.OfferDecision `json:"decision"`
	Contribution string                    `json:"contribution"`
	Conditions   []string                  `json:"conditions,omitempty"`
	Reasoning    string                    `json:"reasoning,omitempty"`
	MatchReason  string                    `json:"match_reason,omitempty"`
	Relevance    int                       `json:"relevance_score,omitempty"`
}

// setsConditions says whether the offer came with conditions (a
// conditional offer, or conditions listed), which a proposal must take in
// for its conditions_accepted.
func (o OfferView) setsConditions() bool {
	return o.Decision == negotiation.OfferDecisionConditional || len(o.Conditions) > 0
}

// FeedbackView is one participant's feedback as prompts 6, 7 and 9 see it.
type FeedbackView struct {
	AgentID           string                       `json:"agent_id"`
	DisplayName       string                       `json:"display_name"`
	FeedbackType      negotiation.FeedbackType     `json:"feedback_type"`
	Reasoning         string                       `json:"reasoning,omitempty"`
	AdjustmentRequest string                       `json:"adjustment_request,omitempty"`
	Concerns          []string                     `json:"concerns,omitempty"`
	ProposedChanges   []negotiation.ProposedChange `json:"proposed_changes,omitempty"`
}

// ProposalResult is the validated output of prompts 4, 6 and 9: a proposal
// whose assignments name only agents from the input (at most one assignment
// per agent). The engine sets ids, version, demand id and timestamps.
type ProposalResult struct {
	Proposal negotiation.Proposal `json:"proposal"`
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
	// conditions of the agent's offer; a boolean.
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

// proposalKeys are the top-level keys that identify a proposal object.
var proposalKeys = []string{"summary", "assignments", "objective"}

// allowedAgents is the set of agents a proposal may assign, with what the
// input says about each (display name, contribution).
type allowedAgents struct {
	idx          *agentIndex
	contribution map[string]string
	// conditional are the agents whose offers set conditions.
	conditional map[string]bool
}

// newAllowed returns an empty set.
func newAllowed() *allowedAgents {
	return &allowedAgents{idx: newAgentIndex(), contribution: map[string]string{}, conditional: map[string]bool{}}
}

// addOffer allows the agent of an offer.
func (a *allowedAgents) addOffer(o OfferView) {
	a.idx.add(o.AgentID, o.DisplayName)
	id := strings.TrimSpace(o.AgentID)
	if a.contribution[id] == "" {
		a.contribution[id] = strings.TrimSpace(o.Contribution)
	}
	if o.setsConditions() {
		a.conditional[id] = true
	}
}

// conditionsAccepted is an assignment's conditions_accepted: true for an
// agent whose offer set no conditions (nothing to accept), else what the
// reply says, and false when it says nothing readable: a proposal takes in
// a condition only when its author says so.
func (a *allowedAgents) conditionsAccepted(id string, said Scalar) bool {
	if !a.conditional[id] {
		return true
	}
	v, ok := boolOf(said)
	return ok && v
}

// buildProposal validates the fields common to prompts 4, 6 and 9. The
// assignments keep only allowed agents, once each; when agents were
// allowed, at least one must remain.
func buildProposal(raw *AggregateReply, allowed *allowedAgents, demand *negotiation.Understanding, typ negotiation.ProposalType) (negotiation.Proposal, error) {
	def := negotiation.ConfidenceMedium
	if typ == negotiation.ProposalTypeCompromise {
		def = negotiation.ConfidenceLow
	}
	conf, ok := confidenceLevel(raw.Confidence, def)
	if !ok {
		return negotiation.Proposal{}, invalid("unknown confidence %q", raw.Confidence.Str)
	}
	p := negotiation.Proposal{
		Type:        typ,
		Summary:     clip(string(raw.Summary), maxTextRunes),
		Objective:   clip(string(raw.Objective), maxTextRunes),
		Assignments: []negotiation.Assignment{},
		Rationale:   clip(string(raw.Rationale), maxTextRunes),
		Gaps:        cleanList(raw.Gaps, maxTextRunes, maxListItems),
		Confidence:  conf,

		SuccessCriteria: cleanList(raw.SuccessCriteria, maxTextRunes, maxListItems),
		Risks:           cleanList(raw.Risks, maxTextRunes, maxListItems),
		OpenQuestions:   cleanList(raw.OpenQuestions, maxTextRunes, maxListItems),
	}
	if p.Summary == "" {
		p.Summary = defaultSummary(demand, typ)
	}
	seen := map[string]bool{}
	read := func(list List[ReplyAssignment]) []negotiation.Assignment {
		var out []negotiation.Assignment
		for _, ra := range list {
			id, ok := allowed.idx.resolve(string(ra.AgentID))
			if !ok || seen[id] {
				continue
			}
			seen[id] = true
			a := negotiation.Assignment{
				AgentID:            id,
				DisplayName:        allowed.idx.names[id],
				Role:               clip(string(ra.Role), maxShortRunes),
				Need:               clip(string(ra.Need), maxShortRunes),
				Responsibility:     clip(string(ra.Responsibility), maxTextRunes),
				Dependencies:       cleanList(ra.Dependencies, maxShortRunes, maxListItems),
				Notes:              clip(string(ra.Notes), maxTextRunes),
				ConditionsAccepted: allowed.conditionsAccepted(id, ra.ConditionsAccepted),
			}
			if a.DisplayName == "" {
				a.DisplayName = clip(string(ra.DisplayName), maxShortRunes)
			}
			if a.Responsibility == "" {
				a.Responsibility = clip(allowed.contribution[id], maxTextRunes)
			}
			if a.Role == "" {
				a.Role = roleFrom(allowed.contribution[id])
			}
			out = append(out, a)
			if len(out) == maxListItems {
				break
			}
		}
		return out
	}
	p.Assignments = append(p.Assignments, read(raw.Assignments)...)
	if !allowed.idx.empty() && len(p.Assignments) == 0 {
		return negotiation.Proposal{}, invalid("no assignment names a known agent (%d given)", len(raw.Assignments))
	}
	p.Alternates = read(raw.Alternates)
	if needs := demand.Needs; len(needs) > 0 {
		p.Assignments, p.Alternates, p.Gaps = negotiation.FitToNeeds(needs, p.Assignments, p.Alternates, p.Gaps)
	}
	if raw.Timeline.OK {
		tl := &negotiation.Timeline{StartDate: clip(string(raw.Timeline.V.StartDate), maxShortRunes)}
		for _, m := range raw.Timeline.V.Milestones {
			ms := negotiation.Milestone{
				Name:        clip(string(m.Name), maxShortRunes),
				Date:        clip(string(m.Date), maxShortRunes),
				Deliverable: clip(string(m.Deliverable), maxTextRunes),
			}
			if ms.Name == "" && ms.Deliverable == "" {
				continue
			}
			tl.Milestones = append(tl.Milestones, ms)
			if len(tl.Milestones) == maxListItems {
				break
			}
		}
		if tl.StartDate != "" || len(tl.Milestones) > 0 {
			p.Timeline = tl
		}
	}
	return p, nil
}

// defaultSummary is the summary of a proposal whose reply gave none.
func defaultSummary(demand *negotiation.Understanding, typ negotiation.ProposalType) string {
	prefix := "协作方案"
	if typ == negotiation.ProposalTypeCompromise {
		prefix = "妥协方案"
	}
	if s := clip(demand.SurfaceDemand, maxTextRunes); s != "" {
		return prefix + "：" + s
	}
	return prefix
}

// roleFrom derives a role name from an offer's contribution.
func roleFrom(contribution string) string {
	if r := clip(contribution, 30); r != "" {
		return r
	}
	return "参与者"
}
