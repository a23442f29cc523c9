package negotiation

import (
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestDeadlineDecisions: the offer and feedback timeouts and the stuck
// deadline.
func TestDeadlineDecisions(t *testing.T) {
	rules := DefaultRules()
	runDecisions(t, []decision{
		{
			name:  "offer timeout aggregates what arrived",
			given: newGiven(3, rules).collecting().offers(OfferDecisionParticipate),
			when:  func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() },
			then:  []event.EventType{EventOfferTimeout, tStatus, EventAggregationStarted},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if m := find[*OfferTimeout](evs).MissingAgents; !slices.Equal(m, []string{"a2", "a3"}) {
					t.Errorf("missing %v", m)
				}
			},
		},
		{
			name:  "offer timeout after collection closed is a no-op",
			given: newGiven(1, rules).collecting().offers(OfferDecisionParticipate),
			when:  func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() },
		},
		{
			name:  "feedback timeout counts the missing as accept",
			given: fiveInRound1().feedback(FeedbackNegotiate, FeedbackAccept),
			when:  func(c *Channel) ([]event.Payload, error) { return c.FeedbackTimeout(1, t0) },
			then:  []event.EventType{EventProposalFeedback, EventProposalFeedback, EventProposalFeedback, tEvaluated, EventProposalFinalized, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if f := find[*ProposalFeedback](evs); f.Reasoning != FeedbackTimeoutReason || f.AgentID != "a3" {
					t.Errorf("timeout feedback %+v", f)
				}
			},
		},
		{
			name:  "a stale feedback timeout is a no-op",
			given: fiveInRound1(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.FeedbackTimeout(2, t0) },
		},
		{
			name:  "a stuck channel fails",
			given: newGiven(2, rules).collecting(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Stuck() },
			then:  []event.EventType{EventNegotiationFailed, EventErrorOccurred, tStatus, EventNegotiationCompleted, EventChannelClosed},
		},
		{
			name:  "an agreed channel still waiting completes at its stuck deadline",
			given: finalized(rules),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Stuck() },
			then:  []event.EventType{EventNegotiationCompleted, EventChannelClosed},
		},
		{
			name: "a sub-negotiation still running at the stuck deadline is recorded as failed",
			given: withSubnets(rules, 2).then(func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-1", Success: true, Status: ChannelStatusFinalized})
			}),
			when: func(c *Channel) ([]event.Payload, error) { return c.Stuck() },
			then: []event.EventType{EventSubnetCompleted, EventErrorOccurred, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				done := find[*NegotiationCompleted](evs)
				if len(done.SubResults) != 2 || done.SubResults[1].FailureReason != string(FailureStuckTimeout) || done.SubResults[1].Success {
					t.Errorf("sub results %+v", done.SubResults)
				}
			},
		},
		{
			name:  "a completed channel is never stuck",
			given: finalized(rules).then(func(c *Channel) ([]event.Payload, error) { return c.IdentifyGaps(nil, true, "") }),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Stuck() },
		},
	})
}

func TestDemandStuck(t *testing.T) {
	d := &DemandState{}
	evs, _ := d.Submit(SubmitDemand{DemandID: "d-1", UserID: "u", RawInput: "x"})
	d.Apply(evs[0])
	evs, err := d.Stuck()
	if err != nil || len(evs) != 2 || evs[0].(*NegotiationFailed).Reason != FailureStuckTimeout || evs[1].EventType() != EventErrorOccurred {
		t.Fatalf("stuck demand: %v %v", types(evs), err)
	}
	d.Apply(evs[0])
	if evs, _ := d.Stuck(); evs != nil {
		t.Fatal("a failed demand got stuck twice")
	}
}
