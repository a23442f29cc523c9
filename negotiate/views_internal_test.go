package negotiate

import (
	"slices"
	"testing"

	"github.com/towow/towow/domain/negotiation"
)

// TestOfferViewsInInvitationOrder: the prompts see offers in the order the
// channel invited the agents, whatever order the offers committed in.
func TestOfferViewsInInvitationOrder(t *testing.T) {
	c := &negotiation.Channel{}
	c.Apply(&negotiation.ChannelCreated{ChannelID: "collab-x", DemandID: "d-x", Candidates: []negotiation.Candidate{
		{AgentID: "c"}, {AgentID: "a"}, {AgentID: "b"}}})
	for _, o := range []struct {
		id string
		d  negotiation.OfferDecision
	}{{"b", negotiation.OfferDecisionParticipate}, {"c", negotiation.OfferDecisionDecline}, {"a", negotiation.OfferDecisionConditional}} {
		c.Apply(&negotiation.OfferSubmitted{ChannelID: "collab-x", Offer: negotiation.Offer{AgentID: o.id, OfferAnswer: negotiation.OfferAnswer{Decision: o.d}}})
	}
	var all, active []string
	for _, v := range allOfferViews(c) {
		all = append(all, v.AgentID)
	}
	for _, v := range participantViews(c) {
		active = append(active, v.AgentID)
	}
	if !slices.Equal(all, []string{"c", "a", "b"}) || !slices.Equal(active, []string{"a", "b"}) {
		t.Fatalf("all %v, active %v", all, active)
	}
}
