package negotiation

import (
	"errors"
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestApplyForkChange: given a channel at a stage, when a fork's change
// comes, then the events it causes there (or the refusal).
func TestApplyForkChange(t *testing.T) {
	r := DefaultRules()
	collecting := func() *given { return newGiven(3, r).collecting().offers(OfferDecisionParticipate) } // a2, a3 owe offers
	inRound := func() *given {
		return newGiven(3, r).collecting().offers(OfferDecisionParticipate, OfferDecisionParticipate, OfferDecisionConditional).proposed()
	}
	decline := &OfferAnswer{Decision: OfferDecisionDecline, DeclineReason: "那天没空"}
	negotiate := &FeedbackAnswer{FeedbackType: FeedbackNegotiate, AdjustmentRequest: "改到周日", Reasoning: "r"}
	tests := []struct {
		name   string
		given  *given
		change ForkChange
		want   []event.EventType // the events, in order
		err    error
	}{
		{"nothing", collecting(), ForkChange{Type: ForkNoChange}, nil, nil},
		{"remove an agent that owes its offer: it declines", collecting(), ForkChange{Type: ForkRemoveAgent, AgentID: "a2"},
			[]event.EventType{EventOfferSubmitted}, nil},
		{"remove the last one owed: the collection closes", newGiven(2, r).collecting().offers(OfferDecisionParticipate),
			ForkChange{Type: ForkRemoveAgent, AgentID: "a2"},
			[]event.EventType{EventOfferSubmitted, EventChannelStatusChanged, EventAggregationStarted}, nil},
		{"remove a round member: it withdraws", inRound(), ForkChange{Type: ForkRemoveAgent, AgentID: "a1"},
			[]event.EventType{EventProposalFeedback, EventAgentWithdrawn}, nil},
		{"remove an agent of no channel yet: nothing here", collecting(), ForkChange{Type: ForkRemoveAgent, AgentID: "zz"}, nil, nil},
		{"replace an owed offer", collecting(), ForkChange{Type: ForkReplaceOffer, AgentID: "a3", Offer: decline},
			[]event.EventType{EventOfferSubmitted}, nil},
		{"replace an offer made already", collecting(), ForkChange{Type: ForkReplaceOffer, AgentID: "a1", Offer: decline}, nil, ErrForkChange},
		{"replace an offer with none", collecting(), ForkChange{Type: ForkReplaceOffer, AgentID: "a3"}, nil, ErrForkChange},
		{"replace an owed feedback", inRound(), ForkChange{Type: ForkReplaceFeedback, AgentID: "a2", Feedback: negotiate},
			[]event.EventType{EventProposalFeedback}, nil},
		{"replace a feedback before any proposal", collecting(), ForkChange{Type: ForkReplaceFeedback, AgentID: "a1", Feedback: negotiate},
			nil, ErrForkChange},
		{"an invalid feedback", inRound(), ForkChange{Type: ForkReplaceFeedback, AgentID: "a2", Feedback: &FeedbackAnswer{FeedbackType: "maybe"}},
			nil, ErrInvalidAnswer},
		{"no agent", collecting(), ForkChange{Type: ForkRemoveAgent}, nil, ErrForkChange},
		{"add an agent while offers are collected", collecting(), ForkChange{Type: ForkAddAgent, AgentID: "zed"},
			[]event.EventType{EventChannelInviteSent, EventOfferRequested}, nil},
		{"add an agent before the broadcast", newGiven(2, r), ForkChange{Type: ForkAddAgent, AgentID: "zed"},
			[]event.EventType{EventChannelInviteSent}, nil},
		{"add an agent after the offers closed", inRound(), ForkChange{Type: ForkAddAgent, AgentID: "zed"}, nil, ErrForkChange},
		{"add an agent invited already", collecting(), ForkChange{Type: ForkAddAgent, AgentID: "a2"}, nil, ErrForkChange},
		{"fewer rounds", inRound(), ForkChange{Type: ForkChangeRule, Rules: &RulesChange{MaxRounds: new(1)}},
			[]event.EventType{EventChannelRulesChanged}, nil},
		{"no rules", inRound(), ForkChange{Type: ForkChangeRule}, nil, ErrForkChange},
		{"no round at all", inRound(), ForkChange{Type: ForkChangeRule, Rules: &RulesChange{MaxRounds: new(0)}}, nil, ErrForkChange},
		{"nothing to change", inRound(), ForkChange{Type: ForkChangeRule, Rules: &RulesChange{}}, nil, ErrForkChange},
		{"failing above accepting", inRound(), ForkChange{Type: ForkChangeRule, Rules: &RulesChange{FailPercent: new(90)}}, nil, ErrForkChange},
		{"an unknown change", collecting(), ForkChange{Type: "add_everyone", AgentID: "a1"}, nil, ErrForkChange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fold(tt.given.events...)
			out, err := ApplyForkChange(map[string]*Channel{c.ID: c}, tt.change, "Zed", t0)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []event.EventType
			for _, fc := range out {
				if fc.Stream != ChannelStream(c.ID) {
					t.Fatalf("stream %s", fc.Stream)
				}
				got = append(got, types(fc.Events)...)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("events %v, want %v", got, tt.want)
			}
			for _, fc := range out { // the channel passed in is evolved by them
				for _, ev := range fc.Events {
					if o, ok := ev.(*OfferSubmitted); ok && c.Offers[o.AgentID].Decision != o.Decision {
						t.Fatalf("the channel did not take %s's offer", o.AgentID)
					}
					if i, ok := ev.(*ChannelInviteSent); ok && (!c.Invited(i.AgentID) || c.DisplayName(i.AgentID) != "Zed" ||
						len(c.Candidates) == 0 || c.Candidates[len(c.Candidates)-1].AgentID != i.AgentID) {
						t.Fatalf("the channel did not add %s: %+v", i.AgentID, c.Candidates)
					}
					if r, ok := ev.(*ChannelRulesChanged); ok && (c.Rules != r.Rules || r.Rules.MaxRounds != 1 || r.Rules.OfferTimeoutSeconds != DefaultRules().OfferTimeoutSeconds) {
						t.Fatalf("rules %+v, channel %+v", r.Rules, c.Rules)
					}
				}
			}
		})
	}
}
