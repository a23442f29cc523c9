package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestApprovalsInBrowser drives approvals and notices in headless
// Chromium against a real `towow serve`: the owner (alice) adds an
// approval step to her plan with the canvas's form (the type's own
// fields: no assignee), and runs it; her canvas shows the running
// approval with 批准 / 拒绝, while bob, a viewer she shares it with, sees
// whom it waits for and no controls; her header's notices badge counts
// the new notice, whose dropdown entry leads to the workflow, and the
// 待我审批 link counts one; the 待我审批 page lists it with the workflow's
// and the step's titles, and she approves it there with a comment; the
// step turns completed (recorded as hers), the count goes, and the
// workflow runs to completion. Screenshots (1366 px, then 390 px):
// approval-canvas.png, notices.png, approvals.png, approvals-phone.png,
// notices-phone.png.
func TestApprovalsInBrowser(t *testing.T) {
	chrome, _, s, base, shots := browserServer(t)
	const owner, viewer = "alice", "bob"
	token := s.token(t, owner)
	baseB := "http://localhost" + s.addr[strings.LastIndex(s.addr, ":"):]

	var sub struct {
		DemandID string `json:"demand_id"`
	}
	postJSON(t, base+"/api/v1/demand/submit", token, map[string]string{"raw_input": "我想在北京办一场AI主题聚会，需要场地和嘉宾"},
		http.StatusAccepted, &sub)
	var wfID, wfTitle string
	waitFor(t, "the agreement's workflow", func() bool {
		var out struct {
			Workflows []struct {
				WorkflowID string `json:"workflow_id"`
				Title      string `json:"title"`
			} `json:"workflows"`
		}
		getJSONAuth(t, base+"/api/v1/workflows?demand_id="+sub.DemandID, token, &out)
		if len(out.Workflows) == 1 {
			wfID, wfTitle = out.Workflows[0].WorkflowID, out.Workflows[0].Title
		}
		return wfID != ""
	})
	canvas := func() canvasView {
		var c canvasView
		getJSONAuth(t, base+"/api/v1/workflows/"+wfID+"/canvas", token, &c)
		return c
	}
	callJSON(t, http.MethodPut, base+"/api/v1/negotiations/"+sub.DemandID+"/collaborators/"+viewer, token,
		map[string]string{"role": "viewer"}, http.StatusOK, nil)

	bctx := newBrowser(t, chrome, 1366, 900, 3*time.Minute)
	if err := chromedp.Run(bctx); err != nil {
		t.Fatal(err)
	}
	page := func(name, base, user string) *browserTab {
		ctx, cancel := chromedp.NewContext(bctx)
		t.Cleanup(cancel)
		if err := chromedp.Run(ctx); err != nil {
			t.Fatal(err)
		}
		p := &browserTab{t: t, name: name, ctx: ctx, shots: shots, srv: s}
		p.run("sign in as "+user, toFront(), chromedp.EmulateViewport(1366, 900), signIn(base, user),
			visit(base+"/#/w/"+wfID), chromedp.WaitVisible(`g.wf-node`, chromedp.ByQuery))
		return p
	}
	a := page("approver", base, owner)
	// The agreement's notice is there from the start (unread).
	var unread string
	a.run("the notices badge", chromedp.WaitVisible(`#notices-count`, chromedp.ByQuery), chromedp.Text(`#notices-count`, &unread, chromedp.ByQuery))
	before, _ := strconv.Atoi(unread)
	if before < 1 {
		t.Fatalf("the notices badge shows %q before the run, want the agreement's notice", unread)
	}

	// 1. An approval step through the canvas's form: the type has no
	// assignee, and says who will answer.
	const step, comment = "预算审批", "预算在范围内，同意"
	var assigneeShown bool
	a.run("add an approval step",
		chromedp.Click(`#wf-add`, chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-new-type`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.getElementById("wf-new-type"); s.value = "approval"; s.dispatchEvent(new Event("change")); })()`, nil),
		chromedp.WaitVisible(`#wf-new-approver`, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("wf-new-assignee").checkVisibility()`, &assigneeShown),
		chromedp.SetValue(`#wf-new-title`, step, chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-description`, "场地和茶歇的预算，运行前由所有者确认", chromedp.ByQuery),
		chromedp.Click(`#wf-new-save`, chromedp.ByQuery),
		chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-title=%q]`, step), chromedp.ByQuery))
	if assigneeShown {
		t.Fatal("the form offers an assignee for an approval step")
	}
	var nodeID string
	a.run("the approval's id", chromedp.AttributeValue(fmt.Sprintf(`g.wf-node[data-title=%q]`, step), "data-node", &nodeID, nil, chromedp.ByQuery))
	if n := canvas().node(nodeID); n.Type != "approval" || n.AssigneeID != "" {
		t.Fatalf("the step on the server: %+v", n)
	}
	b := page("viewer", baseB, viewer)

	// 2. Run: the approval waits for alice. Her canvas answers it; bob's
	// says whom it waits for.
	a.run("run the workflow", chromedp.Click(`#wf-run`, chromedp.ByQuery),
		chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-node=%q][data-status="running"]`, nodeID), chromedp.ByQuery),
		chromedp.WaitVisible(fmt.Sprintf(`#wf-approvals li[data-node=%q][data-mine="true"] button.approve`, nodeID), chromedp.ByQuery),
		chromedp.WaitVisible(fmt.Sprintf(`#wf-approvals li[data-node=%q] button.reject`, nodeID), chromedp.ByQuery))
	var waitsFor string
	var bControls int
	b.run("bob's canvas",
		chromedp.WaitVisible(fmt.Sprintf(`#wf-approvals li[data-node=%q][data-mine="false"]`, nodeID), chromedp.ByQuery),
		chromedp.Text(fmt.Sprintf(`#wf-approvals li[data-node=%q]`, nodeID), &waitsFor, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#wf-approvals button, #wf-approvals textarea").length`, &bControls))
	if !strings.Contains(waitsFor, owner) || bControls != 0 {
		t.Fatalf("bob's canvas shows %q with %d controls", waitsFor, bControls)
	}

	// 3. The header: one more unread notice, and 待我审批 counts one.
	a.until("the new notice on the badge", fmt.Sprintf(`+(document.getElementById("notices-count").textContent) > %d && !document.getElementById("notices-count").hidden`, before))
	a.until("the approvals' count", `document.getElementById("approvals-count").textContent === "1" && !document.getElementById("approvals-count").hidden`)
	a.shot("approval-canvas")
	var href, title string
	a.run("the notices' dropdown",
		chromedp.Click(`#notices-button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#notices-list li[data-kind="approval.waiting"] a`, chromedp.ByQuery),
		chromedp.Text(`#notices-list li[data-kind="approval.waiting"] a`, &title, chromedp.ByQuery),
		chromedp.AttributeValue(`#notices-list li[data-kind="approval.waiting"] a`, "href", &href, nil, chromedp.ByQuery))
	if !strings.Contains(title, step) || href != "#/w/"+wfID {
		t.Fatalf("the approval's notice: %q → %q", title, href)
	}
	a.shot("notices")
	a.run("opening the list saw them", chromedp.WaitNotVisible(`#notices-count`, chromedp.ByQuery))

	// 4. 待我审批 lists it with the workflow's and the step's titles.
	var listedWF, listedStep string
	item := fmt.Sprintf(`#approvals li[data-workflow=%q][data-node=%q]`, wfID, nodeID)
	a.run("the 待我审批 page",
		chromedp.Click(`a[data-nav="approvals"]`, chromedp.ByQuery),
		chromedp.WaitVisible(item+` button.approve`, chromedp.ByQuery),
		chromedp.Text(item+` .approval-workflow`, &listedWF, chromedp.ByQuery),
		chromedp.Text(item+` .approval-step`, &listedStep, chromedp.ByQuery))
	if listedWF != wfTitle || listedStep != step {
		t.Fatalf("待我审批 lists %q / %q, want %q / %q", listedWF, listedStep, wfTitle, step)
	}
	a.run("a comment", chromedp.SendKeys(item+` textarea.approval-comment`, comment, chromedp.ByQuery))
	a.shot("approvals")
	a.run("phone size", chromedp.EmulateViewport(390, 844), chromedp.WaitVisible(item+` button.approve`, chromedp.ByQuery))
	a.shot("approvals-phone")
	a.run("the notices on a phone", chromedp.Click(`#notices-button`, chromedp.ByQuery), chromedp.WaitVisible(`#notices-list li a`, chromedp.ByQuery))
	a.shot("notices-phone")
	a.run("laptop size", chromedp.Click(`#notices-button`, chromedp.ByQuery), chromedp.WaitNotVisible(`#notices-menu`, chromedp.ByQuery),
		chromedp.EmulateViewport(1366, 900))

	// 5. Approve it there: answered, the count goes, the step completes.
	a.run("approve", chromedp.Click(item+` button.approve`, chromedp.ByQuery),
		chromedp.WaitVisible(item+`[data-answered="approved"] .approval-done`, chromedp.ByQuery),
		chromedp.WaitNotVisible(`#approvals-count`, chromedp.ByQuery))
	waitFor(t, "the approval completed on the server", func() bool { return canvas().node(nodeID).Status == "completed" })
	a.run("back to the canvas", jsClick(item+` .approval-workflow`),
		chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-node=%q][data-status="completed"]`, nodeID), chromedp.ByQuery))
	a.until("the workflow completes", `document.querySelector('#wf-status[data-status="completed"]') !== null`)
	b.run("bob sees it completed", chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-node=%q][data-status="completed"]`, nodeID), chromedp.ByQuery),
		chromedp.WaitNotVisible(`#wf-approvals`, chromedp.ByQuery))
	var result struct {
		Nodes []struct {
			ID     string `json:"id"`
			Result *struct {
				Summary string `json:"summary"`
				By      string `json:"by"`
			} `json:"result"`
		} `json:"nodes"`
	}
	getJSONAuth(t, base+"/api/v1/workflows/"+wfID+"/canvas", token, &result)
	for _, n := range result.Nodes {
		if n.ID == nodeID && (n.Result == nil || n.Result.By != "user:"+owner || !strings.Contains(n.Result.Summary, comment)) {
			t.Fatalf("the approval's result: %+v", n.Result)
		}
	}
}
