package negotiation

import (
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
)

// The channel's recorded fields: the broadcast's urgency and
// invitations, total_duration_seconds on the agreement, and the closing
// of every completed channel.

func TestBroadcastInvitesWithUrgency(t *testing.T) {
	for _, tc := range []struct {
		name    string
		context *DemandContext
		want    Urgency
	}{
		{"stated high", &DemandContext{Urgency: UrgencyHigh}, UrgencyHigh},
		{"stated low", &DemandContext{Urgency: UrgencyLow}, UrgencyLow},
		{"not stated", &DemandContext{}, UrgencyNormal},
		{"no context", nil, UrgencyNormal},
		{"not a level", &DemandContext{Urgency: "asap"}, UrgencyNormal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fold(newGiven(3, DefaultRules()).events...)
			evs, err := c.Broadcast(Demand{SurfaceDemand: "AI 聚会", Context: tc.context})
			if err != nil {
				t.Fatal(err)
			}
			var invites []string
			for _, e := range evs {
				switch ev := e.(type) {
				case *DemandBroadcast:
					if ev.Urgency != tc.want {
						t.Errorf("urgency %q, want %q", ev.Urgency, tc.want)
					}
				case *ChannelInviteSent:
					if !ev.Broadcast || ev.DemandSummary != "AI 聚会" || ev.Reason != "match" || ev.DisplayName != "Agent "+ev.AgentID {
						t.Errorf("invitation %+v", ev)
					}
					invites = append(invites, ev.AgentID)
				}
			}
			if len(invites) != 3 {
				t.Errorf("invited %v, want a1..a3", invites)
			}
			// The invitations add nobody: the candidates are the created ones.
			after := fold(append(newGiven(3, DefaultRules()).events, evs...)...)
			if len(after.Candidates) != 3 {
				t.Errorf("candidates after the broadcast: %+v", after.Candidates)
			}
		})
	}
}

func TestFinalizedTotalDuration(t *testing.T) {
	p := OfferDecisionParticipate
	for _, tc := range []struct {
		name    string
		created bool
		after   time.Duration
		want    int
	}{
		{"95 s after it opened", true, 95*time.Second + 400*time.Millisecond, 95},
		{"at once", true, 0, 0},
		{"an older log without the opening time", false, time.Hour, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGiven(2, DefaultRules())
			if !tc.created {
				g.events[0].(*ChannelCreated).CreatedAt = time.Time{}
			}
			g.collecting().offers(p, p).proposed().feedback(FeedbackAccept)
			evs, err := fold(g.events...).SubmitFeedback(ProposalFeedback{AgentID: "a2",
				FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackAccept}}, 0, t0.Add(tc.after))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if f, ok := e.(*ProposalFinalized); ok {
					if f.TotalDurationSeconds != tc.want {
						t.Errorf("total_duration_seconds %d, want %d", f.TotalDurationSeconds, tc.want)
					}
					return
				}
			}
			t.Fatalf("not finalized: %v", types(evs))
		})
	}
}

func TestEveryCompletionClosesTheChannel(t *testing.T) {
	p, d := OfferDecisionParticipate, OfferDecisionDecline
	for _, tc := range []struct {
		name   string
		when   *given
		status ChannelStatus
		reason string
	}{
		{"agreed without gaps", finalized(DefaultRules()).then(func(c *Channel) ([]event.Payload, error) { return c.IdentifyGaps(nil, true, "") }),
			ChannelStatusFinalized, "finalized"},
		{"everyone declined", newGiven(2, DefaultRules()).collecting().offers(d, d).then(func(c *Channel) ([]event.Payload, error) {
			return c.FailNoParticipants(Proposal{Summary: "妥协"}, t0)
		}), ChannelStatusFailed, string(FailureNoParticipants)},
		{"stuck", newGiven(2, DefaultRules()).collecting().offers(p).then((*Channel).Stuck), ChannelStatusFailed, string(FailureStuckTimeout)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := tc.when.events
			last := evs[len(evs)-1]
			closed, ok := last.(*ChannelClosed)
			if !ok {
				t.Fatalf("last event %s, want towow.channel.closed: %v", last.EventType(), types(evs))
			}
			if _, ok := evs[len(evs)-2].(*NegotiationCompleted); !ok {
				t.Errorf("closed after %s", evs[len(evs)-2].EventType())
			}
			if closed.Status != tc.status || closed.Reason != tc.reason || closed.ChannelID != "collab-x" {
				t.Errorf("closed %+v, want %s (%s)", closed, tc.status, tc.reason)
			}
		})
	}
}

