package api

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/towow/towow/domain/event"
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

// frameCache keeps the frames of the latest events, encoded and revealed,
// so an event followed by a thousand clients is encoded and revealed once,
// not a thousand times. A revealed frame is handed out only while its
// reveal holds (Personal.RevealHeld): once a key that revealed it may have
// been erased, the next client reveals it anew, so an erasure reaches the
// next frame of every stream.
type frameCache struct {
	// reveal, when set, reveals the sealed texts of a frame and returns
	// whether what it revealed still holds.
	reveal func(ctx context.Context, data []byte) ([]byte, func() bool, error)

	mu    sync.Mutex
	byPos map[int64]*cachedFrame
	ring  []int64 // positions in insertion order, oldest evicted first
	next  int
}

// cachedFrame is one event's frame; mu is held while it is made, so the
// clients asking for it at once wait for one encoding rather than each
// making their own.
type cachedFrame struct {
	mu    sync.Mutex
	frame []byte      // nil until made
	holds func() bool // nil: holds for good
	// payload is the event's decoded payload (nil until decoded), shared
	// by the streams that fold it: read, never changed.
	payload event.Payload
}

func newFrameCache(size int, reveal func(ctx context.Context, data []byte) ([]byte, func() bool, error)) *frameCache {
	return &frameCache{reveal: reveal, byPos: make(map[int64]*cachedFrame, size), ring: make([]int64, size)}
}

// entry returns e's entry, made empty if the cache has none.
func (c *frameCache) entry(e eventstore.RecordedEvent) *cachedFrame {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.byPos[e.Position]
	if !ok {
		f = &cachedFrame{}
		delete(c.byPos, c.ring[c.next]) // position 0 is never an event
		c.ring[c.next] = e.Position
		c.next = (c.next + 1) % len(c.ring)
		c.byPos[e.Position] = f
	}
	return f
}

// payload returns e's decoded payload, decoded on first use; the caller
// must not change it.
func (c *frameCache) payload(e eventstore.RecordedEvent) (event.Payload, error) {
	f := c.entry(e)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.payload == nil {
		p, err := e.Decode()
		if err != nil {
			return nil, err
		}
		f.payload = p
	}
	return f.payload, nil
}

// frame returns e's frame, encoded and revealed on first use, and
// revealed again once its reveal no longer holds.
func (c *frameCache) frame(ctx context.Context, e eventstore.RecordedEvent) ([]byte, error) {
	f := c.entry(e)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.frame != nil && (f.holds == nil || f.holds()) {
		return f.frame, nil
	}
	data, err := encodeFrame(e)
	if err != nil {
		return nil, err
	}
	var holds func() bool
	if c.reveal != nil {
		if data, holds, err = c.reveal(ctx, data); err != nil {
			return nil, err
		}
	}
	f.frame, f.holds = data, holds
	return data, nil
}
