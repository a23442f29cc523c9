package eventstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/database"
	"github.com/towow/towow/internal/dbtest"
)

func TestReadStreamForwardAndBackward(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if _, err := s.Append(ctx, "a", eventstore.NoStream, evN(10, "a")...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "b", eventstore.NoStream, evN(3, "b")...); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		read     func() ([]eventstore.RecordedEvent, error)
		versions []int64
	}{
		{"forward from 1", func() ([]eventstore.RecordedEvent, error) { return s.ReadStream(ctx, "a", 1, 3) }, []int64{1, 2, 3}},
		{"forward from 8", func() ([]eventstore.RecordedEvent, error) { return s.ReadStream(ctx, "a", 8, 100) }, []int64{8, 9, 10}},
		{"forward past end", func() ([]eventstore.RecordedEvent, error) { return s.ReadStream(ctx, "a", 11, 100) }, nil},
		{"backward latest 3", func() ([]eventstore.RecordedEvent, error) { return s.ReadStreamBackward(ctx, "a", 3) }, []int64{10, 9, 8}},
		{"backward more than exist", func() ([]eventstore.RecordedEvent, error) { return s.ReadStreamBackward(ctx, "b", 50) }, []int64{3, 2, 1}},
		{"missing stream", func() ([]eventstore.RecordedEvent, error) { return s.ReadStream(ctx, "zzz", 1, 10) }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.read()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.versions) {
				t.Fatalf("got %d events, want %d", len(got), len(tc.versions))
			}
			for i, e := range got {
				if e.StreamVersion != tc.versions[i] {
					t.Fatalf("event %d has version %d, want %d", i, e.StreamVersion, tc.versions[i])
				}
			}
		})
	}
	if v, err := s.StreamVersion(ctx, "a"); err != nil || v != 10 {
		t.Fatalf("version %d %v", v, err)
	}
}

func TestReadAllFilters(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	md := func(corr, actor string) event.Metadata { return event.Metadata{CorrelationID: corr, Actor: actor} }
	appendOne := func(stream, typ string, m event.Metadata) int64 {
		e := ev(typ, `{}`)
		e.Metadata = m
		r, err := s.Append(ctx, stream, eventstore.AnyVersion, e)
		if err != nil {
			t.Fatal(err)
		}
		return r.FirstPosition
	}
	p1 := appendOne("demand-1", "towow.demand.submitted", md("demand-1", "user:u1"))
	p2 := appendOne("channel-1", "towow.channel.created", md("demand-1", "channel_admin"))
	p3 := appendOne("channel-1", "towow.offer.submitted", md("demand-1", "agent:a1"))
	p4 := appendOne("channel-1", "towow.offer.submitted", md("demand-1", "agent:a2"))
	time.Sleep(20 * time.Millisecond)
	mid := time.Now()
	time.Sleep(20 * time.Millisecond)
	p5 := appendOne("demand-2", "towow.demand.submitted", md("demand-2", "user:u2"))
	p6 := appendOne("channel-9", "towow.offer_x.submitted", md("demand-2", "agent:a1")) // "_" must not act as a wildcard

	tests := []struct {
		name  string
		after int64
		f     eventstore.Filter
		limit int
		want  []int64
	}{
		{"everything", 0, eventstore.Filter{}, 0, []int64{p1, p2, p3, p4, p5, p6}},
		{"after a cursor", p3, eventstore.Filter{}, 0, []int64{p4, p5, p6}},
		{"limit", 0, eventstore.Filter{}, 2, []int64{p1, p2}},
		{"until position", 0, eventstore.Filter{UntilPosition: p3}, 0, []int64{p1, p2, p3}},
		{"stream", 0, eventstore.Filter{StreamID: "channel-1"}, 0, []int64{p2, p3, p4}},
		{"types", 0, eventstore.Filter{Types: []event.EventType{"towow.demand.submitted", "towow.channel.created"}}, 0, []int64{p1, p2, p5}},
		{"type prefix", 0, eventstore.Filter{TypePrefix: "towow.offer."}, 0, []int64{p3, p4}},
		{"type prefix with underscore", 0, eventstore.Filter{TypePrefix: "towow.offer_"}, 0, []int64{p6}},
		{"correlation", 0, eventstore.Filter{CorrelationID: "demand-2"}, 0, []int64{p5, p6}},
		{"actor", 0, eventstore.Filter{Actor: "agent:a1"}, 0, []int64{p3, p6}},
		{"since", 0, eventstore.Filter{Since: mid}, 0, []int64{p5, p6}},
		{"until", 0, eventstore.Filter{Until: mid}, 0, []int64{p1, p2, p3, p4}},
		{"combined", 0, eventstore.Filter{CorrelationID: "demand-1", TypePrefix: "towow.offer.", Actor: "agent:a2"}, 0, []int64{p4}},
		{"no match", 0, eventstore.Filter{Actor: "nobody"}, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.ReadAll(ctx, tc.after, tc.f, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var pos []int64
			for _, e := range got {
				pos = append(pos, e.Position)
			}
			if len(pos) != len(tc.want) {
				t.Fatalf("positions %v, want %v", pos, tc.want)
			}
			for i := range pos {
				if pos[i] != tc.want[i] {
					t.Fatalf("positions %v, want %v", pos, tc.want)
				}
			}
		})
	}
}

