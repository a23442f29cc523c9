package negotiation

import (
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestRoundDecisions: feedback, the round thresholds and force-finalize.
func TestRoundDecisions(t *testing.T) {
	rules := DefaultRules()
	runDecisions(t, []decision{
		{
			name:  "feedback from a non-participant",
			given: newGiven(3, rules).collecting().offers(OfferDecisionParticipate, OfferDecisionParticipate, OfferDecisionDecline).proposed(),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitFeedback(ProposalFeedback{AgentID: "a3", FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackAccept}}, 0, t0)
			},
			err: ErrNotParticipant,
		},
		{
			name:  "feedback for another round",
			given: newGiven(2, rules).collecting().offers(OfferDecisionParticipate, OfferDecisionParticipate).proposed(),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitFeedback(ProposalFeedback{AgentID: "a1", FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackAccept}}, 2, t0)
			},
			err: ErrWrongRound,
		},
		{
			name:  "second feedback in a round",
			given: newGiven(2, rules).collecting().offers(OfferDecisionParticipate, OfferDecisionParticipate).proposed().feedback(FeedbackAccept),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitFeedback(ProposalFeedback{AgentID: "a1", FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackWithdraw}}, 0, t0)
			},
			err: ErrDuplicate,
		},
		{
			name:  "negotiate without a request",
			given: newGiven(2, rules).collecting().offers(OfferDecisionParticipate, OfferDecisionParticipate).proposed(),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitFeedback(ProposalFeedback{AgentID: "a1", FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackNegotiate}}, 0, t0)
			},
			err: ErrInvalidAnswer,
		},
		{
			name:  "feedback before any proposal",
			given: newGiven(2, rules).collecting(),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitFeedback(ProposalFeedback{AgentID: "a1", FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackAccept}}, 0, t0)
			},
			err: ErrFeedbackClosed,
		},
		{
			name:  "80% accept finalizes",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackNegotiate),
			when:  lastFeedback(FeedbackAccept),
			then:  []event.EventType{EventProposalFeedback, tEvaluated, EventProposalFinalized, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				e := find[*FeedbackEvaluated](evs)
				if e.Decision != RoundFinalize || e.AcceptRate != 0.8 || e.Accepts != 4 || e.Negotiates != 1 || e.Round != 1 {
					t.Errorf("evaluation %+v", e)
				}
				if c.Status != ChannelStatusFinalized || !c.AwaitingGaps() {
					t.Errorf("status %s awaiting gaps %v", c.Status, c.AwaitingGaps())
				}
			},
		},
		{
			name:  "between 50% and 80% starts the next round",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackNegotiate, FeedbackNegotiate),
			when:  lastFeedback(FeedbackAccept),
			then:  []event.EventType{EventProposalFeedback, tEvaluated, EventNegotiationRoundStarted, EventProposalAdjusting},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if e := find[*FeedbackEvaluated](evs); e.Decision != RoundNext || e.AcceptRate != 0.6 {
					t.Errorf("evaluation %+v", e)
				}
				if c.Round != 2 || !c.AwaitingAdjustment() || c.Status != ChannelStatusNegotiating {
					t.Errorf("round %d awaiting adjustment %v status %s", c.Round, c.AwaitingAdjustment(), c.Status)
				}
				if len(c.LastRoundFeedback) != 5 || c.LastRoundFeedback[2].FeedbackType != FeedbackNegotiate {
					t.Errorf("last round feedback %+v", c.LastRoundFeedback)
				}
			},
		},
		{
			name:  "under 50% fails; reject and withdraw count against",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackReject, FeedbackWithdraw),
			when:  lastFeedback(FeedbackNegotiate),
			then:  []event.EventType{EventProposalFeedback, tEvaluated, EventNegotiationFailed, EventErrorOccurred, tStatus, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				e := find[*FeedbackEvaluated](evs)
				if e.Decision != RoundFail || e.Rejects != 2 || e.AcceptRate != 0.4 {
					t.Errorf("evaluation %+v", e)
				}
				if find[*NegotiationFailed](evs).Reason != FailureLowAcceptance {
					t.Error("wrong failure reason")
				}
			},
		},
		{
			name:  "withdraw leaves the later rounds",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackNegotiate, FeedbackWithdraw),
			when:  lastFeedback(FeedbackAccept),
			then:  []event.EventType{EventProposalFeedback, tEvaluated, EventNegotiationRoundStarted, EventProposalAdjusting},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if !c.Withdrawn["a4"] || slices.Contains(c.ActiveParticipants(), "a4") {
					t.Errorf("a4 withdrawn %v, participants %v", c.Withdrawn["a4"], c.ActiveParticipants())
				}
			},
		},
		{
			name:  "the final proposal keeps only the agents still in",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackAccept),
			when:  lastFeedback(FeedbackWithdraw),
			then:  []event.EventType{EventProposalFeedback, EventAgentWithdrawn, tEvaluated, EventProposalFinalized, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				f := find[*ProposalFinalized](evs)
				for _, a := range f.FinalProposal.Assignments {
					if a.AgentID == "a5" {
						t.Error("the withdrawn a5 is assigned in the final proposal")
					}
				}
				if len(f.FinalProposal.Assignments) != 4 || len(f.Participants) != 4 {
					t.Errorf("final %d assignments, %d participants", len(f.FinalProposal.Assignments), len(f.Participants))
				}
			},
		},
		{
			name:  "the last round between thresholds awaits the compromise",
			given: inLastRound(2).feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackNegotiate),
			when:  lastFeedback(FeedbackNegotiate),
			then:  []event.EventType{EventProposalFeedback, tEvaluated, EventErrorOccurred},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if e := find[*FeedbackEvaluated](evs); e.Decision != RoundForceFinalize || e.Round != 2 {
					t.Errorf("evaluation %+v", e)
				}
				if !c.AwaitingForceFinalize() {
					t.Error("not awaiting force-finalize")
				}
			},
		},
		{
			name:  "force-finalize names confirmed and optional participants",
			given: inLastRound(2).feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackNegotiate, FeedbackNegotiate),
			when:  func(c *Channel) ([]event.Payload, error) { return c.ForceFinalize(proposalFor(agents(5)...), t0) },
			then:  []event.EventType{EventNegotiationForceFinalized, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				f := find[*NegotiationForceFinalized](evs)
				if !slices.Equal(f.ConfirmedParticipants, []string{"a1", "a2", "a3"}) || !slices.Equal(f.OptionalParticipants, []string{"a4", "a5"}) ||
					f.FinalProposal.Type != ProposalTypeCompromise || f.RoundsTaken != 2 || f.AcceptRate != 0.6 {
					t.Errorf("force-finalized %+v", f)
				}
				if c.Status != ChannelStatusForceFinalized {
					t.Errorf("status %s", c.Status)
				}
			},
		},
		{
			name:  "force-finalize before the last round is an invalid transition",
			given: fiveInRound1(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.ForceFinalize(proposalFor("a1"), t0) },
			err:   ErrInvalidTransition,
		},
	})
}

