package eventstore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/database"
	"github.com/towow/towow/internal/dbtest"
)

// TestOrderManyWriters: 16 writers append 100,000 events one at a time,
// each to its own stream, while a live subscriber follows the log. The
// subscriber sees every committed event exactly once, in the log's order
// (no gap, no duplicate, nothing out of order), and every stream's
// versions run 1..n in the order its writer appended them.
func TestOrderManyWriters(t *testing.T) {
	const writers, perWriter = 16, 6250
	url := dbtest.NewURL(t)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	ctx := context.Background()
	pool, err := database.Open(ctx, url+sep+"pool_max_conns=24", database.Options{ApplicationName: "towow-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := eventstore.New(pool, eventstore.Options{})
	sub := subscribe(t, ctx, s, eventstore.SubscribeOptions{Notifier: startNotifier(t, pool)})

	ids := make([][]uuid.UUID, writers)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	start := time.Now()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream := fmt.Sprintf("writer-%02d", w)
			for i := range perWriter {
				id := uuid.New()
				_, err := s.Append(ctx, stream, eventstore.ExpectedVersion(i), eventstore.EventData{ID: id, Type: "towow.test.happened",
					Payload: fmt.Appendf(nil, `{"w":%d,"i":%d}`, w, i)})
				if err != nil {
					errs <- fmt.Errorf("writer %d, event %d: %w", w, i, err)
					return
				}
				ids[w] = append(ids[w], id)
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	t.Logf("%d single-event appends by %d writers in %s (%.0f/s)", writers*perWriter, writers, took.Round(time.Millisecond),
		float64(writers*perWriter)/took.Seconds())

	full := readAll(t, s, eventstore.Filter{})
	if len(full) != writers*perWriter {
		t.Fatalf("the log holds %d events, the writers appended %d", len(full), writers*perWriter)
	}
	next := map[string]int{}
	for i, e := range full {
		if i > 0 && e.Position <= full[i-1].Position {
			t.Fatalf("positions not increasing at %d: %d after %d", i, e.Position, full[i-1].Position)
		}
		var w int
		if _, err := fmt.Sscanf(e.StreamID, "writer-%d", &w); err != nil {
			t.Fatalf("event %d on stream %q", e.Position, e.StreamID)
		}
		k := next[e.StreamID]
		if e.StreamVersion != int64(k+1) || e.EventID != ids[w][k] {
			t.Fatalf("stream %s: event %d is version %d/%s, want version %d/%s", e.StreamID, e.Position, e.StreamVersion, e.EventID, k+1, ids[w][k])
		}
		next[e.StreamID] = k + 1
	}
	sub.waitFor(t, full[len(full)-1].Position, 60*time.Second)
	time.Sleep(20 * time.Millisecond) // anything after the last event would be a duplicate
	sameSequence(t, "the subscriber", sub.snapshot(), full)
}