// TestUnfilteredReadsArePlannedOnce: a read with no filter, what every
// follower of the whole log makes at each commit, runs a prepared statement
// that PostgreSQL plans generically once per connection, not anew at each
// call, and still returns exactly the events after its cursor.
func TestUnfilteredReadsArePlannedOnce(t *testing.T) {
	ctx := context.Background()
	u := dbtest.NewURL(t)
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	pool, err := database.Open(ctx, u+sep+"pool_max_conns=1", database.Options{ApplicationName: "towow-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := eventstore.New(pool, eventstore.Options{})
	res, err := s.Append(ctx, "tail-1", eventstore.NoStream, evN(12, "t")...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		after := res.FirstPosition - 1 + int64(i)
		evs, err := s.ReadAll(ctx, after, eventstore.Filter{}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 12-i || evs[0].Position <= after {
			t.Fatalf("read after %d: %d events from %d, want %d after it", after, len(evs), evs[0].Position, 12-i)
		}
	}
	var generic, custom int64
	if err := pool.QueryRow(ctx, `SELECT coalesce(sum(generic_plans), 0)::bigint, coalesce(sum(custom_plans), 0)::bigint
		FROM pg_prepared_statements WHERE statement LIKE '-- name: ReadAll %'`).Scan(&generic, &custom); err != nil {
		t.Fatal(err)
	}
	if generic == 0 || custom > 5 {
		t.Errorf("12 unfiltered reads: %d generic plans, %d custom plans; want generic plans after at most 5 custom ones", generic, custom)
	}
}

// TestSettledBoundComputedOncePerRead: a read of the log computes its
// settled bound a fixed number of times however many events it returns
// (the bound looks at every backend of the server, so once per row would
// make long pages cost that many looks).
func TestSettledBoundComputedOncePerRead(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	if _, err := s.Append(ctx, "bound-1", eventstore.NoStream, evN(300, "b")...); err != nil {
		t.Fatal(err)
	}
	for _, f := range []eventstore.Filter{{}, {StreamID: "bound-1"}, {Types: []event.EventType{"towow.test.happened"}}} {
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "SET LOCAL track_functions = 'pl'"); err != nil {
			t.Fatal(err)
		}
		// The counts not yet reported include earlier transactions' calls.
		bounds := func() int64 {
			var n int64
			if err := tx.QueryRow(ctx, `SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_xact_user_functions
				WHERE funcname = 'towow_settled_below'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := bounds()
		evs, err := s.In(tx).ReadAll(ctx, 0, f, 500)
		if err != nil {
			t.Fatal(err)
		}
		calls := bounds() - before
		_ = tx.Rollback(ctx)
		if len(evs) != 300 || calls != 1 {
			t.Errorf("filter %+v: %d events read, the bound computed %d times; want 300 events and 1", f, len(evs), calls)
		}
	}
}
