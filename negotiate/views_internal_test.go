package negotiate

import (
	"slices"
	"testing"

	"github.com/towow/towow/domain"
)

// TestOfferViewsInInvitationOrder: the prompts see offers in the order the
// channel invited the agents, whatever order the offers committed in.
func TestOfferViewsInInvitationOrder(t *testing.T) {
	c := &domain.Channel{}
	c.Apply(&domain.ChannelCreated{ChannelID: "collab-x", DemandID: "d-x", Candidates: []domain.Candidate{
		{AgentID: "c"}, {AgentID: "a"}, {AgentID: "b"}}})
	for _, o := range []struct {
		id string
		d  domain.OfferDecision
	}{{"b", domain.OfferDecisionParticipate}, {"c", domain.OfferDecisionDecline}, {"a", domain.OfferDecisionConditional}} {
		c.Apply(&domain.OfferSubmitted{ChannelID: "collab-x", Offer: domain.Offer{AgentID: o.id, OfferAnswer: domain.OfferAnswer{Decision: o.d}}})
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
