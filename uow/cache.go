package uow

import (
	"context"
	"slices"
	"sync"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
)

// eventCache keeps the decoded events of the streams of running
// negotiations, and of the last few that ended. Events are immutable and
// a stream only grows at its end, so a cached prefix stays valid forever:
// loading a stream reads and decodes only the events after it, and the
// events this process commits join it as they are written (extend). (A
// step folds its channel twice, and a channel's twelve twins fold it in
// parallel; without the cache each of those re-decodes the whole stream.)
// Reads see only committed events, so nothing cached can be rolled back.
//
// When its negotiation ends, a stream is retired (see retire and ended):
// kept for the steps that read it just after the end (the notices, the
// parent of a sub-negotiation), among the last maxRetired ended streams
// only, so a long-running process keeps nothing per finished negotiation
// beyond those. max bounds the running streams besides, oldest first.
type eventCache struct {
	mu         sync.Mutex
	max        int
	maxRetired int
	streams    map[string][]event.Payload // index i holds version i+1
	order      []string                   // running streams, oldest first, for eviction
	retired    []string                   // ended streams, oldest first
}

func newEventCache(maxStreams, maxRetired int) *eventCache {
	return &eventCache{max: maxStreams, maxRetired: maxRetired, streams: map[string][]event.Payload{}}
}

// load returns every event of stream, decoded, and the stream's version.
// The returned slice must not be modified. at is the stream's version when
// the caller knows it (it holds the stream's lock), else -1: a cache that
// holds the stream up to at reads nothing.
func (c *eventCache) load(ctx context.Context, st *eventstore.Store, stream string, at int64) ([]event.Payload, int64, error) {
	c.mu.Lock()
	cached := c.streams[stream]
	c.mu.Unlock()
	events := cached[:len(cached):len(cached)] // appends below copy
	if at >= 0 && int64(len(events)) == at {
		return events, at, nil
	}
	for {
		ps, err := st.DecodeStream(ctx, stream, int64(len(events))+1, eventstore.MaxReadLimit)
		if err != nil {
			return nil, 0, err
		}
		events = append(events, ps...)
		if len(ps) < eventstore.MaxReadLimit {
			break
		}
	}
	switch {
	case !closes(events[len(cached):], stream):
		if len(events) > len(cached) {
			c.store(stream, events)
		}
	case len(cached) > 0: // it ended while cached: its late readers come now
		c.store(stream, events)
		c.retire(stream)
	default: // a late read of a stream that ended long ago: not kept
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

// appended is what one append of a commit wrote: its events, from
// version first of stream on.
type appended struct {
	stream string
	first  int64
	events []eventstore.EventData
	// plain are the payloads as written (nil: the stored one, which a
	// fork's copy holds sealed), so the cache decodes without revealing
	// what it sealed a moment ago.
	plain [][]byte
}

// extend adds to a cached stream the events this process has just
// committed to it, from version first on, when the cache holds the stream
// exactly up to them: the next load then reads only what other writers
// appended since. The events are decoded from the bytes that were stored,
// so a step folds the same events whether it reads them here or from the
// log. Anything else (a stream nobody folded, such as an inbox or a new
// stream; a gap; a stream loaded further by then; an event that does not
// decode) leaves the cache as it was, for the next load to read from the
// log.
func (c *eventCache) extend(ctx context.Context, st *eventstore.Store, w appended) {
	stream, first, evs := w.stream, w.first, w.events
	holds := func() ([]event.Payload, bool) {
		cur, ok := c.streams[stream]
		return cur, ok && int64(len(cur)) == first-1
	}
	c.mu.Lock()
	_, ok := holds()
	c.mu.Unlock()
	if !ok {
		return
	}
	ps := make([]event.Payload, len(evs)) // decoded outside the lock
	for i, e := range evs {
		var p event.Payload
		var err error
		if i < len(w.plain) && w.plain[i] != nil {
			p, err = event.DecodePayload(e.Type, e.Metadata.SchemaVersion, w.plain[i])
		} else {
			p, err = st.Decode(ctx, eventstore.RecordedEvent{Type: e.Type, Payload: e.Payload, Metadata: e.Metadata})
		}
		if err != nil {
			return
		}
		ps[i] = p
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := holds(); ok {
		c.streams[stream] = append(cur[:len(cur):len(cur)], ps...)
	}
}

// clear forgets every stream.
func (c *eventCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.streams)
	c.order, c.retired = nil, nil
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

// retire moves streams whose negotiation ended from the running ones to
// the retired ones, forgetting the oldest retired beyond maxRetired. A
// stream not cached stays so.
func (c *eventCache) retire(streams ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range streams {
		i := slices.Index(c.order, s)
		if i < 0 {
			continue // not cached, or retired already
		}
		c.order = slices.Delete(c.order, i, i+1)
		c.retired = append(c.retired, s)
	}
	for len(c.retired) > c.maxRetired {
		delete(c.streams, c.retired[0])
		c.retired = c.retired[1:]
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
