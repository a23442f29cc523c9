package eventstore_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/eventstore"
)

// TestLockStreamsReturnsVersionsAfterTheLock: LockStreams returns each
// stream's version (0 for none); a second transaction locking a stream
// the first holds waits until the first commits, and then sees the
// version the first wrote.
func TestLockStreamsReturnsVersionsAfterTheLock(t *testing.T) {
	ctx := context.Background()
	store, pool := newStore(t)
	if _, err := store.Append(ctx, "s-a", eventstore.NoStream, evN(3, "a")...); err != nil {
		t.Fatal(err)
	}
	first, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Rollback(ctx)
	got, err := store.LockStreams(ctx, first, []string{"s-a", "s-b"})
	if err != nil || !maps.Equal(got, map[string]int64{"s-a": 3, "s-b": 0}) {
		t.Fatalf("versions %v, %v; want s-a 3, s-b 0", got, err)
	}
	type result struct {
		versions map[string]int64
		err      error
		at       time.Time
	}
	second := make(chan result, 1)
	go func() {
		var r result
		r.err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			r.versions, r.err = store.LockStreams(ctx, tx, []string{"s-b"})
			r.at = time.Now()
			return r.err
		})
		second <- r
	}()
	select {
	case r := <-second:
		t.Fatalf("a second lock of s-b went through while the first held it: %+v", r)
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := store.AppendTx(ctx, first, "s-b", eventstore.NoStream, evN(2, "b")...); err != nil {
		t.Fatal(err)
	}
	committed := time.Now()
	if err := first.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-second
	if r.err != nil || r.versions["s-b"] != 2 || r.at.Before(committed) {
		t.Fatalf("the second lock: versions %v, %v; want s-b at 2, after the first committed", r.versions, r.err)
	}
}
