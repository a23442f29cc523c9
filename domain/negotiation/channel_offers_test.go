package negotiation

import (
	"errors"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestOfferDecisions: broadcast, offers and the close of collection by
// the last offer.
func TestOfferDecisions(t *testing.T) {
	rules := DefaultRules()
	runDecisions(t, []decision{
		{
			name:  "broadcast opens offer collection",
			given: newGiven(2, rules),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Broadcast(Demand{SurfaceDemand: "x"}) },
			then:  []event.EventType{tStatus, EventDemandBroadcast, EventChannelInviteSent, EventChannelInviteSent, EventOfferRequested, EventOfferRequested, tStatus},
		},
		{
			name:  "broadcast twice is a no-op",
			given: newGiven(2, rules).collecting(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Broadcast(Demand{}) },
		},
		{
			name:  "offer from an agent not invited",
			given: newGiven(2, rules).collecting(),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitOffer(Offer{AgentID: "zz", OfferAnswer: OfferAnswer{Decision: OfferDecisionParticipate, Contribution: "x"}}, "", t0)
			},
			err: ErrNotInvited,
		},
		{
			name:  "second offer of an agent",
			given: newGiven(3, rules).collecting().offers(OfferDecisionParticipate),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitOffer(Offer{AgentID: "a1", OfferAnswer: OfferAnswer{Decision: OfferDecisionDecline}}, "", t0)
			},
			err: ErrDuplicate,
		},
		{
			name:  "conditional offer without conditions",
			given: newGiven(2, rules).collecting(),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitOffer(Offer{AgentID: "a1", OfferAnswer: OfferAnswer{Decision: OfferDecisionConditional, Contribution: "x"}}, "", t0)
			},
			err: ErrInvalidAnswer,
		},
		{
			name:  "offer before broadcast",
			given: newGiven(2, rules),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitOffer(Offer{AgentID: "a1", OfferAnswer: OfferAnswer{Decision: OfferDecisionParticipate, Contribution: "x"}}, "", t0)
			},
			err: ErrOffersClosed,
		},
		{
			name:  "the last offer closes collection",
			given: newGiven(2, rules).collecting().offers(OfferDecisionParticipate),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitOffer(Offer{AgentID: "a2", OfferAnswer: OfferAnswer{Decision: OfferDecisionDecline}}, "B", t0)
			},
			then: []event.EventType{EventOfferSubmitted, tStatus, EventAggregationStarted},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if s := find[*AggregationStarted](evs); s.OffersCount != 1 {
					t.Errorf("aggregation counts %d participants, want 1", s.OffersCount)
				}
			},
		},
		{
			name:  "a second offer after collection closed is a duplicate",
			given: newGiven(2, rules).collecting().offers(OfferDecisionParticipate, OfferDecisionDecline),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitOffer(Offer{AgentID: "a2", OfferAnswer: OfferAnswer{Decision: OfferDecisionParticipate, Contribution: "x"}}, "", t0)
			},
			err: ErrDuplicate,
		},
		{
			name:  "offers after the offer timeout",
			given: newGiven(2, rules).collecting().then(func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() }),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitOffer(Offer{AgentID: "a1", OfferAnswer: OfferAnswer{Decision: OfferDecisionParticipate, Contribution: "x"}}, "", t0)
			},
			err: ErrOffersClosed,
		},
	})
}

func TestCreateRejectsDuplicateCandidates(t *testing.T) {
	c := &Channel{}
	_, err := c.Create(CreateChannel{ChannelID: "c", DemandID: "d", Rules: DefaultRules(),
		Candidates: []Candidate{{AgentID: "a1"}, {AgentID: "a1"}}})
	if !errors.Is(err, ErrInvalidAnswer) {
		t.Fatalf("err = %v", err)
	}
}