func TestTallyDecide(t *testing.T) {
	tests := []struct {
		tally     Tally
		round     int
		maxRounds int
		want      RoundOutcome
	}{
		{Tally{Accepts: 4, Negotiates: 1}, 1, 5, RoundFinalize}, // exactly 0.8
		{Tally{Accepts: 8, Rejects: 2}, 1, 5, RoundFinalize},
		{Tally{Accepts: 3, Negotiates: 2}, 1, 5, RoundNext}, // 0.6
		{Tally{Accepts: 1, Negotiates: 1}, 4, 5, RoundNext}, // exactly 0.5
		{Tally{Accepts: 1, Negotiates: 1}, 5, 5, RoundForceFinalize},
		{Tally{Accepts: 2, Rejects: 3}, 1, 5, RoundFail}, // 0.4
		{Tally{Accepts: 4, Rejects: 5}, 5, 5, RoundFail}, // 0.44 in the last round
		{Tally{Negotiates: 3}, 2, 5, RoundNext},          // 0, but nobody is against: they ask for changes
		{Tally{Negotiates: 1}, 1, 5, RoundNext},          // the one assignee asks for a change
		{Tally{Accepts: 1, Negotiates: 3}, 5, 5, RoundForceFinalize},
		{Tally{Negotiates: 3}, 5, 5, RoundFail},             // nobody accepted by the last round
		{Tally{Negotiates: 2, Rejects: 1}, 2, 5, RoundFail}, // 0 with one against
		{Tally{}, 2, 5, RoundNext},
		{Tally{}, 5, 5, RoundFail},
		{Tally{Accepts: 7, Negotiates: 3}, 3, 3, RoundForceFinalize}, // 0.7 with 3 rounds configured
		// No answer (the model failed) is never an acceptance, and a round
		// mostly without answers is not decided on them.
		{Tally{Accepts: 4, NoAnswers: 1}, 1, 5, RoundFinalize},                     // 4 of 5 accepted
		{Tally{Accepts: 3, NoAnswers: 2}, 1, 5, RoundNext},                         // 0.6, not 1.0
		{Tally{Accepts: 2, NoAnswers: 3}, 1, 5, RoundNext},                         // mostly no answers: not decided
		{Tally{Accepts: 2, NoAnswers: 3}, 5, 5, RoundFail},                         // and after the last round: the model failed
		{Tally{NoAnswers: 5}, 2, 5, RoundNext},                                     // nobody could answer
		{Tally{Accepts: 1, Negotiates: 1, NoAnswers: 2}, 5, 5, RoundForceFinalize}, // half: 0.25 accept, nobody against
	}
	for _, tc := range tests {
		if got := tc.tally.Decide(tc.round, Rules{MaxRounds: tc.maxRounds}); got != tc.want {
			t.Errorf("%+v round %d/%d: %s, want %s", tc.tally, tc.round, tc.maxRounds, got, tc.want)
		}
	}
	// Other thresholds (a fork's change_rule): 3 of 5 finalizes at 60 %;
	// 2 of 5 with one against fails below 50 % but not below 30 %.
	for _, tc := range []struct {
		tally Tally
		rules Rules
		want  RoundOutcome
	}{
		{Tally{Accepts: 3, Negotiates: 2}, Rules{MaxRounds: 5}, RoundNext},
		{Tally{Accepts: 3, Negotiates: 2}, Rules{MaxRounds: 5, AcceptPercent: 60}, RoundFinalize},
		{Tally{Accepts: 2, Negotiates: 2, Rejects: 1}, Rules{MaxRounds: 5}, RoundFail},
		{Tally{Accepts: 2, Negotiates: 2, Rejects: 1}, Rules{MaxRounds: 5, FailPercent: 30}, RoundNext},
	} {
		if got := tc.tally.Decide(2, tc.rules); got != tc.want {
			t.Errorf("%+v with %+v: %s, want %s", tc.tally, tc.rules, got, tc.want)
		}
	}
}

