package writetest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
)

// live is a subscription to the whole log, started with the harness: what
// a frontend or a projection would have seen while the negotiation ran.
type live struct {
	mu     sync.Mutex
	events []eventstore.RecordedEvent
}

// watch starts the live subscription.
func (h *Harness) watch() {
	pool := h.Pool
	n := eventstore.NewNotifier(pool.Config().ConnConfig, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = n.Run(ctx) }()
	go func() {
		defer wg.Done()
		_ = h.Store.Subscribe(ctx, eventstore.SubscribeOptions{Notifier: n}, func(_ context.Context, b []eventstore.RecordedEvent) error {
			h.live.mu.Lock()
			h.live.events = append(h.live.events, b...)
			h.live.mu.Unlock()
			return nil
		})
	}()
	h.T.Cleanup(func() { cancel(); wg.Wait() })
}

// Check asserts the invariants of a finished negotiation tree.
func (h *Harness) Check(demandID string) {
	h.T.Helper()
	t := h.T
	stored := h.Events(demandID)
	// 1. The live subscription saw exactly the stored events, in order.
	deadline := time.Now().Add(5 * time.Second)
	for {
		h.live.mu.Lock()
		var seen []eventstore.RecordedEvent
		for _, e := range h.live.events {
			if e.Metadata.CorrelationID == demandID {
				seen = append(seen, e)
			}
		}
		h.live.mu.Unlock()
		if len(seen) >= len(stored) || time.Now().After(deadline) {
			if len(seen) != len(stored) {
				t.Fatalf("live subscription saw %d events, the store has %d", len(seen), len(stored))
			}
			for i := range seen {
				if seen[i].EventID != stored[i].EventID {
					t.Fatalf("live event %d is %s, stored %s", i, seen[i].EventID, stored[i].EventID)
				}
			}
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	// 2. Per stream: versions contiguous, and the incremental fold of the
	// live events equals a fresh load.
	byStream := map[string][]eventstore.RecordedEvent{}
	for _, e := range stored {
		byStream[e.StreamID] = append(byStream[e.StreamID], e)
	}
	for stream, evs := range byStream {
		for i, e := range evs {
			if e.StreamVersion != int64(i+1) {
				t.Fatalf("%s: event %d has version %d", stream, i, e.StreamVersion)
			}
		}
		checkCodedFailures(t, stream, evs)
		switch {
		case strings.HasPrefix(stream, "channel-"):
			id := strings.TrimPrefix(stream, "channel-")
			folded := &negotiation.Channel{}
			for _, e := range evs {
				p, err := e.Decode()
				if err != nil {
					t.Fatal(err)
				}
				folded.Apply(p)
			}
			loaded, err := h.Channel(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(folded, loaded) {
				t.Fatalf("channel %s: fold of the live events differs from the loaded state", id)
			}
			checkChannel(t, id, evs)
		case strings.HasPrefix(stream, "demand-"):
			id := strings.TrimPrefix(stream, "demand-")
			folded := &negotiation.DemandState{}
			for _, e := range evs {
				p, _ := e.Decode()
				folded.Apply(p)
			}
			loaded, _ := h.Demand(context.Background(), id)
			if !reflect.DeepEqual(folded, loaded) {
				t.Fatalf("demand %s: fold differs from the loaded state", id)
			}
		}
	}
	checkAgreedWorkflow(t, demandID, stored)
}

// checkAgreedWorkflow: a root channel that completes with an agreed plan
// has its draft workflow created once, before the completion, whichever
// step completed it.
func checkAgreedWorkflow(t testing.TB, demandID string, stored []eventstore.RecordedEvent) {
	t.Helper()
	root := negotiation.ChannelIDFor(demandID)
	workflows := 0
	for _, e := range stored {
		if e.Type == workflow.EventWorkflowCreated {
			workflows++
		}
		if e.Type != negotiation.EventNegotiationCompleted {
			continue
		}
		p, _ := e.Decode()
		done := p.(*negotiation.NegotiationCompleted)
		if done.ChannelID != root {
			continue
		}
		c := &negotiation.Channel{Status: done.Status, FinalProposal: done.FinalProposal}
		c.Apply(done)
		if plan := c.AgreedPlan(); plan != nil && len(plan.Assignments) > 0 && workflows != 1 {
			t.Fatalf("%s: completed with an agreed plan after %d towow.workflow.created, want 1", demandID, workflows)
		}
	}
}

// checkChannel: no duplicated answers, one completion followed by
// towow.channel.closed and nothing after them, every status change allowed
// by the state machine, an invitation sent to every candidate at the
// broadcast (with the demand's urgency), and the agreement's duration
// measured from the channel's opening.
func checkChannel(t testing.TB, id string, evs []eventstore.RecordedEvent) {
	t.Helper()
	offers, feedback := map[string]bool{}, map[string]bool{}
	status := negotiation.ChannelStatus("")
	completed, closed := 0, 0
	var created *negotiation.ChannelCreated
	invited := map[string]bool{}
	for i, e := range evs {
		if closed > 0 {
			t.Fatalf("channel %s: %s after it closed", id, e.Type)
		}
		if completed > 0 && e.Type != negotiation.EventChannelClosed {
			t.Fatalf("channel %s: %s after completion", id, e.Type)
		}
		p, _ := e.Decode()
		switch ev := p.(type) {
		case *negotiation.ChannelCreated:
			status, created = negotiation.ChannelStatusCreated, ev
			if ev.CreatedAt.IsZero() {
				t.Fatalf("channel %s: created without its opening time", id)
			}
		case *negotiation.DemandBroadcast:
			if !ev.Urgency.Valid() {
				t.Fatalf("channel %s: broadcast with urgency %q", id, ev.Urgency)
			}
		case *negotiation.ChannelInviteSent:
			invited[ev.AgentID] = true // at the broadcast, or a fork's add_agent
		case *negotiation.OfferRequested:
			if !invited[ev.AgentID] && ev.Round == 1 {
				t.Fatalf("channel %s: offer requested of %s before its invitation", id, ev.AgentID)
			}
		case *negotiation.ProposalFinalized:
			want := e.RecordedAt.Sub(created.CreatedAt).Seconds()
			if got := float64(ev.TotalDurationSeconds); got > want+1 || got < want-2 {
				t.Fatalf("channel %s: total_duration_seconds %d, but it opened %.1f s before", id, ev.TotalDurationSeconds, want)
			}
		case *negotiation.ChannelClosed:
			nc, _ := evs[i-1].Decode()
			if c, ok := nc.(*negotiation.NegotiationCompleted); !ok || c.Status != ev.Status || ev.Reason == "" {
				t.Fatalf("channel %s: closed %+v after %s", id, ev, evs[i-1].Type)
			}
			closed++
		case *negotiation.ChannelStatusChanged:
			if ev.OldStatus != status || !negotiation.CanTransition(ev.OldStatus, ev.NewStatus) {
				t.Fatalf("channel %s: transition %s → %s while %s", id, ev.OldStatus, ev.NewStatus, status)
			}
			status = ev.NewStatus
		case *negotiation.OfferSubmitted:
			if offers[ev.AgentID] {
				t.Fatalf("channel %s: second offer from %s", id, ev.AgentID)
			}
			offers[ev.AgentID] = true
		case *negotiation.ProposalFeedback:
			k := fmt.Sprint(ev.AgentID, "/", ev.Round)
			if feedback[k] {
				t.Fatalf("channel %s: second feedback %s", id, k)
			}
			feedback[k] = true
		case *negotiation.NegotiationCompleted:
			completed++
		}
	}
	if completed != 1 || closed != 1 {
		t.Fatalf("channel %s completed %d times and closed %d times", id, completed, closed)
	}
	if broadcast := slices.ContainsFunc(evs, func(e eventstore.RecordedEvent) bool { return e.Type == negotiation.EventDemandBroadcast }); broadcast {
		for _, cand := range created.Candidates {
			if !invited[cand.AgentID] {
				t.Fatalf("channel %s: candidate %s never invited", id, cand.AgentID)
			}
		}
	}
}

// checkCodedFailures: every failure carries its TOWOW_* code and is
// followed, in the same commit, by a towow.error.occurred with that code
// naming the failure's demand; every towow.error.occurred has a code.
func checkCodedFailures(t testing.TB, stream string, evs []eventstore.RecordedEvent) {
	t.Helper()
	for i, e := range evs {
		p, _ := e.Decode()
		switch ev := p.(type) {
		case *negotiation.NegotiationFailed:
			if !strings.HasPrefix(ev.ErrorCode, "TOWOW_") {
				t.Fatalf("%s: failure %s without a code", stream, ev.Reason)
			}
			if i+1 == len(evs) || evs[i+1].Type != negotiation.EventErrorOccurred || evs[i+1].Metadata.CausationID != e.Metadata.CausationID {
				t.Fatalf("%s: failure %s (%s) not followed by its towow.error.occurred", stream, ev.Reason, ev.ErrorCode)
			}
			next, _ := evs[i+1].Decode()
			if o := next.(*negotiation.ErrorOccurred); o.ErrorCode != ev.ErrorCode || o.Context["demand_id"] != ev.DemandID {
				t.Fatalf("%s: failure %s coded %s followed by error %+v", stream, ev.Reason, ev.ErrorCode, o)
			}
		case *negotiation.ErrorOccurred:
			if !strings.HasPrefix(ev.ErrorCode, "TOWOW_") || ev.ErrorMessage == "" {
				t.Fatalf("%s: error without a code or message: %+v", stream, ev)
			}
		}
	}
}
