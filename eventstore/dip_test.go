package eventstore_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/eventstore"
)

// TestReadsNeverGoBack: transactions that append nothing (and say so)
// end all the time while events are appended; each one that ends between
// a read's snapshot and its look at the running backends would pull that
// read's settled bound below an earlier query's. A store's reads must
// still never go back: a read is complete through every position that was
// settled (WaitSettled returned) before it began and through every
// position an earlier read was complete through, and it misses no event
// up to there.
func TestReadsNeverGoBack(t *testing.T) {
	s, pool := newStore(t)
	ctx := ctxT(t, 60*time.Second)
	wctx, stop := context.WithCancel(ctx)
	var vouched atomic.Int64 // the last appended position, settled
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for wctx.Err() == nil {
				_ = pgx.BeginFunc(wctx, pool, func(tx pgx.Tx) error {
					if _, err := tx.Exec(wctx, `SELECT set_config('application_name', 'reader (no appends)', true)`); err != nil {
						return err
					}
					_, err := tx.Exec(wctx, `SELECT pg_current_xact_id(), pg_sleep(0.02)`) // takes a transaction id
					return err
				})
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for wctx.Err() == nil {
			_, _ = pool.Exec(wctx, `SELECT pg_current_xact_id()`) // a transaction that ends at once
		}
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		for wctx.Err() == nil {
			res, err := s.Append(wctx, "w", eventstore.AnyVersion, evN(2, "w")...)
			if err == nil {
				err = s.WaitSettled(wctx, res.LastPosition)
			}
			if err != nil {
				if wctx.Err() == nil {
					t.Error(err)
				}
				return
			}
			vouched.Store(res.LastPosition)
		}
	}()
	defer func() { stop(); wg.Wait() }()

	var through int64
	reads := 0
	// At least 4 s and 100 reads: a loaded machine reads slower, and the
	// race needs reads, not seconds (40 s at most).
	start := time.Now()
	for since := time.Duration(0); (since < 4*time.Second || reads < 100) && since < 40*time.Second; since = time.Since(start) {
		// Every read starts from the beginning: one of a stream that has
		// no events is quick, so there are many reads; one of the whole log
		// also checks that no event an earlier read vouched for is missing.
		f := eventstore.Filter{StreamID: "none"}
		if reads%20 == 0 {
			f = eventstore.Filter{}
		}
		settled := vouched.Load()
		page, err := s.ReadPage(ctx, 0, f, eventstore.MaxReadLimit)
		if err != nil {
			t.Fatal(err)
		}
		reads++
		if page.Through < settled {
			t.Fatalf("read %d: complete through %d, but %d was settled before it began", reads, page.Through, settled)
		}
		if page.Through < through {
			t.Fatalf("read %d: complete through %d, an earlier read was complete through %d", reads, page.Through, through)
		}
		if f.StreamID == "" {
			n := 0
			for _, e := range page.Events {
				if e.Position <= through {
					n++
				}
			}
			if want := countUpTo(t, s, through); n != want {
				t.Fatalf("read %d: %d events up to %d, there are %d", reads, n, through, want)
			}
		}
		through = page.Through
	}
	if through == 0 || reads < 100 {
		t.Fatalf("%d reads, complete through %d: the race was not run", reads, through)
	}
}

// countUpTo counts the events at positions up to pos, reading the table
// directly.
func countUpTo(t *testing.T, s *eventstore.Store, pos int64) int {
	t.Helper()
	n, err := s.CountBetween(context.Background(), 0, pos)
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestSettledBoundDips shows the dip itself: a transaction that appends
// nothing (and says so) is not waited for while it runs, but a query whose
// snapshot saw it running and that looks at the backends after it ended
// runs under its position, below what an earlier read reached. Such a
// read's Page says so (Through stays below the dip); the next read from
// the pool is past it again.
func TestSettledBoundDips(t *testing.T) {
	s, pool := newStore(t)
	ctx := ctxT(t, 30*time.Second)
	quiet := begin(t, pool)
	if _, err := quiet.Exec(ctx, `SELECT set_config('application_name', 'reader (no appends)', true), pg_current_xact_id()`); err != nil {
		t.Fatal(err)
	}
	res, err := s.Append(ctx, "a", eventstore.NoStream, evN(3, "a")...)
	if err != nil {
		t.Fatal(err)
	}
	if page, err := s.ReadPage(ctx, 0, eventstore.Filter{}, 100); err != nil || page.Through < res.LastPosition || len(page.Events) != 3 {
		t.Fatalf("before: %+v, %v; want the 3 events read, the quiet transaction not waited for", page.Through, err)
	}
	reader, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = reader.Rollback(ctx) }()
	if _, err := reader.Exec(ctx, `SELECT 1`); err != nil { // the snapshot: the quiet one runs
		t.Fatal(err)
	}
	if err := quiet.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	dipped, err := s.In(reader).ReadPage(ctx, 0, eventstore.Filter{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(dipped.Events) != 0 || dipped.Through >= res.FirstPosition {
		t.Fatalf("in the dip: %d events, complete through %d; want none, and below %d", len(dipped.Events), dipped.Through, res.FirstPosition)
	}
	after, err := s.ReadPage(ctx, 0, eventstore.Filter{}, 100)
	if err != nil || len(after.Events) != 3 || after.Through < res.LastPosition {
		t.Fatalf("after: %d events through %d, %v; want 3 through %d", len(after.Events), after.Through, err, res.LastPosition)
	}
}
