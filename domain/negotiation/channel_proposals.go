package negotiation

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
)

// Proposals: once offers close, the first proposal (prompt 4) opens round
// 1, or, with nobody willing, the compromise (prompt 9) ends the channel;
// each later round opens with the adjusted proposal (prompt 6), in which
// alternates replace who withdrew. The channel stamps every proposal it
// distributes.

// Propose distributes the first proposal (prompt 4) and opens round 1.
func (c *Channel) Propose(p Proposal, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Proposal != nil || c.Status.IsTerminal() {
		return nil, nil
	}
	if c.Status != ChannelStatusAggregating {
		return nil, event.Errorf(ErrInvalidTransition, "channel %s is %s: no proposal can be made before offers close", c.ID, c.Status)
	}
	members := c.ActiveParticipants()
	if len(members) == 0 {
		return nil, event.Errorf(ErrInvalidTransition, "channel %s has no participants to propose to", c.ID)
	}
	p = stamp(c, p, 1, now, members)
	return build(c).
		add(&NegotiationRoundStarted{ChannelID: c.ID, DemandID: c.DemandID, Round: 1, MaxRounds: c.Rules.MaxRounds}).
		to(ChannelStatusProposalSent, "proposal_ready").
		add(&ProposalDistributed{ChannelID: c.ID, DemandID: c.DemandID, Proposal: p, Round: 1}).
		to(ChannelStatusNegotiating, "proposal_distributed").
		done()
}

// FailNoParticipants ends a channel whose offers closed with nobody willing
// to take part, with prompt 9's compromise as the last word.
func (c *Channel) FailNoParticipants(compromise Proposal, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Status.IsTerminal() {
		return nil, nil
	}
	if c.Status != ChannelStatusAggregating || len(c.ActiveParticipants()) > 0 {
		return nil, event.Errorf(ErrInvalidTransition, "channel %s is %s with %d participants", c.ID, c.Status, len(c.ActiveParticipants()))
	}
	reason, code, msg := FailureNoParticipants, ErrNoParticipants, fmt.Sprintf("all %d invited agents that answered declined", len(c.Offers))
	noAnswers := 0
	for _, o := range c.Offers {
		if o.Decision == OfferDecisionNoAnswer {
			noAnswers++
		}
	}
	if noAnswers*2 > len(c.Offers) { // the model, not the agents, failed: no one declined
		reason, code, msg = FailureModelUnavailable, ErrModelUnavailable,
			fmt.Sprintf("the model could not answer for %d of the %d invited agents", noAnswers, len(c.Offers))
	}
	if len(c.Offers) == 0 {
		reason, code, msg = FailureNoResponsesTimeout, ErrNoOffers, fmt.Sprintf("none of the %d invited agents offered within %d s",
			len(c.Candidates), c.Rules.OfferTimeoutSeconds)
	}
	compromise.Type = ProposalTypeCompromise
	compromise = stamp(c, compromise, 1, now, nil)
	f := &NegotiationFailed{ChannelID: c.ID, DemandID: c.DemandID, Reason: reason, LastProposal: &compromise}
	if len(compromise.Suggestions) > 0 && reason != FailureModelUnavailable { // the model's failure asks nothing of the demand
		f.Suggestion = compromise.Suggestions[0]
	}
	return build(c).fail(code, f, msg)
}

// Adjust distributes the adjusted proposal (prompt 6) of the round that
// just started.
func (c *Channel) Adjust(p Proposal, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if !c.AwaitingAdjustment() {
		if c.Status == ChannelStatusNegotiating || c.Status.IsTerminal() {
			return nil, nil // distributed already, or over
		}
		return nil, event.Errorf(ErrInvalidTransition, "channel %s is %s: no round awaits an adjusted proposal", c.ID, c.Status)
	}
	members := c.ActiveParticipants()
	p = stamp(c, replaceWithdrawn(c, p), c.Proposal.Version+1, now, members)
	return build(c).
		to(ChannelStatusProposalSent, "proposal_adjusted").
		add(&ProposalDistributed{ChannelID: c.ID, DemandID: c.DemandID, Proposal: p, Round: c.Round}).
		to(ChannelStatusNegotiating, "proposal_distributed").
		done()
}

