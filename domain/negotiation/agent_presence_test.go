package negotiation

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
)

// TestAgentPresence: given the agent's events, when a contact or a silence
// check at a time, then the presence event it decides (or none).
func TestAgentPresence(t *testing.T) {
	ext := testProfile("user_agent_ext", AgentModeExternal)
	twin := testProfile("user_agent_twin", AgentModeTwin)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	window := 5 * time.Minute

	registered := []event.Payload{&AgentRegistered{AgentID: ext.AgentID, Profile: ext}}
	online := append(registered[:1:1], &AgentOnline{AgentID: ext.AgentID, AgentType: AgentTypeUserAgent, OnlineAt: t0})
	offline := append(online[:2:2], &AgentOffline{AgentID: ext.AgentID, OfflineAt: t0.Add(window)})
	deactivated := append(registered[:1:1], &AgentDeactivated{AgentID: ext.AgentID})
	twinRegistered := []event.Payload{&AgentRegistered{AgentID: twin.AgentID, Profile: twin}}
	onlineAt := func(at time.Time) []event.Payload {
		return []event.Payload{&AgentOnline{AgentID: ext.AgentID, AgentType: AgentTypeUserAgent, Capabilities: []string{"场地"}, OnlineAt: at}}
	}

	contact := func(at time.Time) func(a *AgentState) []event.Payload {
		return func(a *AgentState) []event.Payload { return a.Contact(at) }
	}
	silence := func(last, now time.Time) func(a *AgentState) []event.Payload {
		return func(a *AgentState) []event.Payload { return a.Silence(last, now, window) }
	}
	tests := []struct {
		name  string
		given []event.Payload
		when  func(a *AgentState) []event.Payload
		then  []event.Payload
	}{
		{"first contact: online", registered, contact(t0), onlineAt(t0)},
		{"contact when online: nothing", online, contact(t0.Add(time.Minute)), nil},
		{"contact when offline: online again", offline, contact(t0.Add(time.Hour)), onlineAt(t0.Add(time.Hour))},
		{"contact of a twin: nothing", twinRegistered, contact(t0), nil},
		{"contact of a deactivated agent: nothing", deactivated, contact(t0), nil},
		{"contact of an unknown agent: nothing", nil, contact(t0), nil},
		{"silence past the window: offline", online, silence(t0.Add(time.Minute), t0.Add(time.Minute+window)),
			[]event.Payload{&AgentOffline{AgentID: ext.AgentID, Reason: "silent for 5m0s", LastContactAt: t0.Add(time.Minute),
				OfflineAt: t0.Add(time.Minute + window)}}},
		{"silence within the window: nothing", online, silence(t0.Add(time.Minute), t0.Add(time.Minute+window-time.Second)), nil},
		{"no contact recorded: the online time counts", online, silence(time.Time{}, t0.Add(window)),
			[]event.Payload{&AgentOffline{AgentID: ext.AgentID, Reason: "silent for 5m0s", LastContactAt: t0, OfflineAt: t0.Add(window)}}},
		{"no contact recorded, within the window: nothing", online, silence(time.Time{}, t0.Add(window-time.Second)), nil},
		{"silence when offline: nothing", offline, silence(t0, t0.Add(time.Hour)), nil},
		{"silence of a twin: nothing", twinRegistered, silence(time.Time{}, t0.Add(time.Hour)), nil},
		{"silence of an agent never online: nothing", registered, silence(time.Time{}, t0.Add(time.Hour)), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &AgentState{}
			for _, e := range tt.given {
				a.Apply(e)
			}
			got := tt.when(a)
			if !reflect.DeepEqual(got, tt.then) {
				t.Fatalf("got %s; want %s", show(got), show(tt.then))
			}
		})
	}
}

func show(ps []event.Payload) string {
	b, _ := json.Marshal(ps)
	return string(b)
}

// TestAgentPresenceFold: online and offline fold into Online and the
// times; a payload written without the times (their first shape) folds too.
func TestAgentPresenceFold(t *testing.T) {
	ext := testProfile("user_agent_ext", AgentModeExternal)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	a := &AgentState{}
	a.Apply(&AgentRegistered{AgentID: ext.AgentID, Profile: ext})
	if a.Online {
		t.Fatal("a registered agent is online before any contact")
	}
	a.Apply(&AgentOnline{AgentID: ext.AgentID, OnlineAt: t0})
	if !a.Online || !a.LastOnlineAt.Equal(t0) {
		t.Fatalf("after online: %+v", a)
	}
	a.Apply(&AgentOffline{AgentID: ext.AgentID, OfflineAt: t0.Add(time.Hour)})
	if a.Online || !a.LastOfflineAt.Equal(t0.Add(time.Hour)) || !a.LastOnlineAt.Equal(t0) {
		t.Fatalf("after offline: %+v", a)
	}
	for _, raw := range []struct {
		typ  event.EventType
		json string
		on   bool
	}{
		{EventAgentOnline, `{"agent_id":"user_agent_ext","agent_type":"user_agent","capabilities":["场地"]}`, true},
		{EventAgentOffline, `{"agent_id":"user_agent_ext","reason":"shutdown"}`, false},
	} {
		p, err := event.DecodePayload(raw.typ, 1, []byte(raw.json))
		if err != nil {
			t.Fatalf("%s v1 without times: %v", raw.typ, err)
		}
		a.Apply(p)
		if a.Online != raw.on {
			t.Fatalf("%s: online %v", raw.typ, a.Online)
		}
	}
}
