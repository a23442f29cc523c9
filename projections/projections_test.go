package projections_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/projections"
)

// appendRandom appends n single events to random streams and returns them
// as stored.
func appendRandom(t *testing.T, s *eventstore.Store, rng *rand.Rand, n int) {
	t.Helper()
	for i := range n {
		stream := fmt.Sprintf("stream-%d", rng.IntN(7))
		md := event.Metadata{CorrelationID: fmt.Sprintf("demand-%d", rng.IntN(3))}
		e := eventstore.EventData{Type: event.EventType(fmt.Sprintf("towow.test.t%d", rng.IntN(4))),
			Payload: []byte(fmt.Sprintf(`{"i":%d}`, i)), Metadata: md}
		if _, err := s.Append(context.Background(), stream, eventstore.AnyVersion, e); err != nil {
			t.Fatal(err)
		}
	}
}

// expectedStreams folds the log in Go, the way the projection should.
func expectedStreams(t *testing.T, s *eventstore.Store) map[string]projections.StreamView {
	t.Helper()
	want := map[string]projections.StreamView{}
	var after int64
	for {
		page, err := s.ReadAll(context.Background(), after, eventstore.Filter{}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page {
			v, ok := want[e.StreamID]
			if !ok {
				v = projections.StreamView{StreamID: e.StreamID, FirstPosition: e.Position, CorrelationID: e.Metadata.CorrelationID, CreatedAt: e.RecordedAt}
			}
			v.Version, v.LastPosition, v.LastEventType, v.UpdatedAt = e.StreamVersion, e.Position, string(e.Type), e.RecordedAt
			v.EventCount++
			want[e.StreamID] = v
		}
		if len(page) < 1000 {
			return want
		}
		after = page[len(page)-1].Position
	}
}

func checkStreams(t *testing.T, pool *pgxpool.Pool, want map[string]projections.StreamView) {
	t.Helper()
	got, err := projections.ListStreams(context.Background(), pool, "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d stream rows, want %d", len(got), len(want))
	}
	for _, g := range got {
		w := want[g.StreamID]
		if !g.CreatedAt.Equal(w.CreatedAt) || !g.UpdatedAt.Equal(w.UpdatedAt) {
			t.Fatalf("stream %s times %v/%v, want %v/%v", g.StreamID, g.CreatedAt, g.UpdatedAt, w.CreatedAt, w.UpdatedAt)
		}
		g.CreatedAt, g.UpdatedAt, w.CreatedAt, w.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if g != w {
			t.Fatalf("stream row %+v, want %+v", g, w)
		}
	}
}

