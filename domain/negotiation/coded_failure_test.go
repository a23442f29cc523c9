package negotiation

import (
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestEveryFailureCarriesItsCode: given a negotiation at each point where
// it can fail, when the failing decision is made, then its failure event
// carries its TOWOW_* code and a towow.error.occurred with the same code,
// the failure's ids and whether it is recoverable follows it in the
// same decision; a force-finalize and a gap beyond the maximum depth are
// recorded with their code too, without a failure.
func TestEveryFailureCarriesItsCode(t *testing.T) {
	rules := DefaultRules()
	oneRound := DefaultRules()
	oneRound.MaxRounds = 1
	demand := func(understood bool) *DemandState {
		d := &DemandState{}
		d.Apply(&DemandSubmitted{DemandID: "d-x", UserID: "u", RawInput: "需要摄影师"})
		if understood {
			d.Apply(Understanding{SurfaceDemand: "s", Needs: []Need{{Role: "摄影师", CapabilityTags: []string{"摄影"}, Count: 1}}}.Understood("d-x"))
		}
		return d
	}
	onDemand := func(d *DemandState, f func(d *DemandState) ([]event.Payload, error)) func() ([]event.Payload, error) {
		return func() ([]event.Payload, error) { return f(d) }
	}
	onChannel := func(g *given, f func(c *Channel) ([]event.Payload, error)) func() ([]event.Payload, error) {
		return func() ([]event.Payload, error) { return f(fold(g.events...)) }
	}
	tests := []struct {
		name        string
		when        func() ([]event.Payload, error)
		code        string
		reason      FailureReason // "" when no negotiation.failed is recorded
		channel     bool          // the error names the channel
		recoverable bool
		message     string // a word the message must carry
	}{
		{name: "an unclear demand", code: "TOWOW_DEMAND_001", reason: FailureDemandRejected, recoverable: true, message: "unclear",
			when: onDemand(demand(false), func(d *DemandState) ([]event.Payload, error) {
				return d.Understand(Understanding{SurfaceDemand: "x", Confidence: ConfidenceLow})
			})},
		{name: "nobody matches", code: "TOWOW_FILTER_001", reason: FailureNoCandidates, recoverable: true, message: "摄影师",
			when: onDemand(demand(true), func(d *DemandState) ([]event.Payload, error) { return d.Filtered(nil, "collab-d-x", 7, 1) })},
		{name: "nobody matches a fallback's understanding: the model, not the demand", code: "TOWOW_LLM_001", reason: FailureModelUnavailable,
			recoverable: true, message: "model unavailable",
			when: onDemand(demand(true), func(d *DemandState) ([]event.Payload, error) {
				d.Apply(&ErrorOccurred{ErrorCode: ErrUnderstandingUnavailable.Code, Recoverable: true})
				evs, err := d.Filtered(nil, "collab-d-x", 7, 1)
				for _, e := range evs {
					if r, ok := e.(*DemandRejected); ok {
						t.Errorf("rejected as a demand nobody can serve: %+v", r)
					}
					if f, ok := e.(*NegotiationFailed); ok && f.Suggestion != ModelUnavailableSuggestion {
						t.Errorf("suggested %q", f.Suggestion)
					}
				}
				return evs, err
			})},
		{name: "every invited agent gave no answer: the model", code: "TOWOW_LLM_001", reason: FailureModelUnavailable, channel: true,
			recoverable: true, message: "could not answer",
			when: onChannel(newGiven(2, rules).collecting().offers(OfferDecisionNoAnswer, OfferDecisionNoAnswer),
				func(c *Channel) ([]event.Payload, error) {
					return c.FailNoParticipants(Proposal{Summary: "c", Suggestions: []string{"放宽需求"}}, t0)
				})},
		{name: "a demand stuck before its understanding", code: "TOWOW_DEMAND_005", reason: FailureStuckTimeout, recoverable: true,
			message: "understanding", when: onDemand(demand(false), (*DemandState).Stuck)},
		{name: "a demand stuck in filtering", code: "TOWOW_DEMAND_005", reason: FailureStuckTimeout, recoverable: true,
			message: "filtering", when: onDemand(demand(true), (*DemandState).Stuck)},
		{name: "every invited agent declined", code: "TOWOW_CHANNEL_010", reason: FailureNoParticipants, channel: true, recoverable: true,
			message: "declined", when: onChannel(newGiven(2, rules).collecting().offers(OfferDecisionDecline, OfferDecisionDecline),
				func(c *Channel) ([]event.Payload, error) { return c.FailNoParticipants(Proposal{Summary: "c"}, t0) })},
		{name: "no offer before the offer timeout", code: "TOWOW_CHANNEL_009", reason: FailureNoResponsesTimeout, channel: true,
			recoverable: true, message: "300 s",
			when: onChannel(newGiven(2, rules).collecting().then(func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() }),
				func(c *Channel) ([]event.Payload, error) { return c.FailNoParticipants(Proposal{Summary: "c"}, t0) })},
		{name: "accept rate under the fail threshold", code: "TOWOW_PROPOSAL_007", reason: FailureLowAcceptance, channel: true,
			recoverable: true, message: "0.40",
			when: onChannel(fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackReject, FeedbackWithdraw),
				lastFeedback(FeedbackNegotiate))},
		{name: "no feedback that counts in the last round", code: "TOWOW_PROPOSAL_003", reason: FailureNoFeedback, channel: true,
			recoverable: true, message: "without any feedback", when: onChannel(speakerOnly(oneRound), func(c *Channel) ([]event.Payload, error) {
				return c.SubmitFeedback(ProposalFeedback{AgentID: "a2", FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackWithdraw, Reasoning: "r"}}, 0, t0)
			})},
		{name: "a channel stuck while negotiating", code: "TOWOW_CHANNEL_003", reason: FailureStuckTimeout, channel: true,
			message: "stuck deadline", when: onChannel(newGiven(2, rules).collecting(), (*Channel).Stuck)},
		{name: "a sub-negotiation unfinished at the parent's stuck deadline", code: "TOWOW_CHANNEL_003", channel: true,
			message: "collab-x-2", when: onChannel(withSubnets(rules, 2).then(func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-1", Success: true, Status: ChannelStatusFinalized})
			}), (*Channel).Stuck)},
		{name: "the last round between the thresholds", code: "TOWOW_PROPOSAL_004", channel: true, recoverable: true, message: "round 2 of 2",
			when: onChannel(inLastRound(2).feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackNegotiate),
				lastFeedback(FeedbackNegotiate))},
		{name: "gaps at the maximum depth", code: "TOWOW_SUBNET_001", channel: true, message: "depth 0",
			when: onChannel(finalized(Rules{MaxRounds: 5, MaxDepth: 0}), func(c *Channel) ([]event.Payload, error) {
				return c.IdentifyGaps([]Gap{{GapType: "摄影师", Importance: 80}}, false, "")
			})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := tc.when()
			if err != nil {
				t.Fatal(err)
			}
			var errs []*ErrorOccurred
			var fails []*NegotiationFailed
			at := map[event.EventType]int{}
			for i, e := range evs {
				switch e := e.(type) {
				case *ErrorOccurred:
					errs = append(errs, e)
				case *NegotiationFailed:
					fails = append(fails, e)
				}
				at[e.EventType()] = i
			}
			if len(errs) != 1 {
				t.Fatalf("%d towow.error.occurred in %v, want 1", len(errs), types(evs))
			}
			e := errs[0]
			if e.ErrorCode != tc.code || e.Recoverable != tc.recoverable || !strings.Contains(e.ErrorMessage, tc.message) ||
				e.Context["demand_id"] != "d-x" || (e.Context["channel_id"] == "collab-x") != tc.channel {
				t.Fatalf("error %+v, want code %s recoverable %v message with %q", e, tc.code, tc.recoverable, tc.message)
			}
			if tc.reason == "" {
				if len(fails) != 0 {
					t.Fatalf("a failure recorded: %+v", fails[0])
				}
				return
			}
			if len(fails) != 1 || fails[0].ErrorCode != tc.code || fails[0].Reason != tc.reason {
				t.Fatalf("failures %+v, want one %s coded %s", fails, tc.reason, tc.code)
			}
			if at[EventErrorOccurred] != at[EventNegotiationFailed]+1 {
				t.Fatalf("the error does not follow the failure: %v", types(evs))
			}
		})
	}
}

