package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/workflow"
)

// call sends a JSON request and decodes the answer into v (when not nil).
func (a *testAPI) call(t *testing.T, method, path string, body any, v any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, a.url+path, r)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if v != nil {
		_ = json.Unmarshal(b, v)
	}
	return resp.StatusCode, b
}

// agreedWorkflow submits a demand and waits for the workflow its
// agreement becomes.
func (a *testAPI) agreedWorkflow(t *testing.T, user, text string) (string, api.WorkflowView) {
	t.Helper()
	demandID, _ := a.submitAs(t, user, text)
	var list api.WorkflowListOutput
	for deadline := time.Now().Add(30 * time.Second); ; {
		if code, b := a.call(t, http.MethodGet, "/api/v1/workflows?demand_id="+demandID, nil, &list.Body); code != 200 {
			t.Fatalf("list: %d %s", code, b)
		}
		if len(list.Body.Workflows) == 1 {
			return demandID, list.Body.Workflows[0]
		}
		if time.Now().After(deadline) {
			t.Fatal("no workflow after the agreement")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWorkflowAPI: the sample demand's agreement is a draft workflow on
// the API; a refused decision is 422 naming the rule and changes nothing;
// a decision let through answers the new version; time travel shows the
// workflow before it; the conversation answers; approvals check the user;
// unknown workflows are 404.
func TestWorkflowAPI(t *testing.T) {
	a := newAPI(t)
	demandID, w := a.agreedWorkflow(t, "user_alice", "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	if w.Status != workflow.WorkflowStatusDraft || w.Version != 1 || w.UserID != "user_alice" || len(w.Nodes) == 0 {
		t.Fatalf("%+v", w)
	}
	base := "/api/v1/workflows/" + w.WorkflowID
	first, last := w.Nodes[0].ID, w.Nodes[len(w.Nodes)-1].ID

	var p struct {
		Code   string `json:"code"`
		Rule   string `json:"rule"`
		Errors []struct {
			Location string `json:"location"`
		} `json:"errors"`
	}
	code, b := a.call(t, http.MethodPost, base+"/decisions", map[string]any{"decision_type": "connect", "base_version": 1,
		"payload": map[string]string{"from": last, "to": first}}, &p)
	if code != 422 || p.Code != "TOWOW_DECISION_REJECTED" || p.Rule != "acyclic" || len(p.Errors) == 0 {
		t.Fatalf("a cycle: %d %s", code, b)
	}
	var d api.DecisionOutput
	code, b = a.call(t, http.MethodPost, base+"/decisions", map[string]any{"decision_type": "create_node", "base_version": 1,
		"user_id": "user_alice", "client_id": "tab-1", "payload": map[string]any{"node": map[string]any{"id": "ok", "type": "approval",
			"title": "用户确认"}, "after": []string{first}}}, &d.Body)
	if code != 200 || d.Body.Version != 2 || d.Body.DecisionID == "" {
		t.Fatalf("create: %d %s", code, b)
	}
	code, b = a.call(t, http.MethodPost, base+"/decisions", map[string]any{"decision_type": "delete_node", "base_version": 1,
		"payload": map[string]string{"node_id": first}}, &p)
	if code != 422 || p.Rule != "version" {
		t.Fatalf("stale: %d %s", code, b)
	}
	var validated struct {
		Events []api.Event `json:"events"`
	}
	a.call(t, http.MethodGet, "/api/v1/events?stream_id="+workflow.WorkflowStream(w.WorkflowID)+"&type=towow.decision.validated", nil, &validated)
	if len(validated.Events) != 1 {
		t.Fatalf("%d validations", len(validated.Events))
	}
	var now, then api.WorkflowView
	a.call(t, http.MethodGet, base, nil, &now)
	a.call(t, http.MethodGet, fmt.Sprintf("%s?at=%d", base, validated.Events[0].Cursor-1), nil, &then)
	if now.Version != 2 || len(now.Nodes) != len(w.Nodes)+1 || then.Version != 1 || len(then.Nodes) != len(w.Nodes) {
		t.Fatalf("now v%d %d nodes, then v%d %d nodes", now.Version, len(now.Nodes), then.Version, len(then.Nodes))
	}

	// The conversation: a message is accepted at once, the turn ends with a reply.
	var m api.MessageOutput
	if code, b := a.call(t, http.MethodPost, base+"/messages", map[string]string{"text": "为什么场地任务失败了？", "client_id": "tab-1"}, &m.Body); code != 202 || m.Body.MessageID == "" {
		t.Fatalf("message: %d %s", code, b)
	}
	if code, _ := a.call(t, http.MethodPost, base+"/messages", map[string]string{"text": "   "}, &p); code != 422 || p.Code != "TOWOW_WORKFLOW_005" {
		t.Fatalf("an empty message: %d %+v", code, p)
	}
	var conv api.ConversationOutput
	for deadline := time.Now().Add(20 * time.Second); ; {
		a.call(t, http.MethodGet, base+"/messages", nil, &conv.Body)
		if len(conv.Body.Turns) == 1 && conv.Body.Turns[0].Done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no reply: %+v", conv.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if turn := conv.Body.Turns[0]; turn.Reply == "" || turn.ClientID != "tab-1" {
		t.Fatalf("%+v", turn)
	}

	// Approvals and reports: who may answer, and only running nodes.
	if code, _ := a.call(t, http.MethodPost, base+"/nodes/ok/approval", map[string]any{"user_id": "user_alice", "approved": true}, &p); code != 409 || p.Code != "TOWOW_WORKFLOW_002" {
		t.Fatalf("approve a node not running: %d %+v", code, p)
	}
	if code, _ := a.do(t, http.MethodPost, base+"/nodes/"+first+"/report", noCredentials, map[string]string{"status": "done", "summary": "x"}, nil); code != 401 {
		t.Fatalf("report without a token: %d", code)
	}
	for _, path := range []string{"/api/v1/workflows/wf-nope", "/api/v1/workflows/wf-nope/messages"} {
		if code, _ := a.call(t, http.MethodGet, path, nil, &p); code != 404 {
			t.Fatalf("%s: %d", path, code)
		}
	}
	if code, _ := a.call(t, http.MethodPost, "/api/v1/workflows/wf-nope/decisions", map[string]any{"decision_type": "execute_workflow",
		"base_version": 1}, &p); code != 404 || p.Code != "TOWOW_WORKFLOW_001" {
		t.Fatalf("decide on nothing: %d %+v", code, p)
	}

	// The negotiation's replay holds the workflow's events, in the log's
	// order: the live run as recorded.
	resp0, err := http.Get(fmt.Sprintf("%s/api/v1/negotiations/%s/replay?speed=0", a.url, demandID))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp0.Body)
	resp0.Body.Close()
	replayed := regexpIDs(string(body))
	wfEvents, err := a.store.ReadStream(context.Background(), workflow.WorkflowStream(w.WorkflowID), 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	j := 0
	for _, id := range replayed {
		if j < len(wfEvents) && id == wfEvents[j].Position {
			j++
		}
	}
	if j != len(wfEvents) || len(wfEvents) < 5 {
		t.Fatalf("the replay holds %d of the workflow's %d events in order", j, len(wfEvents))
	}

	// The workflow's stream carries its events, the refused decision included.
	resp, err := http.Get(a.url + "/api/v1/events/workflows/" + w.WorkflowID + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var seen strings.Builder
	buf := make([]byte, 4096)
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(seen.String(), "towow.decision.rejected") && time.Now().Before(deadline); {
		n, err := resp.Body.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if resp.Header.Get("Content-Type") != "text/event-stream" || !strings.Contains(seen.String(), "towow.workflow.created") ||
		!strings.Contains(seen.String(), "towow.decision.rejected") {
		t.Fatalf("stream: %s", seen.String())
	}
}