func TestStreamsCatchUp(t *testing.T) {
	pool := dbtest.New(t)
	s := eventstore.New(pool, eventstore.Options{})
	r := projections.NewRunner(pool, s, nil, nil)
	r.BatchSize = 17
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()

	appendRandom(t, s, rng, 120)
	pos, err := r.CatchUp(ctx, projections.Streams{})
	if err != nil {
		t.Fatal(err)
	}
	head, _ := s.HeadPosition(ctx)
	if pos != head {
		t.Fatalf("checkpoint %d, head %d", pos, head)
	}
	checkStreams(t, pool, expectedStreams(t, s))

	// More events, caught up incrementally; a second CatchUp is a no-op.
	appendRandom(t, s, rng, 50)
	if _, err := r.CatchUp(ctx, projections.Streams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.CatchUp(ctx, projections.Streams{}); err != nil {
		t.Fatal(err)
	}
	checkStreams(t, pool, expectedStreams(t, s))

	v, err := projections.GetStream(ctx, pool, "stream-1")
	if err != nil || v.StreamID != "stream-1" {
		t.Fatalf("GetStream: %+v %v", v, err)
	}
	if _, err := projections.GetStream(ctx, pool, "nope"); !errors.Is(err, projections.ErrNotFound) {
		t.Fatalf("GetStream(nope): %v", err)
	}
	byDemand, err := projections.ListStreams(ctx, pool, "demand-1", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range byDemand {
		if v.CorrelationID != "demand-1" {
			t.Fatalf("correlation filter returned %+v", v)
		}
	}
}

// TestConcurrentRunnersApplyOnce runs the same projector in three live
// runners (as three processes would) while events are appended: every event
// is applied exactly once.
func TestConcurrentRunnersApplyOnce(t *testing.T) {
	pool := dbtest.New(t)
	s := eventstore.New(pool, eventstore.Options{})
	n := eventstore.NewNotifier(pool.Config().ConnConfig, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = n.Run(ctx) }()
	<-n.Ready()
	errs := make(chan error, 3)
	for range 3 {
		r := projections.NewRunner(pool, s, n, nil)
		r.BatchSize = 5
		wg.Add(1)
		go func() { defer wg.Done(); errs <- r.Run(ctx, projections.Streams{}) }()
	}
	appendRandom(t, s, rand.New(rand.NewPCG(3, 4)), 200)
	head, _ := s.HeadPosition(context.Background())
	r := projections.NewRunner(pool, s, nil, nil)
	deadline := time.Now().Add(10 * time.Second)
	for {
		pos, err := r.Checkpoint(context.Background(), "streams")
		if err != nil {
			t.Fatal(err)
		}
		if pos == head {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("checkpoint stuck at %d, head %d", pos, head)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("runner: %v", err)
		}
	}
	checkStreams(t, pool, expectedStreams(t, s))
}

// failing applies events until it meets the one at failAt.
type failing struct{ failAt int64 }

func (failing) Name() string { return "failing" }

func (f failing) Apply(ctx context.Context, db projections.DB, e eventstore.RecordedEvent) error {
	if e.Position == f.failAt {
		return errors.New("boom")
	}
	return projections.Streams{}.Apply(ctx, db, e)
}

// TestFailedBatchWritesNothing: a failure rolls back the whole batch with
// its checkpoint, so rows and checkpoint never disagree.
func TestFailedBatchWritesNothing(t *testing.T) {
	pool := dbtest.New(t)
	s := eventstore.New(pool, eventstore.Options{})
	ctx := context.Background()
	appendRandom(t, s, rand.New(rand.NewPCG(5, 6)), 30)
	all, _ := s.ReadAll(ctx, 0, eventstore.Filter{}, 100)
	r := projections.NewRunner(pool, s, nil, nil)
	r.BatchSize = 10
	_, err := r.CatchUp(ctx, failing{failAt: all[14].Position})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("CatchUp = %v, want the apply error", err)
	}
	pos, _ := r.Checkpoint(ctx, "failing")
	if pos != all[9].Position {
		t.Fatalf("checkpoint %d, want %d (end of the last good batch)", pos, all[9].Position)
	}
	var count int64
	if err := pool.QueryRow(ctx, "SELECT coalesce(sum(event_count), 0) FROM streams").Scan(&count); err != nil || count != 10 {
		t.Fatalf("rows hold %d events, want 10: %v", count, err)
	}
}

// badDemands is the demands model with a statement that fails in the
// database (not in Go) at one event: the pipelined rebuild learns of it
// only at the flush. It embeds the model as a ReadModel, which hides its
// SQL rebuild, so Rebuild folds event by event through Apply.
type badDemands struct {
	projections.ReadModel
	failAt int64
}

func (b badDemands) Apply(ctx context.Context, db projections.DB, e eventstore.RecordedEvent) error {
	if e.Position == b.failAt {
		_, err := db.Exec(ctx, "SELECT 1/0")
		return err
	}
	return b.ReadModel.Apply(ctx, db, e)
}

func (badDemands) Types() []event.EventType { return nil } // read every event

// TestFailedRebuildKeepsTheOldRows: a rebuild that fails midway (here at a
// pipelined flush) rolls back whole: the rows and the checkpoint are those
// from before it.
func TestFailedRebuildKeepsTheOldRows(t *testing.T) {
	pool := dbtest.New(t)
	s := eventstore.New(pool, eventstore.Options{})
	ctx := context.Background()
	for i := range 5 {
		ev, _ := eventstore.NewEvent(uuid.Nil, &negotiation.DemandSubmitted{DemandID: fmt.Sprintf("d-%d", i), UserID: "u", RawInput: "x"},
			event.Metadata{CorrelationID: fmt.Sprintf("d-%d", i)})
		if _, err := s.Append(ctx, negotiation.DemandStream(fmt.Sprintf("d-%d", i)), eventstore.NoStream, ev); err != nil {
			t.Fatal(err)
		}
	}
	r := projections.NewRunner(pool, s, nil, nil)
	if _, err := r.CatchUp(ctx, projections.Demands{}); err != nil {
		t.Fatal(err)
	}
	before, err := projections.Demands{}.Checksum(ctx, pool)
	if err != nil || before.Rows != 5 {
		t.Fatalf("before: %+v %v", before, err)
	}
	logged, err := s.ReadAll(ctx, 0, eventstore.Filter{}, 10)
	if err != nil || len(logged) != 5 {
		t.Fatalf("the log: %d events, %v", len(logged), err)
	}
	_, err = r.Rebuild(ctx, badDemands{ReadModel: projections.Demands{}, failAt: logged[2].Position})
	if err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Fatalf("Rebuild = %v, want the database's error", err)
	}
	after, _ := projections.Demands{}.Checksum(ctx, pool)
	cp, _ := r.Checkpoint(ctx, "demands")
	if last := logged[4].Position; after != before || cp != last {
		t.Fatalf("after a failed rebuild: %+v checkpoint %d; want %+v checkpoint %d", after, cp, before, last)
	}
}

// blocking writes a row for its first event, then waits until released:
// a batch held open after its first write.
type blocking struct {
	entered, release chan struct{}
}

func (blocking) Name() string { return "blocking" }

func (b blocking) Apply(ctx context.Context, db projections.DB, e eventstore.RecordedEvent) error {
	if _, err := db.Exec(ctx, "UPDATE projection_checkpoints SET position = position WHERE name = 'blocking'"); err != nil {
		return err
	}
	select {
	case b.entered <- struct{}{}:
		<-b.release
	default: // entered already
	}
	return nil
}

// TestBatchDoesNotHoldReadersBack: events committed while a read model's
// batch is open (it has written) are read at once, not when it ends: the
// batch appends nothing and says so.
func TestBatchDoesNotHoldReadersBack(t *testing.T) {
	pool := dbtest.New(t)
	s := eventstore.New(pool, eventstore.Options{})
	ctx := context.Background()
	appendRandom(t, s, rand.New(rand.NewPCG(7, 8)), 3)
	b := blocking{entered: make(chan struct{}), release: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := projections.NewRunner(pool, s, nil, nil).CatchUp(ctx, b)
		done <- err
	}()
	<-b.entered
	res, err := s.Append(ctx, "stream-late", eventstore.NoStream,
		eventstore.EventData{Type: "towow.test.late", Payload: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadAll(ctx, res.LastPosition-1, eventstore.Filter{}, 10)
	close(b.release)
	if err != nil || len(got) != 1 || got[0].Position != res.LastPosition {
		t.Fatalf("with a batch open, a read after the new event's position found %d events (%v); want it", len(got), err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
