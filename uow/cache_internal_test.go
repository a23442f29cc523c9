package uow

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
)

// TestCacheRetiresEndedNegotiations: a stream stays cached while its
// negotiation runs; when it ends, whether the ending is read by a load or
// committed by this process, it is kept among the last few ended streams
// only; a late read of a stream that ended long ago does not bring it
// back; and the running streams are bounded too.
func TestCacheRetiresEndedNegotiations(t *testing.T) {
	ctx := context.Background()
	store := eventstore.New(dbtest.New(t), eventstore.Options{})
	appendTo := func(stream string, p event.Payload) {
		t.Helper()
		ev, err := eventstore.NewEvent(uuid.Must(uuid.NewV7()), p, event.Metadata{CorrelationID: "d-1", Actor: event.ActorSystem})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Append(ctx, stream, eventstore.AnyVersion, ev); err != nil {
			t.Fatal(err)
		}
	}
	c := newEventCache(16, 2)
	cached := func(stream string) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.streams[stream]
		return ok
	}
	load := func(stream string) int {
		t.Helper()
		evs, _, err := c.load(ctx, store, stream, -1)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	ch, dm := negotiation.ChannelStream("collab-1"), negotiation.DemandStream("d-1")
	appendTo(dm, &negotiation.DemandSubmitted{DemandID: "d-1", UserID: "u", RawInput: "x"})
	appendTo(ch, &negotiation.ChannelCreated{ChannelID: "collab-1", DemandID: "d-1"})
	if load(ch) != 1 || load(dm) != 1 || !cached(ch) || !cached(dm) {
		t.Fatal("a running negotiation's streams are not cached")
	}
	appendTo(ch, &negotiation.NegotiationCompleted{ChannelID: "collab-1", DemandID: "d-1", Status: negotiation.ChannelStatusFailed})
	if load(ch) != 2 || !cached(ch) || slices.Contains(c.order, ch) || !slices.Contains(c.retired, ch) {
		t.Fatal("a channel whose completion was read is not retired")
	}
	c.retire(ended(&negotiation.NegotiationCompleted{ChannelID: "collab-1", DemandID: "d-1"})...) // as a commit of it does
	if !slices.Equal(c.retired, []string{ch, dm}) || len(c.order) != 0 {
		t.Fatalf("retired %v, running %v; want the channel and the demand retired", c.retired, c.order)
	}
	// A third ended stream pushes the oldest retired one out.
	other := negotiation.DemandStream("d-2")
	appendTo(other, &negotiation.DemandSubmitted{DemandID: "d-2", UserID: "u", RawInput: "y"})
	load(other)
	appendTo(other, &negotiation.NegotiationFailed{DemandID: "d-2", Reason: negotiation.FailureStuckTimeout})
	if load(other) != 2 || cached(ch) || !cached(dm) || !cached(other) {
		t.Fatalf("retired %v; want the oldest retired forgotten", c.retired)
	}
	// A late read of a stream that ended long ago reads the log, and
	// keeps nothing.
	if load(ch) != 2 || cached(ch) {
		t.Fatal("a late read brought a long-ended channel back")
	}
	// The bound holds for running negotiations too.
	for i := range 20 {
		s := negotiation.ChannelStream("collab-n" + string(rune('a'+i)))
		appendTo(s, &negotiation.ChannelCreated{ChannelID: s, DemandID: "d-1"})
		load(s)
	}
	if len(c.order) != 16 || len(c.streams) != 16+len(c.retired) {
		t.Fatalf("cache holds %d streams (%d running), bound 16 running and 2 retired", len(c.streams), len(c.order))
	}
}

// TestCacheExtendsWithCommittedEvents: the events a commit wrote join a
// cached stream when they follow what it holds, decoded as the log holds
// them, and a load then reads only what other writers appended; a gap, a
// repeat or a stream not cached changes nothing.
func TestCacheExtendsWithCommittedEvents(t *testing.T) {
	ctx := context.Background()
	store := eventstore.New(dbtest.New(t), eventstore.Options{})
	encode := func(p event.Payload) eventstore.EventData {
		t.Helper()
		ev, err := eventstore.NewEvent(uuid.Must(uuid.NewV7()), p, event.Metadata{CorrelationID: "d-1", Actor: event.ActorSystem})
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	ch := negotiation.ChannelStream("collab-1")
	created := encode(&negotiation.ChannelCreated{ChannelID: "collab-1", DemandID: "d-1", InvitedAgents: []string{"a", "b"}})
	if _, err := store.Append(ctx, ch, eventstore.NoStream, created); err != nil {
		t.Fatal(err)
	}
	c := newEventCache(16, 2)
	c.extend(ctx, store, appended{stream: ch, first: 1, events: []eventstore.EventData{created}}) // a new stream's first events
	if _, ok := c.streams[ch]; ok {
		t.Fatal("a stream nobody folded was cached by being written to")
	}
	if _, _, err := c.load(ctx, store, ch, -1); err != nil || len(c.streams[ch]) != 1 {
		t.Fatalf("load: %d cached, %v; want 1", len(c.streams[ch]), err)
	}
	status := encode(&negotiation.ChannelStatusChanged{ChannelID: "collab-1", OldStatus: negotiation.ChannelStatusCreated, NewStatus: negotiation.ChannelStatusBroadcasting})
	if _, err := store.Append(ctx, ch, 1, status); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		first int64
		want  int
	}{
		{"a gap", 3, 1},
		{"a repeat of what is cached", 1, 1},
		{"the next events", 2, 2},
		{"the same again", 2, 2},
	}
	for _, tc := range tests {
		evs := []eventstore.EventData{status}
		if tc.first == 1 {
			evs = []eventstore.EventData{created}
		}
		c.extend(ctx, store, appended{stream: ch, first: tc.first, events: evs})
		if n := len(c.streams[ch]); n != tc.want {
			t.Fatalf("%s: %d events cached, want %d", tc.name, n, tc.want)
		}
	}
	// Another writer appends; a load reads it after the cached two.
	other := encode(&negotiation.ChannelStatusChanged{ChannelID: "collab-1", OldStatus: negotiation.ChannelStatusBroadcasting, NewStatus: negotiation.ChannelStatusCollecting})
	if _, err := store.Append(ctx, ch, 2, other); err != nil {
		t.Fatal(err)
	}
	got, v, err := c.load(ctx, store, ch, -1)
	if err != nil || v != 3 {
		t.Fatalf("load: version %d, %v; want 3", v, err)
	}
	var want []event.Payload
	if _, err := store.Fold(ctx, ch, func(p event.Payload) { want = append(want, p) }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cached stream differs from the log:\n%#v\nwant\n%#v", got, want)
	}
}