// TestNoAnswerRounds: given five participants, when their twins give no
// answer (the model failed), then no answer never counts as acceptance:
// one missing answer still finalizes at 4 of 5 without the silent member;
// most members silent goes on to the next round, and in the last round
// fails naming the model (TOWOW_LLM_001), never the demand.
func TestNoAnswerRounds(t *testing.T) {
	runDecisions(t, []decision{
		{
			name:  "one no answer, four accepts: finalized without the silent member",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackNoAnswer),
			when:  lastFeedback(FeedbackAccept),
			then:  []event.EventType{EventProposalFeedback, tEvaluated, EventProposalFinalized, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				e, f := find[*FeedbackEvaluated](evs), find[*ProposalFinalized](evs)
				if e.NoAnswers != 1 || e.AcceptRate != 0.8 || len(f.Participants) != 4 || slices.Contains(f.Participants, "a4") {
					t.Fatalf("evaluated %+v, finalized with %v", e, f.Participants)
				}
			},
		},
		{
			name:  "mostly no answers: the next round, not a decision",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackNoAnswer, FeedbackNoAnswer),
			when:  lastFeedback(FeedbackNoAnswer),
			then:  []event.EventType{EventProposalFeedback, tEvaluated, EventNegotiationRoundStarted, EventProposalAdjusting},
		},
		{
			name:  "mostly no answers in the last round: failed, naming the model",
			given: inLastRound(2).feedback(FeedbackAccept, FeedbackNoAnswer, FeedbackNoAnswer, FeedbackNoAnswer),
			when:  lastFeedback(FeedbackAccept),
			then: []event.EventType{EventProposalFeedback, tEvaluated, EventNegotiationFailed, EventErrorOccurred, tStatus,
				EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				f := find[*NegotiationFailed](evs)
				if f.Reason != FailureModelUnavailable || f.ErrorCode != ErrModelUnavailable.Code {
					t.Fatalf("failed %+v", f)
				}
			},
		},
	})
}
