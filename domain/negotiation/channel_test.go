package negotiation

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
)

var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// fold replays events into a channel.
func fold(events ...event.Payload) *Channel {
	c := &Channel{}
	for _, e := range events {
		c.Apply(e)
	}
	return c
}

func agents(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("a%d", i+1)
	}
	return out
}

// given builds the events of a channel up to a stage.
type given struct{ events []event.Payload }

func newGiven(n int, rules Rules) *given {
	cands := make([]Candidate, n)
	for i, id := range agents(n) {
		cands[i] = Candidate{AgentID: id, DisplayName: "Agent " + id, Reason: "match"}
	}
	c := &Channel{}
	evs, err := c.Create(CreateChannel{ChannelID: "collab-x", DemandID: "d-x", Candidates: cands, Rules: rules, Now: t0})
	if err != nil {
		panic(err)
	}
	return &given{events: evs}
}

func (g *given) then(f func(c *Channel) ([]event.Payload, error)) *given {
	evs, err := f(fold(g.events...))
	if err != nil {
		panic(err)
	}
	g.events = append(g.events, evs...)
	return g
}

func (g *given) collecting() *given {
	return g.then(func(c *Channel) ([]event.Payload, error) { return c.Broadcast(Demand{SurfaceDemand: "AI 聚会"}) })
}

// offers submits one offer per decision, in agent order.
func (g *given) offers(decisions ...OfferDecision) *given {
	for i, d := range decisions {
		o := Offer{AgentID: fmt.Sprintf("a%d", i+1), OfferAnswer: OfferAnswer{Decision: d, Contribution: "help"}}
		if d == OfferDecisionConditional {
			o.Conditions = []string{"报销交通费"}
		}
		g.then(func(c *Channel) ([]event.Payload, error) { return c.SubmitOffer(o, "", t0) })
	}
	return g
}

func proposalFor(ids ...string) Proposal {
	p := Proposal{Summary: "plan"}
	for _, id := range ids {
		p.Assignments = append(p.Assignments, Assignment{AgentID: id, Role: "role " + id})
	}
	return p
}

func (g *given) proposed() *given {
	return g.then(func(c *Channel) ([]event.Payload, error) {
		return c.Propose(proposalFor(c.ActiveParticipants()...), t0)
	})
}

// feedback submits one feedback per type for the round's members, in order.
func (g *given) feedback(types ...FeedbackType) *given {
	for i, ft := range types {
		g.then(func(c *Channel) ([]event.Payload, error) {
			f := ProposalFeedback{AgentID: c.RoundMembers()[i], FeedbackAnswer: FeedbackAnswer{FeedbackType: ft, Reasoning: "r"}}
			if ft == FeedbackNegotiate {
				f.AdjustmentRequest = "改时间"
			}
			return c.SubmitFeedback(f, 0, t0)
		})
	}
	return g
}

func (g *given) adjusted() *given {
	return g.then(func(c *Channel) ([]event.Payload, error) { return c.Adjust(proposalFor(c.ActiveParticipants()...), t0) })
}

func types(evs []event.Payload) []event.EventType {
	out := make([]event.EventType, len(evs))
	for i, e := range evs {
		out[i] = e.EventType()
	}
	return out
}

func find[T event.Payload](evs []event.Payload) T {
	for _, e := range evs {
		if v, ok := e.(T); ok {
			return v
		}
	}
	var zero T
	return zero
}

const (
	tStatus    = EventChannelStatusChanged
	tEvaluated = EventFeedbackEvaluated
)

