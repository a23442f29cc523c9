package eventstore

import (
	"context"
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
// writing before pos was appended: usually no wait at all.
func (s *Store) WaitSettled(ctx context.Context, pos int64) error {
	wait := 500 * time.Microsecond
	for {
		below, _, err := s.frontier(ctx)
		if err != nil {
			return err
		}
		if below > pos {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
}
