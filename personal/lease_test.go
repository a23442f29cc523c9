package personal

import (
	"context"
	"testing"
	"time"

	"github.com/towow/towow/internal/dbtest"
)

// TestRevealHeld: what RevealHeld revealed holds until a key it used is
// due to be read again, and no longer once this process erases any key; a
// text with nothing sealed holds for good.
func TestRevealHeld(t *testing.T) {
	ctx := context.Background()
	keys := New(dbtest.New(t), nil)
	clock := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	keys.now = func() time.Time { return clock }
	sealed, err := keys.Seal(ctx, "user:alice", "王小明的聚会")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Seal(ctx, "user:bob", "bob 的需求"); err != nil {
		t.Fatal(err)
	}
	plain, plainHolds, err := keys.RevealHeld(ctx, `{"raw_input":"nothing sealed"}`, true)
	if err != nil || plain != `{"raw_input":"nothing sealed"}` {
		t.Fatalf("a plain text: %q %v", plain, err)
	}
	keys.mu.Lock()
	clear(keys.byID) // the seal cached the key: reveal reads it from the table now
	keys.mu.Unlock()
	got, holds, err := keys.RevealHeld(ctx, `{"raw_input":"`+sealed+`"}`, true)
	if err != nil || got != `{"raw_input":"王小明的聚会"}` {
		t.Fatalf("revealed: %q %v", got, err)
	}
	for _, step := range []struct {
		advance time.Duration
		want    bool
	}{{0, true}, {revealFor - time.Millisecond, true}, {time.Millisecond, false}} {
		clock = clock.Add(step.advance)
		if holds() != step.want {
			t.Fatalf("%s after the key was read: holds %v, want %v", clock.Sub(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)), !step.want, step.want)
		}
	}
	if _, holds, err = keys.RevealHeld(ctx, sealed, false); err != nil || !holds() {
		t.Fatalf("revealed again, with the key read again: holds %v, %v", holds != nil && holds(), err)
	}
	if _, ok, err := keys.Erase(ctx, "user:bob"); err != nil || !ok {
		t.Fatalf("erase bob: %v %v", ok, err)
	}
	if holds() {
		t.Fatal("what was revealed before an erasure in this process still holds")
	}
	if !plainHolds() {
		t.Fatal("a text with nothing sealed stopped holding")
	}
}
