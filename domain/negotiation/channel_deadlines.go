package negotiation

import (
	"fmt"
	"time"

	"github.com/towow/towow/domain/event"
)

// Deadlines: offers that do not arrive in time close collection with what
// arrived; feedback that does not arrive in time counts as accept; and a
// channel not complete at its stuck deadline ends with what it has.

// OfferTimeout closes offer collection with the offers that arrived.
func (c *Channel) OfferTimeout() ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Status != ChannelStatusCollecting {
		return nil, nil
	}
	b := build(c).add(&OfferTimeout{ChannelID: c.ID, DemandID: c.DemandID, OffersCount: len(c.Offers),
		MissingAgents: c.MissingOffers()})
	b.closeCollection("offer_timeout", len(c.ActiveParticipants()))
	return b.done()
}

// FeedbackTimeoutReason is recorded for feedback that did not arrive in
// time and counts as accept: a silent participant does not block a round.
const FeedbackTimeoutReason = "反馈超时，默认接受"

// FeedbackTimeout counts the missing feedback of round as accept and
// evaluates the round (now is when).
func (c *Channel) FeedbackTimeout(round int, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if !c.AwaitingFeedback() || round != c.Round {
		return nil, nil
	}
	b := build(c)
	all := c.FeedbackList()
	for _, id := range c.MissingFeedback() {
		f := ProposalFeedback{ChannelID: c.ID, DemandID: c.DemandID, AgentID: id, ProposalVersion: c.Proposal.Version,
			Round: c.Round, FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackAccept, Reasoning: FeedbackTimeoutReason}}
		b.add(&f)
		all = append(all, f)
	}
	evaluate(c, b, all, now)
	return b.done()
}

// Stuck ends a channel that is still not complete at its stuck deadline
// (StuckTimeoutSeconds after it opened): a channel still negotiating
// fails; an agreed channel still waiting for its gap analysis, recursion
// decision or sub-negotiations completes with what it has, each
// unfinished sub-negotiation recorded as failed.
func (c *Channel) Stuck() ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Completed {
		return nil, nil
	}
	if c.Status.IsTerminal() {
		b := build(c)
		done := completed(c)
		for _, s := range c.Subnets {
			if res := c.subResult[s.SubChannelID]; res != nil {
				done.SubResults = append(done.SubResults, *res)
				continue
			}
			r := SubnetCompleted{ParentChannelID: c.ID, SubChannelID: s.SubChannelID, SubDemandID: s.SubDemandID,
				Status: ChannelStatusFailed, FailureReason: string(FailureStuckTimeout)}
			b.add(&r)
			b.add(occurred(ErrChannelStuck, fmt.Sprintf("sub-negotiation %s had not ended at the stuck deadline (%d s): recorded as failed",
				s.SubChannelID, c.Rules.StuckTimeoutSeconds), c.ID, c.DemandID))
			done.SubResults = append(done.SubResults, r)
		}
		done.MergedPlan = mergedPlan(c.FinalProposal, c.Subnets, done.SubResults, c.placed)
		return b.add(done).done()
	}
	f := &NegotiationFailed{ChannelID: c.ID, DemandID: c.DemandID, Reason: FailureStuckTimeout, LastProposal: c.Proposal,
		Suggestion: "协商长时间没有进展，已自动结束；可以稍后重新提交需求。"}
	return build(c).fail(ErrChannelStuck, f, fmt.Sprintf("still %s in round %d at the stuck deadline (%d s)",
		c.Status, c.Round, c.Rules.StuckTimeoutSeconds))
}
