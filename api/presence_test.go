package api_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/projections"
)

// presenceEvents are the towow.agent.online/offline events in the log, in
// order.
func (a *testAPI) presenceEvents(t *testing.T) []eventstore.RecordedEvent {
	t.Helper()
	evs, err := a.store.ReadAll(context.Background(), 0,
		eventstore.Filter{Types: []event.EventType{negotiation.EventAgentOnline, negotiation.EventAgentOffline}}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// presenceEventsAfter waits (up to 5 s) until the log's readers see at
// least n presence events, and returns them: a contact commits its event
// before its request answers, but a reader sees it once every transaction
// that began writing before it has ended.
func (a *testAPI) presenceEventsAfter(t *testing.T, n int) []eventstore.RecordedEvent {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		evs := a.presenceEvents(t)
		if len(evs) >= n || time.Now().After(deadline) {
			return evs
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func presenceTypes(evs []eventstore.RecordedEvent) []event.EventType {
	out := make([]event.EventType, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// lastContact is the agent's recorded last contact (zero: none).
func (a *testAPI) lastContact(t *testing.T, agentID string) time.Time {
	t.Helper()
	var at time.Time
	err := a.pool.QueryRow(context.Background(), "SELECT last_contact_at FROM agent_contacts WHERE agent_id = $1", agentID).Scan(&at)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		t.Fatal(err)
	}
	return at
}

// readModelPresence polls the agents read model until the agent's online
// flag is want, and returns its row.
func (a *testAPI) readModelPresence(t *testing.T, agentID string, want bool) projections.AgentView {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var v projections.AgentView
		st, p := a.do(t, "GET", "/api/v1/agents/"+agentID, "", nil, &v)
		switch {
		case st == 200 && v.Online == want:
			return v
		case st != 200 && st != 404: // 404: the read model has not folded the agent's creation yet
			t.Fatalf("agent %s: %d %+v", agentID, st, p)
		}
		if time.Now().After(deadline) {
			t.Fatalf("agents read model: %s online %v, want %v", agentID, v.Online, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAgentPresence: an external agent's first request (its inbox poll)
// writes towow.agent.online on its stream, later requests write nothing,
// silence past TOWOW_AGENT_OFFLINE_AFTER makes River's periodic check write
// towow.agent.offline, and the next request brings it online again. A bad
// token records no contact; a twin never goes online or offline.
func TestAgentPresence(t *testing.T) {
	const window = 2 * time.Second
	twin := externalProfile("user_agent_twin1", "双胞胎", "嘉宾邀请")
	twin.Mode = negotiation.AgentModeTwin
	a := newAPIWith(t, "", apiOptions{profiles: []negotiation.AgentProfile{twin}, offlineAfter: window})
	ext := externalProfile("user_agent_ext1", "外部一号", "场地提供")
	var w api.AgentWrite
	if st, p := a.do(t, "POST", "/api/v1/agents", testAdminToken, ext, &w); st != 201 || w.Token == "" {
		t.Fatalf("create external: %d %+v", st, p)
	}
	inbox := func() {
		t.Helper()
		var out api.InboxOutput
		if st, p := a.do(t, "GET", "/api/v1/agent/inbox", w.Token, nil, &out.Body); st != 200 {
			t.Fatalf("inbox: %d %+v", st, p)
		}
	}

	if st, _ := a.do(t, "GET", "/api/v1/agent/inbox", negotiation.AgentTokenPrefix+"not-a-token", nil, nil); st != 401 {
		t.Fatalf("bad token: %d", st)
	}
	if evs := a.presenceEvents(t); len(evs) != 0 {
		t.Fatalf("before any contact: %v", presenceTypes(evs))
	}

	inbox()
	evs := a.presenceEventsAfter(t, 1)
	if len(evs) != 1 || evs[0].Type != negotiation.EventAgentOnline || evs[0].StreamID != negotiation.AgentStream(ext.AgentID) ||
		evs[0].Metadata.Actor != event.AgentActor(ext.AgentID) {
		t.Fatalf("after the first contact: %+v", evs)
	}
	p, err := evs[0].Decode()
	if err != nil {
		t.Fatal(err)
	}
	on := p.(*negotiation.AgentOnline)
	if on.AgentID != ext.AgentID || on.AgentType != negotiation.AgentTypeUserAgent || !slices.Equal(on.Capabilities, []string{"嘉宾", "场地"}) ||
		on.OnlineAt.IsZero() {
		t.Fatalf("online payload: %+v", on)
	}
	first := a.lastContact(t, ext.AgentID)
	if first.IsZero() {
		t.Fatal("the first contact was not recorded")
	}

	inbox() // at once: within the throttle, nothing is written at all
	if evs := a.presenceEvents(t); len(evs) != 1 {
		t.Fatalf("after the second contact: %v", presenceTypes(evs))
	}
	if got := a.lastContact(t, ext.AgentID); !got.Equal(first) {
		t.Fatalf("a contact within the throttle rewrote the last contact: %v, then %v", first, got)
	}
	if v := a.readModelPresence(t, ext.AgentID, true); v.LastOnlineAt == nil || v.LastOfflineAt != nil {
		t.Fatalf("agents read model after online: %+v", v)
	}

	// Silent now: River's periodic check takes the agent offline.
	deadline := time.Now().Add(20 * time.Second)
	for len(a.presenceEvents(t)) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("no towow.agent.offline %s after the last contact", time.Since(first))
		}
		time.Sleep(100 * time.Millisecond)
	}
	evs = a.presenceEvents(t)
	if !slices.Equal(presenceTypes(evs), []event.EventType{negotiation.EventAgentOnline, negotiation.EventAgentOffline}) {
		t.Fatalf("after the silence: %v", presenceTypes(evs))
	}
	p, _ = evs[1].Decode()
	off := p.(*negotiation.AgentOffline)
	if off.AgentID != ext.AgentID || off.Reason != "silent for 2s" || off.OfflineAt.Sub(off.LastContactAt) < window ||
		evs[1].Metadata.Actor != event.ActorSystem {
		t.Fatalf("offline: %+v (actor %s)", off, evs[1].Metadata.Actor)
	}
	if v := a.readModelPresence(t, ext.AgentID, false); v.LastOfflineAt == nil || v.LastOnlineAt == nil {
		t.Fatalf("agents read model after offline: %+v", v)
	}
	if v := a.readModelPresence(t, twin.AgentID, false); v.LastOnlineAt != nil {
		t.Fatalf("a twin came online: %+v", v)
	}
	if n, err := a.engine.Presence.MarkSilentAgentsOffline(context.Background()); err != nil || n != 0 {
		t.Fatalf("a second check: %d, %v; want nothing", n, err)
	}

	inbox()
	evs = a.presenceEventsAfter(t, 3)
	if !slices.Equal(presenceTypes(evs), []event.EventType{negotiation.EventAgentOnline, negotiation.EventAgentOffline, negotiation.EventAgentOnline}) {
		t.Fatalf("after contact following the silence: %v", presenceTypes(evs))
	}
	if got := a.lastContact(t, ext.AgentID); !got.After(first) {
		t.Fatalf("the contact after the silence was not recorded: %v", got)
	}
	for _, e := range evs {
		if e.StreamID != negotiation.AgentStream(ext.AgentID) {
			t.Fatalf("a presence event on %s: twins never go online", e.StreamID)
		}
	}
}
