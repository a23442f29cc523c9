package personal_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/personal"
)

// TestSealExisting: events written before personal texts were sealed get
// their texts sealed in place (the demand's under its tree, the agent's
// profile under the agent, an LLM answer too), ids, positions and plain
// fields unchanged; they reveal as written; a second run changes nothing;
// and the log stays immutable to any other update.
func TestSealExisting(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.New(t)
	store := eventstore.New(pool, eventstore.Options{}) // writes as the versions before sealing did
	keys := personal.New(pool, nil)
	const words = "我想在北京办一场AI主题聚会，联系人王小明"
	append1 := func(stream string, p event.Payload, md event.Metadata) {
		t.Helper()
		ev, err := eventstore.NewEvent(uuid.Must(uuid.NewV7()), p, md)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Append(ctx, stream, eventstore.AnyVersion, ev); err != nil {
			t.Fatal(err)
		}
	}
	append1(negotiation.DemandStream("d-1"), &negotiation.DemandSubmitted{DemandID: "d-1", UserID: "alice", RawInput: words},
		event.Metadata{CorrelationID: "d-1", Actor: "user:alice", LLMCall: &event.LLMCall{PromptKey: "understand", Outcome: "ok", Answer: `{"surface_demand":"王小明的聚会"}`}})
	append1(negotiation.AgentStream("a-1"), &negotiation.AgentRegistered{AgentID: "a-1",
		Profile: negotiation.AgentProfile{AgentID: "a-1", UserName: "李四海", ProfileSummary: "摄影师", Location: "北京", Tags: []string{"摄影"}}},
		event.Metadata{Actor: "admin"})

	res, err := keys.SealExisting(ctx, pool)
	if err != nil || res.Events != 2 || res.Texts != 4 || res.Skipped != 0 {
		t.Fatalf("seal existing: %+v %v; want 2 events, 4 texts", res, err)
	}
	var dump string
	if err := pool.QueryRow(ctx, `SELECT string_agg(payload::text || metadata::text, E'\n' ORDER BY global_position) FROM events`).Scan(&dump); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"王小明", "李四海", "摄影师"} {
		if strings.Contains(dump, w) {
			t.Fatalf("the log still holds %q:\n%s", w, dump)
		}
	}
	if !strings.Contains(dump, `"user_id": "alice"`) || !strings.Contains(dump, `"location": "北京"`) {
		t.Fatalf("plain fields changed:\n%s", dump)
	}
	revealing := eventstore.New(pool, eventstore.Options{Personal: keys})
	evs, err := revealing.ReadStream(ctx, negotiation.DemandStream("d-1"), 0, 10)
	if err != nil || len(evs) != 1 {
		t.Fatal(err)
	}
	p, err := revealing.Decode(ctx, evs[0])
	if err != nil || p.(*negotiation.DemandSubmitted).RawInput != words {
		t.Fatalf("revealed: %+v %v", p, err)
	}
	if answer, _ := keys.Reveal(ctx, evs[0].Metadata.LLMCall.Answer, false); answer != `{"surface_demand":"王小明的聚会"}` {
		t.Fatalf("the LLM answer: %q", answer)
	}
	if again, err := keys.SealExisting(ctx, pool); err != nil || again.Events != 0 {
		t.Fatalf("a second run: %+v %v", again, err)
	}
	meta, _ := json.Marshal(event.Metadata{})
	if _, err := pool.Exec(ctx, `UPDATE events SET metadata = $1`, meta); err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Fatalf("an update outside the reseal: %v", err)
	}
}
