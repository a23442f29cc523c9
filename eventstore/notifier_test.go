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
