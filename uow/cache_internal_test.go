package uow

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
)

// TestCacheForgetsEndedNegotiations: a stream stays cached while its
// negotiation runs and leaves the cache when it ends, whether the ending
// is read by a load or committed by this process; a late read of an ended
// stream does not bring it back.
func TestCacheForgetsEndedNegotiations(t *testing.T) {
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
	c := newEventCache(16)
	cached := func(stream string) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.streams[stream]
		return ok
	}
	load := func(stream string) int {
		t.Helper()
		evs, _, err := c.load(ctx, store, stream)
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
	if load(ch) != 2 || cached(ch) {
		t.Fatal("a channel whose completion was read stays cached")
	}
	if load(ch) != 2 || cached(ch) {
		t.Fatal("a late read brought an ended channel back")
	}
	c.drop(ended(&negotiation.NegotiationCompleted{ChannelID: "collab-1", DemandID: "d-1"})...)
	if cached(dm) {
		t.Fatal("the ended negotiation's demand stays cached")
	}
	// A demand that failed before it had a channel ends its own stream.
	appendTo(dm, &negotiation.NegotiationFailed{DemandID: "d-1", Reason: negotiation.FailureStuckTimeout})
	if load(dm) != 2 || cached(dm) {
		t.Fatal("a failed demand stays cached")
	}
	// The bound holds for running negotiations too.
	for i := range 20 {
		s := negotiation.ChannelStream("collab-n" + string(rune('a'+i)))
		appendTo(s, &negotiation.ChannelCreated{ChannelID: s, DemandID: "d-1"})
		load(s)
	}
	if len(c.streams) != 16 || len(c.order) != 16 {
		t.Fatalf("cache holds %d streams (%d in order), bound 16", len(c.streams), len(c.order))
	}
}
