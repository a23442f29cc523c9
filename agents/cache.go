package agents

import (
	"context"
	"sync"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
)

// eventCache keeps the decoded events of recently used streams. Events are
// immutable and a stream only grows at its end, so a cached prefix stays
// valid forever: loading a stream reads and decodes only the events after
// it. (A step folds its channel twice, and a channel's twelve twins fold it
// in parallel; without the cache each of those re-decodes the whole stream.)
// Reads see only committed events, so nothing cached can be rolled back.
type eventCache struct {
	mu      sync.Mutex
	max     int
	streams map[string][]domain.Payload // index i holds version i+1
	order   []string                    // oldest first, for eviction
}

func newEventCache(maxStreams int) *eventCache {
	return &eventCache{max: maxStreams, streams: map[string][]domain.Payload{}}
}

// load returns every event of stream, decoded, and the stream's version.
// The returned slice must not be modified.
func (c *eventCache) load(ctx context.Context, st *eventstore.Store, stream string) ([]domain.Payload, int64, error) {
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
	if len(events) > len(cached) {
		c.store(stream, events)
	}
	return events, int64(len(events)), nil
}

func (c *eventCache) store(stream string, events []domain.Payload) {
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
