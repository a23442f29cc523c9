package uow

import (
	"context"
	"slices"
	"sync"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
)

// eventCache keeps the decoded events of the streams of running
// negotiations. A stream leaves it when its negotiation ends (see drop and
// ended), so a long-running process keeps nothing per finished
// negotiation; max bounds it besides, oldest first. Events are
// immutable and a stream only grows at its end, so a cached prefix stays
// valid forever: loading a stream reads and decodes only the events after
// it. (A step folds its channel twice, and a channel's twelve twins fold it
// in parallel; without the cache each of those re-decodes the whole stream.)
// Reads see only committed events, so nothing cached can be rolled back.
type eventCache struct {
	mu      sync.Mutex
	max     int
	streams map[string][]event.Payload // index i holds version i+1
	order   []string                   // oldest first, for eviction
}

func newEventCache(maxStreams int) *eventCache {
	return &eventCache{max: maxStreams, streams: map[string][]event.Payload{}}
}

// load returns every event of stream, decoded, and the stream's version.
// The returned slice must not be modified.
func (c *eventCache) load(ctx context.Context, st *eventstore.Store, stream string) ([]event.Payload, int64, error) {
	c.mu.Lock()
	cached := c.streams[stream]
	c.mu.Unlock()
	events := cached[:len(cached):len(cached)] // appends below copy
	for {
		evs, err := st.ReadStream(ctx, stream, int64(len(events))+1, eventstore.MaxReadLimit)
		if err != nil {
			return nil, 0, err
		}
		for _, ev := range evs {
			p, err := ev.Decode()
			if err != nil {
				return nil, 0, err
			}
			events = append(events, p)
		}
		if len(evs) < eventstore.MaxReadLimit {
			break
		}
	}
	switch {
	case closes(events[len(cached):], stream):
		c.drop(stream) // over: late readers (timeouts, stuck checks) must not keep it
	case len(events) > len(cached):
		c.store(stream, events)
	}
	return events, int64(len(events)), nil
}

// closes reports whether events hold the end of stream (see ended).
func closes(events []event.Payload, stream string) bool {
	for _, p := range events {
		if slices.Contains(ended(p), stream) {
			return true
		}
	}
	return false
}

func (c *eventCache) store(stream string, events []event.Payload) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.streams[stream]; ok {
		if len(cur) < len(events) {
			c.streams[stream] = events
		}
		return
	}
	c.streams[stream] = events
	c.order = append(c.order, stream)
	for len(c.order) > c.max {
		delete(c.streams, c.order[0])
		c.order = c.order[1:]
	}
}

// drop forgets streams: a negotiation that ended is not folded by its
// steps any more, so its streams leave the cache at once instead of
// waiting to be evicted (a later read, e.g. a stuck check, reads them
// again from the store).
func (c *eventCache) drop(streams ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range streams {
		if _, ok := c.streams[s]; !ok {
			continue
		}
		delete(c.streams, s)
		if i := slices.Index(c.order, s); i >= 0 {
			c.order = slices.Delete(c.order, i, i+1)
		}
	}
}

// ended returns the streams an event ends, as the event's context
// declares them (event.Ender); most events end none.
func ended(p event.Payload) []string {
	if e, ok := p.(event.Ender); ok {
		return e.EndedStreams()
	}
	return nil
}
