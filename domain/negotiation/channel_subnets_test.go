package negotiation

import (
	"errors"
	"fmt"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestSubnetDecisions: gaps, the recursion decision and the
// sub-negotiations' results.
func TestSubnetDecisions(t *testing.T) {
	rules := DefaultRules()
	runDecisions(t, []decision{
		{
			name:  "no gaps completes the channel",
			given: finalized(rules),
			when:  func(c *Channel) ([]event.Payload, error) { return c.IdentifyGaps(nil, true, "") },
			then:  []event.EventType{EventGapIdentified, EventNegotiationCompleted, EventChannelClosed},
		},
		{
			name:  "gaps at the maximum depth are recorded as TOWOW_SUBNET_001",
			given: finalized(Rules{MaxRounds: 5, MaxDepth: 0}),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.IdentifyGaps([]Gap{{GapType: "摄影师", Importance: 80}}, false, "")
			},
			then: []event.EventType{EventGapIdentified, EventErrorOccurred, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if e := find[*ErrorOccurred](evs); e.ErrorCode != "TOWOW_SUBNET_001" {
					t.Errorf("error %+v", e)
				}
			},
		},
		{
			name:  "gaps below the maximum depth await the recursion decision",
			given: finalized(rules),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.IdentifyGaps([]Gap{{GapType: "摄影师", Importance: 80}}, false, "")
			},
			then: []event.EventType{EventGapIdentified},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if !c.AwaitingRecursion() {
					t.Error("not awaiting recursion")
				}
			},
		},
		{
			name:  "recursion spawns at most three sub-negotiations with derived ids",
			given: withGaps(rules),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.Recurse([]SubnetPlan{{GapType: "g1"}, {GapType: "g2"}, {GapType: "g3"}, {GapType: "g4"}}, nil)
			},
			then: []event.EventType{EventSubnetTriggered, EventSubnetTriggered, EventSubnetTriggered},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				s := find[*SubnetTriggered](evs)
				if s.SubDemandID != "d-x-1" || s.SubChannelID != "collab-x-1" || s.RecursionDepth != 1 {
					t.Errorf("subnet %+v", s)
				}
			},
		},
		{
			name:  "no recursion completes the channel",
			given: withGaps(rules),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Recurse(nil, nil) },
			then:  []event.EventType{EventSubnetDeclined, EventNegotiationCompleted, EventChannelClosed},
		},
		{
			name:  "gaps are due as soon as the offers are in, while the rounds run",
			given: negotiating(rules),
			when: func(c *Channel) ([]event.Payload, error) {
				if !c.AwaitingGaps() {
					t.Error("gaps not due during the rounds")
				}
				return c.IdentifyGaps([]Gap{{GapType: "摄影师", Importance: 80}}, false, "")
			},
			then: []event.EventType{EventGapIdentified},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if !c.AwaitingRecursion() || !c.AwaitingFeedback() {
					t.Errorf("recursion due %v, feedback due %v; want both", c.AwaitingRecursion(), c.AwaitingFeedback())
				}
			},
		},
		{
			name:  "gaps are not due while offers are collected",
			given: newGiven(2, rules).collecting(),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.IdentifyGaps([]Gap{{GapType: "摄影师", Importance: 80}}, false, "")
			},
			then: nil,
		},
		{
			name:  "no gaps during the rounds leave the agreement to complete the channel",
			given: negotiating(rules),
			when:  func(c *Channel) ([]event.Payload, error) { return c.IdentifyGaps(nil, true, "") },
			then:  []event.EventType{EventGapIdentified},
		},
		{
			name: "the agreement completes a channel whose gaps were analysed without sub-negotiations",
			given: negotiating(rules).then(func(c *Channel) ([]event.Payload, error) {
				return c.IdentifyGaps(nil, true, "")
			}).feedback(FeedbackAccept),
			when: lastFeedback(FeedbackAccept),
			then: []event.EventType{EventProposalFeedback, EventFeedbackEvaluated, EventProposalFinalized, EventChannelStatusChanged,
				EventNegotiationCompleted, EventChannelClosed},
		},
		{
			name:  "the agreement waits for the gap analysis",
			given: negotiating(rules).feedback(FeedbackAccept),
			when:  lastFeedback(FeedbackAccept),
			then:  []event.EventType{EventProposalFeedback, EventFeedbackEvaluated, EventProposalFinalized, EventChannelStatusChanged},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if c.Completed || !c.AwaitingGaps() {
					t.Errorf("completed %v, gaps due %v", c.Completed, c.AwaitingGaps())
				}
			},
		},
		{
			name:  "a sub-result before the agreement is recorded and the channel goes on",
			given: subnetsWhileNegotiating(rules, 1),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-1", Success: true, Status: ChannelStatusFinalized,
					Result: &Proposal{Assignments: []Assignment{{AgentID: "z", Role: "g0"}}}})
			},
			then: []event.EventType{EventSubnetCompleted},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if c.Completed || !c.AwaitingFeedback() {
					t.Errorf("completed %v, feedback due %v", c.Completed, c.AwaitingFeedback())
				}
			},
		},
		{
			name: "the agreement after every sub-result completes the channel with the merged plan",
			given: subnetsWhileNegotiating(rules, 1).then(func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-1", Success: true, Status: ChannelStatusFinalized,
					Result: &Proposal{Assignments: []Assignment{{AgentID: "z", Role: "g0"}}}})
			}).feedback(FeedbackAccept),
			when: lastFeedback(FeedbackAccept),
			then: []event.EventType{EventProposalFeedback, EventFeedbackEvaluated, EventProposalFinalized, EventChannelStatusChanged,
				EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				done := find[*NegotiationCompleted](evs)
				if done.MergedPlan == nil || len(done.MergedPlan.Assignments) != 3 || done.MergedPlan.Assignments[2].SubChannelID != "collab-x-1" {
					t.Errorf("merged plan %+v", done.MergedPlan)
				}
			},
		},
		{
			name:  "the agreement waits for a sub-negotiation still running",
			given: subnetsWhileNegotiating(rules, 1).feedback(FeedbackAccept),
			when:  lastFeedback(FeedbackAccept),
			then:  []event.EventType{EventProposalFeedback, EventFeedbackEvaluated, EventProposalFinalized, EventChannelStatusChanged},
		},
		{
			name:  "a failure completes the channel while its sub-negotiation runs",
			given: subnetsWhileNegotiating(rules, 1).feedback(FeedbackWithdraw),
			when:  lastFeedback(FeedbackWithdraw),
			then: []event.EventType{EventProposalFeedback, EventAgentWithdrawn, EventFeedbackEvaluated, EventNegotiationFailed,
				EventErrorOccurred, EventChannelStatusChanged, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if more, err := c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-1", Status: ChannelStatusFinalized}); more != nil || err != nil {
					t.Errorf("a sub-result after the failure: %v, %v", types(more), err)
				}
			},
		},
		{
			name:  "the first of two sub-results",
			given: withSubnets(rules, 2),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-2", Success: false, Status: ChannelStatusFailed})
			},
			then: []event.EventType{EventSubnetCompleted},
		},
		{
			name: "the last sub-result completes the channel with every result",
			given: withSubnets(rules, 2).then(func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-2", Status: ChannelStatusFailed})
			}),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-1", Success: true, Status: ChannelStatusFinalized})
			},
			then: []event.EventType{EventSubnetCompleted, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				done := find[*NegotiationCompleted](evs)
				if len(done.SubResults) != 2 || done.SubResults[0].SubChannelID != "collab-x-1" || done.Status != ChannelStatusFinalized {
					t.Errorf("completed %+v", done)
				}
			},
		},
		{
			name:  "a sub-result nobody asked for",
			given: withSubnets(rules, 1),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-zz"})
			},
			err: ErrNotFound,
		},
	})
}

