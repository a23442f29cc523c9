package negotiation

import (
	"fmt"
	"maps"
	"slices"

	"github.com/towow/towow/domain/event"
)

// As soon as the offers are in, gap identification (prompt 7) finds what
// the willing offers leave uncovered, while the rounds go on; the
// recursion decision (prompt 8) triggers sub-negotiations for it right
// then. The channel completes, with one merged plan, once it is agreed,
// its gaps are analysed and decided on, and every sub-negotiation it
// triggered has ended; a failure completes it at once (a sub-negotiation
// still running then ends on its own, and ends the tree).

// subnetTree is the gap analysis and what follows it: the gaps found, the
// sub-negotiations triggered (or declined) and their results, and the
// completion. A Channel embeds it.
type subnetTree struct {
	GapsDone  bool
	Gaps      []Gap
	Subnets   []SubnetTriggered           // in trigger order
	Declined  bool                        // prompt 8 triggered none
	subResult map[string]*SubnetCompleted // sub channel id → result
	// placed is, per sub channel id, how many assignees of the proposal
	// under review when the sub-negotiation was triggered (or of the first
	// one after, when none was yet) served its gap: what the parent held
	// then, so that the merged plan can tell whether it lost some since.
	placed    map[string]int
	Completed bool
	// MergedPlan is the completion's merged plan (nil without
	// sub-negotiations that added to it).
	MergedPlan *Proposal
}

// apply evolves the tree by one event of the channel's stream (others
// leave it as it is); current is the proposal under review then (nil:
// none yet, or not known).
func (t *subnetTree) apply(p event.Payload, current *Proposal) {
	switch e := p.(type) {
	case *GapIdentified:
		t.GapsDone, t.Gaps = true, e.Gaps
	case *SubnetTriggered:
		t.Subnets = append(t.Subnets, *e)
		if current != nil {
			t.notePlaced(e.SubChannelID, servingNeed(current, e.GapType))
		}
	case *SubnetDeclined:
		t.Declined = true
	case *SubnetCompleted:
		r := *e
		if t.subResult == nil {
			t.subResult = map[string]*SubnetCompleted{}
		}
		t.subResult[e.SubChannelID] = &r
	case *NegotiationCompleted:
		t.Completed = true
		t.MergedPlan = e.MergedPlan
	}
}

// notePlaced records what the parent held for a sub-negotiation's gap.
func (t *subnetTree) notePlaced(subChannelID string, n int) {
	if t.placed == nil {
		t.placed = map[string]int{}
	}
	t.placed[subChannelID] = n
}

// proposed gives the sub-negotiations triggered before any proposal what
// the first proposal holds for their gaps.
func (t *subnetTree) proposed(p *Proposal) {
	for _, s := range t.Subnets {
		if _, ok := t.placed[s.SubChannelID]; !ok {
			t.notePlaced(s.SubChannelID, servingNeed(p, s.GapType))
		}
	}
}

// servingNeed counts p's assignees who serve the need named role.
func servingNeed(p *Proposal, role string) int {
	n := 0
	for _, a := range p.Assignments {
		if a.Need == role {
			n++
		}
	}
	return n
}

// SubnetResult returns the result of a sub-negotiation, nil while it runs.
func (t *subnetTree) SubnetResult(subChannelID string) *SubnetCompleted {
	return t.subResult[subChannelID]
}

// IdentifyGaps records prompt 7's gaps once the offers are in. At the
// maximum depth a sub-negotiation is not allowed, which is recorded as
// TOWOW_SUBNET_001. An agreed channel with nothing left to wait for
// completes. complete and analysis are prompt 7's verdict and reasoning,
// recorded as they are.
func (c *Channel) IdentifyGaps(gaps []Gap, complete bool, analysis string) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if !c.AwaitingGaps() {
		return nil, nil
	}
	b := build(c).add(&GapIdentified{ChannelID: c.ID, DemandID: c.DemandID, Gaps: gaps, OverallCompletion: completion(gaps),
		IsComplete: complete, Analysis: analysis})
	if len(gaps) > 0 && c.Depth >= c.Rules.MaxDepth {
		b.add(occurred(ErrMaxDepth, fmt.Sprintf("gaps found at depth %d; sub-negotiations are limited to depth %d", c.Depth, c.Rules.MaxDepth),
			c.ID, c.DemandID))
	}
	return b.completeWhenDone().done()
}

