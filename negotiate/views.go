package negotiate

import (
	"cmp"
	"slices"
	"time"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

// demandOf is the domain view of a demand used when broadcasting.
func demandOf(d *negotiation.DemandState) negotiation.Demand {
	out := negotiation.Demand{DemandID: d.ID, RequesterID: d.UserID, RawInput: d.RawInput, Status: negotiation.DemandStatusProcessing}
	if u := d.Understanding; u != nil {
		out.SurfaceDemand, out.CapabilityTags, out.Context, out.DeepUnderstanding = u.SurfaceDemand, u.CapabilityTags, u.Context, u.DeepUnderstanding
	}
	return out
}

// offerView is the agent's offer with why the channel invited it.
func offerView(c *negotiation.Channel, agentID string) llm.OfferView {
	o := c.Offers[agentID]
	cand, _ := c.Candidate(agentID)
	return llm.OfferView{AgentID: agentID, DisplayName: c.DisplayName(agentID), Decision: o.Decision,
		Contribution: o.Contribution, Conditions: o.Conditions, Reasoning: o.Reasoning,
		MatchReason: cand.Reason, Relevance: cand.RelevanceScore}
}

// participantViews are the offers of the channel's active participants,
// in invitation order.
func participantViews(c *negotiation.Channel) []llm.OfferView {
	var out []llm.OfferView
	for _, id := range invitationOrder(c, c.ActiveParticipants()) {
		out = append(out, offerView(c, id))
	}
	return out
}

// willingViews are the offers of every agent who offered to take part,
// withdrawn since or not, in invitation order: the same whenever they are
// read after the offers closed.
func willingViews(c *negotiation.Channel) []llm.OfferView {
	var out []llm.OfferView
	for _, id := range invitationOrder(c, c.Willing()) {
		out = append(out, offerView(c, id))
	}
	return out
}

// allOfferViews are every offer received, declines included, in
// invitation order.
func allOfferViews(c *negotiation.Channel) []llm.OfferView {
	var out []llm.OfferView
	for _, id := range invitationOrder(c, c.OfferOrder) {
		out = append(out, offerView(c, id))
	}
	return out
}

// invitationOrder sorts agent ids as the channel invited them (any it did
// not invite last, as given). A prompt's input then does not depend on the
// order in which concurrent offers happened to commit, so the same
// negotiation asks the same questions (a fork can reuse their answers).
func invitationOrder(c *negotiation.Channel, ids []string) []string {
	rank := make(map[string]int, len(c.Candidates))
	for i, cand := range c.Candidates {
		rank[cand.AgentID] = i
	}
	at := func(id string) int {
		if r, ok := rank[id]; ok {
			return r
		}
		return len(c.Candidates)
	}
	out := slices.Clone(ids)
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(at(a), at(b)) })
	return out
}

func feedbackViews(c *negotiation.Channel, fbs []negotiation.ProposalFeedback) []llm.FeedbackView {
	out := make([]llm.FeedbackView, len(fbs))
	for i, f := range fbs {
		out[i] = llm.FeedbackView{AgentID: f.AgentID, DisplayName: c.DisplayName(f.AgentID), FeedbackType: f.FeedbackType,
			Reasoning: f.Reasoning, AdjustmentRequest: f.AdjustmentRequest, Concerns: f.Concerns, ProposedChanges: f.ProposedChanges}
	}
	return out
}

// assignmentOf is the agent's assignment in p, nil if none.
func assignmentOf(p *negotiation.Proposal, agentID string) *negotiation.Assignment {
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
func assignmentsOf(p *negotiation.Proposal, agentIDs []string) []negotiation.Assignment {
	var out []negotiation.Assignment
	for _, id := range agentIDs {
		if a := assignmentOf(p, id); a != nil {
			out = append(out, *a)
		}
	}
	return out
}

// promptProposal is a proposal as the prompts see it: without its
// creation time, a system timestamp the model has no use for, which would
// make the same question differ from one run to the next (a fork could
// not reuse its answer).
func promptProposal(p negotiation.Proposal) negotiation.Proposal {
	p.CreatedAt = time.Time{}
	return p
}
