package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/timeline"
)

// bridgeMsg is one message of the bridge format as received.
type bridgeMsg struct {
	id        string // "": the message has no id: line
	raw       string
	Event     string          `json:"event"`
	Data      json.RawMessage `json:"data"`
	Timestamp string          `json:"timestamp"`
}

// followBridge reads the negotiation stream in the bridge format from a
// resume point (Last-Event-ID; "": from the start) until n messages came;
// the terminal message must come after them.
func (a *testAPI) followBridge(t *testing.T, demandID, lastID string, n int) []bridgeMsg {
	t.Helper()
	r := a.readSSE(t, "/api/v1/events/negotiations/"+demandID+"/stream?format=bridge", testAdminToken, lastID, 30*time.Second)
	var out []bridgeMsg
	for _, f := range r.frames {
		if f.event == api.StreamEndEventType {
			break
		}
		if f.event != "" {
			t.Fatalf("the bridge format has no event: lines but the terminal one (the prototype frontend reads the name from the data): %q", f.event)
		}
		m := bridgeMsg{id: f.id, raw: f.data}
		if err := json.Unmarshal([]byte(f.data), &m); err != nil {
			t.Fatalf("data %q: %v", f.data, err)
		}
		out = append(out, m)
	}
	if len(out) < n {
		t.Fatalf("bridge stream ended after %d of %d messages", len(out), n)
	}
	return out[:n]
}

