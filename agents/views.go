package agents

import (
	"github.com/towow/towow/domain"
	"github.com/towow/towow/llm"
)

// understanding is the demand as the prompts see it: its recorded
// understanding, or only its raw input before prompt 1 answered.
func understanding(d *domain.DemandState) domain.Understanding {
	if d.Understanding == nil {
		return domain.Understanding{SurfaceDemand: d.RawInput}
	}
	return d.Understanding.Understanding()
}

// demandOf is the domain view of a demand used when broadcasting.
func demandOf(d *domain.DemandState) domain.Demand {
	out := domain.Demand{DemandID: d.ID, RequesterID: d.UserID, RawInput: d.RawInput, Status: domain.DemandStatusProcessing}
	if u := d.Understanding; u != nil {
		out.SurfaceDemand, out.CapabilityTags, out.Context, out.DeepUnderstanding = u.SurfaceDemand, u.CapabilityTags, u.Context, u.DeepUnderstanding
	}
	return out
}

func offerView(c *domain.Channel, agentID string) llm.OfferView {
	o := c.Offers[agentID]
	return llm.OfferView{AgentID: agentID, DisplayName: c.DisplayName(agentID), Decision: o.Decision,
		Contribution: o.Contribution, Conditions: o.Conditions, Reasoning: o.Reasoning}
}

// participantViews are the offers of the channel's active participants.
func participantViews(c *domain.Channel) []llm.OfferView {
	var out []llm.OfferView
	for _, id := range c.ActiveParticipants() {
		out = append(out, offerView(c, id))
	}
	return out
}

// allOfferViews are every offer received, declines included.
func allOfferViews(c *domain.Channel) []llm.OfferView {
	var out []llm.OfferView
	for _, id := range c.OfferOrder {
		out = append(out, offerView(c, id))
	}
	return out
}

func feedbackViews(c *domain.Channel, fbs []domain.ProposalFeedback) []llm.FeedbackView {
	out := make([]llm.FeedbackView, len(fbs))
	for i, f := range fbs {
		out[i] = llm.FeedbackView{AgentID: f.AgentID, DisplayName: c.DisplayName(f.AgentID), FeedbackType: f.FeedbackType,
			Reasoning: f.Reasoning, AdjustmentRequest: f.AdjustmentRequest, Concerns: f.Concerns}
	}
	return out
}

// assignmentOf is the agent's assignment in p, nil if none.
func assignmentOf(p *domain.Proposal, agentID string) *domain.Assignment {
	if p == nil {
		return nil
	}
	for i := range p.Assignments {
		if p.Assignments[i].AgentID == agentID {
			a := p.Assignments[i]
			return &a
		}
	}
	return nil
}

// assignmentsOf keeps the assignments of the given agents.
func assignmentsOf(p *domain.Proposal, agentIDs []string) []domain.Assignment {
	var out []domain.Assignment
	for _, id := range agentIDs {
		if a := assignmentOf(p, id); a != nil {
			out = append(out, *a)
		}
	}
	return out
}
