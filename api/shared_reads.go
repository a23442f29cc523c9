package api

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/towow/towow/eventstore"
)

// sharedReads lets the streams that ask for the same page of the log at
// the same moment share one query: a hundred followers of a negotiation
// connect together when it starts, and reach its end together, and would
// otherwise send the database a hundred identical reads at once, with the
// live tail's own read waiting behind them. A read that joins one under
// way gets that read's answer, the log as it was when that read began: no
// older than the moment another stream reached the same position and
// asked, which is all a stream's catch-up and end need. The answer is
// shared: its events are read, never changed.
type sharedReads struct {
	events EventReader
	group  singleflight.Group
}

// sharedReadTimeout bounds a shared read, which outlives the stream that
// began it when others wait for it.
const sharedReadTimeout = 30 * time.Second

// share runs read once for every caller that asks with key while it is
// under way, and reports whether the answer was shared with another one.
func share[T any](ctx context.Context, g *singleflight.Group, key string, read func(context.Context) (T, error)) (T, bool, error) {
	ch := g.DoChan(key, func() (any, error) {
		// Not the first asker's context: the others wait for this read too.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedReadTimeout)
		defer cancel()
		return read(rctx)
	})
	var zero T
	select {
	case <-ctx.Done():
		return zero, false, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return zero, res.Shared, res.Err
		}
		return res.Val.(T), res.Shared, nil
	}
}

// ReadAll is the events' ReadAll, shared with any identical read under way.
func (r *sharedReads) ReadAll(ctx context.Context, after int64, f eventstore.Filter, limit int) ([]eventstore.RecordedEvent, error) {
	evs, _, err := share(ctx, &r.group, fmt.Sprintf("%d %d %+v", after, limit, f), func(ctx context.Context) ([]eventstore.RecordedEvent, error) {
		return r.events.ReadAll(ctx, after, f, limit)
	})
	return evs, err
}

// StreamVersion is the events' StreamVersion, shared with an identical
// read under way; a stream the shared read did not find is looked up again
// on its own (it may have been created since that read began).
func (r *sharedReads) StreamVersion(ctx context.Context, streamID string) (int64, error) {
	v, shared, err := share(ctx, &r.group, "version "+streamID, func(ctx context.Context) (int64, error) {
		return r.events.StreamVersion(ctx, streamID)
	})
	if err != nil || v > 0 || !shared {
		return v, err
	}
	return r.events.StreamVersion(ctx, streamID)
}