// TestNegotiationStreamBridge runs a builtin-LLM negotiation and reads its
// stream with format=bridge: the prototype frontend's frames ({event, data,
// timestamp}) with the data fields it reads, one message per bridge
// event of the log in order, an id on every message (the event's cursor
// on its last, <cursor>:<i> on each one before); then resumes with
// Last-Event-ID in the middle of the offers, where the progress counts go
// on as in the unbroken stream, and between an offer's two messages,
// where the second comes first and nothing is lost or repeated.
func TestNegotiationStreamBridge(t *testing.T) {
	a := newAPI(t)
	demandID, channelID := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	a.follow(t, demandID, 0, true, func([]message) bool { return false }) // until the root completed
	log, err := a.store.ReadAll(context.Background(), 0, eventstore.Filter{CorrelationID: demandID}, eventstore.MaxReadLimit)
	if err != nil {
		t.Fatal(err)
	}
	// What the log says the bridge must send: one message per bridge event,
	// the last of each event's messages with its cursor.
	type wantMsg struct {
		id    string
		event string
		at    time.Time
	}
	var want []wantMsg
	bridgeTypes := map[event.EventType][]string{}
	for _, r := range timeline.BridgeRoutes() {
		bridgeTypes[r.Type] = append(bridgeTypes[r.Type], r.Event)
	}
	counts := map[event.EventType]int{}
	for _, e := range log {
		counts[e.Type]++
		names := bridgeTypes[e.Type]
		for i, name := range names {
			w := wantMsg{event: name, at: e.RecordedAt, id: strconv.FormatInt(e.Position, 10)}
			if i < len(names)-1 {
				w.id += ":" + strconv.Itoa(i)
			}
			want = append(want, w)
		}
	}
	got := a.followBridge(t, demandID, "", len(want))
	for i, m := range got {
		w := want[i]
		if m.Event != w.event || m.id != w.id {
			t.Fatalf("message %d: %s id %s, want %s id %s", i, m.Event, m.id, w.event, w.id)
		}
		var keys map[string]json.RawMessage
		_ = json.Unmarshal([]byte(m.raw), &keys)
		ts, err := time.Parse(time.RFC3339Nano, m.Timestamp)
		if len(keys) != 3 || err != nil || !strings.HasSuffix(m.Timestamp, "Z") || !ts.Equal(w.at) {
			t.Fatalf("message %d is not {event, data, timestamp} with the event's UTC time %s: %s", i, w.at, m.raw)
		}
	}

	// The data fields the prototype frontend reads for each bridge event,
	// checked on the root channel's frames.
	fields := map[string][]string{
		"channel_created":      {"demand_id", "channel_id", "candidates", "analysis"},
		"channel_status":       {"channel_id", "old_status", "new_status", "reason"},
		"agent_response":       {"agent_id", "channel_id", "response_type", "content"},
		"agent_feedback":       {"agent_id", "channel_id", "accepted", "reason"},
		"negotiation_progress": {"channel_id", "agent_id", "progress"},
		"proposal_sent":        {"channel_id", "proposal"},
		"subnet_created":       {"channel_id", "gaps", "depth"},
		"channel_completed":    {"channel_id", "final_proposal", "participants"},
		"channel_failed":       {"channel_id", "reason"},
	}
	seen := map[string]int{}
	var statuses []string
	var lastProgress string
	for _, m := range got {
		var data map[string]any
		if err := json.Unmarshal(m.Data, &data); err != nil {
			t.Fatalf("%s data: %v", m.Event, err)
		}
		for _, f := range fields[m.Event] {
			if _, ok := data[f]; !ok {
				t.Fatalf("%s without %s: %s", m.Event, f, m.Data)
			}
		}
		if data["channel_id"] != channelID {
			continue
		}
		seen[m.Event]++
		switch m.Event {
		case "channel_status":
			statuses = append(statuses, data["new_status"].(string))
		case "negotiation_progress":
			lastProgress = data["progress"].(string)
		case "channel_created":
			if data["demand_id"] != demandID || data["analysis"] == nil || len(data["candidates"].([]any)) == 0 {
				t.Fatalf("channel_created: %s", m.Data)
			}
		}
	}
	if got[0].Event != "channel_created" {
		t.Fatalf("the first frame is %s, want channel_created", got[0].Event)
	}
	offers := 0
	for _, e := range log {
		if e.Type == negotiation.EventOfferSubmitted && e.StreamID == negotiation.ChannelStream(channelID) {
			offers++
		}
	}
	if seen["agent_response"] != offers || seen["negotiation_progress"] != offers || lastProgress != strconv.Itoa(offers)+"/"+strconv.Itoa(offers) {
		t.Fatalf("%d offers: %d agent_response, %d negotiation_progress, the last %q", offers,
			seen["agent_response"], seen["negotiation_progress"], lastProgress)
	}
	for _, name := range []string{"channel_created", "proposal_sent", "agent_feedback", "channel_completed"} {
		if seen[name] == 0 {
			t.Errorf("no %s frame for the root channel", name)
		}
	}
	if counts[negotiation.EventSubnetTriggered] > 0 && seen["subnet_created"] != counts[negotiation.EventSubnetTriggered] {
		t.Errorf("%d sub-negotiations, %d subnet_created", counts[negotiation.EventSubnetTriggered], seen["subnet_created"])
	}
	if !slices.Contains(statuses, "proposal_sent") || statuses[len(statuses)-1] != "finalized" {
		t.Errorf("root channel statuses %v", statuses)
	}

	// Resume after the second progress frame (an offer's last: the id is
	// its cursor), and after the agent_response before it (the offer's
	// first frame: <cursor>:0): the rest, exactly, each time.
	cut := -1
	for i, m := range got {
		if m.Event == "negotiation_progress" && !strings.Contains(m.id, ":") {
			if cut >= 0 {
				cut = i
				break
			}
			cut = i
		}
	}
	if cut < 1 || got[cut].Event != "negotiation_progress" || got[cut-1].Event != "agent_response" || got[cut-1].id != got[cut].id+":0" {
		t.Fatal("no offer's two frames to resume after")
	}
	for _, from := range []int{cut, cut - 1} {
		rest := a.followBridge(t, demandID, got[from].id, len(got)-from-1)
		for i, m := range rest {
			if m.raw != got[from+1+i].raw || m.id != got[from+1+i].id {
				t.Fatalf("resumed after %s, message %d:\n got %s %s\nwant %s %s", got[from].id, i, m.id, m.raw, got[from+1+i].id, got[from+1+i].raw)
			}
		}
	}
	// An id that is no cursor nor a frame's is refused.
	for _, bad := range []string{"12:x", "12:-1", "0:0", "x"} {
		req, _ := http.NewRequest(http.MethodGet, a.url+"/api/v1/events/negotiations/"+demandID+"/stream?format=bridge", nil)
		req.Header.Set("Last-Event-ID", bad)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if p := readProblem(resp); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("Last-Event-ID %q: %d %+v", bad, resp.StatusCode, p)
		}
	}
}

// TestNegotiationStreamFormat: an unknown format is refused (422
// problem+json) before anything streams.
func TestNegotiationStreamFormat(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{noWorkers: true})
	demandID, _ := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	resp, err := http.Get(a.url + "/api/v1/events/negotiations/" + demandID + "/stream?format=xml")
	if err != nil {
		t.Fatal(err)
	}
	p := readProblem(resp)
	if resp.StatusCode != http.StatusUnprocessableEntity || p.Code == "" {
		t.Fatalf("format=xml: %d %+v", resp.StatusCode, p)
	}
}
