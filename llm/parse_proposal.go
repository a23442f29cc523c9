package llm

import (
	"strings"

	"github.com/towow/towow/domain"
)

// Parsers of the proposal prompts: 4 (aggregate), 6 (adjust), 9
// (compromise). They share the proposal shape of 001 §4.3.

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
func buildProposal(raw *AggregateReply, allowed *allowedAgents, demand *domain.Understanding, typ domain.ProposalType) (domain.Proposal, error) {
	def := domain.ConfidenceMedium
	if typ == domain.ProposalTypeCompromise {
		def = domain.ConfidenceLow
	}
	conf, ok := confidenceLevel(raw.Confidence, def)
	if !ok {
		return domain.Proposal{}, invalid("unknown confidence %q", raw.Confidence.Str)
	}
	p := domain.Proposal{
		Type:        typ,
		Summary:     clip(string(raw.Summary), maxTextRunes),
		Objective:   clip(string(raw.Objective), maxTextRunes),
		Assignments: []domain.Assignment{},
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
	read := func(list List[ReplyAssignment]) []domain.Assignment {
		var out []domain.Assignment
		for _, ra := range list {
			id, ok := allowed.idx.resolve(string(ra.AgentID))
			if !ok || seen[id] {
				continue
			}
			seen[id] = true
			a := domain.Assignment{
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
		return domain.Proposal{}, invalid("no assignment names a known agent (%d given)", len(raw.Assignments))
	}
	p.Alternates = read(raw.Alternates)
	if needs := demand.Needs; len(needs) > 0 {
		p.Assignments, p.Alternates, p.Gaps = domain.FitToNeeds(needs, p.Assignments, p.Alternates, p.Gaps)
	}
	if raw.Timeline.OK {
		tl := &domain.Timeline{StartDate: clip(string(raw.Timeline.V.StartDate), maxShortRunes)}
		for _, m := range raw.Timeline.V.Milestones {
			ms := domain.Milestone{
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
func defaultSummary(demand *domain.Understanding, typ domain.ProposalType) string {
	prefix := "协作方案"
	if typ == domain.ProposalTypeCompromise {
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

// ---- 4 方案聚合

// parseAggregate parses prompt 4's reply: a normal proposal assigning only
// agents that made an offer.
func parseAggregate(text string, in *AggregateInput) (ProposalResult, error) {
	var raw AggregateReply
	if err := decode(text, &raw, proposalKeys...); err != nil {
		return ProposalResult{}, err
	}
	allowed := newAllowed()
	for _, o := range in.Offers {
		if o.Decision != domain.OfferDecisionDecline {
			allowed.addOffer(o)
		}
	}
	p, err := buildProposal(&raw, allowed, &in.Demand, domain.ProposalTypeNormal)
	if err != nil {
		return ProposalResult{}, err
	}
	return ProposalResult{Proposal: p}, nil
}

// ---- 6 方案调整

// parseAdjust parses prompt 6's reply: a normal proposal assigning only
// the remaining participants, with an adjustment summary whose round is
// the input's.
func parseAdjust(text string, in *AdjustInput) (ProposalResult, error) {
	var raw AdjustReply
	if err := decode(text, &raw, append(proposalKeys, "adjustment_summary")...); err != nil {
		return ProposalResult{}, err
	}
	allowed := newAllowed()
	for _, o := range in.Participants {
		allowed.addOffer(o)
	}
	p, err := buildProposal(&raw.AggregateReply, allowed, &in.Demand, domain.ProposalTypeNormal)
	if err != nil {
		return ProposalResult{}, err
	}
	adj := raw.AdjustmentSummary.V
	sum := &domain.AdjustmentSummary{
		Round:             in.Round,
		RequestsAddressed: cleanList(adj.RequestsAddressed, maxTextRunes, maxListItems),
	}
	for _, c := range adj.ChangesMade {
		ch := domain.ProposalChange{
			Aspect: clip(string(c.Aspect), maxShortRunes),
			Before: clip(string(c.Before), maxTextRunes),
			After:  clip(string(c.After), maxTextRunes),
			Reason: clip(string(c.Reason), maxTextRunes),
		}
		if ch != (domain.ProposalChange{}) && len(sum.ChangesMade) < maxListItems {
			sum.ChangesMade = append(sum.ChangesMade, ch)
		}
	}
	for _, d := range adj.RequestsDeclined {
		dr := domain.DeclinedRequest{Request: clip(string(d.Request), maxTextRunes), Reason: clip(string(d.Reason), maxTextRunes)}
		if dr.Request != "" && len(sum.RequestsDeclined) < maxListItems {
			sum.RequestsDeclined = append(sum.RequestsDeclined, dr)
		}
	}
	p.AdjustmentSummary = sum
	return ProposalResult{Proposal: p}, nil
}

// ---- 9 妥协方案

// parseCompromise parses prompt 9's reply: a compromise proposal assigning
// only agents of the available resources or of non-declining offers. Its
// confidence is at most medium (001 §3.3.9: "low|medium").
func parseCompromise(text string, in *CompromiseInput) (ProposalResult, error) {
	var raw CompromiseReply
	if err := decode(text, &raw, append(proposalKeys, "compromises", "suggestions")...); err != nil {
		return ProposalResult{}, err
	}
	allowed := newAllowed()
	for _, a := range in.Available {
		allowed.addOffer(OfferView{AgentID: a.AgentID, DisplayName: a.DisplayName, Contribution: a.Responsibility})
	}
	for _, o := range in.Offers {
		if o.Decision != domain.OfferDecisionDecline {
			allowed.addOffer(o)
		}
	}
	p, err := buildProposal(raw.proposal(), allowed, &in.Demand, domain.ProposalTypeCompromise)
	if err != nil {
		return ProposalResult{}, err
	}
	if p.Confidence == domain.ConfidenceHigh {
		p.Confidence = domain.ConfidenceMedium
	}
	for _, c := range raw.Compromises {
		cp := domain.Compromise{
			Issue:      clip(string(c.Issue), maxTextRunes),
			Resolution: clip(string(c.Resolution), maxTextRunes),
			Rationale:  clip(string(c.Rationale), maxTextRunes),
		}
		if cp.Issue != "" && len(p.Compromises) < maxListItems {
			p.Compromises = append(p.Compromises, cp)
		}
	}
	p.Unresolved = cleanList(raw.Unresolved, maxTextRunes, maxListItems)
	p.Suggestions = cleanList(raw.Suggestions, maxTextRunes, maxListItems)
	return ProposalResult{Proposal: p}, nil
}