// speakerOnly is a channel in round 1 whose proposal assigns a2 (the
// speaker) alone, a3 standing by: a2's withdrawal is one a3 fills, so it
// does not count, and the round has no feedback that counts.
func speakerOnly(r Rules) *given {
	p := OfferDecisionParticipate
	return newGiven(3, r).collecting().offers(p, p, p).then(func(c *Channel) ([]event.Payload, error) {
		return c.Propose(Proposal{Summary: "plan", Assignments: []Assignment{{AgentID: "a2", Role: "演讲嘉宾", Need: "演讲嘉宾"}},
			Alternates: []Assignment{{AgentID: "a3", Need: "演讲嘉宾"}}}, t0)
	})
}

// TestFellBack: a decision resting on an LLM call that fell back records
// the stage's code, recoverable; a call the model answered, or no call,
// records nothing.
func TestFellBack(t *testing.T) {
	call := func(outcome string, fallback bool) *event.LLMCall {
		return &event.LLMCall{PromptKey: "p", Outcome: outcome, FallbackUsed: fallback, Error: "boom"}
	}
	tests := []struct {
		stage FallbackStage
		call  *event.LLMCall
		code  string
	}{
		{FallbackUnderstand, call(event.LLMOutcomeTimeout, true), "TOWOW_DEMAND_003"},
		{FallbackFilter, call(event.LLMOutcomeTimeout, true), "TOWOW_FILTER_002"},
		{FallbackFilter, call(event.LLMOutcomeBreakerOpen, true), "TOWOW_FILTER_002"},
		{FallbackFilter, call(event.LLMOutcomeError, true), "TOWOW_FILTER_002"},
		{FallbackFilter, call(event.LLMOutcomeParseError, true), "TOWOW_FILTER_003"},
		{FallbackAggregate, call(event.LLMOutcomeError, true), "TOWOW_PROPOSAL_001"},
		{FallbackAggregate, call(event.LLMOutcomeOK, false), ""},
		{FallbackFilter, nil, ""},
		{FallbackStage("offer"), call(event.LLMOutcomeError, true), ""},
	}
	for _, tc := range tests {
		e := FellBack(tc.stage, tc.call, "c-1", "d-1")
		if tc.code == "" {
			if e != nil {
				t.Errorf("%s %+v: recorded %+v", tc.stage, tc.call, e)
			}
			continue
		}
		if e == nil || e.ErrorCode != tc.code || !e.Recoverable || e.Context["channel_id"] != "c-1" || e.Context["demand_id"] != "d-1" ||
			!strings.Contains(e.ErrorMessage, tc.call.Outcome) || !strings.Contains(e.ErrorMessage, "boom") {
			t.Errorf("%s %s: %+v, want %s", tc.stage, tc.call.Outcome, e, tc.code)
		}
	}
}

