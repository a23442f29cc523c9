package eventstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
)

// TestFilterMatchAgreesWithReadAll: the hub filters in memory; for every
// filter the API can send, Match must select exactly what ReadAll's SQL
// selects.
func TestFilterMatchAgreesWithReadAll(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	types := []string{"towow.offer.submitted", "towow.offer.withdrawn", "towow.proposal.distributed", "towow.channel.created"}
	for i := range 60 {
		e := ev(types[i%len(types)], fmt.Sprintf(`{"i":%d}`, i))
		e.Metadata = event.Metadata{CorrelationID: fmt.Sprintf("d-%d", i%3), Actor: []string{"coordinator", "agent:bob", ""}[i%3]}
		if _, err := s.Append(ctx, fmt.Sprintf("channel-%d", i%5), eventstore.AnyVersion, e); err != nil {
			t.Fatal(err)
		}
		if i == 29 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	all := readAll(t, s, eventstore.Filter{})
	mid := all[30].RecordedAt
	for _, f := range []eventstore.Filter{
		{},
		{StreamID: "channel-2"},
		{Types: []event.EventType{"towow.offer.submitted", "towow.channel.created"}},
		{TypePrefix: "towow.offer."},
		{TypePrefix: "towow.offer_"}, // literal: "_" is no wildcard
		{CorrelationID: "d-1"},
		{Actor: "agent:bob"},
		{UntilPosition: all[40].Position},
		{Since: mid},
		{Until: mid},
		{CorrelationID: "d-2", TypePrefix: "towow.offer.", StreamID: "channel-3"},
	} {
		var got []eventstore.RecordedEvent
		for _, e := range all {
			if f.Match(e) {
				got = append(got, e)
			}
		}
		want := readAll(t, s, f)
		if len(want) == len(all) && (f.StreamID != "" || f.TypePrefix != "" || f.UntilPosition != 0) {
			t.Fatalf("filter %+v selects everything: the case proves nothing", f)
		}
		sameSequence(t, fmt.Sprintf("Match(%+v)", f), got, want)
	}
}

// TestHubFollow: followers starting before, inside and at the head of the
// log, with filters, one of them too slow for the (tiny) buffer, all
// receive exactly the events ReadAll returns for them, once and in order,
// while several writers append.
func TestHubFollow(t *testing.T) {
	s, pool := newStore(t)
	ctx := ctxT(t, 60*time.Second)
	if _, err := s.Append(ctx, "early", eventstore.NoStream, evN(50, "early")...); err != nil {
		t.Fatal(err)
	}
	hub := eventstore.NewHub(s, startNotifier(t, pool), eventstore.HubOptions{Capacity: 16})
	hctx, stop := context.WithCancel(ctx)
	hubDone := make(chan struct{})
	go func() { defer close(hubDone); _ = hub.Run(hctx) }()
	t.Cleanup(func() { stop(); <-hubDone })

	type follower struct {
		name  string
		after int64
		f     eventstore.Filter
		slow  time.Duration
		c     *collector
	}
	fs := []*follower{
		{name: "all from 0", after: 0},
		{name: "all from 25", after: 25},
		{name: "stream w1 from 0", f: eventstore.Filter{StreamID: "w1"}},
		{name: "prefix, slow", f: eventstore.Filter{TypePrefix: "towow.test.odd"}, slow: 3 * time.Millisecond},
		{name: "all, slow", slow: 2 * time.Millisecond},
		// Followers of one negotiation tree sleep until an event of their
		// own tree arrives (the hub wakes them by correlation id).
		{name: "tree 0 from 0", f: eventstore.Filter{CorrelationID: "tree-0"}},
		{name: "tree 1 from 60, slow", after: 60, f: eventstore.Filter{CorrelationID: "tree-1"}, slow: 2 * time.Millisecond},
	}
	for _, fl := range fs {
		fl.c = collect(t, ctx, fl.slow, func(ctx context.Context, h eventstore.Handler) error {
			return hub.Follow(ctx, fl.after, fl.f, h)
		})
	}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range 40 {
				batch := evN(1+r.IntN(8), fmt.Sprintf("w%d-%d", w, i))
				for j := range batch {
					if i%2 == 1 {
						batch[j].Type = "towow.test.odd"
					}
					// Trees 0 and 1 interleave, with stretches of neither.
					if i%5 != 4 {
						batch[j].Metadata.CorrelationID = fmt.Sprintf("tree-%d", (w+i)%2)
					}
				}
				if _, err := s.Append(ctx, fmt.Sprintf("w%d", w), eventstore.AnyVersion, batch...); err != nil {
					t.Error(err)
					return
				}
				if r.IntN(4) == 0 {
					time.Sleep(time.Duration(r.IntN(3)) * time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	end := head(t, s)
	for _, fl := range fs {
		want := readAll(t, s, fl.f)
		var after []eventstore.RecordedEvent
		for _, e := range want {
			if e.Position > fl.after {
				after = append(after, e)
			}
		}
		if len(after) == 0 {
			t.Fatalf("%s: nothing to follow", fl.name)
		}
		fl.c.waitFor(t, after[len(after)-1].Position, 30*time.Second)
		sameSequence(t, fl.name, fl.c.snapshot(), after)
	}
	// A follower started at the head gets only what comes next.
	late := collect(t, ctx, 0, func(ctx context.Context, h eventstore.Handler) error {
		return hub.Follow(ctx, end, eventstore.Filter{}, h)
	})
	res, err := s.Append(ctx, "w0", eventstore.AnyVersion, evN(2, "last")...)
	if err != nil {
		t.Fatal(err)
	}
	late.waitFor(t, res.LastPosition, 10*time.Second)
	var next []eventstore.RecordedEvent
	for _, e := range readAll(t, s, eventstore.Filter{}) {
		if e.Position > end {
			next = append(next, e)
		}
	}
	sameSequence(t, "late", late.snapshot(), next)
}
