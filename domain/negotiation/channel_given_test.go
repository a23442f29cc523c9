package negotiation

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
)

// The channel's decision tests are tables in given-events / when-command /
// then-events style, one per phase (channel_offers_test.go,
// channel_proposals_test.go, channel_rounds_test.go,
// channel_subnets_test.go, channel_deadlines_test.go); this file holds
// what they share: the events of a channel up to a stage, and the runner.

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

// fiveInRound1 is five participants with the first proposal out.
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

// lastFeedback submits feedback of type ft for the first round member
// that has not answered.
func lastFeedback(ft FeedbackType) func(c *Channel) ([]event.Payload, error) {
	return func(c *Channel) ([]event.Payload, error) {
		f := ProposalFeedback{AgentID: c.MissingFeedback()[0], FeedbackAnswer: FeedbackAnswer{FeedbackType: ft, Reasoning: "r", AdjustmentRequest: "x"}}
		return c.SubmitFeedback(f, 0, t0)
	}
}

// finalized is two participants who accepted the first proposal.
func finalized(r Rules) *given {
	p := OfferDecisionParticipate
	return newGiven(2, r).collecting().offers(p, p).proposed().feedback(FeedbackAccept, FeedbackAccept)
}

// withGaps is a finalized channel with one gap found.
func withGaps(r Rules) *given {
	return finalized(r).then(func(c *Channel) ([]event.Payload, error) {
		return c.IdentifyGaps([]Gap{{GapType: "摄影师", Importance: 80}}, false, "")
	})
}

// withSubnets is a channel with gaps and n sub-negotiations triggered.
func withSubnets(r Rules, n int) *given {
	return withGaps(r).then(func(c *Channel) ([]event.Payload, error) {
		plans := make([]SubnetPlan, n)
		for i := range plans {
			plans[i] = SubnetPlan{GapType: fmt.Sprint("g", i)}
		}
		return c.Recurse(plans, nil)
	})
}

// decision is one case of a decision table: given the events of a channel,
// when a command is decided on the channel they fold into, then exactly
// these events follow (or the error err and none), and check inspects the
// channel folded with them.
type decision struct {
	name  string
	given *given
	when  func(c *Channel) ([]event.Payload, error)
	then  []event.EventType
	err   error
	check func(t *testing.T, c *Channel, evs []event.Payload)
}

// runDecisions runs each case as a subtest; a decision must not change
// the given events.
func runDecisions(t *testing.T, tests []decision) {
	t.Helper()
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
