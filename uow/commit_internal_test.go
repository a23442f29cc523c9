package uow

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
)

// TestCommitWaitsForLocksBeforeWriting: a commit that appends to a stream
// its caller did not lock, while another writer holds that stream, waits
// for it before its first write. Waiting, it has no transaction id, so it
// holds no reader of the log back: an event appended meanwhile is read at
// once. It then appends both streams' events.
func TestCommitWaitsForLocksBeforeWriting(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.New(t)
	store := eventstore.New(pool, eventstore.Options{})
	u := New(pool, store, nil, Config{})
	channel, wf := negotiation.ChannelStream("collab-1"), "workflow-wf-1"

	holder, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Rollback(ctx) }()
	if _, err := store.LockStreams(ctx, holder, []string{wf}); err != nil {
		t.Fatal(err)
	}

	md := event.Metadata{CorrelationID: "d-1", Actor: event.ActorSystem}
	done := make(chan error, 1)
	go func() {
		_, err := u.Commit(ctx, "test", []string{channel}, func(context.Context, *eventstore.Store) (*Plan, error) {
			return &Plan{Appends: []Append{
				{Stream: channel, Expected: eventstore.NoStream, Meta: md,
					Events: []event.Payload{&negotiation.ChannelCreated{ChannelID: "collab-1", DemandID: "d-1", InvitedAgents: []string{"a"}}}},
				{Stream: wf, Expected: eventstore.NoStream, Meta: md,
					Events: []event.Payload{&negotiation.ChannelStatusChanged{ChannelID: "collab-1",
						OldStatus: negotiation.ChannelStatusCreated, NewStatus: negotiation.ChannelStatusBroadcasting}}},
			}}, nil
		})
		done <- err
	}()

	// The commit's backend waits for the advisory lock the holder has.
	var withID bool
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := pool.QueryRow(ctx, `SELECT count(*)::int, coalesce(bool_or(backend_xid IS NOT NULL), false)
			FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`).
			Scan(&waiting, &withID); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the commit never waited for the held stream")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if withID {
		t.Error("the commit waits for a stream's lock after its first write (it has a transaction id)")
	}
	res, err := store.Append(ctx, "other-1", eventstore.NoStream, eventstore.EventData{Type: "towow.test.happened", Payload: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if h, err := store.HeadPosition(ctx); err != nil || h < res.LastPosition {
		t.Errorf("while the commit waits, the head is %d (%v); want the event appended meanwhile (%d) readable", h, err, res.LastPosition)
	}

	if err := holder.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{channel, wf} {
		if evs, err := store.ReadStream(ctx, s, 1, 10); err != nil || len(evs) != 1 {
			t.Errorf("stream %s: %d events, %v; want 1", s, len(evs), err)
		}
	}
}

// TestCommitLocksInOneOrder: a plan that appends to a stream sorting
// before one its caller locked takes that stream at once when nobody holds
// it; when another transaction holds it, the plan is decided again with
// both locked in order (a commit never waits out of order, so two commits
// never wait on each other). Either way it is written once.
func TestCommitLocksInOneOrder(t *testing.T) {
	early, late := negotiation.ChannelStream("collab-a"), negotiation.ChannelStream("collab-b")
	tests := []struct {
		name   string
		held   bool       // another transaction holds the earlier stream for a while
		builds [][]string // the locks each decision saw
	}{
		{"the earlier stream is free", false, [][]string{{late}}},
		{"another transaction holds the earlier stream", true, [][]string{{late}, {early, late}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			pool := dbtest.New(t)
			store := eventstore.New(pool, eventstore.Options{})
			u := New(pool, store, nil, Config{})
			if tt.held {
				holder, err := pool.Begin(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := store.LockStreams(ctx, holder, []string{early}); err != nil {
					t.Fatal(err)
				}
				time.AfterFunc(300*time.Millisecond, func() { _ = holder.Rollback(ctx) })
			}
			md := event.Metadata{CorrelationID: "d-1", Actor: event.ActorSystem}
			var builds [][]string
			_, err := u.Commit(ctx, "test", []string{late}, func(ctx context.Context, _ *eventstore.Store) (*Plan, error) {
				versions, _ := ctx.Value(lockedKey{}).(map[string]int64)
				builds = append(builds, slices.Sorted(maps.Keys(versions)))
				var appends []Append
				for _, s := range []string{late, early} {
					appends = append(appends, Append{Stream: s, Expected: eventstore.NoStream, Meta: md,
						Events: []event.Payload{&negotiation.ChannelCreated{ChannelID: s, DemandID: "d-1", InvitedAgents: []string{"a"}}}})
				}
				return &Plan{Appends: appends}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(builds, tt.builds, slices.Equal) {
				t.Errorf("decided with the locks %v; want %v", builds, tt.builds)
			}
			for _, s := range []string{early, late} {
				if evs, err := store.ReadStream(ctx, s, 1, 10); err != nil || len(evs) != 1 {
					t.Errorf("stream %s: %d events, %v; want 1", s, len(evs), err)
				}
			}
		})
	}
}