// TestOldFailuresStillFold: a log written before failures carried their
// codes (no error_code, no towow.error.occurred) still decodes at schema
// version 1 and folds to the same failed channel; the code stays empty
// (error_code was always optional, so no upcaster invents one, and the
// read models' SQL rebuild, which reads the stored JSON, agrees).
func TestOldFailuresStillFold(t *testing.T) {
	g := newGiven(2, DefaultRules()).collecting()
	evs := append(g.events, decodeOld(t, []oldEvent{
		{EventNegotiationFailed, `{"channel_id":"collab-x","demand_id":"d-x","reason":"stuck_timeout","suggestion":"s"}`},
		{EventChannelStatusChanged, `{"channel_id":"collab-x","old_status":"collecting","new_status":"failed","reason":"stuck_timeout"}`},
		{EventNegotiationCompleted, `{"channel_id":"collab-x","demand_id":"d-x","status":"failed"}`},
	})...)
	c := fold(evs...)
	if c.Status != ChannelStatusFailed || !c.Completed || c.Failure == nil || c.Failure.Reason != FailureStuckTimeout || c.Failure.ErrorCode != "" {
		t.Fatalf("folded %s completed %v failure %+v", c.Status, c.Completed, c.Failure)
	}
	if evs, err := c.Stuck(); err != nil || evs != nil {
		t.Fatalf("a completed old channel decided again: %v %v", types(evs), err)
	}
}

// oldEvent is an event as a log written before a change stored it.
type oldEvent struct {
	t    event.EventType
	json string
}

// decodeOld decodes old events at schema version 1, as a replay of that
// log does.
func decodeOld(t *testing.T, old []oldEvent) []event.Payload {
	t.Helper()
	var evs []event.Payload
	for _, o := range old {
		p, err := event.DecodePayload(o.t, 1, []byte(o.json))
		if err != nil {
			t.Fatalf("%s: %v", o.t, err)
		}
		evs = append(evs, p)
	}
	return evs
}
