package api

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/towow/towow/eventstore"
)

// encodeFrame is an event as one SSE message: id = cursor, event = type,
// data = the envelope.
func encodeFrame(e eventstore.RecordedEvent) ([]byte, error) {
	data, err := json.Marshal(envelope(e))
	if err != nil {
		return nil, fmt.Errorf("encode event %d: %w", e.Position, err)
	}
	return fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", e.Position, e.Type, data), nil
}

// frameCache keeps the encoded frames of the latest events, so an event
// followed by a thousand clients is encoded once, not a thousand times.
type frameCache struct {
	mu    sync.Mutex
	byPos map[int64][]byte
	ring  []int64 // positions in insertion order, oldest evicted first
	next  int
}

func newFrameCache(size int) *frameCache {
	return &frameCache{byPos: make(map[int64][]byte, size), ring: make([]int64, size)}
}

// frame returns e's encoded frame, encoding it on first use.
func (c *frameCache) frame(e eventstore.RecordedEvent) ([]byte, error) {
	c.mu.Lock()
	f, ok := c.byPos[e.Position]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	f, err := encodeFrame(e)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byPos[e.Position]; !ok {
		delete(c.byPos, c.ring[c.next]) // position 0 is never an event
		c.ring[c.next] = e.Position
		c.next = (c.next + 1) % len(c.ring)
		c.byPos[e.Position] = f
	}
	return f, nil
}