// completion estimates how complete a proposal is from its gaps' importance.
func completion(gaps []Gap) int {
	missing := 0
	for _, g := range gaps {
		missing += g.Importance / 4
	}
	return max(0, 100-missing)
}

// SubnetPlan is one sub-negotiation prompt 8 asks for.
type SubnetPlan struct {
	GapType   string
	SubDemand SubDemand
	// NeedCount is how many people the gap still needs (0: unknown, one
	// or more).
	NeedCount int
}

// Recurse records prompt 8's decision: it triggers up to MaxSubnets
// sub-negotiations (ids derived from the channel, so a retry cannot spawn
// twice), or records that it triggers none. The caller also submits each
// sub-demand (DemandState.Submit with SubDemandOrigin). decision, when
// given, is recorded on each towow.subnet.triggered, or on the
// towow.subnet.declined.
func (c *Channel) Recurse(plans []SubnetPlan, decision *RecursionDecision) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if len(plans) > 0 && c.Depth >= c.Rules.MaxDepth && !c.Completed {
		return nil, event.Errorf(ErrMaxDepth, "channel %s is at depth %d of %d", c.ID, c.Depth, c.Rules.MaxDepth)
	}
	if !c.AwaitingRecursion() {
		return nil, nil
	}
	b := build(c)
	if len(plans) == 0 {
		return b.add(&SubnetDeclined{ChannelID: c.ID, DemandID: c.DemandID, Decision: decision}).completeWhenDone().done()
	}
	for i, p := range plans[:min(len(plans), MaxSubnets)] {
		sub := SubDemandID(c.DemandID, i)
		sd := p.SubDemand
		b.add(&SubnetTriggered{ParentChannelID: c.ID, ParentDemandID: c.DemandID, SubDemandID: sub,
			SubChannelID: ChannelIDFor(sub), GapType: p.GapType, RecursionDepth: c.Depth + 1, SubDemand: &sd, NeedCount: p.NeedCount,
			Decision: decision})
	}
	return b.done()
}

// SubnetDone records the end of a sub-negotiation; the channel completes
// with every sub-result once it is agreed and the last one has ended.
func (c *Channel) SubnetDone(r SubnetCompleted) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	known := slices.ContainsFunc(c.Subnets, func(s SubnetTriggered) bool { return s.SubChannelID == r.SubChannelID })
	if !known {
		return nil, event.Errorf(ErrNotFound, "channel %s triggered no sub-negotiation %s", c.ID, r.SubChannelID)
	}
	if c.subResult[r.SubChannelID] != nil || c.Completed {
		return nil, nil
	}
	r.ParentChannelID = c.ID
	return build(c).add(&r).completeWhenDone().done()
}

// completeWhenDone adds the completion when the channel, with the events
// collected so far, has nothing left to wait for: it is agreed, its gaps
// are analysed, a recursion decision is made (when it may recurse) and
// every sub-negotiation it triggered has ended. The completion carries the
// sub-results in trigger order and the merged plan.
func (b *builder) completeWhenDone() *builder {
	c := b.c
	if b.err != nil || c.Completed || (b.status != ChannelStatusFinalized && b.status != ChannelStatusForceFinalized) {
		return b
	}
	// The tree as the events collected so far leave it (on copies).
	t := subnetTree{GapsDone: c.GapsDone, Gaps: c.Gaps, Subnets: slices.Clone(c.Subnets), Declined: c.Declined,
		subResult: maps.Clone(c.subResult), placed: maps.Clone(c.placed)}
	final, rounds := c.FinalProposal, c.RoundsTaken
	for _, e := range b.events {
		t.apply(e, c.Proposal)
		switch e := e.(type) {
		case *ProposalFinalized:
			final, rounds = &e.FinalProposal, e.RoundsTaken
		case *NegotiationForceFinalized:
			final, rounds = &e.FinalProposal, e.RoundsTaken
		}
	}
	if t.Completed || !t.GapsDone || (len(t.Gaps) > 0 && c.Depth < c.Rules.MaxDepth && !t.Declined && len(t.Subnets) == 0) {
		return b
	}
	done := &NegotiationCompleted{ChannelID: c.ID, DemandID: c.DemandID, Status: b.status, FinalProposal: final, RoundsTaken: rounds}
	for _, s := range t.Subnets {
		r := t.SubnetResult(s.SubChannelID)
		if r == nil {
			return b
		}
		done.SubResults = append(done.SubResults, *r)
	}
	done.MergedPlan = mergedPlan(final, t.Subnets, done.SubResults, t.placed)
	return b.add(done)
}