func TestChannelDecisions(t *testing.T) {
	rules := DefaultRules()
	tests := []struct {
		name  string
		given *given
		when  func(c *Channel) ([]event.Payload, error)
		then  []event.EventType
		err   error
		check func(t *testing.T, c *Channel, evs []event.Payload)
	}{
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
			name:  "offer timeout aggregates what arrived",
			given: newGiven(3, rules).collecting().offers(OfferDecisionParticipate),
			when:  func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() },
			then:  []event.EventType{EventOfferTimeout, tStatus, EventAggregationStarted},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if m := find[*OfferTimeout](evs).MissingAgents; !slices.Equal(m, []string{"a2", "a3"}) {
					t.Errorf("missing %v", m)
				}
			},
		},
		{
			name:  "offer timeout after collection closed is a no-op",
			given: newGiven(1, rules).collecting().offers(OfferDecisionParticipate),
			when:  func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() },
		},
		{
			name:  "a proposal before offers close is an invalid transition",
			given: newGiven(2, rules).collecting(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Propose(proposalFor("a1"), t0) },
			err:   ErrInvalidTransition,
		},
		{
			name:  "the first proposal opens round 1 and drops strangers",
			given: newGiven(3, rules).collecting().offers(OfferDecisionParticipate, OfferDecisionConditional, OfferDecisionDecline),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Propose(proposalFor("a1", "a2", "a3", "zz"), t0) },
			then:  []event.EventType{EventNegotiationRoundStarted, tStatus, EventProposalDistributed, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				p := find[*ProposalDistributed](evs).Proposal
				if len(p.Assignments) != 2 || p.Version != 1 || p.ProposalID != "prop-x-v1" || p.Type != ProposalTypeNormal {
					t.Errorf("proposal %+v", p)
				}
				if !slices.Equal(c.RoundMembers(), []string{"a1", "a2"}) {
					t.Errorf("round members %v", c.RoundMembers())
				}
			},
		},
		{
			name:  "no participants fails with the compromise",
			given: newGiven(2, rules).collecting().offers(OfferDecisionDecline, OfferDecisionDecline),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.FailNoParticipants(Proposal{Summary: "c", Suggestions: []string{"放宽地点"}}, t0)
			},
			then: []event.EventType{EventNegotiationFailed, EventErrorOccurred, tStatus, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				f := find[*NegotiationFailed](evs)
				if f.Reason != FailureNoParticipants || f.LastProposal.Type != ProposalTypeCompromise || f.Suggestion != "放宽地点" {
					t.Errorf("failure %+v", f)
				}
				if c.Status != ChannelStatusFailed || !c.Completed {
					t.Errorf("status %s completed %v", c.Status, c.Completed)
				}
			},
		},
		{
			name:  "no offers at all before the timeout",
			given: newGiven(2, rules).collecting().then(func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() }),
			when:  func(c *Channel) ([]event.Payload, error) { return c.FailNoParticipants(Proposal{Summary: "c"}, t0) },
			then:  []event.EventType{EventNegotiationFailed, EventErrorOccurred, tStatus, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if r := find[*NegotiationFailed](evs).Reason; r != FailureNoResponsesTimeout {
					t.Errorf("reason %s", r)
				}
			},
		},
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
			name:  "the adjusted proposal opens the next round without the withdrawn",
			given: fiveInRound1().feedback(FeedbackAccept, FeedbackAccept, FeedbackNegotiate, FeedbackWithdraw, FeedbackAccept),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Adjust(proposalFor(agents(5)...), t0) },
			then:  []event.EventType{tStatus, EventProposalDistributed, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				p := find[*ProposalDistributed](evs)
				if p.Round != 2 || p.Proposal.Version != 2 || len(p.Proposal.Assignments) != 4 {
					t.Errorf("distributed %+v", p)
				}
				if !slices.Equal(c.RoundMembers(), []string{"a1", "a2", "a3", "a5"}) {
					t.Errorf("round 2 members %v", c.RoundMembers())
				}
			},
		},
		{
			name:  "an adjustment nobody asked for is a no-op",
			given: fiveInRound1(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Adjust(proposalFor("a1"), t0) },
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
		{
			name:  "feedback timeout counts the missing as accept",
			given: fiveInRound1().feedback(FeedbackNegotiate, FeedbackAccept),
			when:  func(c *Channel) ([]event.Payload, error) { return c.FeedbackTimeout(1, t0) },
			then:  []event.EventType{EventProposalFeedback, EventProposalFeedback, EventProposalFeedback, tEvaluated, EventProposalFinalized, tStatus},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				if f := find[*ProposalFeedback](evs); f.Reasoning != FeedbackTimeoutReason || f.AgentID != "a3" {
					t.Errorf("timeout feedback %+v", f)
				}
			},
		},
		{
			name:  "a stale feedback timeout is a no-op",
			given: fiveInRound1(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.FeedbackTimeout(2, t0) },
		},
		{
			name:  "a stuck channel fails",
			given: newGiven(2, rules).collecting(),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Stuck() },
			then:  []event.EventType{EventNegotiationFailed, EventErrorOccurred, tStatus, EventNegotiationCompleted, EventChannelClosed},
		},
		{
			name:  "an agreed channel still waiting completes at its stuck deadline",
			given: finalized(rules),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Stuck() },
			then:  []event.EventType{EventNegotiationCompleted, EventChannelClosed},
		},
		{
			name: "a sub-negotiation still running at the stuck deadline is recorded as failed",
			given: withSubnets(rules, 2).then(func(c *Channel) ([]event.Payload, error) {
				return c.SubnetDone(SubnetCompleted{SubChannelID: "collab-x-1", Success: true, Status: ChannelStatusFinalized})
			}),
			when: func(c *Channel) ([]event.Payload, error) { return c.Stuck() },
			then: []event.EventType{EventSubnetCompleted, EventErrorOccurred, EventNegotiationCompleted, EventChannelClosed},
			check: func(t *testing.T, c *Channel, evs []event.Payload) {
				done := find[*NegotiationCompleted](evs)
				if len(done.SubResults) != 2 || done.SubResults[1].FailureReason != string(FailureStuckTimeout) || done.SubResults[1].Success {
					t.Errorf("sub results %+v", done.SubResults)
				}
			},
		},
		{
			name:  "a completed channel is never stuck",
			given: finalized(rules).then(func(c *Channel) ([]event.Payload, error) { return c.IdentifyGaps(nil, true, "") }),
			when:  func(c *Channel) ([]event.Payload, error) { return c.Stuck() },
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
			name:  "offers after the offer timeout",
			given: newGiven(2, rules).collecting().then(func(c *Channel) ([]event.Payload, error) { return c.OfferTimeout() }),
			when: func(c *Channel) ([]event.Payload, error) {
				return c.SubmitOffer(Offer{AgentID: "a1", OfferAnswer: OfferAnswer{Decision: OfferDecisionParticipate, Contribution: "x"}}, "", t0)
			},
			err: ErrOffersClosed,
		},
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := fold(tc.given.events...)
			before := len(tc.given.events)
			evs, err := tc.when(c)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || evs != nil {
					t.Fatalf("got %v, %v; want error %v and no events", types(evs), err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if !slices.Equal(types(evs), tc.then) {
				t.Fatalf("events %v, want %v", types(evs), tc.then)
			}
			if len(tc.given.events) != before {
				t.Fatal("decide changed the given events")
			}
			after := fold(append(append([]event.Payload{}, tc.given.events...), evs...)...)
			if tc.check != nil {
				tc.check(t, after, evs)
			}
		})
	}
}

