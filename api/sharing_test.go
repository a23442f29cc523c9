package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/api"
)

// TestCollaborators: the owner shares her negotiation with bob as viewer
// (he reads it, a change is 403), then as editor (he edits the canvas,
// talks to the agent and runs the workflow), never as owner (he cannot
// share it: 403); carol sees nothing (404); once unshared, bob sees
// nothing again. An approval waits in its approver's list, is answered
// by its approver only (403 TOWOW_WORKFLOW_007 for anyone else), and
// records who answered.
func TestCollaborators(t *testing.T) {
	a := newAPI(t)
	alice, bob, carol := userToken(t, "alice"), userToken(t, "bob"), userToken(t, "carol")
	st, _, body := a.asUser(t, alice, "POST", "/api/v1/demand/submit", `{"raw_input":"我想在北京办一场AI主题聚会，需要场地和嘉宾"}`)
	var sub struct {
		DemandID string `json:"demand_id"`
	}
	if st != 202 || json.Unmarshal([]byte(body), &sub) != nil {
		t.Fatalf("submit: %d %s", st, body)
	}
	var wf api.WorkflowListOutput
	for deadline := time.Now().Add(30 * time.Second); len(wf.Body.Workflows) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no workflow")
		}
		_, _, body := a.asUser(t, alice, "GET", "/api/v1/workflows?demand_id="+sub.DemandID, "")
		_ = json.Unmarshal([]byte(body), &wf.Body)
	}
	w := wf.Body.Workflows[0]
	demand, base := "/api/v1/demands/"+sub.DemandID, "/api/v1/workflows/"+w.WorkflowID
	share := "/api/v1/negotiations/" + sub.DemandID + "/collaborators/bob"
	move := `{"client_id":"tab-bob","base_version":1,"changes":[{"type":"node_moved","node_id":"` + w.Nodes[0].ID + `","data":{"position":{"x":5,"y":5}}}]}`

	expect := func(name, token, method, path, body string, status int, has string) string {
		t.Helper()
		return a.expect(t, name, token, method, path, body, status, has)
	}
	expect("bob before sharing", bob, "GET", demand, "", 404, api.CodeNotFound)
	expect("bob cannot share it himself", bob, "PUT", share, `{"role":"editor"}`, 404, api.CodeNotFound)
	expect("an unknown role", alice, "PUT", share, `{"role":"owner"}`, 422, "")
	expect("the owner as collaborator", alice, "PUT", "/api/v1/negotiations/"+sub.DemandID+"/collaborators/alice", `{"role":"viewer"}`, 422, "TOWOW_SHARE_001")
	expect("share as viewer", alice, "PUT", share, `{"role":"viewer"}`, 200, "cursor")
	expect("the viewer reads the demand", bob, "GET", demand, "", 200, "北京")
	expect("the viewer reads the workflow", bob, "GET", base, "", 200, w.WorkflowID)
	expect("the viewer lists the collaborators", bob, "GET", "/api/v1/negotiations/"+sub.DemandID+"/collaborators", "", 200, `"role":"viewer"`)
	expect("the viewer may not edit", bob, "POST", base+"/canvas/changes", move, 403, api.CodeForbidden)
	expect("the viewer may not share", bob, "PUT", "/api/v1/negotiations/"+sub.DemandID+"/collaborators/carol", `{"role":"viewer"}`, 403, api.CodeForbidden)
	expect("the viewer may not fork", bob, "POST", "/api/v1/negotiations/"+sub.DemandID+"/forks", `{}`, 403, api.CodeForbidden)
	expect("carol sees nothing", carol, "GET", base, "", 404, api.CodeNotFound)

	expect("make bob an editor", alice, "PUT", share, `{"role":"editor"}`, 200, "cursor")
	expect("the editor moves a step", bob, "POST", base+"/canvas/changes", move, 200, "")
	expect("the editor talks to the agent", bob, "POST", base+"/messages", `{"text":"进展如何？"}`, 202, "message_id")
	expect("the editor may not share", bob, "PUT", "/api/v1/negotiations/"+sub.DemandID+"/collaborators/carol", `{"role":"viewer"}`, 403, api.CodeForbidden)

	// Two approvals with nothing before them: one the owner's (no
	// approver named), one bob's. The editor adds them and runs the plan.
	for _, n := range []string{`{"id":"ok","type":"approval","title":"确认预算"}`, `{"id":"ok2","type":"approval","title":"确认嘉宾","approver":"bob"}`} {
		var v struct {
			Version int `json:"version"`
		}
		_, _, cur := a.asUser(t, bob, "GET", base, "")
		_ = json.Unmarshal([]byte(cur), &v)
		expect("add an approval", bob, "POST", base+"/decisions",
			`{"decision_type":"create_node","base_version":`+itoa(v.Version)+`,"payload":{"node":`+n+`}}`, 200, "version")
	}
	var v struct {
		Version int `json:"version"`
	}
	_, _, cur := a.asUser(t, bob, "GET", base, "")
	_ = json.Unmarshal([]byte(cur), &v)
	expect("the editor runs it", bob, "POST", base+"/decisions", `{"decision_type":"execute_workflow","base_version":`+itoa(v.Version)+`}`, 200, "version")
	running := func(node string) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			_, _, got := a.asUser(t, alice, "GET", base, "")
			var view api.WorkflowView
			_ = json.Unmarshal([]byte(got), &view)
			for _, n := range view.Nodes {
				if n.ID == node && n.Status == "running" {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never ran: %.500s", node, got)
			}
		}
	}
	running("ok")
	running("ok2")
	// Each approver's list holds their own approval.
	waiting := func(token string) []string {
		var ids []string
		for deadline := time.Now().Add(10 * time.Second); len(ids) == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			_, _, got := a.asUser(t, token, "GET", "/api/v1/approvals", "")
			var out api.PendingApprovalsOutput
			_ = json.Unmarshal([]byte(got), &out.Body)
			ids = ids[:0]
			for _, ap := range out.Body.Approvals {
				if ap.WorkflowID == w.WorkflowID && ap.DemandID == sub.DemandID && ap.Title == w.Title && w.Title != "" {
					ids = append(ids, ap.Node.ID)
				}
			}
		}
		return ids
	}
	// The agent told them in the conversation, unasked (bob wrote in Chinese).
	if got := expect("the reports", alice, "GET", base+"/messages", "", 200, `"report":true`); !strings.Contains(got, "「确认预算」等待 alice 审批") ||
		!strings.Contains(got, "「确认嘉宾」等待 bob 审批") {
		t.Fatalf("the conversation's reports: %.600s", got)
	}
	if got := waiting(alice); len(got) != 1 || got[0] != "ok" {
		t.Fatalf("alice's approvals: %v", got)
	}
	if got := waiting(bob); len(got) != 1 || got[0] != "ok2" {
		t.Fatalf("bob's approvals: %v", got)
	}
	expect("bob answers the owner's approval", bob, "POST", base+"/nodes/ok/approval", `{"approved":true}`, 403, "TOWOW_WORKFLOW_007")
	expect("alice answers bob's approval", alice, "POST", base+"/nodes/ok2/approval", `{"approved":true}`, 403, "TOWOW_WORKFLOW_007")
	cursorOf := func(body string) int64 {
		var c struct {
			Cursor int64 `json:"cursor"`
		}
		if err := json.Unmarshal([]byte(body), &c); err != nil || c.Cursor == 0 {
			t.Fatalf("no cursor in %s (%v)", body, err)
		}
		return c.Cursor
	}
	approved := cursorOf(expect("alice approves hers", alice, "POST", base+"/nodes/ok/approval", `{"approved":true}`, 200, "cursor"))
	rejected := cursorOf(expect("bob rejects his", bob, "POST", base+"/nodes/ok2/approval", `{"approved":false,"comment":"嘉宾未定"}`, 200, "cursor"))
	// Read-your-writes on the log: min_cursor waits until the answers can
	// be listed (the log is read below the oldest write still in flight).
	got := expect("who answered", alice, "GET", fmt.Sprintf("/api/v1/events?demand_id=%s&type=towow.node.failed&principal=user:bob&min_cursor=%d", sub.DemandID, rejected), "", 200, "")
	if !strings.Contains(got, "被 bob 拒绝：嘉宾未定") {
		t.Fatalf("bob's rejection is not recorded as his: %.800s", got)
	}
	got = expect("alice's approval", alice, "GET", fmt.Sprintf("/api/v1/events?demand_id=%s&type=towow.node.completed&principal=user:alice&min_cursor=%d", sub.DemandID, approved), "", 200, "")
	if !strings.Contains(got, `"by":"user:alice"`) {
		t.Fatalf("alice's approval does not name her: %.800s", got)
	}

	expect("unshare", alice, "DELETE", share, "", 200, "cursor")
	expect("bob after unsharing", bob, "GET", demand, "", 404, api.CodeNotFound)
	expect("the sharing's events", alice, "GET", "/api/v1/events?demand_id="+sub.DemandID+"&type=towow.collaborator.added,towow.collaborator.removed", "", 200, "towow.collaborator.removed")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
