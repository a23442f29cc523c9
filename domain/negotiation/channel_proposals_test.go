package negotiation

import (
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestProposalDecisions: the first proposal, the no-participant
// compromise and the adjusted proposal of a later round.
func TestProposalDecisions(t *testing.T) {
	rules := DefaultRules()
	runDecisions(t, []decision{
		{
			name:  "a proposal before offers close is an invalid transition",
			given: newGiven(2, rules).collecting(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Propose(proposalFor("a1"), t0) },
			err:   ErrInvalidTransition,
		},
		{
			name:  "the first proposal opens round 1 and drops strangers",
			given: newGiven(3, rules).collecting().offers(OfferDecisionParticipate, OfferDecisionConditional, OfferDecisionDecline),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Propose(proposalFor("a1", "a2", "a3", "zz"), t0) },
			then:  []event.EventType{EventNegotiationRoundStarted, tStatus, EventProposalDistributed, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				p := find[*ProposalDistributed](evs).Proposal
				if len(p.Assignments) != 2 || p.Version != 1 || p.ProposalID != "prop-x-v1" || p.Type != ProposalTypeNormal {
					t.Errorf("proposal %+v", p)
				}
				if !slices.Equal(c.RoundMembers(), []string{"a1", "a2"}) {
					t.Errorf("round members %v", c.RoundMembers())
				}
			},
		},
		{
			name:  "no participants fails with the compromise",
			given: newGiven(2, rules).collecting().offers(OfferDecisionDecline, OfferDecisionDecline),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.FailNoParticipants(Proposal{Summary: "c", Suggestions: []string{"放宽地点"}}, t0)
			},
			then: []event.EventType{EventNegotiationFailed, EventErrorOccurred, tStatus, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				f := find[*NegotiationFailed](evs)
				if f.Reason != FailureNoParticipants || f.LastProposal.Type != ProposalTypeCompromise || f.Suggestion != "放宽地点" {
					t.Errorf("failure %+v", f)
				}
				if c.Status != ChannelStatusFailed || !c.Completed {
					t.Errorf("status %s completed %v", c.Status, c.Completed)
				}
			},
		},
		{
			name:  "mostly no answers (the model failed): failed naming the model, not the agents",
			given: newGiven(3, rules).collecting().offers(OfferDecisionNoAnswer, OfferDecisionNoAnswer, OfferDecisionDecline),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.FailNoParticipants(Proposal{Summary: "c", Suggestions: []string{"放宽需求"}}, t0)
			},
			then: []event.EventType{EventNegotiationFailed, EventErrorOccurred, tStatus, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				// No suggestion to change the demand: the model failed, not the demand.
				if f := find[*NegotiationFailed](evs); f.Reason != FailureModelUnavailable || f.ErrorCode != ErrModelUnavailable.Code || f.Suggestion != "" {
					t.Errorf("failure %+v", f)
				}
			},
		},
		{
			name:  "no offers at all before the timeout",
			given: newGiven(2, rules).collecting().then(func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() }),
			when:  func(c *Channel) ([]event.Payload, error) { return c.FailNoParticipants(Proposal{Summary: "c"}, t0) },
			then:  []event.EventType{EventNegotiationFailed, EventErrorOccurred, tStatus, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if r := find[*NegotiationFailed](evs).Reason; r != FailureNoResponsesTimeout {
					t.Errorf("reason %s", r)
				}
			},
		},
		{
			name:  "the adjusted proposal opens the next round without the withdrawn",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackNegotiate, FeedbackWithdraw, FeedbackAccept),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Adjust(proposalFor(agents(5)...), t0) },
			then:  []event.EventType{tStatus, EventProposalDistributed, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				p := find[*ProposalDistributed](evs)
				if p.Round != 2 || p.Proposal.Version != 2 || len(p.Proposal.Assignments) != 4 {
					t.Errorf("distributed %+v", p)
				}
				if !slices.Equal(c.RoundMembers(), []string{"a1", "a2", "a3", "a5"}) {
					t.Errorf("round 2 members %v", c.RoundMembers())
				}
			},
		},
		{
			name:  "an adjustment nobody asked for is a no-op",
			given: fiveInRound1(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Adjust(proposalFor("a1"), t0) },
		},
	})
}