// negotiating is two participants with the first proposal out and no
// feedback yet.
func negotiating(r Rules) *given {
	p := OfferDecisionParticipate
	return newGiven(2, r).collecting().offers(p, p).proposed()
}

// subnetsWhileNegotiating is a channel in its first round with gaps found
// and n sub-negotiations triggered.
func subnetsWhileNegotiating(r Rules, n int) *given {
	return negotiating(r).then(func(c *Channel) ([]event.Payload, error) {
		return c.IdentifyGaps([]Gap{{GapType: "g0", Importance: 80}}, false, "")
	}).then(func(c *Channel) ([]event.Payload, error) {
		plans := make([]SubnetPlan, n)
		for i := range plans {
			plans[i] = SubnetPlan{GapType: fmt.Sprint("g", i)}
		}
		return c.Recurse(plans, nil)
	})
}

func TestRecursionBeyondMaxDepth(t *testing.T) {
	c := fold(withGaps(DefaultRules()).events...)
	c.Depth = 1 // a sub-channel at the maximum depth (default 1)
	evs, err := c.Recurse([]SubnetPlan{{GapType: "g"}}, nil)
	if !errors.Is(err, ErrMaxDepth) || evs != nil {
		t.Fatalf("got %v, %v", types(evs), err)
	}
}
