package forks_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
	"github.com/towow/towow/writetest"
)

// counting counts the provider calls made while on.
type counting struct {
	llm.Provider
	on    atomic.Bool
	calls atomic.Int64
	keys  chan llm.PromptKey
}

func (c *counting) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if c.on.Load() {
		c.calls.Add(1)
		select {
		case c.keys <- req.Key:
		default:
		}
	}
	return c.Provider.Complete(ctx, req)
}

// TestForkReusesAndChanges: the sample negotiation forked at its first
// aggregation with no change ends exactly as the original did without a
// single provider call (every answer reused); forked with one of its
// assignees removed, it ends without that agent and asks the provider for
// what the change touched. Bad forks are refused with nothing written.
func TestForkReusesAndChanges(t *testing.T) {
	p := &counting{Provider: builtin.New(), keys: make(chan llm.PromptKey, 100)}
	h := writetest.New(t, writetest.Opts{Provider: p})
	ctx := context.Background()
	sub, err := h.C.SubmitDemand(ctx, "user_alice", writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	h.Wait(sub.DemandID, 30*time.Second)
	orig := h.Events(sub.DemandID)
	plan, status := writetest.RootPlan(t, orig, sub.DemandID)
	at := writetest.FirstOf(t, orig, negotiation.EventAggregationStarted, negotiation.ChannelStream(negotiation.ChannelIDFor(sub.DemandID)))

	// No change: the same end, no provider call.
	p.on.Store(true)
	same, _, err := h.C.Fork(ctx, sub.DemandID, at, negotiation.ForkChange{Type: negotiation.ForkNoChange})
	if err != nil {
		t.Fatal(err)
	}
	h.Wait(same, 30*time.Second)
	h.Check(same) // a negotiation like any other: its invariants hold
	forked := h.Events(same)
	fplan, fstatus := writetest.RootPlan(t, forked, same)
	if calls := p.calls.Load(); calls != 0 {
		close(p.keys)
		var keys []string
		for k := range p.keys {
			keys = append(keys, string(k))
		}
		t.Fatalf("the fork without a change called the provider %d times (%v):\n%s", calls, keys, h.Timeline(same))
	}
	if d := negotiation.DiffPlans(plan, fplan); !d.Same() || fstatus != status {
		t.Fatalf("the fork ended %s with %+v; the original %s", fstatus, d, status)
	}
	reused := 0
	for _, e := range forked {
		named := strings.Contains(string(e.Payload), negotiation.ForkTreeID(sub.DemandID)) && e.Type != negotiation.EventNegotiationForked
		if named || e.Metadata.CorrelationID != same {
			t.Fatalf("event %d of the fork names the original: %s", e.Position, e.Payload)
		}
		if c := e.Metadata.LLMCall; c != nil {
			if !c.Reused {
				t.Fatalf("event %d of the fork spent a provider call: %+v", e.Position, c)
			}
			reused++
		}
	}
	if reused < 10 || forked[0].Type != negotiation.EventDemandSubmitted {
		t.Fatalf("%d reused calls; first event %s", reused, forked[0].Type)
	}

	// One assignee removed from then on: a plan without it.
	gone := plan.Assignments[0].AgentID
	before := p.calls.Load()
	other, _, err := h.C.Fork(ctx, sub.DemandID, at, negotiation.ForkChange{Type: negotiation.ForkRemoveAgent, AgentID: gone})
	if err != nil {
		t.Fatal(err)
	}
	h.Wait(other, 30*time.Second)
	h.Check(other)
	oplan, _ := writetest.RootPlan(t, h.Events(other), other)
	if oplan != nil && slices.ContainsFunc(oplan.Assignments, func(a negotiation.Assignment) bool { return a.AgentID == gone }) {
		t.Fatalf("the fork without %s still assigns it: %+v", gone, oplan.Assignments)
	}
	if p.calls.Load() == before {
		t.Fatal("the change asked the provider nothing")
	}

	// Bad forks: nothing written.
	head := h.Head()
	for _, c := range []struct {
		name   string
		demand string
		at     int64
		change negotiation.ForkChange
		want   error
	}{
		{"a cursor outside", sub.DemandID, 1, negotiation.ForkChange{Type: negotiation.ForkNoChange}, negotiation.ErrForkPoint},
		{"after the end", sub.DemandID, orig[len(orig)-1].Position, negotiation.ForkChange{Type: negotiation.ForkNoChange}, negotiation.ErrForkPoint},
		{"an unknown agent", sub.DemandID, at, negotiation.ForkChange{Type: negotiation.ForkRemoveAgent, AgentID: "nobody"}, negotiation.ErrForkChange},
		{"no agent", sub.DemandID, at, negotiation.ForkChange{Type: negotiation.ForkRemoveAgent}, negotiation.ErrForkChange},
		{"an unknown change", sub.DemandID, at, negotiation.ForkChange{Type: "change_everything"}, negotiation.ErrForkChange},
		{"an unknown negotiation", "d-000000000000", at, negotiation.ForkChange{Type: negotiation.ForkNoChange}, negotiation.ErrNotFound},
	} {
		if _, _, err := h.C.Fork(ctx, c.demand, c.at, c.change); !errors.Is(err, c.want) {
			t.Fatalf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// What the log holds after head is what the negotiations above still
	// set off (the last of their events, their notices), never a new fork.
	after, err := h.Store.ReadAll(ctx, head, eventstore.Filter{}, eventstore.MaxReadLimit)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range after {
		if root := e.Metadata.CorrelationID; e.Type != notice.EventNoticePosted && root != sub.DemandID && root != same && root != other {
			t.Fatalf("refused forks wrote to the log: %s in %s (tree %q)", e.Type, e.StreamID, root)
		}
	}
}

// TestForkChangesRules: a negotiation that took five rounds, forked at the
// start of its second with at most two rounds, ends by round 2: the rule
// holds in the channel from the fork point on.
func TestForkChangesRules(t *testing.T) {
	h := writetest.New(t, writetest.Opts{})
	ctx := context.Background()
	sub, err := h.C.SubmitDemand(ctx, "user_alice", "Product launch in Beijing: we need a host, a photographer and printed badges")
	if err != nil {
		t.Fatal(err)
	}
	orig := h.Wait(sub.DemandID, 30*time.Second)
	if orig.Channel == nil || orig.Channel.RoundsTaken < 3 {
		t.Fatalf("the original took %v rounds; the test needs three or more", orig.Channel)
	}
	var at int64
	for _, e := range h.Events(sub.DemandID) {
		if e.Type == negotiation.EventNegotiationRoundStarted && e.StreamID == negotiation.ChannelStream(negotiation.ChannelIDFor(sub.DemandID)) {
			p, _ := e.Decode()
			if p.(*negotiation.NegotiationRoundStarted).Round == 2 {
				at = e.Position
				break
			}
		}
	}
	two := 2
	fork, _, err := h.C.Fork(ctx, sub.DemandID, at, negotiation.ForkChange{Type: negotiation.ForkChangeRule, Rules: &negotiation.RulesChange{MaxRounds: &two}})
	if err != nil {
		t.Fatal(err)
	}
	got := h.Wait(fork, 30*time.Second)
	h.Check(fork)
	if got.Channel == nil || got.Channel.Rules.MaxRounds != 2 || got.Channel.RoundsTaken > 2 || got.Channel.Round > 2 {
		t.Fatalf("the fork: %+v (original %d rounds)", got.Channel, orig.Channel.RoundsTaken)
	}
}

// TestForkAddsAnAgent: the sample negotiation forked at its broadcast
// (the step that opens the offers) with an agent it never invited: the fork asks that agent too (its twin
// offers), and the fork goes on to an end.
func TestForkAddsAnAgent(t *testing.T) {
	h := writetest.New(t, writetest.Opts{})
	ctx := context.Background()
	sub, err := h.C.SubmitDemand(ctx, "user_alice", writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	orig := h.Wait(sub.DemandID, 30*time.Second)
	root := negotiation.ChannelStream(negotiation.ChannelIDFor(sub.DemandID))
	at := writetest.FirstOf(t, h.Events(sub.DemandID), negotiation.EventDemandBroadcast, root)
	added := ""
	for _, id := range []string{"user_agent_alice", "user_agent_bob", "user_agent_carol", "user_agent_kevin", "user_agent_zhuqian", "user_agent_wanglin"} {
		if !orig.Channel.Invited(id) {
			added = id
			break
		}
	}
	if added == "" {
		t.Fatal("every agent of the list was invited")
	}
	fork, _, err := h.C.Fork(ctx, sub.DemandID, at, negotiation.ForkChange{Type: negotiation.ForkAddAgent, AgentID: added})
	if err != nil {
		t.Fatal(err)
	}
	got := h.Wait(fork, 30*time.Second)
	h.Check(fork)
	if got.Channel == nil || !got.Channel.Invited(added) || got.Channel.Offers[added].Decision == "" {
		t.Fatalf("the fork did not ask %s: invited %v, offers %v", added, got.Channel != nil && got.Channel.Invited(added), got.Channel.Offers)
	}
	// After the offers closed there is no one to add to.
	closed := writetest.FirstOf(t, h.Events(sub.DemandID), negotiation.EventAggregationStarted, root)
	if _, _, err := h.C.Fork(ctx, sub.DemandID, closed, negotiation.ForkChange{Type: negotiation.ForkAddAgent, AgentID: added}); !errors.Is(err, negotiation.ErrForkChange) {
		t.Fatalf("add after the offers closed: %v", err)
	}
}

// TestForkChangesTheDemand: forked at its submission, the sample demand
// reads another text (Shanghai, not Beijing) and negotiates from there;
// after it was understood the text cannot change.
func TestForkChangesTheDemand(t *testing.T) {
	h := writetest.New(t, writetest.Opts{})
	ctx := context.Background()
	sub, err := h.C.SubmitDemand(ctx, "user_alice", writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	h.Wait(sub.DemandID, 30*time.Second)
	evs := h.Events(sub.DemandID)
	text := "我想在上海办一场AI主题聚会，需要场地和嘉宾"
	fork, _, err := h.C.Fork(ctx, sub.DemandID, evs[0].Position, negotiation.ForkChange{Type: negotiation.ForkChangeDemand, Text: text})
	if err != nil {
		t.Fatal(err)
	}
	got := h.Wait(fork, 30*time.Second)
	h.Check(fork)
	if got.Demand.RawInput != text || got.Demand.Understanding == nil || got.Demand.Understanding.Context.Location != "上海" {
		t.Fatalf("the fork's demand: %q, understood %+v", got.Demand.RawInput, got.Demand.Understanding)
	}
	understood := writetest.FirstOf(t, evs, negotiation.EventDemandUnderstood, negotiation.DemandStream(sub.DemandID))
	for _, c := range []struct {
		at   int64
		text string
		want error
	}{{understood, text, negotiation.ErrForkChange}, {evs[0].Position, writetest.SampleDemand, negotiation.ErrForkChange}, {evs[0].Position, "  ", negotiation.ErrDemandEmpty}} {
		if _, _, err := h.C.Fork(ctx, sub.DemandID, c.at, negotiation.ForkChange{Type: negotiation.ForkChangeDemand, Text: c.text}); !errors.Is(err, c.want) {
			t.Fatalf("change_demand at %d to %q: %v, want %v", c.at, c.text, err, c.want)
		}
	}
}
