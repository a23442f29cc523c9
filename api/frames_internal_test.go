package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// countingReveal is a frame cache's reveal that counts its calls per
// frame, takes a little while (so concurrent clients overlap), and whose
// answers hold until stale is called.
type countingReveal struct {
	mu    sync.Mutex
	calls map[string]int
	gen   atomic.Int64
	fail  atomic.Int64 // how many calls still fail
}

func (r *countingReveal) reveal(_ context.Context, data []byte) ([]byte, func() bool, error) {
	r.mu.Lock()
	r.calls[string(data)]++
	r.mu.Unlock()
	time.Sleep(200 * time.Microsecond)
	if r.fail.Add(-1) >= 0 {
		return nil, nil, errors.New("key store unreachable")
	}
	gen := r.gen.Load()
	return bytes.ToUpper(data), func() bool { return r.gen.Load() == gen }, nil
}

// stale makes every answer given so far no longer hold.
func (r *countingReveal) stale() { r.gen.Add(1) }

// counts is how many times each frame was revealed.
func (r *countingReveal) counts() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for k, v := range r.calls {
		out[k] = v
	}
	return out
}

// burst is n offers of one negotiation, as one commit appends them.
func burst(n int) []eventstore.RecordedEvent {
	out := make([]eventstore.RecordedEvent, n)
	for i := range out {
		payload, _ := json.Marshal(map[string]any{"demand_id": "d-1", "channel_id": "collab-1", "agent_id": "a", "decision": "participate",
			"contribution": "可提供场地", "conditions": []string{}, "round": 1 + i})
		out[i] = eventstore.RecordedEvent{Position: int64(1000 + i), EventID: uuid.New(), StreamID: "channel-collab-1", StreamVersion: int64(i + 1),
			Type: negotiation.EventOfferSubmitted, Payload: payload, Metadata: event.Metadata{CorrelationID: "d-1", SchemaVersion: 1},
			RecordedAt: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)}
	}
	return out
}

// followAll has clients followers take batch at once, each as a stream
// does (prepare, then each frame), and returns what each received.
func followAll(t *testing.T, c *frameCache, clients int, batch []eventstore.RecordedEvent) [][][]byte {
	t.Helper()
	got := make([][][]byte, clients)
	errs := make([]error, clients)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			<-start
			c.prepare(context.Background(), batch)
			for _, e := range batch {
				f, err := c.frame(context.Background(), e)
				if err != nil {
					errs[i] = err
					return
				}
				got[i] = append(got[i], f)
			}
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	return got
}

// TestFrameMadeOnceForABurst: a hundred followers woken by the same burst
// get every frame revealed, each revealed once; once the reveals no longer
// hold (a key may have been erased), the next burst of reads reveals each
// frame once again.
func TestFrameMadeOnceForABurst(t *testing.T) {
	r := &countingReveal{calls: map[string]int{}}
	c := newFrameCache(64, r.reveal)
	batch := burst(25)
	for round := range 2 {
		got := followAll(t, c, 100, batch)
		for i, frames := range got {
			if len(frames) != len(batch) {
				t.Fatalf("round %d: client %d got %d frames, want %d", round, i, len(frames), len(batch))
			}
			for j, f := range frames {
				want, err := encodeFrame(batch[j])
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(f, bytes.ToUpper(want)) {
					t.Fatalf("round %d: client %d frame %d is not the revealed frame:\n%s", round, i, j, f)
				}
			}
		}
		counts := r.counts()
		if len(counts) != len(batch) {
			t.Fatalf("round %d: %d frames revealed, want %d", round, len(counts), len(batch))
		}
		for frame, n := range counts {
			if n != round+1 {
				t.Fatalf("round %d: a frame was revealed %d times, want %d:\n%s", round, n, round+1, frame)
			}
		}
		r.stale()
	}
}

// TestFrameFailedRevealTriedAgain: a reveal that fails while frames are
// prepared is not kept: the stream's own read of the frame reveals it
// again, and reports the error when that fails too.
func TestFrameFailedRevealTriedAgain(t *testing.T) {
	r := &countingReveal{calls: map[string]int{}}
	r.fail.Store(1)
	c := newFrameCache(64, r.reveal)
	batch := burst(1)
	got := followAll(t, c, 1, batch)
	if len(got[0]) != 1 || r.counts()[string(mustFrame(t, batch[0]))] != 2 {
		t.Fatalf("after a failed prepare: got %d frames, %v reveals; want 1 frame, 2 reveals", len(got[0]), r.counts())
	}

	r.fail.Store(2)
	r.stale()
	c.prepare(context.Background(), batch)
	if _, err := c.frame(context.Background(), batch[0]); err == nil || err.Error() != "key store unreachable" {
		t.Fatalf("a reveal failing twice: err %v, want the reveal's error", err)
	}
}

func mustFrame(t *testing.T, e eventstore.RecordedEvent) []byte {
	t.Helper()
	f, err := encodeFrame(e)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
