package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/api"
)

// TestOwnWorkflow: a person starts a workflow of their own from a
// template, with no negotiation behind it; only they see it (another
// user gets 404 on every operation and does not list it). In the
// conversation they add a web call by naming its address, method and
// body, run the plan, and approve the waiting step in words; the call
// reaches the receiver with its method, the run completes, and the
// assistant reports it without ids or tool names. An unknown template is
// 422 and writes nothing.
func TestOwnWorkflow(t *testing.T) {
	var mu sync.Mutex
	var got []string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path+" "+string(b))
		mu.Unlock()
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer recv.Close()
	u, _ := url.Parse(recv.URL)
	a := newAPIWith(t, "", apiOptions{httpAllow: []string{u.Host}})
	alice, bob := userToken(t, "alice"), userToken(t, "bob")
	expect := func(name, token, method, path, body string, status int, has string) string {
		t.Helper()
		return a.expect(t, name, token, method, path, body, status, has)
	}
	expect("the templates", alice, "GET", "/api/v1/workflows/templates", "", 200, `"key":"approval"`)
	expect("an unknown template", alice, "POST", "/api/v1/workflows", `{"template":"nope"}`, 422, "template")
	expect("the operator owns no workflow", testAdminToken, "POST", "/api/v1/workflows", `{}`, 403, api.CodeForbidden)

	var w api.CanvasView
	if err := json.Unmarshal([]byte(expect("start one", alice, "POST", "/api/v1/workflows", `{"title":"发布会审批","template":"approval"}`, 201, "发布会审批")), &w); err != nil {
		t.Fatal(err)
	}
	if w.UserID != "alice" || w.DemandID != "" || len(w.Nodes) != 3 || w.Status != "draft" || w.Cursor == 0 {
		t.Fatalf("the new workflow: %+v", w)
	}
	base := "/api/v1/workflows/" + w.WorkflowID
	for _, op := range [][3]string{{"GET", base, ""}, {"GET", base + "/canvas", ""}, {"GET", base + "/messages", ""},
		{"POST", base + "/messages", `{"text":"开始执行"}`}, {"POST", base + "/decisions", `{"decision_type":"execute_workflow","base_version":1}`}} {
		expect("bob: "+op[0]+" "+op[1], bob, op[0], op[1], op[2], 404, api.CodeNotFound)
	}
	// Its events are correlated by its id: the owner's audit query reads them, no one else's.
	expect("her workflow's events", alice, "GET", "/api/v1/events?demand_id="+w.WorkflowID, "", 200, "towow.workflow.created")
	expect("bob reads no events of it", bob, "GET", "/api/v1/events?demand_id="+w.WorkflowID, "", 404, api.CodeNotFound)
	list := func(token string) string {
		_, _, b := a.asUser(t, token, "GET", "/api/v1/workflows?min_cursor="+strconv.FormatInt(w.Cursor, 10), "")
		return b
	}
	if !strings.Contains(list(alice), w.WorkflowID) || strings.Contains(list(bob), w.WorkflowID) {
		t.Fatalf("lists: alice %.200s; bob %.200s", list(alice), list(bob))
	}

	// Build by chat: a PUT call before 完成, with a body that reads the workflow's title.
	say := func(text string) string {
		t.Helper()
		expect("say "+text, alice, "POST", base+"/messages", `{"text":`+strconv.Quote(text)+`}`, 202, "message_id")
		var out api.ConversationOutput
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			_ = json.Unmarshal([]byte(expect("messages", alice, "GET", base+"/messages", "", 200, "")), &out.Body)
			for _, m := range out.Body.Turns {
				if m.Done && m.Text == text {
					return m.Reply
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no reply to %q: %+v", text, out.Body.Turns)
			}
		}
	}
	if r := (say("在完成之前创建一个 HTTP 节点，叫通知场地，PUT 到 " + recv.URL + "/notify，内容是 plan={{vars.title}}")); !strings.Contains(r, "已新增「通知场地」") {
		t.Fatalf("the reply: %s", r)
	}
	if r := (say("开始执行")); !strings.Contains(r, "工作流已开始执行") {
		t.Fatalf("the reply: %s", r)
	}
	waitStatus := func(node, status string) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			var v api.WorkflowView
			_ = json.Unmarshal([]byte(expect("the workflow", alice, "GET", base, "", 200, "")), &v)
			for _, n := range v.Nodes {
				if n.ID == node && string(n.Status) == status {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never %s: %+v", node, status, v.Nodes)
			}
		}
	}
	waitStatus("approve", "running")
	expect("bob's approvals", bob, "GET", "/api/v1/approvals", "", 200, `"approvals":[]`)
	expect("alice's approvals", alice, "GET", "/api/v1/approvals", "", 200, `"workflow_title":"发布会审批"`)
	if r := say("批准审批，可以发布"); !strings.Contains(r, "已批准「审批」") {
		t.Fatalf("the reply: %s", r)
	}
	waitStatus("approve", "completed")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var v api.WorkflowView
		_ = json.Unmarshal([]byte(expect("the workflow", alice, "GET", base, "", 200, "")), &v)
		if v.Status == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not complete: %+v", v)
		}
	}
	mu.Lock()
	calls := append([]string{}, got...)
	mu.Unlock()
	if len(calls) != 1 || !strings.HasPrefix(calls[0], "PUT /notify ") || !strings.Contains(calls[0], `"plan":"发布会审批"`) {
		t.Fatalf("the receiver got %q", calls)
	}
	// The report of the end is in the conversation, in plain words.
	var msgs api.ConversationOutput
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_ = json.Unmarshal([]byte(expect("messages", alice, "GET", base+"/messages", "", 200, "")), &msgs.Body)
		if n := len(msgs.Body.Turns); n > 0 && msgs.Body.Turns[n-1].Report && strings.Contains(msgs.Body.Turns[n-1].Reply, "完成") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no report of the end: %+v", msgs.Body.Turns)
		}
	}
	for _, m := range msgs.Body.Turns {
		for _, bad := range []string{"approve_node", "create_node", "execute_workflow", "ok:", "wf-", "refused"} {
			if strings.Contains(m.Reply, bad) {
				t.Errorf("a reply says %q: %s", bad, m.Reply)
			}
		}
	}
}