// TestOldChannelLogStillFolds: a channel written by an older server — no
// opening time, no invitations at the broadcast, an agreement without
// total_duration_seconds, gaps without analysis, no channel.closed —
// decodes and folds to the same state, and decides on as before (its
// new agreement measures nothing it cannot know).
func TestOldChannelLogStillFolds(t *testing.T) {
	evs := decodeOld(t, []oldEvent{
		{EventChannelCreated, `{"channel_id":"collab-x","demand_id":"d-x","participants_count":2,"invited_agents":["a1","a2"],"recursion_depth":0,` +
			`"candidates":[{"agent_id":"a1","display_name":"A1","reason":"r"},{"agent_id":"a2","display_name":"A2","reason":"r"}],"max_rounds":5}`},
		{EventChannelStatusChanged, `{"channel_id":"collab-x","old_status":"created","new_status":"broadcasting"}`},
		{EventDemandBroadcast, `{"channel_id":"collab-x","demand_id":"d-x","recipients_count":2}`},
		{EventChannelStatusChanged, `{"channel_id":"collab-x","old_status":"broadcasting","new_status":"collecting"}`},
		{EventOfferSubmitted, `{"channel_id":"collab-x","demand_id":"d-x","agent_id":"a1","decision":"participate","contribution":"场地"}`},
		{EventOfferSubmitted, `{"channel_id":"collab-x","demand_id":"d-x","agent_id":"a2","decision":"conditional","contribution":"嘉宾","conditions":["下午"]}`},
		{EventChannelStatusChanged, `{"channel_id":"collab-x","old_status":"collecting","new_status":"aggregating"}`},
		{EventNegotiationRoundStarted, `{"channel_id":"collab-x","demand_id":"d-x","round":1,"max_rounds":5}`},
		{EventChannelStatusChanged, `{"channel_id":"collab-x","old_status":"aggregating","new_status":"proposal_sent"}`},
		{EventProposalDistributed, `{"channel_id":"collab-x","demand_id":"d-x","round":1,"proposal":{"demand_id":"d-x","version":1,"summary":"s",` +
			`"assignments":[{"agent_id":"a1","role":"场地","responsibility":"r","conditions_accepted":true},{"agent_id":"a2","role":"嘉宾","responsibility":"r","conditions_accepted":true}]}}`},
		{EventChannelStatusChanged, `{"channel_id":"collab-x","old_status":"proposal_sent","new_status":"negotiating"}`},
		{EventProposalFeedback, `{"channel_id":"collab-x","demand_id":"d-x","agent_id":"a1","round":1,"proposal_version":1,"feedback_type":"accept"}`},
	})
	c := fold(evs...)
	if !c.CreatedAt.IsZero() || len(c.Candidates) != 2 || c.Status != ChannelStatusNegotiating || c.Round != 1 {
		t.Fatalf("folded %+v", c)
	}
	got, err := c.SubmitFeedback(ProposalFeedback{AgentID: "a2", FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackAccept}}, 0, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got {
		if f, ok := e.(*ProposalFinalized); ok {
			if f.TotalDurationSeconds != 0 || len(f.Participants) != 2 {
				t.Errorf("agreement of an old channel: %+v", f)
			}
			return
		}
	}
	t.Fatalf("not finalized: %v", types(got))
}
