package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// browserTab is one Chromium page of the workflow console test: every
// step is run with a failure screenshot of that page and the server's log.
type browserTab struct {
	t     *testing.T
	name  string
	ctx   context.Context
	shots string
	srv   *server
}

// run runs actions on the page, within a minute; on failure it saves
// <name>-failure.png and stops the test.
func (b *browserTab) run(what string, actions ...chromedp.Action) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		var png []byte
		_ = chromedp.Run(b.ctx, toFront(), chromedp.FullScreenshot(&png, 100))
		_ = os.WriteFile(filepath.Join(b.shots, b.name+"-failure.png"), png, 0o644)
		b.t.Fatalf("tab %s: %s: %v (screenshot: %s/%s-failure.png; server log:\n%s)", b.name, what, err, b.shots, b.name, b.srv.log())
	}
}

// toFront makes the page the browser's active one: headless Chromium
// paints only that page, so a screenshot of another would wait forever.
func toFront() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		c := chromedp.FromContext(ctx)
		return target.ActivateTarget(c.Target.TargetID).Do(cdp.WithExecutor(ctx, c.Browser))
	})
}

// shot saves a screenshot of the page's viewport as <file>.png (the page
// brought to the front first).
func (b *browserTab) shot(file string) {
	b.t.Helper()
	var png []byte
	b.run("screenshot "+file, toFront(), chromedp.CaptureScreenshot(&png))
	if err := os.WriteFile(filepath.Join(b.shots, file+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// until waits (polling in the page, up to 60 s) for a JavaScript condition.
func (b *browserTab) until(what, cond string) {
	b.t.Helper()
	b.run(what, chromedp.Poll(cond, nil, chromedp.WithPollingTimeout(60*time.Second), chromedp.WithPollingInterval(50*time.Millisecond)))
}

// eval evaluates a JavaScript expression into out.
func (b *browserTab) eval(what, expr string, out any) {
	b.t.Helper()
	b.run(what, chromedp.Evaluate(expr, out))
}

// drag drags a node of the canvas by (dx, dy) CSS pixels with the mouse
// (pressed, two moves, released: the page sees pointer events).
func (b *browserTab) drag(nodeID string, dx, dy float64) {
	b.t.Helper()
	var at []float64
	b.eval("find node "+nodeID, fmt.Sprintf(`(() => { const g = document.querySelector('g.wf-node[data-node=%q]'); g.scrollIntoView({block: "center"});
		const r = g.querySelector("rect").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, nodeID), &at)
	held := func(p *input.DispatchMouseEventParams) *input.DispatchMouseEventParams {
		return p.WithButton(input.Left).WithButtons(1)
	}
	x, y := at[0], at[1]
	b.run("drag "+nodeID,
		chromedp.MouseEvent(input.MousePressed, x, y, held, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.MouseMoved, x+dx/2, y+dy/2, held),
		chromedp.MouseEvent(input.MouseMoved, x+dx, y+dy, held),
		chromedp.MouseEvent(input.MouseReleased, x+dx, y+dy, chromedp.ButtonLeft, chromedp.ClickCount(1)))
}

// canvasNode is the part of a canvas node the test reads.
type canvasNode struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	AssigneeID string `json:"assignee_id"`
	Title      string `json:"title"`
	Status     string `json:"status"`
	Position   struct{ X, Y float64 }
}

// canvasView is the part of GET /api/v1/workflows/{id}/canvas the test reads.
type canvasView struct {
	Title   string       `json:"title"`
	Status  string       `json:"status"`
	Version int          `json:"version"`
	Cursor  int64        `json:"cursor"`
	Nodes   []canvasNode `json:"nodes"`
}

// node returns the canvas's node with id (the zero node when absent).
func (c canvasView) node(id string) canvasNode {
	for _, n := range c.Nodes {
		if n.ID == id {
			return n
		}
	}
	return canvasNode{}
}

// TestWorkflowCanvasInBrowser drives the workflow page in two
// Chromium pages of one browser against a real `towow serve`, signed in as
// two people: A as the negotiation's owner (alice), B as bob, whom the
// owner shares it with on the negotiation page's sharing panel (herself
// refused, bob as viewer, then editor; B sees who shares it, without
// controls) (B goes to the server as localhost, A as
// 127.0.0.1: cookies are per host name, so each page has its own
// session). A drags a node and renames another, B sees both live and A's
// activity has only acknowledgements (echo exclusion); A and B edit the
// same node from the same version, B gets the conflict and reapplies it on
// the new version; B asks the conversation agent for a rehearsal, which
// appears on both canvases; the history slider shows the plan before it,
// read-only; A runs the workflow and the nodes turn completed on both
// pages; the owner removes bob from the workflow page's sharing panel and
// bob's page no longer finds it. Screenshots go to .towow/screenshots
// (workflow-*.png, sharing.png).
func TestWorkflowCanvasInBrowser(t *testing.T) {
	chrome, _, s, base, shots := browserServer(t)
	const owner, editor = "alice", "bob"
	token := s.token(t, owner)
	// B's address: the same server under another host name.
	baseB := "http://localhost" + s.addr[strings.LastIndex(s.addr, ":"):]

	// The sample demand's agreement becomes a draft workflow.
	var sub struct {
		DemandID string `json:"demand_id"`
	}
	postJSON(t, base+"/api/v1/demand/submit", token, map[string]string{"raw_input": "我想在北京办一场AI主题聚会，需要场地和嘉宾"},
		http.StatusAccepted, &sub)
	var wfID string
	waitFor(t, "the agreement's workflow", func() bool {
		var out struct {
			Workflows []struct {
				WorkflowID string `json:"workflow_id"`
			} `json:"workflows"`
		}
		getJSONAuth(t, base+"/api/v1/workflows?demand_id="+sub.DemandID, token, &out)
		if len(out.Workflows) == 1 {
			wfID = out.Workflows[0].WorkflowID
		}
		return wfID != ""
	})
	canvas := func() canvasView {
		var c canvasView
		getJSONAuth(t, base+"/api/v1/workflows/"+wfID+"/canvas", token, &c)
		return c
	}
	start := canvas()
	if start.Status != "draft" || len(start.Nodes) < 3 {
		t.Fatalf("the sample workflow: status %q, %d nodes", start.Status, len(start.Nodes))
	}
	moved, renamed, contested := start.Nodes[len(start.Nodes)-1].ID, start.Nodes[0].ID, start.Nodes[1].ID
	t.Logf("workflow %s: %d nodes, version %d", wfID, len(start.Nodes), start.Version)

	bctx := newBrowser(t, chrome, 1600, 1000, 3*time.Minute)
	if err := chromedp.Run(bctx); err != nil { // starts the browser
		t.Fatal(err)
	}
	// tab opens a page of the browser signed in as user on base: the
	// workflow page, through the negotiation's link when via names it
	// (first doing there what onNegotiation does).
	tab := func(name, base, user, via string, onNegotiation func(*browserTab)) *browserTab {
		ctx, cancelTab := chromedp.NewContext(bctx) // a new page of the same browser
		t.Cleanup(cancelTab)
		if err := chromedp.Run(ctx); err != nil { // opens the page on ctx itself: run's timeouts must not close it
			t.Fatal(err)
		}
		b := &browserTab{t: t, name: name, ctx: ctx, shots: shots, srv: s}
		var shown string
		b.run("sign in as "+user, toFront(), signIn(base, user), chromedp.Text(`#account-name`, &shown, chromedp.ByQuery))
		if shown != user {
			t.Fatalf("tab %s is signed in as %q, want %q", name, shown, user)
		}
		if via != "" { // from the negotiation's page, through its link
			// In front: the negotiation page renders in animation frames.
			b.run("open the negotiation", toFront(), visit(base+"/#/n/"+via), chromedp.WaitVisible(`#open-workflow`, chromedp.ByQuery))
			if onNegotiation != nil {
				onNegotiation(b)
			}
			b.run("follow its workflow link", chromedp.Click(`#open-workflow`, chromedp.ByQuery))
		} else {
			b.run("open the workflow page", visit(base+"/#/w/"+wfID))
		}
		b.run("the canvas", chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-node=%q]`, moved), chromedp.ByQuery))
		return b
	}
	collaborators := func() map[string]string {
		var out struct {
			Collaborators []struct {
				UserID string `json:"user_id"`
				Role   string `json:"role"`
			} `json:"collaborators"`
		}
		getJSONAuth(t, base+"/api/v1/negotiations/"+sub.DemandID+"/collaborators", token, &out)
		roles := map[string]string{}
		for _, c := range out.Collaborators {
			roles[c.UserID] = c.Role
		}
		return roles
	}
	// The owner shares the negotiation with bob on its page's sharing
	// panel: herself is refused with its code; bob as viewer, listed; then
	// his role changed to editor.
	a := tab("A", base, owner, sub.DemandID, func(a *browserTab) {
		var refused string
		a.run("open the sharing panel", chromedp.WaitVisible(`#sharing[data-owner="true"]`, chromedp.ByQuery),
			chromedp.Click(`#sharing-summary`, chromedp.ByQuery), chromedp.WaitVisible(`#share-user`, chromedp.ByQuery))
		a.run("share with herself",
			chromedp.SendKeys(`#share-user`, owner, chromedp.ByQuery), chromedp.Click(`#share-add`, chromedp.ByQuery),
			chromedp.WaitVisible(`#sharing-error:not(:empty)`, chromedp.ByQuery), chromedp.Text(`#sharing-error`, &refused, chromedp.ByQuery))
		if !strings.Contains(refused, "TOWOW_SHARE_001") {
			t.Fatalf("sharing with the owner herself shows %q", refused)
		}
		var listed string
		a.run("share with bob as viewer",
			chromedp.SetValue(`#share-user`, editor, chromedp.ByQuery), chromedp.SetValue(`#share-role`, "viewer", chromedp.ByQuery),
			chromedp.Click(`#share-add`, chromedp.ByQuery),
			chromedp.WaitVisible(fmt.Sprintf(`#sharing-list li[data-user=%q][data-role="viewer"]`, editor), chromedp.ByQuery),
			chromedp.WaitNotPresent(`#sharing-error:not(:empty)`, chromedp.ByQuery),
			chromedp.Text(`#sharing-summary`, &listed, chromedp.ByQuery))
		if roles := collaborators(); roles[editor] != "viewer" || len(roles) != 1 || !strings.Contains(listed, "1") {
			t.Fatalf("after sharing with %s as viewer: %v (the panel says %q)", editor, roles, listed)
		}
		a.run("make bob an editor",
			chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector('#sharing-list li[data-user=%q] select.share-role');
				s.value = "editor"; s.dispatchEvent(new Event("change")); })()`, editor), nil),
			chromedp.WaitVisible(fmt.Sprintf(`#sharing-list li[data-user=%q][data-role="editor"]`, editor), chromedp.ByQuery))
		if roles := collaborators(); roles[editor] != "editor" {
			t.Fatalf("after the role change: %v", roles)
		}
		a.shot("sharing")
	})
	b := tab("B", baseB, editor, "", nil)
	// B sees who shares it and its role, and no controls.
	var sharedWith string
	var controls int
	b.run("B's sharing panel", chromedp.WaitVisible(`#sharing[data-owner="false"]`, chromedp.ByQuery),
		chromedp.Text(`#sharing-summary`, &sharedWith, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#sharing form, #sharing select, #sharing button").length`, &controls))
	if !strings.Contains(sharedWith, owner) || !strings.Contains(sharedWith, "编辑者") || controls != 0 {
		t.Fatalf("B's sharing panel says %q with %d controls", sharedWith, controls)
	}
	var hash string
	a.run("A's address", chromedp.Evaluate(`location.hash`, &hash))
	if hash != "#/w/"+wfID {
		t.Fatalf("查看执行计划 led to %q", hash)
	}
	var clientA, clientB string
	a.run("A's client id", chromedp.AttributeValue(`#wf-canvas`, "data-client", &clientA, nil, chromedp.ByQuery))
	b.run("B's client id", chromedp.AttributeValue(`#wf-canvas`, "data-client", &clientB, nil, chromedp.ByQuery))
	if clientA == clientB || clientA == "" {
		t.Fatalf("the two pages share the client id %q", clientA)
	}

	// 1. A drags a node and renames another; B sees both live; A's activity
	// has the acknowledgements and no remote entry (its own changes are not
	// echoed back as changes).
	orig := start.node(moved).Position
	a.drag(moved, 60, 130)
	a.until("A's node follows the drag", fmt.Sprintf(`(() => { const g = document.querySelector('g.wf-node[data-node=%q]'); return +g.dataset.x !== %v || +g.dataset.y !== %v; })()`,
		moved, orig.X, orig.Y))
	var ax, ay float64
	a.eval("A's moved node", fmt.Sprintf(`(() => { const g = document.querySelector('g.wf-node[data-node=%q]'); return +g.dataset.x; })()`, moved), &ax)
	a.eval("A's moved node", fmt.Sprintf(`(() => { const g = document.querySelector('g.wf-node[data-node=%q]'); return +g.dataset.y; })()`, moved), &ay)
	if ax-orig.X < 40 || ay-orig.Y < 100 {
		t.Fatalf("the drag moved %s from (%v,%v) to (%v,%v) on A", moved, orig.X, orig.Y, ax, ay)
	}
	b.until("B sees the move", fmt.Sprintf(`(() => { const g = document.querySelector('g.wf-node[data-node=%q]'); return g && +g.dataset.x === %v && +g.dataset.y === %v; })()`, moved, ax, ay))
	const titleA = "场地确认（A 改名）"
	a.run("A renames a node",
		chromedp.Click(fmt.Sprintf(`g.wf-node[data-node=%q]`, renamed), chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-edit-title`, chromedp.ByQuery),
		chromedp.SetValue(`#wf-edit-title`, titleA, chromedp.ByQuery),
		chromedp.Click(`#wf-edit-save`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`#wf-edit-form`, chromedp.ByQuery))
	b.run("B sees the new title", chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-node=%q][data-title=%q]`, renamed, titleA), chromedp.ByQuery))
	a.until("A's changes are acknowledged", `document.querySelectorAll('#wf-activity li[data-kind="ack"]').length >= 2`)
	var remoteA int
	a.eval("A's remote entries", `document.querySelectorAll('#wf-activity li[data-kind="remote"]').length`, &remoteA)
	b.until("B lists A's changes as remote", `document.querySelectorAll('#wf-activity li[data-kind="remote"]').length >= 2`)
	// The lines name the events by the server's catalog (移动步骤, 修改步骤)
	// and say what changed by the event's summary (the new title).
	b.until("B's lines name A's changes", fmt.Sprintf(`(() => { const t = [...document.querySelectorAll('#wf-activity li[data-kind="remote"]')].map(li => li.textContent).join("\n");
		return t.includes("移动步骤") && t.includes("修改步骤") && t.includes(%q); })()`, titleA))
	if remoteA != 0 {
		var entries string
		a.eval("A's activity", `[...document.querySelectorAll("#wf-activity li")].map(li => li.dataset.kind + ": " + li.textContent).join("\n")`, &entries)
		t.Fatalf("A's own changes came back as remote changes:\n%s", entries)
	}
	if c := canvas(); c.node(moved).Position.X != ax || c.node(moved).Position.Y != ay || c.node(renamed).Title != titleA || c.Version != start.Version+1 {
		t.Fatalf("server canvas after A's changes: %+v, %+v, version %d (was %d)", c.node(moved), c.node(renamed), c.Version, start.Version)
	}

	// 2. A and B edit the same node from the same version: A saves first,
	// B's save conflicts, B reloads and reapplies on the new version.
	before := canvas().Version
	open := func(p *browserTab) {
		p.run("open the edit form", chromedp.Click(fmt.Sprintf(`g.wf-node[data-node=%q]`, contested), chromedp.ByQuery),
			chromedp.WaitVisible(`#wf-edit-title`, chromedp.ByQuery))
	}
	open(a)
	open(b)
	a.shot("workflow-canvas")
	const titleB = "演讲嘉宾确认（B 的版本）"
	a.run("A saves", chromedp.SetValue(`#wf-edit-title`, "演讲嘉宾确认（A 的版本）", chromedp.ByQuery), chromedp.Click(`#wf-edit-save`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`#wf-edit-form`, chromedp.ByQuery))
	b.run("B saves on the old version and sees the conflict",
		chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-node=%q][data-title="演讲嘉宾确认（A 的版本）"]`, contested), chromedp.ByQuery),
		chromedp.SetValue(`#wf-edit-title`, titleB, chromedp.ByQuery), chromedp.Click(`#wf-edit-save`, chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-conflict`, chromedp.ByQuery), chromedp.WaitVisible(`#wf-reapply`, chromedp.ByQuery))
	if c := canvas(); c.Version != before+1 || c.node(contested).Title == titleB {
		t.Fatalf("the conflicting save was written: version %d (was %d), title %q", c.Version, before, c.node(contested).Title)
	}
	b.shot("workflow-conflict")
	b.run("B reapplies its change", chromedp.Click(`#wf-reapply`, chromedp.ByQuery), chromedp.WaitNotVisible(`#wf-conflict`, chromedp.ByQuery))
	waitFor(t, "B's reapplied title on the server", func() bool {
		c := canvas()
		return c.node(contested).Title == titleB && c.Version == before+2
	})
	a.run("A sees B's title", chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-node=%q][data-title=%q]`, contested, titleB), chromedp.ByQuery))
	b.until("B's reapply is acknowledged", `document.querySelector('#wf-activity li[data-kind="ack"]') !== null`)
	// Each page edits as its own person: the log records B's edit as bob's.
	var byBob struct {
		Events []struct {
			Type string `json:"event_type"`
		} `json:"events"`
	}
	getJSONAuth(t, base+"/api/v1/events?demand_id="+sub.DemandID+"&principal=user:"+editor+"&type=towow.workflow.node_updated", token, &byBob)
	if len(byBob.Events) != 1 {
		t.Fatalf("%d node updates recorded as %s's, want B's one reapplied edit", len(byBob.Events), editor)
	}

	// 2b. A adds a step with the form, connects it (连线: source, then
	// target), deletes the edge, then the step; B follows each change.
	a.run("A adds a step",
		chromedp.Click(`#wf-add`, chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-new-title`, chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-title`, "物料准备", chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-description`, "海报、胸牌和签到表", chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-assignee`, start.node(renamed).AssigneeID, chromedp.ByQuery),
		chromedp.Click(`#wf-new-save`, chromedp.ByQuery),
		chromedp.WaitVisible(`g.wf-node[data-title="物料准备"]`, chromedp.ByQuery))
	var added string
	a.run("the new step's id", chromedp.AttributeValue(`g.wf-node[data-title="物料准备"]`, "data-node", &added, nil, chromedp.ByQuery))
	b.run("B sees the new step", chromedp.WaitVisible(fmt.Sprintf(`g.wf-node[data-node=%q][data-title="物料准备"]`, added), chromedp.ByQuery))
	edge := fmt.Sprintf(`path.wf-edge[data-from=%q][data-to=%q]`, renamed, added)
	a.run("A connects two steps",
		chromedp.Click(`#wf-connect`, chromedp.ByQuery),
		chromedp.Click(fmt.Sprintf(`g.wf-node[data-node=%q]`, renamed), chromedp.ByQuery),
		chromedp.Click(fmt.Sprintf(`g.wf-node[data-node=%q]`, added), chromedp.ByQuery),
		chromedp.WaitReady(edge, chromedp.ByQuery))
	b.run("B sees the edge", chromedp.WaitReady(edge, chromedp.ByQuery))
	var refused, rule string
	a.run("A's edge back would close a cycle: the Coordinator refuses it",
		chromedp.Click(`#wf-connect`, chromedp.ByQuery),
		chromedp.Click(fmt.Sprintf(`g.wf-node[data-node=%q]`, added), chromedp.ByQuery),
		chromedp.Click(fmt.Sprintf(`g.wf-node[data-node=%q]`, renamed), chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-activity li[data-kind="rejected"]`, chromedp.ByQuery),
		chromedp.Text(`#wf-error`, &refused, chromedp.ByQuery),
		chromedp.AttributeValue(`#wf-error`, "data-rule", &rule, nil, chromedp.ByQuery))
	// Said in plain words: the loop it would make, no ids and no server English.
	if rule != "acyclic" || !strings.Contains(refused, "协调者拒绝了这个修改：这样会让步骤互相等待，形成死循环") ||
		strings.Contains(refused, added) || strings.Contains(refused, renamed) || strings.Contains(refused, "cycle") {
		t.Fatalf("the refused edge's message: %q (rule %q)", refused, rule)
	}
	a.run("the refused edge is not drawn", chromedp.WaitNotPresent(fmt.Sprintf(`path.wf-edge[data-from=%q][data-to=%q]`, added, renamed), chromedp.ByQuery))
	a.run("A deletes the edge",
		chromedp.Evaluate(fmt.Sprintf(`document.querySelector('path.wf-edge-hit[data-from=%q][data-to=%q]').dispatchEvent(new MouseEvent("click", {bubbles: true}))`, renamed, added), nil),
		chromedp.Click(`#wf-edge-delete`, chromedp.ByQuery),
		chromedp.WaitNotPresent(edge, chromedp.ByQuery))
	b.run("B loses the edge", chromedp.WaitNotPresent(edge, chromedp.ByQuery))
	a.run("A deletes the step",
		chromedp.Click(fmt.Sprintf(`g.wf-node[data-node=%q]`, added), chromedp.ByQuery),
		chromedp.Click(`#wf-node-delete`, chromedp.ByQuery),
		chromedp.WaitNotPresent(fmt.Sprintf(`g.wf-node[data-node=%q]`, added), chromedp.ByQuery))
	b.run("B loses the step", chromedp.WaitNotPresent(fmt.Sprintf(`g.wf-node[data-node=%q]`, added), chromedp.ByQuery))
	if c := canvas(); len(c.Nodes) != len(start.Nodes) || c.Version != before+6 {
		t.Fatalf("after adding, connecting, disconnecting and deleting a step: %d nodes (want %d), version %d (want %d)", len(c.Nodes), len(start.Nodes), c.Version, before+6)
	}

	// 3. B asks the conversation agent, in English, for a rehearsal before
	// the event (活动当天 on the sample plan); both canvases show it.
	b.run("B talks to the agent",
		chromedp.SetValue(`#wf-chat-input`, "add a rehearsal before the event", chromedp.ByQuery),
		chromedp.Click(`#wf-chat-send`, chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-chat-log li.me[data-done="true"] .wf-reply`, chromedp.ByQuery))
	for _, p := range []*browserTab{a, b} {
		p.run("the rehearsal on the canvas", chromedp.WaitVisible(`g.wf-node[data-title="rehearsal"]`, chromedp.ByQuery))
	}
	// A reload reads the conversation and the history back from the API.
	var steps int
	b.run("B reloads", chromedp.Reload(), chromedp.WaitVisible(`#wf-chat-log li[data-done="true"] .wf-reply`, chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-history-position:not(:empty)`, chromedp.ByQuery),
		chromedp.Evaluate(`+document.getElementById("wf-history-slider").max`, &steps))
	if steps < 10 {
		t.Fatalf("the history slider after a reload spans %d events", steps+1)
	}
	withRehearsal := canvas()
	if len(withRehearsal.Nodes) != len(start.Nodes)+1 {
		t.Fatalf("%d nodes after the rehearsal, want %d", len(withRehearsal.Nodes), len(start.Nodes)+1)
	}

	// 4. History: the slider at the first event shows the plan as it was
	// created, read-only; 回到现在 returns to the live, editable canvas.
	var count int
	a.run("move the history slider to the start",
		chromedp.Evaluate(`(() => { const s = document.getElementById("wf-history-slider"); s.value = 0; s.dispatchEvent(new Event("input")); })()`, nil),
		chromedp.WaitVisible(`#wf-canvas[data-readonly="true"]`, chromedp.ByQuery))
	a.until("the original plan", fmt.Sprintf(`document.querySelectorAll("g.wf-node").length === %d`, len(start.Nodes)))
	a.run("back to now", chromedp.Click(`#wf-history-now`, chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-canvas[data-readonly="false"]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("g.wf-node").length`, &count))
	if count != len(withRehearsal.Nodes) {
		t.Fatalf("%d nodes back at now, want %d", count, len(withRehearsal.Nodes))
	}

	// 5. A runs it: the nodes go through running to completed on both pages.
	a.run("A runs the workflow", chromedp.Click(`#wf-run`, chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-lock-note:not(:empty)`, chromedp.ByQuery))
	a.shot("workflow-running")
	for _, p := range []*browserTab{a, b} {
		p.until("the workflow completes", `document.querySelector('#wf-status[data-status="completed"]') !== null`)
		p.until("every node completed", fmt.Sprintf(`(() => { const gs = [...document.querySelectorAll("g.wf-node")];
			return gs.length === %d && gs.every(g => g.dataset.status === "completed"); })()`, len(withRehearsal.Nodes)))
	}
	if c := canvas(); c.Status != "completed" {
		t.Fatalf("server: workflow %s", c.Status)
	}
	var ro string
	a.run("an ended workflow is read-only", chromedp.AttributeValue(`#wf-canvas`, "data-readonly", &ro, nil, chromedp.ByQuery))
	if ro != "true" {
		t.Fatalf("ended workflow's canvas data-readonly=%q", ro)
	}
	a.shot("workflow-completed")

	// 6. The owner takes bob's access back from the workflow page's sharing
	// panel: the list is empty, and bob's page no longer finds the workflow.
	a.run("remove bob",
		chromedp.Click(`#sharing-summary`, chromedp.ByQuery),
		chromedp.Click(fmt.Sprintf(`#sharing-list li[data-user=%q] .share-remove`, editor), chromedp.ByQuery),
		chromedp.WaitNotPresent(fmt.Sprintf(`#sharing-list li[data-user=%q]`, editor), chromedp.ByQuery))
	if roles := collaborators(); len(roles) != 0 {
		t.Fatalf("after removing %s: %v", editor, roles)
	}
	b.run("B's page no longer finds it", chromedp.Reload(), chromedp.WaitVisible(`#app .card .error`, chromedp.ByQuery))
	a.run("phone size", chromedp.EmulateViewport(390, 844), chromedp.WaitVisible(`#wf-canvas`, chromedp.ByQuery))
	a.shot("workflow-phone")
}
