package eventstore_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
)

// collector is a live subscription that records what it receives.
type collector struct {
	mu     sync.Mutex
	events []eventstore.RecordedEvent
	err    error
}

func (c *collector) snapshot() []eventstore.RecordedEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]eventstore.RecordedEvent(nil), c.events...)
}

func subscribe(t *testing.T, ctx context.Context, s *eventstore.Store, opts eventstore.SubscribeOptions) *collector {
	t.Helper()
	return collect(t, ctx, 0, func(ctx context.Context, h eventstore.Handler) error { return s.Subscribe(ctx, opts, h) })
}

// collect runs a subscription (Store.Subscribe or Hub.Follow) into a
// collector, checking that positions only rise; slow makes the handler
// sleep that long per batch (a client that falls behind).
func collect(t *testing.T, ctx context.Context, slow time.Duration, run func(context.Context, eventstore.Handler) error) *collector {
	t.Helper()
	c := &collector{}
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer close(done)
		err := run(ctx, func(_ context.Context, batch []eventstore.RecordedEvent) error {
			time.Sleep(slow)
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, e := range batch {
				if n := len(c.events); n > 0 && e.Position <= c.events[n-1].Position {
					return fmt.Errorf("position %d delivered after %d", e.Position, c.events[n-1].Position)
				}
				c.events = append(c.events, e)
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return c
}

// waitFor waits until the collector's last position reaches pos.
func (c *collector) waitFor(t *testing.T, pos int64, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		c.mu.Lock()
		n, err := len(c.events), c.err
		var last int64
		if n > 0 {
			last = c.events[n-1].Position
		}
		c.mu.Unlock()
		if err != nil {
			t.Fatalf("subscription failed: %v", err)
		}
		if last >= pos {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("subscriber stuck at position %d (%d events), want %d", last, n, pos)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func startNotifier(t *testing.T, pool *pgxpool.Pool) *eventstore.Notifier {
	t.Helper()
	n := eventstore.NewNotifier(pool.Config().ConnConfig, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = n.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-n.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("notifier not ready")
	}
	return n
}

// sameSequence fails unless got equals want event by event.
func sameSequence(t *testing.T, who string, got, want []eventstore.RecordedEvent) {
	t.Helper()
	if len(got) != len(want) {
		seen := map[int64]bool{}
		for _, e := range got {
			seen[e.Position] = true
		}
		var missing []string
		for i, e := range want {
			if !seen[e.Position] && len(missing) < 20 {
				prev := int64(0)
				if i > 0 {
					prev = want[i-1].Position
				}
				missing = append(missing, fmt.Sprintf("%d (%s, after %d)", e.Position, e.StreamID, prev))
			}
		}
		t.Fatalf("%s saw %d events, the full read has %d; missing: %v", who, len(got), len(want), missing)
	}
	for i := range got {
		if got[i].Position != want[i].Position || got[i].EventID != want[i].EventID {
			t.Fatalf("%s: event %d is %d/%s, full read has %d/%s", who, i, got[i].Position, got[i].EventID, want[i].Position, want[i].EventID)
		}
	}
}

func begin(t *testing.T, pool *pgxpool.Pool) pgx.Tx {
	t.Helper()
	tx, err := pool.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
	return tx
}

func async(f func() error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- f() }()
	return ch
}

func recv(t *testing.T, ch <-chan error) {
	t.Helper()
	select {
	case err := <-ch:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("timed out")
	}
}

// TestOrderGapOutOfOrderCommits opens real transactions in one order, has
// them append and commit in another, rolls one back, mixes in a raw SQL
// insert that bypasses AppendTx, keeps a transaction of another database
// open throughout, and checks that live subscribers (woken by NOTIFY,
// polling, paging in tiny batches, filtered) see nothing while a
// transaction with an older id is in flight, and then each see every
// committed event exactly once, in the order of a full read: transaction
// id order.
func TestOrderGapOutOfOrderCommits(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	n := startNotifier(t, pool)
	subs := map[string]*collector{
		"notified":      subscribe(t, ctx, s, eventstore.SubscribeOptions{Notifier: n}),
		"polling":       subscribe(t, ctx, s, eventstore.SubscribeOptions{PollInterval: 5 * time.Millisecond}),
		"batches of 1":  subscribe(t, ctx, s, eventstore.SubscribeOptions{Notifier: n, BatchSize: 1}),
		"stream filter": subscribe(t, ctx, s, eventstore.SubscribeOptions{Notifier: n, Filter: eventstore.Filter{StreamID: "s2"}}),
	}
	takeID := func(tx pgx.Tx) {
		t.Helper()
		if _, err := tx.Exec(ctx, "SELECT pg_current_xact_id()"); err != nil {
			t.Fatal(err)
		}
	}
	seesNothing := func(when string) {
		t.Helper()
		time.Sleep(50 * time.Millisecond)
		for name, c := range subs {
			if got := c.snapshot(); len(got) != 0 {
				t.Fatalf("%s: %s saw %d events", when, name, len(got))
			}
		}
		if got := readAll(t, s, eventstore.Filter{}); len(got) != 0 {
			t.Fatalf("%s: a read returned %d events", when, len(got))
		}
		if h := head(t, s); h != 0 {
			t.Fatalf("%s: head %d, want 0", when, h)
		}
	}
	// A transaction of another database, older than all of them and open
	// throughout, holds nobody here back.
	other := begin(t, dbtestPool(t))
	takeID(other)
	t1, t2, t3, t4 := begin(t, pool), begin(t, pool), begin(t, pool), begin(t, pool)
	takeID(t1)
	takeID(t2)
	if _, err := s.AppendTx(ctx, t3, "s3", eventstore.NoStream, evN(2, "t3")...); err != nil {
		t.Fatal(err)
	}
	if err := t3.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	s.Committed()
	seesNothing("T3 committed while T1 and T2 (older ids) are open")
	// Appends to different streams do not wait for each other.
	if _, err := s.AppendTx(ctx, t1, "s1", eventstore.NoStream, evN(3, "t1")...); err != nil {
		t.Fatal(err)
	}
	if _, err := t4.Exec(ctx, `INSERT INTO events (event_id, stream_id, stream_version, event_type, payload)
			VALUES (gen_random_uuid(), 's4', 1, 'towow.test.raw', '{"raw":true}')`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendTx(ctx, t2, "s2", eventstore.NoStream, evN(4, "t2")...); err != nil {
		t.Fatal(err)
	}
	if err := t1.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := t4.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	seesNothing("T1 rolled back and T4 committed while T2 is open")
	if err := t2.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	s.Committed()

	full := readAll(t, s, eventstore.Filter{})
	var streams []string
	for _, e := range full {
		streams = append(streams, e.StreamID)
	}
	if want := []string{"s2", "s2", "s2", "s2", "s3", "s3", "s4"}; fmt.Sprint(streams) != fmt.Sprint(want) {
		t.Fatalf("log streams %v, want %v (transaction id order, nothing from the rolled-back T1)", streams, want)
	}
	for name, c := range subs {
		want := full
		if name == "stream filter" {
			want = readAll(t, s, eventstore.Filter{StreamID: "s2"})
		}
		c.waitFor(t, want[len(want)-1].Position, 5*time.Second)
		time.Sleep(10 * time.Millisecond) // give a duplicate the chance to show up
		sameSequence(t, name, c.snapshot(), want)
	}
	if err := other.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestOrderGapRandomized runs 8 concurrent writers (random streams, batch
// sizes, delays inside the transaction, expected-version conflicts and
// rollbacks) against 4 live subscribers and checks that each subscriber saw
// exactly the committed events, once each, in the order of a full read.
func TestOrderGapRandomized(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	n := startNotifier(t, pool)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	subs := []*collector{
		subscribe(t, ctx, s, eventstore.SubscribeOptions{Notifier: n}),
		subscribe(t, ctx, s, eventstore.SubscribeOptions{Notifier: n, BatchSize: 7}),
		subscribe(t, ctx, s, eventstore.SubscribeOptions{PollInterval: 3 * time.Millisecond}),
		subscribe(t, ctx, s, eventstore.SubscribeOptions{Notifier: n, Filter: eventstore.Filter{CorrelationID: "corr-1"}}),
	}
	const writers, txPerWriter = 8, 130
	var mu sync.Mutex
	committed := map[uuid.UUID]bool{}
	rolledBack := map[uuid.UUID]bool{}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			for range txPerWriter {
				if err := randomTx(ctx, s, pool, rng, &mu, committed, rolledBack); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	full := readAll(t, s, eventstore.Filter{})
	if len(full) != len(committed) {
		t.Fatalf("log has %d events, writers committed %d", len(full), len(committed))
	}
	versions := map[string]int64{}
	for i, e := range full {
		if !committed[e.EventID] || rolledBack[e.EventID] {
			t.Fatalf("event %s in the log was not committed", e.EventID)
		}
		if i > 0 && e.Position <= full[i-1].Position {
			t.Fatalf("positions not increasing at %d", i)
		}
		if e.StreamVersion != versions[e.StreamID]+1 {
			t.Fatalf("stream %s jumps from version %d to %d", e.StreamID, versions[e.StreamID], e.StreamVersion)
		}
		versions[e.StreamID] = e.StreamVersion
	}
	t.Logf("%d events committed, %d rolled back", len(committed), len(rolledBack))
	if len(full) < 1000 {
		t.Fatalf("only %d events: the test is too small to mean much", len(full))
	}
	filtered := readAll(t, s, eventstore.Filter{CorrelationID: "corr-1"})
	for i, c := range subs {
		want := full
		if i == 3 {
			want = filtered
		}
		c.waitFor(t, want[len(want)-1].Position, 10*time.Second)
		time.Sleep(10 * time.Millisecond)
		sameSequence(t, fmt.Sprintf("subscriber %d", i), c.snapshot(), want)
	}
}

func randomTx(ctx context.Context, s *eventstore.Store, pool *pgxpool.Pool, rng *rand.Rand,
	mu *sync.Mutex, committed, rolledBack map[uuid.UUID]bool) error {
	stream := fmt.Sprintf("stream-%d", rng.IntN(6))
	expected := eventstore.AnyVersion
	if rng.IntN(3) == 0 {
		v, err := s.StreamVersion(ctx, stream)
		if err != nil {
			return err
		}
		expected = eventstore.ExpectedVersion(v)
	}
	events := make([]eventstore.EventData, 1+rng.IntN(5))
	for i := range events {
		events[i] = eventstore.EventData{ID: uuid.New(), Type: "towow.test.random",
			Payload:  []byte(fmt.Sprintf(`{"i":%d}`, i)),
			Metadata: event.Metadata{CorrelationID: fmt.Sprintf("corr-%d", rng.IntN(3))}}
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // no-op after commit
	time.Sleep(time.Duration(rng.IntN(400)) * time.Microsecond)
	_, err = s.AppendTx(ctx, tx, stream, expected, events...)
	if errors.Is(err, eventstore.ErrVersionConflict) {
		return tx.Rollback(ctx)
	}
	if err != nil {
		return err
	}
	if rng.IntN(4) == 0 {
		time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond) // hold the stream lock a while
	}
	if rng.IntN(10) == 0 {
		mu.Lock()
		for _, e := range events {
			rolledBack[e.ID] = true
		}
		mu.Unlock()
		return tx.Rollback(ctx)
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	mu.Lock()
	for _, e := range events {
		committed[e.ID] = true
	}
	mu.Unlock()
	return nil
}

// TestNoAppendsTransactionHoldsNobodyBack: a long write transaction that
// declared it appends nothing (as a read-model rebuild does) does not hold
// readers back, and an append from it is refused.
func TestNoAppendsTransactionHoldsNobodyBack(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	long := begin(t, pool)
	if _, err := long.Exec(ctx, `SELECT set_config('application_name', 'rebuild (no appends)', true), pg_current_xact_id()`); err != nil {
		t.Fatal(err)
	}
	res := appendCommitted(t, s, pool, "s", eventstore.NoStream, evN(2, "after")...)
	// Another short transaction of the database (an autovacuum worker
	// writing the statistics of a table it analysed) may hold the head
	// back for a moment; the no-appends one would hold it until it ends.
	if h := headReaching(t, s, res.LastPosition, 5*time.Second); h != res.LastPosition {
		t.Fatalf("head %d while the no-appends transaction is open, want %d", h, res.LastPosition)
	}
	if _, err := s.AppendTx(ctx, long, "other", eventstore.NoStream, evN(1, "refused")...); err == nil ||
		!strings.Contains(err.Error(), "appends no events") {
		t.Fatalf("append from the no-appends transaction: %v", err)
	}
	if err := long.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	// Without the declaration, the same transaction holds readers back.
	plain := begin(t, pool)
	if _, err := plain.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil {
		t.Fatal(err)
	}
	appendCommitted(t, s, pool, "s", eventstore.ExpectedVersion(2), evN(1, "held")...)
	if h := head(t, s); h != res.LastPosition {
		t.Fatalf("head %d while a plain write transaction is open, want %d", h, res.LastPosition)
	}
	// Append waits for its events to settle, but not for ever.
	start := time.Now()
	if _, err := s.Append(ctx, "s", eventstore.ExpectedVersion(3), evN(1, "waits")...); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < eventstore.SettleWaitMax {
		t.Fatalf("Append returned after %s with an older write transaction open", waited)
	}
	if err := plain.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if h := head(t, s); h <= res.LastPosition {
		t.Fatalf("head %d after the plain transaction ended, want past %d", h, res.LastPosition)
	}
}
