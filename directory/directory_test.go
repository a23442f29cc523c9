package directory_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
)

// TestHasExternal: the directory knows whether any agent answers for
// itself, through registrations and profile changes either way, and
// which ones are twins.
func TestHasExternal(t *testing.T) {
	ctx := context.Background()
	store := eventstore.New(dbtest.New(t), eventstore.Options{})
	profile := func(id string, mode negotiation.AgentMode) negotiation.AgentProfile {
		return negotiation.AgentProfile{AgentID: id, UserName: id, ProfileSummary: "北京的场地方", Location: "北京",
			Tags: []string{"场地"}, Mode: mode}
	}
	read := func() *directory.Directory {
		t.Helper()
		d := directory.NewDirectory(store)
		if err := d.RefreshIfStale(ctx); err != nil {
			t.Fatal(err)
		}
		return d
	}
	steps := []struct {
		name  string
		id    string
		event event.Payload
		want  bool
	}{
		{"a twin registers", "twin", &negotiation.AgentRegistered{AgentID: "twin", Profile: profile("twin", negotiation.AgentModeTwin)}, false},
		{"an external agent registers", "ext", &negotiation.AgentRegistered{AgentID: "ext", Profile: profile("ext", negotiation.AgentModeExternal)}, true},
		{"it becomes a twin", "ext", &negotiation.AgentUpdated{AgentID: "ext", Profile: profile("ext", negotiation.AgentModeTwin)}, false},
		{"the twin becomes external", "twin", &negotiation.AgentUpdated{AgentID: "twin", Profile: profile("twin", negotiation.AgentModeExternal)}, true},
		{"and stays so on a second change", "twin", &negotiation.AgentUpdated{AgentID: "twin", Profile: profile("twin", negotiation.AgentModeExternal)}, true},
	}
	for _, s := range steps {
		appendAgentEvent(t, store, s.id, s.event)
		d := read()
		if got := d.HasExternal(); got != s.want {
			t.Fatalf("%s: HasExternal = %v, want %v", s.name, got, s.want)
		}
	}
	d := read()
	if !d.IsTwin("ext") || d.IsTwin("twin") || !d.IsTwin("nobody") {
		t.Fatalf("IsTwin: ext %v, twin %v, nobody %v; want true, false, true", d.IsTwin("ext"), d.IsTwin("twin"), d.IsTwin("nobody"))
	}
}

// TestFirstReadWaitsForProfilesToSettle: profiles registered while an
// older write transaction is still open are committed but not yet
// readable through the log; a directory that knows no agent yet waits a
// moment for them (until that transaction ends) instead of reading an
// empty network, which would leave the next filter with nobody.
func TestFirstReadWaitsForProfilesToSettle(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.New(t)
	store := eventstore.New(pool, eventstore.Options{})
	blocker, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Rollback(ctx)
	if _, err := blocker.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil { // it holds a transaction id: a write in flight
		t.Fatal(err)
	}
	p := negotiation.AgentProfile{AgentID: "venue", UserName: "venue", ProfileSummary: "北京的场地方", Location: "北京", Tags: []string{"场地"}}
	appendAgentEvent(t, store, "venue", &negotiation.AgentRegistered{AgentID: "venue", Profile: p})
	if n, err := store.Unsettled(ctx); err != nil || n == 0 {
		t.Fatalf("the registration should wait behind the open transaction: %d unsettled (%v)", n, err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		blocker.Rollback(ctx)
	}()
	d := directory.NewDirectory(store)
	if err := d.RefreshIfStale(ctx); err != nil {
		t.Fatal(err)
	}
	if _, active, ok := d.Lookup("venue"); !ok || !active {
		t.Fatalf("the first read missed the profile registered before it (ok %v, active %v)", ok, active)
	}
}

// appendAgentEvent appends p to the agent's stream, as the system.
func appendAgentEvent(t *testing.T, store *eventstore.Store, agentID string, p event.Payload) {
	t.Helper()
	ev, err := eventstore.NewEvent(uuid.Must(uuid.NewV7()), p, event.Metadata{Actor: event.ActorSystem})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Append(context.Background(), negotiation.AgentStream(agentID), eventstore.AnyVersion, ev); err != nil {
		t.Fatal(err)
	}
}
