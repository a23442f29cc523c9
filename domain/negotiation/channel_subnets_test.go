package negotiation

import (
	"errors"
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
			then:  []event.EventType{EventNegotiationCompleted, EventChannelClosed},
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

func TestRecursionBeyondMaxDepth(t *testing.T) {
	c := fold(withGaps(DefaultRules()).events...)
	c.Depth = 1 // a sub-channel at the maximum depth (default 1)
	evs, err := c.Recurse([]SubnetPlan{{GapType: "g"}}, nil)
	if !errors.Is(err, ErrMaxDepth) || evs != nil {
		t.Fatalf("got %v, %v", types(evs), err)
	}
}
