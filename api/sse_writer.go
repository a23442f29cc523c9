package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/timeline"
)

// errStreamClosed is returned for a write after the handler has ended.
var errStreamClosed = errors.New("event stream closed")

// sseWriter writes one client's event stream. Its writes come from the
// handler's goroutine (events) and the heartbeat timer, one at a time;
// none after close.
type sseWriter struct {
	w       io.Writer
	rc      *http.ResponseController // nil when w is no http.ResponseWriter
	cache   *frameCache
	timeout time.Duration      // bounds each write
	fail    context.CancelFunc // ends the stream after a failed write
	// reveal, when set, reveals the sealed personal texts of the frames
	// made for this client alone (the shared ones come revealed from
	// frames).
	reveal func([]byte) ([]byte, error)
	client string           // echo exclusion: what this client caused goes out as an ack
	bridge *timeline.Bridge // the bridge format (bridge.go): frames folded for this client
	// partOf is the event of which the client, resuming, already has the
	// first received frames (0: none): those are not sent again.
	partOf   int64
	received int

	mu     sync.Mutex
	closed bool
	out    []byte   // the bytes of the write being made
	frames [][]byte // the frames of the batch being written
	beat   *time.Timer
}

func newSSEWriter(w io.Writer, frames *frameCache, timeout time.Duration, fail context.CancelFunc) *sseWriter {
	sw := &sseWriter{w: w, cache: frames, timeout: timeout, fail: fail}
	if rw, ok := w.(http.ResponseWriter); ok {
		sw.rc = http.NewResponseController(rw)
	}
	return sw
}

// sseChunk is the most an SSE write carries: a catch-up batch (up to
// eventstore.MaxReadLimit events) goes out in pieces of about this size,
// each with its own deadline, so the deadline bounds progress rather than
// the whole batch, and the batch is never copied whole.
const sseChunk = 64 << 10

// events writes a batch as SSE messages: one write when it fits in
// sseChunk (an event or a few, the live case), else a write per chunk. The
// batch's frames are gathered first, so the write buffer is sized once
// rather than grown while a burst goes out.
func (sw *sseWriter) events(ctx context.Context, batch []eventstore.RecordedEvent) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.bridge == nil {
		sw.cache.prepare(ctx, batch)
	}
	frames, size := sw.frames[:0], 0
	defer func() {
		clear(frames)
		sw.frames = frames[:0]
		if cap(frames) > 64 {
			sw.frames = nil // a catch-up's worth: not kept for the stream's life
		}
	}()
	for _, e := range batch {
		frame, err := sw.frame(ctx, e)
		if err != nil {
			sw.fail()
			return err
		}
		frames, size = append(frames, frame), size+len(frame)
	}
	sw.out = slices.Grow(sw.out[:0], min(size, sseChunk))
	for _, frame := range frames {
		if len(sw.out) > 0 && len(sw.out)+len(frame) > sseChunk {
			if err := sw.sendLocked(sw.out); err != nil {
				return err
			}
			sw.out = sw.out[:0]
		}
		sw.out = append(sw.out, frame...)
	}
	err := sw.writeLocked(sw.out)
	if cap(sw.out) > 4*sseChunk {
		sw.out = nil // one very large event: do not keep its buffer for the stream's life
	}
	return err
}

// frame is e's SSE messages for this client, revealed: the shared frame,
// or an acknowledgement when the client caused e itself, or the bridge
// format's frames; without the frames the client already has when it
// resumed from one of e's frames.
func (sw *sseWriter) frame(ctx context.Context, e eventstore.RecordedEvent) ([]byte, error) {
	skip := 0
	if sw.partOf != 0 && e.Position == sw.partOf {
		skip, sw.partOf = sw.received, 0
	}
	if sw.bridge != nil {
		return sw.revealed(encodeBridge(sw.bridge, e, skip))
	}
	if skip > 0 { // the event's one frame was received
		return nil, nil
	}
	if sw.client != "" {
		if ack, ok := echoOf(e, sw.client); ok {
			return sw.revealed(encodeAck(ack))
		}
	}
	return sw.cache.frame(ctx, e)
}

// revealed is a frame made for this client alone, revealed.
func (sw *sseWriter) revealed(frame []byte, err error) ([]byte, error) {
	if err != nil || sw.reveal == nil {
		return frame, err
	}
	return sw.reveal(frame)
}

// write writes one message made for this client (the terminal frame),
// revealed, and flushes it.
func (sw *sseWriter) write(frame []byte) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	frame, err := sw.revealed(frame, nil)
	if err != nil {
		sw.fail()
		return err
	}
	return sw.writeLocked(frame)
}

// comment writes an SSE comment line.
func (sw *sseWriter) comment(text string) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.writeLocked(fmt.Appendf(sw.out[:0], ": %s\n\n", text))
}

// heartbeat writes a comment every interval until close (a timer, not a
// goroutine, while it waits).
func (sw *sseWriter) heartbeat(every time.Duration) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.beat = time.AfterFunc(every, func() {
		if sw.comment("heartbeat") == nil {
			sw.mu.Lock()
			if !sw.closed {
				sw.beat.Reset(every)
			}
			sw.mu.Unlock()
		}
	})
}

// writeLocked writes and flushes p within the write timeout; a failed
// write ends the stream.
func (sw *sseWriter) writeLocked(p []byte) error {
	if err := sw.sendLocked(p); err != nil {
		return err
	}
	var err error
	if sw.rc != nil {
		err = sw.rc.Flush()
	} else if fl, ok := sw.w.(http.Flusher); ok {
		fl.Flush()
	}
	if err != nil {
		sw.fail()
	}
	return err
}

// sendLocked writes p (to the connection's buffers, not necessarily
// flushed) within the write timeout; a failed write ends the stream.
func (sw *sseWriter) sendLocked(p []byte) error {
	if sw.closed {
		return errStreamClosed
	}
	if sw.rc != nil {
		// Not every ResponseWriter supports deadlines (httptest's
		// recorder does not); the write is then unbounded.
		_ = sw.rc.SetWriteDeadline(time.Now().Add(sw.timeout))
	}
	if _, err := sw.w.Write(p); err != nil {
		sw.fail()
		return err
	}
	return nil
}

// close stops the heartbeat and any later write, and clears the write
// deadline (the connection may serve another request after a stream that
// ended on an error); the handler calls it before it returns.
func (sw *sseWriter) close() {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.closed = true
	if sw.beat != nil {
		sw.beat.Stop()
	}
	if sw.rc != nil {
		_ = sw.rc.SetWriteDeadline(time.Time{})
	}
}