// stamp sets the engine-owned fields of a proposal of channel c and keeps
// only assignments of the given members (an LLM may not assign anyone
// else).
func stamp(c *Channel, p Proposal, version int, now time.Time, members []string) Proposal {
	p.ProposalID, p.DemandID, p.Version, p.CreatedAt = ProposalID(c.ID, version), c.DemandID, version, now
	if p.Type == "" {
		p.Type = ProposalTypeNormal
	}
	keep := func(list []Assignment, skip []Assignment) []Assignment {
		var kept []Assignment
		for _, a := range list {
			if slices.Contains(members, a.AgentID) && !slices.ContainsFunc(skip, func(b Assignment) bool { return b.AgentID == a.AgentID }) {
				if a.DisplayName == "" {
					a.DisplayName = c.DisplayName(a.AgentID)
				}
				kept = append(kept, a)
			}
		}
		return kept
	}
	p.Assignments = keep(p.Assignments, nil)
	p.Alternates = keep(p.Alternates, p.Assignments)
	return p
}

// replaceWithdrawn fills, in the adjusted proposal p, each place a
// withdrawn participant of c's current proposal leaves in its need with
// the first alternate of that need who is still in (the remaining willing
// candidates of that need), taking over the role and duties; the
// adjustment summary says who replaced whom. Only when no alternate is
// left does the place stay empty (gap identification then finds it). An
// adjusted proposal that names no alternates keeps the current ones.
func replaceWithdrawn(c *Channel, p Proposal) Proposal {
	if len(p.Alternates) == 0 { // an adjustment that does not name them keeps them standing by
		p.Alternates = c.Proposal.Alternates
	}
	active := c.ActiveParticipants()
	has := func(list []Assignment, id string) bool {
		return slices.ContainsFunc(list, func(a Assignment) bool { return a.AgentID == id })
	}
	for _, w := range c.Proposal.Assignments {
		if !c.Withdrawn[w.AgentID] || w.Need == "" {
			continue
		}
		slots, filled := 0, 0 // the need's places in the current proposal; those p fills with someone still in
		for _, a := range c.Proposal.Assignments {
			if a.Need == w.Need {
				slots++
			}
		}
		for _, a := range p.Assignments {
			if a.Need == w.Need && slices.Contains(active, a.AgentID) {
				filled++
			}
		}
		if filled >= slots {
			continue
		}
		for _, alt := range slices.Concat(p.Alternates, c.Proposal.Alternates) {
			if alt.Need != w.Need || !slices.Contains(active, alt.AgentID) || has(p.Assignments, alt.AgentID) {
				continue
			}
			p.Assignments = append(slices.Clone(p.Assignments), Assignment{AgentID: alt.AgentID, DisplayName: alt.DisplayName,
				Role: w.Role, Need: w.Need, Responsibility: w.Responsibility, Dependencies: w.Dependencies, ConditionsAccepted: alt.ConditionsAccepted,
				Notes: strings.TrimSpace("接替退出的" + c.DisplayName(w.AgentID) + "。" + alt.Notes)})
			p.Alternates = slices.DeleteFunc(slices.Clone(p.Alternates), func(a Assignment) bool { return a.AgentID == alt.AgentID })
			if filled+1 >= slots {
				p.Gaps = slices.DeleteFunc(slices.Clone(p.Gaps), func(g string) bool { return g == w.Need })
			}
			if p.AdjustmentSummary == nil {
				p.AdjustmentSummary = &AdjustmentSummary{Round: c.Round}
			}
			p.AdjustmentSummary.ChangesMade = append(p.AdjustmentSummary.ChangesMade, ProposalChange{Aspect: "替补",
				Before: c.DisplayName(w.AgentID) + "（" + w.Role + "）", After: c.DisplayName(alt.AgentID) + "（" + w.Role + "）",
				Reason: c.DisplayName(w.AgentID) + "退出，由同一需求的候补人选接替"})
			break
		}
	}
	return p
}