// mergedPlan is the one plan of a negotiation tree whose final proposal
// is final and whose sub-negotiations subnets ended with subs: the final
// proposal's assignments, then those of every sub-negotiation that agreed,
// each marked with the sub-channel it came from; the gaps a
// sub-negotiation filled are dropped, and its alternates kept (marked
// too). A gap stays when the sub-negotiation filled it only in part:
// fewer assignees than its need count, plus the assignees of the gap the
// parent lost after triggering it (placed: what the parent held then;
// one who withdrew in a later round widens the gap the sub-negotiation
// was sized for). Nil without a final proposal or without any agreed
// sub-negotiation (the final proposal is then the plan).
func mergedPlan(final *Proposal, subnets []SubnetTriggered, subs []SubnetCompleted, placed map[string]int) *Proposal {
	if final == nil {
		return nil
	}
	plan := *final
	plan.Assignments = slices.Clone(plan.Assignments)
	plan.Alternates = slices.Clone(plan.Alternates)
	plan.Gaps = slices.Clone(plan.Gaps)
	merged := false
	for _, r := range subs {
		if !r.Success || r.Result == nil || len(r.Result.Assignments) == 0 {
			continue
		}
		merged = true
		for _, a := range r.Result.Assignments {
			a.SubChannelID = r.SubChannelID
			plan.Assignments = append(plan.Assignments, a)
		}
		for _, a := range r.Result.Alternates {
			a.SubChannelID = r.SubChannelID
			plan.Alternates = append(plan.Alternates, a)
		}
		for _, s := range subnets {
			lost := 0
			if held, ok := placed[s.SubChannelID]; ok {
				lost = max(0, held-servingNeed(final, s.GapType))
			}
			if s.SubChannelID == r.SubChannelID && len(r.Result.Assignments) >= max(1, s.NeedCount)+lost {
				plan.Gaps = slices.DeleteFunc(plan.Gaps, func(g string) bool { return g == s.GapType })
			}
		}
	}
	if !merged {
		return nil
	}
	return &plan
}

// completed is c's completion as it stands: its terminal status, final
// proposal and rounds taken.
func completed(c *Channel) *NegotiationCompleted {
	return &NegotiationCompleted{ChannelID: c.ID, DemandID: c.DemandID, Status: c.Status,
		FinalProposal: c.FinalProposal, RoundsTaken: c.RoundsTaken}
}

// FitTreeBudget keeps the first plans that what is left of a negotiation
// tree's token budget pays for, at perSubnet tokens each (prompt 8's
// estimate), after the spent tokens; limit 0 or less is no budget. The
// hold records what it held back (nil: nothing).
func FitTreeBudget(plans []SubnetPlan, perSubnet, spent, limit int) ([]SubnetPlan, *BudgetHold) {
	if limit <= 0 || len(plans) == 0 {
		return plans, nil
	}
	kept := len(plans)
	if left := limit - spent; left < kept*perSubnet {
		kept = max(0, left/max(perSubnet, 1))
	}
	if kept == len(plans) {
		return plans, nil
	}
	return plans[:kept], &BudgetHold{Limit: limit, Spent: spent, PerSubnet: perSubnet, Asked: len(plans), Kept: kept}
}
