package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
)

// sseMessage is one SSE message as sent: id, event name and data.
type sseMessage struct {
	id    int64
	event string
	data  string
}

// tab follows a workflow's stream as one canvas client, in the
// background, keeping every message.
type tab struct {
	mu   sync.Mutex
	msgs []sseMessage
	stop context.CancelFunc
}

func (a *testAPI) openTab(t *testing.T, workflowID, client string, after int64) *tab {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tb := &tab{stop: cancel}
	t.Cleanup(cancel)
	u := fmt.Sprintf("%s/api/v1/events/workflows/%s/stream?client_id=%s&last_event_id=%d", a.url, workflowID, client, after)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("stream %s: %v %v", client, resp, err)
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var cur sseMessage
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				cur.id, _ = strconv.ParseInt(line[4:], 10, 64)
			case strings.HasPrefix(line, "event: "):
				cur.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				cur.data = line[6:]
			case line == "" && cur.id > 0:
				tb.mu.Lock()
				tb.msgs = append(tb.msgs, cur)
				tb.mu.Unlock()
				cur = sseMessage{}
			}
		}
	}()
	return tb
}

// upTo waits until the tab received the message with id cursor and returns
// everything received so far.
func (tb *tab) upTo(t *testing.T, cursor int64) []sseMessage {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		tb.mu.Lock()
		msgs := slices.Clone(tb.msgs)
		tb.mu.Unlock()
		if len(msgs) > 0 && msgs[len(msgs)-1].id >= cursor {
			return msgs
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream did not reach cursor %d: %d messages", cursor, len(msgs))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// byID indexes messages by SSE id.
func byID(msgs []sseMessage) map[int64]sseMessage {
	out := map[int64]sseMessage{}
	for _, m := range msgs {
		out[m.id] = m
	}
	return out
}

// nodeTitle is the title of a canvas node ("" when there is none).
func nodeTitle(cv api.CanvasView, id string) string {
	for _, n := range cv.Nodes {
		if n.ID == id {
			return n.Title
		}
	}
	return ""
}

// TestCanvasAPI: two canvas clients on the sample demand's workflow. A
// batch is all or nothing; a stale structural batch is 409 with the
// current canvas and writes nothing; moves never conflict; a refused
// change is located in the batch; a batch sent again is ruled on once;
// the conversation's decisions share the version sequence; while the
// workflow runs its structure is locked. Each client's stream carries
// acknowledgements for what it did and the changes for what the other did,
// under the same ids, also when resumed.
func TestCanvasAPI(t *testing.T) {
	a := newAPI(t)
	_, w := a.agreedWorkflow(t, "user_alice", "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	base := "/api/v1/workflows/" + w.WorkflowID
	var cv api.CanvasView
	if code, b := a.call(t, http.MethodGet, base+"/canvas", nil, &cv); code != 200 || cv.Version != 1 || cv.Cursor <= 0 ||
		len(cv.Nodes) != len(w.Nodes) || cv.Nodes[0].Position == (workflow.Position{}) {
		t.Fatalf("canvas: %d %s", code, b)
	}
	// Every participant has its name for people (the mock profiles all have one).
	for _, id := range cv.Participants {
		if name := cv.Names[id]; name == "" || name == id {
			t.Fatalf("participant %s has no display name: %v", id, cv.Names)
		}
	}
	tabA, tabB := a.openTab(t, w.WorkflowID, "tab-a", cv.Cursor), a.openTab(t, w.WorkflowID, "tab-b", cv.Cursor)
	first, last := cv.Nodes[0].ID, cv.Nodes[len(cv.Nodes)-1].ID
	type problem struct {
		Code    string          `json:"code"`
		Rule    string          `json:"rule"`
		Version int             `json:"version"`
		Canvas  *api.CanvasView `json:"canvas"`
		Errors  []struct {
			Location string `json:"location"`
		} `json:"errors"`
	}
	send := func(client string, baseVersion int, batchID string, changes ...map[string]any) (int, api.CanvasChangesOutput, problem) {
		t.Helper()
		var out api.CanvasChangesOutput
		var p problem
		body := map[string]any{"client_id": client, "base_version": baseVersion, "user_id": "user_alice", "changes": changes}
		if batchID != "" {
			body["batch_id"] = batchID
		}
		code, b := a.call(t, http.MethodPost, base+"/canvas/changes", body, &out.Body)
		_ = json.Unmarshal(b, &p)
		return code, out, p
	}
	rehearsal := map[string]any{"type": "node_added", "node_id": "rehearsal", "data": map[string]any{"type": "task", "title": "彩排",
		"assignee_id": cv.Participants[0], "position": map[string]float64{"x": 900, "y": 500}}}
	connect := map[string]any{"type": "edge_added", "edge": map[string]string{"from": first, "to": "rehearsal"}}

	// A adds a node and its edge in one batch.
	code, okA, p := send("tab-a", 1, "batch-a", rehearsal, connect)
	if code != 200 || okA.Body.Version != 3 || len(okA.Body.DecisionIDs) != 2 || okA.Body.Cursor <= cv.Cursor {
		t.Fatalf("A's batch: %d %+v %+v", code, okA.Body, p)
	}
	// B, still on version 1: conflict, with the canvas as it is, nothing written.
	head := a.headPosition(t)
	code, _, p = send("tab-b", 1, "", map[string]any{"type": "node_deleted", "node_id": first})
	if code != 409 || p.Code != "TOWOW_CANVAS_CONFLICT" || p.Version != 3 || p.Canvas == nil || p.Canvas.Version != 3 ||
		p.Canvas.Cursor != okA.Body.Cursor || !slices.ContainsFunc(p.Canvas.Nodes, func(n api.WorkflowNodeView) bool { return n.ID == "rehearsal" }) {
		t.Fatalf("stale batch: %d %+v", code, p)
	}
	// No decision and no deletion: what the log holds after head is what
	// A's batch still sets off in the background (its notices).
	after, err := a.store.ReadAll(context.Background(), head, eventstore.Filter{}, eventstore.MaxReadLimit)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range after {
		switch e.Type {
		case workflow.EventWorkflowNodeDeleted, workflow.EventDecisionValidated, workflow.EventDecisionRejected:
			t.Fatalf("a conflict wrote to the log: %s in %s", e.Type, e.StreamID)
		}
	}
	// A move from a stale version is taken: last write wins for positions.
	code, moveB, p := send("tab-b", 1, "", map[string]any{"type": "node_moved", "node_id": first,
		"data": map[string]any{"position": map[string]float64{"x": 11, "y": 22}}})
	if code != 200 || moveB.Body.Version != 3 {
		t.Fatalf("stale move: %d %+v %+v", code, moveB.Body, p)
	}
	// A refused change: 422 located in the batch; the batch's first change is not kept.
	code, _, p = send("tab-a", 3, "", map[string]any{"type": "node_updated", "node_id": "rehearsal", "data": map[string]string{"title": "彩排2"}},
		map[string]any{"type": "node_updated", "node_id": "rehearsal", "data": map[string]string{"assignee_id": "nobody"}})
	if code != 422 || p.Code != "TOWOW_DECISION_REJECTED" || p.Rule != "assignee" || len(p.Errors) == 0 ||
		p.Errors[0].Location != "body.changes[1].data.assignee_id" {
		t.Fatalf("refused change: %d %+v", code, p)
	}
	code, _, p = send("tab-a", 3, "", map[string]any{"type": "edge_added", "edge": map[string]string{"from": last, "to": first}})
	if code != 422 || p.Rule != "acyclic" {
		t.Fatalf("a cycle: %d %+v", code, p)
	}
	// The same batch again: ruled on once.
	code, again, _ := send("tab-a", 1, "batch-a", rehearsal, connect)
	if code != 200 || !again.Body.Repeated || again.Body.Version != 3 || again.Body.Cursor != 0 {
		t.Fatalf("repeat: %d %+v", code, again.Body)
	}
	if code, b := a.call(t, http.MethodGet, base+"/canvas", nil, &cv); code != 200 || cv.Version != 3 || cv.Nodes[0].Position != (workflow.Position{X: 11, Y: 22}) ||
		nodeTitle(cv, "rehearsal") != "彩排" {
		t.Fatalf("canvas after: %d %s", code, b)
	}

	// Each tab: an ack for its own changes, the change for the other's;
	// the same ids on both.
	until := func(msgs []sseMessage, cursor int64) []sseMessage {
		return slices.DeleteFunc(msgs, func(m sseMessage) bool { return m.id > cursor })
	}
	msgsA, msgsB := until(tabA.upTo(t, moveB.Body.Cursor), moveB.Body.Cursor), until(tabB.upTo(t, moveB.Body.Cursor), moveB.Body.Cursor)
	idsA, idsB := make([]int64, len(msgsA)), make([]int64, len(msgsB))
	for i := range msgsA {
		idsA[i] = msgsA[i].id
	}
	for i := range msgsB {
		idsB[i] = msgsB[i].id
	}
	if !slices.Equal(idsA, idsB) {
		t.Fatalf("the tabs got different ids: %v and %v", idsA, idsB)
	}
	inB := byID(msgsB)
	acks := 0
	for _, m := range msgsA {
		other := inB[m.id]
		var ack api.CanvasAck
		switch {
		case m.id <= okA.Body.Cursor: // A's batch: acks for A, events for B
			if m.event != api.AckEventType || other.event == api.AckEventType || json.Unmarshal([]byte(m.data), &ack) != nil ||
				ack.AckOf != other.event || ack.ClientID != "tab-a" || ack.Cursor != m.id ||
				ack.Version != map[string]int{"batch-a-0": 2, "batch-a-1": 3}[ack.DecisionID] {
				t.Fatalf("A's change %d: A got %s %s, B got %s", m.id, m.event, m.data, other.event)
			}
			acks++
		default: // B's move: the event for A, an ack for B
			if m.event == api.AckEventType || other.event != api.AckEventType {
				t.Fatalf("B's change %d: A got %s, B got %s", m.id, m.event, other.event)
			}
		}
	}
	if acks != 4 { // two validations, a node, an edge
		t.Fatalf("%d acks for A's batch", acks)
	}
	// Resumed in the middle of A's batch, A's stream goes on with the same frames.
	resumed := until(a.openTab(t, w.WorkflowID, "tab-a", msgsA[1].id).upTo(t, moveB.Body.Cursor), moveB.Body.Cursor)
	if len(resumed) != len(msgsA)-2 {
		t.Fatalf("resumed after message 2: %d messages, want %d", len(resumed), len(msgsA)-2)
	}
	for i, m := range resumed {
		if m != msgsA[i+2] {
			t.Fatalf("resumed message %d: %+v, want %+v", i, m, msgsA[i+2])
		}
	}

	// An approval by the demand's user holds the workflow open once it
	// runs (the twins finish their tasks within a second), so the move
	// below is sent while it runs.
	a.call(t, http.MethodGet, base+"/canvas", nil, &cv)
	if code, _, p := send("tab-b", cv.Version, "", map[string]any{"type": "node_added", "node_id": "signoff",
		"data": map[string]any{"type": "approval", "title": "确认彩排", "position": map[string]float64{"x": 900, "y": 650}}}); code != 200 {
		t.Fatalf("approval node: %d %+v", code, p)
	}

	// The conversation's decisions: news to every tab, the sender's too;
	// its message is the sender's own.
	var m api.MessageOutput
	if code, b := a.call(t, http.MethodPost, base+"/messages", map[string]string{"text": "开始执行", "client_id": "tab-a"}, &m.Body); code != 202 {
		t.Fatalf("message: %d %s", code, b)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		a.call(t, http.MethodGet, base+"/canvas", nil, &cv)
		if cv.Status != workflow.WorkflowStatusDraft {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the conversation did not start the workflow")
		}
		time.Sleep(50 * time.Millisecond)
	}
	msgsA = tabA.upTo(t, m.Body.Cursor+1)
	if got := byID(msgsA)[m.Body.Cursor]; got.event != api.AckEventType || !strings.Contains(got.data, m.Body.MessageID) {
		t.Fatalf("A's message came back as %s %s", got.event, got.data)
	}
	started := slices.IndexFunc(msgsA, func(x sseMessage) bool {
		return x.id > m.Body.Cursor && x.event == string(workflow.EventDecisionValidated)
	})
	if started < 0 {
		t.Fatalf("the agent's decision did not reach the sender's tab as an event: %+v", msgsA[len(msgsA)-3:])
	}

	// Running: the structure is the server's; moves are still taken.
	code, _, p = send("tab-b", cv.Version, "", map[string]any{"type": "node_deleted", "node_id": "rehearsal"})
	if code != 409 || p.Code != "TOWOW_CANVAS_LOCKED" {
		t.Fatalf("structural change while running: %d %+v", code, p)
	}
	if code, _, p = send("tab-b", 0, "", map[string]any{"type": "node_moved", "node_id": "rehearsal",
		"data": map[string]any{"position": map[string]float64{"x": 1, "y": 2}}}); code != 200 {
		t.Fatalf("a move while running: %d %+v", code, p)
	}

	// Bad input: no client, no changes, an unknown workflow.
	for _, c := range []struct {
		path   string
		body   map[string]any
		status int
		code   string
	}{
		{base + "/canvas/changes", map[string]any{"base_version": 1, "changes": []any{connect}}, 422, "TOWOW_REQUEST_001"},
		{base + "/canvas/changes", map[string]any{"client_id": "x", "base_version": 1, "changes": []any{}}, 422, "TOWOW_REQUEST_001"},
		{base + "/canvas/changes", map[string]any{"client_id": "x", "base_version": 1, "changes": []any{map[string]string{"type": "node_renamed"}}}, 422, "TOWOW_REQUEST_001"},
		{"/api/v1/workflows/wf-nope/canvas/changes", map[string]any{"client_id": "x", "base_version": 1, "changes": []any{connect}}, 404, "TOWOW_WORKFLOW_001"},
	} {
		if code, b := a.call(t, http.MethodPost, c.path, c.body, &p); code != c.status || p.Code != c.code {
			t.Fatalf("%v: %d %s", c.body, code, b)
		}
	}
	if code, _ := a.call(t, http.MethodGet, "/api/v1/workflows/wf-nope/canvas", nil, &p); code != 404 {
		t.Fatalf("unknown canvas: %d", code)
	}
	for outcome, want := range map[string]float64{"applied": 4, "repeated": 1, "conflict": 1, "locked": 1, "rejected": 2} {
		if got := a.metric(t, `canvas_batches_total{outcome="`+outcome+`"}`); got != want {
			t.Fatalf("canvas_batches_total{outcome=%q} = %v, want %v", outcome, got, want)
		}
	}
}