func TestRecursionBeyondMaxDepth(t *testing.T) {
	c := fold(withGaps(DefaultRules()).events...)
	c.Depth = 1 // a sub-channel at the maximum depth (default 1)
	evs, err := c.Recurse([]SubnetPlan{{GapType: "g"}}, nil)
	if !errors.Is(err, ErrMaxDepth) || evs != nil {
		t.Fatalf("got %v, %v", types(evs), err)
	}
}

// TestStatusChangesFollowTheStateMachine walks a long negotiation and checks
// every recorded transition is allowed.
func TestStatusChangesFollowTheStateMachine(t *testing.T) {
	g := inLastRound(5).feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackNegotiate, FeedbackNegotiate).
		then(func(c *Channel) ([]event.Payload, error) { return c.ForceFinalize(proposalFor(agents(5)...), t0) }).
		then(func(c *Channel) ([]event.Payload, error) { return c.IdentifyGaps(nil, true, "") })
	status := ChannelStatus("")
	for _, e := range g.events {
		if s, ok := e.(*ChannelStatusChanged); ok {
			if s.OldStatus != status && status != "" || !CanTransition(s.OldStatus, s.NewStatus) {
				t.Fatalf("transition %s → %s after %s", s.OldStatus, s.NewStatus, status)
			}
			status = s.NewStatus
		}
		if _, ok := e.(*ChannelCreated); ok {
			status = ChannelStatusCreated
		}
	}
	c := fold(g.events...)
	if c.Status != ChannelStatusForceFinalized || c.Round != 5 || !c.Completed {
		t.Fatalf("status %s round %d completed %v", c.Status, c.Round, c.Completed)
	}
}

