package negotiate

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
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

// TestChannelOpenedWithoutBroadcastIsBroadcast: a channel that a commit
// opened without its broadcast (logs written before channels opened
// broadcasting, or a fork's copy of one cut between the two) gets the
// broadcast step; one that opened broadcasting does not.
func TestChannelOpenedWithoutBroadcastIsBroadcast(t *testing.T) {
	created := &negotiation.ChannelCreated{ChannelID: "collab-x", DemandID: "d-x", StuckTimeoutSeconds: 60,
		Candidates: []negotiation.Candidate{{AgentID: "a"}}}
	for _, tt := range []struct {
		name      string
		broadcast bool
		want      bool
	}{{"opened alone", false, true}, {"opened broadcasting", true, false}} {
		t.Run(tt.name, func(t *testing.T) {
			c := &negotiation.Channel{}
			c.Apply(created)
			evs := []event.Payload{created}
			if tt.broadcast {
				more, err := c.Broadcast(negotiation.Demand{})
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range more {
					c.Apply(ev)
				}
			}
			e := &Process{cfg: Config{Now: time.Now}}
			jobs, err := e.reactions(context.Background(), evs, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := slices.ContainsFunc(jobs, func(j uow.Job) bool { _, ok := j.Args.(BroadcastArgs); return ok })
			if got != tt.want {
				t.Errorf("broadcast step enqueued: %v, want %v (jobs %v)", got, tt.want, jobs)
			}
		})
	}
}
