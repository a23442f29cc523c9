package eventstore

import (
	"context"
	"sync"
	"time"
)

// readsItsWritesKey marks a context whose caller reads the log right after
// its writes (ReadsItsWrites).
type readsItsWritesKey struct{}

// ReadsItsWrites marks ctx as belonging to a caller that reads the log
// right after writing to it, such as an API request: a unit of work
// committed under it returns once its events are settled (see the package
// doc; at most SettleWaitMax later), so the caller's next read of the log
// includes them.
func ReadsItsWrites(ctx context.Context) context.Context {
	return context.WithValue(ctx, readsItsWritesKey{}, true)
}

// WantsItsWrites reports whether ctx was marked by ReadsItsWrites.
func WantsItsWrites(ctx context.Context) bool {
	v, _ := ctx.Value(readsItsWritesKey{}).(bool)
	return v
}

// SettleWaitMax bounds how long a write that reads its writes waits for
// them to settle (Store.Append, a unit of work under ReadsItsWrites): a
// write transaction held open elsewhere must not hold every write up.
const SettleWaitMax = 2 * time.Second

// SettleBriefly waits for every position up to pos to settle, for at most
// SettleWaitMax; false means they have not settled yet (the events are
// committed either way, but a read of the log may not show them yet), or
// ctx ended.
func (s *Store) SettleBriefly(ctx context.Context, pos int64) bool {
	ctx, cancel := context.WithTimeout(ctx, SettleWaitMax)
	defer cancel()
	return s.WaitSettled(ctx, pos) == nil
}

// WaitSettled waits until every position up to pos is settled: no
// transaction that could still commit below it is open. That takes as
// long as the oldest write transaction of this database that began
// writing before pos was appended: usually no wait at all. Concurrent
// waiters share one watcher, which reads the settled bound about every
// millisecond while anyone waits; a read that already ran under a higher
// bound answers at once. Call it on a store outside a transaction (not
// one from In: a bound read inside the caller's transaction vouches for
// nothing).
func (s *Store) WaitSettled(ctx context.Context, pos int64) error {
	return s.settle.wait(ctx, s, pos)
}

// settleTick is how often the watcher reads the settled bound while
// someone waits.
const settleTick = time.Millisecond

// settleWatch shares one reader of the settled bound among every
// goroutine waiting for a position to settle: sixteen writers each
// polling it would cost the server sixteen queries a millisecond.
type settleWatch struct {
	mu      sync.Mutex
	err     error         // the last read's error (nil once one succeeds)
	waiters int           // goroutines in wait
	running bool          // the watcher goroutine is reading
	changed chan struct{} // closed (and replaced) after each read
}

func newSettleWatch() *settleWatch { return &settleWatch{changed: make(chan struct{})} }

// wait returns once a read of the settled bound (the watcher's, or any
// other read of the store: Store.highest) is above pos.
func (w *settleWatch) wait(ctx context.Context, s *Store, pos int64) error {
	if s.highest.Load() > pos {
		return nil
	}
	w.mu.Lock()
	w.waiters++
	if !w.running {
		w.running, w.err = true, nil
		go w.watch(s)
	}
	defer func() {
		w.mu.Lock()
		w.waiters--
		w.mu.Unlock()
	}()
	for {
		if s.highest.Load() > pos {
			w.mu.Unlock()
			return nil
		}
		if w.err != nil {
			err := w.err
			w.mu.Unlock()
			return err
		}
		ch := w.changed
		w.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
		w.mu.Lock()
	}
}

// watch reads the settled bound every settleTick while anyone waits.
func (w *settleWatch) watch(s *Store) {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), announceTimeout)
		_, _, err := s.frontier(ctx) // raises s.highest
		cancel()
		w.mu.Lock()
		w.err = err
		close(w.changed)
		w.changed = make(chan struct{})
		if w.waiters == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		time.Sleep(settleTick)
	}
}