func fiveInRound1() *given {
	p := OfferDecisionParticipate
	return newGiven(5, DefaultRules()).collecting().offers(p, p, p, p, p).proposed()
}

// inLastRound returns five participants in round maxRounds (of maxRounds),
// reached by negotiating every earlier round at 60%.
func inLastRound(maxRounds int) *given {
	p := OfferDecisionParticipate
	r := DefaultRules()
	r.MaxRounds = maxRounds
	g := newGiven(5, r).collecting().offers(p, p, p, p, p).proposed()
	for range maxRounds - 1 {
		g.feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackNegotiate, FeedbackNegotiate).adjusted()
	}
	return g
}

func lastFeedback(ft FeedbackType) func(c *Channel) ([]event.Payload, error) {
	return func(c *Channel) ([]event.Payload, error) {
		f := ProposalFeedback{AgentID: c.MissingFeedback()[0], FeedbackAnswer: FeedbackAnswer{FeedbackType: ft, Reasoning: "r", AdjustmentRequest: "x"}}
		return c.SubmitFeedback(f, 0, t0)
	}
}

func finalized(r Rules) *given {
	p := OfferDecisionParticipate
	return newGiven(2, r).collecting().offers(p, p).proposed().feedback(FeedbackAccept, FeedbackAccept)
}

func withGaps(r Rules) *given {
	return finalized(r).then(func(c *Channel) ([]event.Payload, error) {
		return c.IdentifyGaps([]Gap{{GapType: "摄影师", Importance: 80}}, false, "")
	})
}

func withSubnets(r Rules, n int) *given {
	return withGaps(r).then(func(c *Channel) ([]event.Payload, error) {
		plans := make([]SubnetPlan, n)
		for i := range plans {
			plans[i] = SubnetPlan{GapType: fmt.Sprint("g", i)}
		}
		return c.Recurse(plans, nil)
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

func TestCanTransition(t *testing.T) {
	all := []ChannelStatus{ChannelStatusCreated, ChannelStatusBroadcasting, ChannelStatusCollecting, ChannelStatusAggregating,
		ChannelStatusProposalSent, ChannelStatusNegotiating, ChannelStatusFinalized, ChannelStatusForceFinalized, ChannelStatusFailed}
	allowed := map[[2]ChannelStatus]bool{
		{ChannelStatusCreated, ChannelStatusBroadcasting}:       true,
		{ChannelStatusBroadcasting, ChannelStatusCollecting}:    true,
		{ChannelStatusCollecting, ChannelStatusAggregating}:     true,
		{ChannelStatusAggregating, ChannelStatusProposalSent}:   true,
		{ChannelStatusProposalSent, ChannelStatusNegotiating}:   true,
		{ChannelStatusNegotiating, ChannelStatusProposalSent}:   true,
		{ChannelStatusNegotiating, ChannelStatusFinalized}:      true,
		{ChannelStatusNegotiating, ChannelStatusForceFinalized}: true,
	}
	for _, from := range all {
		for _, to := range all {
			want := allowed[[2]ChannelStatus{from, to}] || (to == ChannelStatusFailed && !from.IsTerminal())
			if got := CanTransition(from, to); got != want {
				t.Errorf("%s → %s: %v, want %v", from, to, got, want)
			}
		}
	}
}

func TestCreateRejectsDuplicateCandidates(t *testing.T) {
	c := &Channel{}
	_, err := c.Create(CreateChannel{ChannelID: "c", DemandID: "d", Rules: DefaultRules(),
		Candidates: []Candidate{{AgentID: "a1"}, {AgentID: "a1"}}})
	if !errors.Is(err, ErrInvalidAnswer) {
		t.Fatalf("err = %v", err)
	}
}

func TestDemandStuck(t *testing.T) {
	d := &DemandState{}
	evs, _ := d.Submit(SubmitDemand{DemandID: "d-1", UserID: "u", RawInput: "x"})
	d.Apply(evs[0])
	evs, err := d.Stuck()
	if err != nil || len(evs) != 2 || evs[0].(*NegotiationFailed).Reason != FailureStuckTimeout || evs[1].EventType() != EventErrorOccurred {
		t.Fatalf("stuck demand: %v %v", types(evs), err)
	}
	d.Apply(evs[0])
	if evs, _ := d.Stuck(); evs != nil {
		t.Fatal("a failed demand got stuck twice")
	}
}
