package eventstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/towow/towow/eventstore"
)

// TestNotifierReconnects kills the LISTEN connection's backend; the notifier
// reconnects, and a subscription whose poll interval is a minute still gets
// the next event within seconds (woken by the reconnect and the new LISTEN).
func TestNotifierReconnects(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	n := startNotifier(t, pool)
	c := subscribe(t, ctx, s, eventstore.SubscribeOptions{Notifier: n, PollInterval: time.Minute})

	first, err := s.Append(ctx, "s", eventstore.NoStream, evN(1, "before")...)
	if err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, first.LastPosition, 5*time.Second)

	var killed int
	err = pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN `+eventstore.NotifyChannel+`'`).Scan(&killed)
	if err != nil || killed != 1 {
		t.Fatalf("terminated %d listener backends: %v", killed, err)
	}
	// Wait until a new listener is up before appending, so the test shows
	// that notifications flow again (not just the reconnect wake-up).
	deadline := time.Now().Add(10 * time.Second)
	for {
		var listeners int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
			AND query = 'LISTEN `+eventstore.NotifyChannel+`' AND state = 'idle'`).Scan(&listeners); err != nil {
			t.Fatal(err)
		}
		if listeners == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("notifier did not reconnect")
		}
		time.Sleep(10 * time.Millisecond)
	}
	second, err := s.Append(ctx, "s", 1, evN(1, "after")...)
	if err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, second.LastPosition, 5*time.Second)
	sameSequence(t, "subscriber", c.snapshot(), readAll(t, s, eventstore.Filter{}))
}

// TestBoundedSubscriptionEnds: with UntilPosition the subscription returns
// nil after delivering everything up to it, even when the filter's last
// match lies before the bound.
func TestBoundedSubscriptionEnds(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	n := startNotifier(t, pool)
	var positions []int64
	for i := range 6 {
		stream := "a"
		if i >= 3 {
			stream = "b"
		}
		r, err := s.Append(ctx, stream, eventstore.AnyVersion, evN(1, "x")...)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, r.LastPosition)
	}
	tests := []struct {
		name   string
		filter eventstore.Filter
		want   int
	}{
		{"unfiltered", eventstore.Filter{UntilPosition: positions[4]}, 5},
		{"last match before the bound", eventstore.Filter{StreamID: "a", UntilPosition: positions[5]}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got int
			err := s.Subscribe(ctxT(t, 5*time.Second), eventstore.SubscribeOptions{Notifier: n, Filter: tc.filter, BatchSize: 2},
				func(_ context.Context, batch []eventstore.RecordedEvent) error { got += len(batch); return nil })
			if err != nil || got != tc.want {
				t.Fatalf("Subscribe = %v after %d events, want nil after %d", err, got, tc.want)
			}
		})
	}
}
