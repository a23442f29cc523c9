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

// ReadAll is the events' ReadAll, shared with any identical read under way.
func (r *sharedReads) ReadAll(ctx context.Context, after int64, f eventstore.Filter, limit int) ([]eventstore.RecordedEvent, error) {
	key := fmt.Sprintf("%d %d %+v", after, limit, f)
	ch := r.group.DoChan(key, func() (any, error) {
		// Not the first asker's context: the others wait for this read too.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedReadTimeout)
		defer cancel()
		return r.events.ReadAll(rctx, after, f, limit)
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.([]eventstore.RecordedEvent), nil
	}
}

// StreamVersion is the events' StreamVersion, shared with an identical
// read under way; a stream the shared read did not find is looked up again
// on its own (it may have been created since that read began).
func (r *sharedReads) StreamVersion(ctx context.Context, streamID string) (int64, error) {
	ch := r.group.DoChan("version "+streamID, func() (any, error) {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedReadTimeout)
		defer cancel()
		return r.events.StreamVersion(rctx, streamID)
	})
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return 0, res.Err
		}
		if v := res.Val.(int64); v > 0 || !res.Shared {
			return v, nil
		}
		return r.events.StreamVersion(ctx, streamID)
	}
}
