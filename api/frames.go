package api

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

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
//
// Reading a made frame takes no lock: the clients of one stream are woken
// together and ask for the same frames in the same order, and with a lock
// per read they would march through a burst in a convoy, each hand-over of
// the lock waiting for the scheduler. Locks are taken only to make a frame
// and to add an entry.
type frameCache struct {
	// reveal, when set, reveals the sealed texts of a frame and returns
	// whether what it revealed still holds.
	reveal func(ctx context.Context, data []byte) ([]byte, func() bool, error)

	byPos sync.Map // int64 position → *cachedFrame

	mu   sync.Mutex // adding and evicting entries
	ring []int64    // positions in insertion order, oldest evicted first
	next int
}

// cachedFrame is one event's entry. One client at a time makes its frame
// while the others wait for it (making), so the clients asking for it at
// once wait for one encoding rather than each making their own, and all
// wake together when it is made.
type cachedFrame struct {
	made atomic.Pointer[madeFrame] // nil until made

	mu     sync.Mutex
	making chan struct{} // while a client makes the frame: closed when it is done
	// payload is the event's decoded payload (nil until decoded), shared
	// by the streams that fold it: read, never changed. It is decoded
	// with mu held.
	payload atomic.Pointer[event.Payload]
}

// madeFrame is a frame and how long it holds.
type madeFrame struct {
	frame []byte
	holds func() bool // nil: holds for good
}

// usable reports whether m is made and still holds.
func (m *madeFrame) usable() bool {
	return m != nil && (m.holds == nil || m.holds())
}

// claim reports whether the caller is to make f's frame (it is neither
// usable nor being made); if not, wait is closed once the client making it
// is done (nil: the frame is usable).
func (f *cachedFrame) claim() (mine bool, wait <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.made.Load().usable():
		return false, nil
	case f.making != nil:
		return false, f.making
	}
	f.making = make(chan struct{})
	return true, nil
}

// finish ends the claim on f, with the frame made (m), or none when
// making it failed (the next client tries again).
func (f *cachedFrame) finish(m *madeFrame) {
	if m != nil {
		f.made.Store(m)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.making)
	f.making = nil
}

func newFrameCache(size int, reveal func(ctx context.Context, data []byte) ([]byte, func() bool, error)) *frameCache {
	return &frameCache{reveal: reveal, ring: make([]int64, size)}
}

// entry returns e's entry, made empty if the cache has none.
func (c *frameCache) entry(e eventstore.RecordedEvent) *cachedFrame {
	if f, ok := c.byPos.Load(e.Position); ok {
		return f.(*cachedFrame)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.byPos.Load(e.Position); ok {
		return f.(*cachedFrame)
	}
	f := &cachedFrame{}
	c.byPos.Delete(c.ring[c.next]) // position 0 is never an event
	c.ring[c.next] = e.Position
	c.next = (c.next + 1) % len(c.ring)
	c.byPos.Store(e.Position, f)
	return f
}

// payload returns e's decoded payload, decoded on first use; the caller
// must not change it.
func (c *frameCache) payload(e eventstore.RecordedEvent) (event.Payload, error) {
	f := c.entry(e)
	if p := f.payload.Load(); p != nil {
		return *p, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if p := f.payload.Load(); p != nil {
		return *p, nil
	}
	p, err := e.Decode()
	if err != nil {
		return nil, err
	}
	f.payload.Store(&p)
	return p, nil
}

// frame returns e's frame, encoded and revealed on first use, and
// revealed again once its reveal no longer holds.
func (c *frameCache) frame(ctx context.Context, e eventstore.RecordedEvent) ([]byte, error) {
	f := c.entry(e)
	for {
		if m := f.made.Load(); m.usable() {
			return m.frame, nil
		}
		mine, wait := f.claim()
		if mine {
			return c.make(ctx, f, e)
		}
		if wait != nil {
			select {
			case <-wait:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
}

// prepare makes the frames of batch that are neither usable nor being made
// by another client. A stream calls it before writing a batch: the first
// of a thousand followers woken by a burst makes the burst's frames one
// after another while the rest take each as soon as it is made.
func (c *frameCache) prepare(ctx context.Context, batch []eventstore.RecordedEvent) {
	var mine []int
	var entries []*cachedFrame
	for i, e := range batch {
		f := c.entry(e)
		if f.made.Load().usable() {
			continue
		}
		if claimed, _ := f.claim(); claimed {
			mine, entries = append(mine, i), append(entries, f)
		}
	}
	for j, i := range mine {
		// A failure is left for frame, which tries again and reports it.
		_, _ = c.make(ctx, entries[j], batch[i])
	}
}

// make makes e's frame, f claimed by the caller.
func (c *frameCache) make(ctx context.Context, f *cachedFrame, e eventstore.RecordedEvent) ([]byte, error) {
	data, err := encodeFrame(e)
	var holds func() bool
	if err == nil && c.reveal != nil {
		data, holds, err = c.reveal(ctx, data)
	}
	if err != nil {
		f.finish(nil)
		return nil, err
	}
	f.finish(&madeFrame{frame: data, holds: holds})
	return data, nil
}
