package eventstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
)

func newStore(t *testing.T) (*eventstore.Store, *pgxpool.Pool) {
	t.Helper()
	pool := dbtest.New(t)
	return eventstore.New(pool, eventstore.Options{}), pool
}

func ev(typ string, payload string) eventstore.EventData {
	return eventstore.EventData{Type: event.EventType(typ), Payload: json.RawMessage(payload)}
}

func evN(n int, prefix string) []eventstore.EventData {
	out := make([]eventstore.EventData, n)
	for i := range out {
		out[i] = ev("towow.test.happened", fmt.Sprintf(`{"n":%d,"p":%q}`, i, prefix))
	}
	return out
}

// readAll pages through the whole log (or a filtered view of it).
func readAll(t *testing.T, s *eventstore.Store, f eventstore.Filter) []eventstore.RecordedEvent {
	t.Helper()
	var out []eventstore.RecordedEvent
	var after int64
	for {
		page, err := s.ReadAll(context.Background(), after, f, 997)
		if err != nil {
			t.Fatalf("read all: %v", err)
		}
		out = append(out, page...)
		if len(page) < 997 {
			return out
		}
		after = page[len(page)-1].Position
	}
}

func head(t *testing.T, s *eventstore.Store) int64 {
	t.Helper()
	h, err := s.HeadPosition(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// headReaching is the settled head once it reaches want, or as it is
// when within has passed.
func headReaching(t *testing.T, s *eventstore.Store, want int64, within time.Duration) int64 {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		h := head(t, s)
		if h >= want || time.Now().After(deadline) {
			return h
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// latest is the highest committed position, settled or not: what a check
// that nothing was written compares (the settled head can still move when
// an earlier commit settles).
func latest(t *testing.T, s *eventstore.Store) int64 {
	t.Helper()
	p, err := s.LatestPosition(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func newPoolOnly(t *testing.T) *pgxpool.Pool {
	t.Helper()
	return dbtest.New(t)
}

func newBenchPool(b *testing.B) *pgxpool.Pool {
	b.Helper()
	return dbtest.New(b)
}

// dbtestPool is a pool on another fresh database of the same server.
func dbtestPool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	return dbtest.New(t)
}

// appendCommitted appends in a transaction of its own and commits, without
// waiting for the events to settle (Append waits).
func appendCommitted(t *testing.T, s *eventstore.Store, pool *pgxpool.Pool, stream string, expected eventstore.ExpectedVersion, evs ...eventstore.EventData) eventstore.AppendResult {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.AppendTx(ctx, tx, stream, expected, evs...)
	if err != nil {
		_ = tx.Rollback(ctx)
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return res
}
