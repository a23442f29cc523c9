package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// consoleTools are the conversation agent's tools: no message a person
// reads names one.
var consoleTools = []string{"get_workflow", "get_node", "ask_user", "create_node", "update_node", "delete_node", "connect",
	"disconnect", "move_node", "execute_workflow", "cancel_workflow", "approve_node", "reject_node"}

// TestApprovalLoopInBrowser drives the whole loop of a person in headless
// Chromium against a real `towow serve`, on a laptop (1366 px) and on a
// phone (390 px), each as a person of their own: sign in, submit the
// example demand, wait for its plan, ask the assistant in the chat for an
// approval step before the event day (it adds a real approval node), run
// the plan (the chat's 开始执行 on the laptop, the 运行 button on the
// phone), see the notice of the approval counted on the badge (with its
// time in the dropdown), approve it with a comment on the 待我审批 page
// (which shows the plan's title), go back to the plan and read the
// assistant's report that it is done. Along the way it checks what
// people read: no chat message names a tool or says "ok:", no canvas node
// shows an agent id, the twins' results are marked 模拟 on the canvas
// and in the editor, and the report is the assistant's. On the phone the
// canvas pans (a drag on its background), zooms (the buttons, the wheel
// and a pinch) and stays readable (its text at 12 px or more).
// Screenshots (.towow/screenshots): loop-{demand,workflow,chat,running,
// notice,approvals,report}.png and their -phone variants.
func TestApprovalLoopInBrowser(t *testing.T) {
	chrome, _, s, base, shots := browserServer(t)
	bctx := newBrowser(t, chrome, 1366, 900, 6*time.Minute)
	if err := chromedp.Run(bctx); err != nil { // starts the browser
		t.Fatal(err)
	}
	// The phone's person goes to the server as localhost: cookies are per
	// host name, so each page has its own session.
	phoneBase := "http://localhost" + s.addr[strings.LastIndex(s.addr, ":"):]
	for _, run := range []struct {
		name, base, user, suffix string
		w, h                     int64
		byChat                   bool
	}{
		{"laptop", base, "lin", "", 1366, 900, true},
		{"phone", phoneBase, "mei", "-phone", 390, 844, false},
	} {
		t.Run(run.name, func(t *testing.T) {
			ctx, cancel := chromedp.NewContext(bctx) // a page of its own
			t.Cleanup(cancel)
			if err := chromedp.Run(ctx); err != nil {
				t.Fatal(err)
			}
			p := &browserTab{t: t, name: "loop-" + run.name, ctx: ctx, shots: shots, srv: s}
			p.run("sign in", toFront(), chromedp.EmulateViewport(run.w, run.h), signIn(run.base, run.user))
			approvalLoop(t, p, s, run.base, run.user, run.suffix, run.byChat)
		})
	}
}

// approvalLoop is the loop of one person (user) on page p; screenshots
// are named loop-<stage><suffix>.
func approvalLoop(t *testing.T, p *browserTab, s *server, base, user, suffix string, byChat bool) {
	token := s.token(t, user)
	shot := func(stage string) { p.shot("loop-" + stage + suffix) }

	// 1. The example demand, submitted; its negotiation ends in a plan.
	var example string
	p.run("submit the example demand",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`button.example`, chromedp.ByQuery),
		chromedp.Click(`button.example`, chromedp.ByQuery),
		chromedp.Value(`#demand-input`, &example, chromedp.ByQuery))
	if example == "" {
		t.Fatal("the example button filled in no demand")
	}
	shot("demand")
	p.run("its negotiation", chromedp.Click(`#submit-demand`, chromedp.ByQuery), chromedp.WaitVisible(`#open-workflow`, chromedp.ByQuery))
	p.run("its plan", chromedp.Click(`#open-workflow`, chromedp.ByQuery), chromedp.WaitVisible(`g.wf-node`, chromedp.ByQuery))
	var hash string
	p.eval("the address", `location.hash`, &hash)
	wfID := strings.TrimPrefix(hash, "#/w/")
	canvas := func() canvasView {
		var c canvasView
		getJSONAuth(t, base+"/api/v1/workflows/"+wfID+"/canvas", token, &c)
		return c
	}
	start := canvas()
	p.until("the notices badge", `document.getElementById("notices-count") !== null`)
	before := p.badge()
	readable(t, p)
	shot("workflow")

	// 2. The assistant adds an approval step before the event day: a real
	// approval node, on the canvas.
	p.say("在活动当天之前加一个审批步骤", 1)
	p.until("the approval on the canvas", `document.querySelector("g.wf-node.t-approval") !== null`)
	var approval canvasNode
	for _, n := range canvas().Nodes {
		if n.Type == "approval" {
			approval = n
		}
	}
	if approval.ID == "" || len(canvas().Nodes) != len(start.Nodes)+1 {
		t.Fatalf("the assistant added no approval node: %+v", canvas().Nodes)
	}
	p.run("the chat in view", chromedp.ScrollIntoView(`#wf-chat`, chromedp.ByQuery))
	shot("chat")

	// 3. Run it: the approval waits for this person.
	if byChat {
		p.say("开始执行", 2)
	} else {
		p.run("运行", chromedp.ScrollIntoView(`#wf-run`, chromedp.ByQuery), chromedp.Click(`#wf-run`, chromedp.ByQuery))
	}
	p.until("the approval runs", fmt.Sprintf(`document.querySelector('g.wf-node[data-node=%q][data-status="running"]') !== null`, approval.ID))
	p.until("the twins' steps are done", `document.querySelectorAll('g.wf-node[data-simulated="true"]').length > 0`)
	shot("running")

	// 4. Notified: one more notice on the badge, the approval's, with its
	// time; 待我审批 counts one.
	p.until("the approval's notice on the badge", fmt.Sprintf(`!document.getElementById("notices-count").hidden && +document.getElementById("notices-count").textContent > %d`, before))
	p.until("待我审批 counts it", `document.getElementById("approvals-count").textContent === "1" && !document.getElementById("approvals-count").hidden`)
	var when string
	p.run("the notices' dropdown", chromedp.ScrollIntoView(`#notices-button`, chromedp.ByQuery), chromedp.Click(`#notices-button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#notices-list li[data-kind="approval.waiting"] .notice-time`, chromedp.ByQuery),
		chromedp.Text(`#notices-list li[data-kind="approval.waiting"] .notice-time`, &when, chromedp.ByQuery))
	if !regexp.MustCompile(`^(刚刚|\d+ 分钟前|\d\d:\d\d)$`).MatchString(when) {
		t.Fatalf("the notice's time reads %q", when)
	}
	shot("notice")
	p.run("close the dropdown", chromedp.Click(`#notices-button`, chromedp.ByQuery), chromedp.WaitNotVisible(`#notices-menu`, chromedp.ByQuery))

	// 5. 待我审批: the plan's title and the step; approved with a comment.
	const comment = "预算和日期都没问题，同意"
	item := fmt.Sprintf(`#approvals li[data-workflow=%q][data-node=%q]`, wfID, approval.ID)
	var listed string
	p.run("the 待我审批 page", chromedp.Click(`a[data-nav="approvals"]`, chromedp.ByQuery),
		chromedp.WaitVisible(item+` button.approve`, chromedp.ByQuery),
		chromedp.Text(item+` .approval-workflow`, &listed, chromedp.ByQuery),
		chromedp.SendKeys(item+` textarea.approval-comment`, comment, chromedp.ByQuery))
	if listed != start.Title {
		t.Fatalf("待我审批 shows the plan as %q, want %q", listed, start.Title)
	}
	shot("approvals")
	p.run("approve", chromedp.Click(item+` button.approve`, chromedp.ByQuery),
		chromedp.WaitVisible(item+`[data-answered="approved"] .approval-done`, chromedp.ByQuery),
		chromedp.WaitNotVisible(`#approvals-count`, chromedp.ByQuery))

	// 6. Back to the plan: it completes, and the assistant says so.
	// The answered item re-renders: its link is found and clicked in one
	// step in the page, so the click never holds a node that was replaced.
	p.run("back to the plan", chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).click()`, item+` .approval-workflow`), nil),
		chromedp.WaitVisible(`g.wf-node`, chromedp.ByQuery))
	p.until("the plan completes", `document.querySelector('#wf-status[data-status="completed"]') !== null`)
	p.until("the assistant's report", `[...document.querySelectorAll('#wf-chat-log li[data-report="true"]')].some(li => li.textContent.includes("已完成"))`)
	p.run("the chat in view", chromedp.ScrollIntoView(`#wf-chat-log li[data-report="true"]:last-child`, chromedp.ByQuery))
	shot("report")
	if c := canvas(); c.Status != "completed" || c.node(approval.ID).Status != "completed" {
		t.Fatalf("on the server: workflow %s, approval %s", c.Status, c.node(approval.ID).Status)
	}
	whatPeopleRead(t, p)
	if suffix != "" {
		canvasGestures(t, p)
	}
}

// badge is the notices badge's count (0 when hidden).
func (b *browserTab) badge() int {
	b.t.Helper()
	var text string
	b.eval("the notices badge", `document.getElementById("notices-count").hidden ? "0" : document.getElementById("notices-count").textContent`, &text)
	n, _ := strconv.Atoi(text)
	return n
}

// say sends a message to the assistant and waits for its reply (the
// n-th of the person's turns done).
func (b *browserTab) say(text string, n int) {
	b.t.Helper()
	b.run("say "+text, chromedp.ScrollIntoView(`#wf-chat-input`, chromedp.ByQuery),
		chromedp.SetValue(`#wf-chat-input`, text, chromedp.ByQuery), chromedp.Click(`#wf-chat-send`, chromedp.ByQuery))
	b.until("the reply to "+text, fmt.Sprintf(`document.querySelectorAll('#wf-chat-log li.me[data-done="true"] .wf-reply').length >= %d`, n))
}

// readable checks that the canvas's node text is drawn at 12 px or more.
func readable(t *testing.T, b *browserTab) {
	t.Helper()
	var smallest float64
	b.eval("the canvas's smallest text", `Math.min(...[...document.querySelectorAll("g.wf-node text")].map(el =>
		parseFloat(getComputedStyle(el).fontSize) * +document.getElementById("wf-canvas").dataset.zoom))`, &smallest)
	if smallest < 11.99 { // (the zoom is read to three decimals)
		t.Fatalf("the canvas's text is drawn at %.1f px", smallest)
	}
}

// whatPeopleRead checks the texts of the plan's page: the chat names no
// tool and says no "ok:", the report is the assistant's, no canvas node
// shows an agent id, and a twin's result is marked 模拟 on the canvas and
// in the editor.
func whatPeopleRead(t *testing.T, b *browserTab) {
	t.Helper()
	var chat []string
	b.eval("the chat's messages", `[...document.querySelectorAll("#wf-chat-log li")].map(li => li.innerText)`, &chat)
	for _, m := range chat {
		for _, bad := range append([]string{"ok:"}, consoleTools...) {
			if strings.Contains(m, bad) {
				t.Fatalf("a chat message reads %q (%s)", m, bad)
			}
		}
	}
	var reportWho, others string
	b.eval("who the report is", `[...document.querySelectorAll('#wf-chat-log li[data-report="true"] .who')].map(w => w.textContent).join(",")`, &reportWho)
	b.eval("the others' turns", `[...document.querySelectorAll("#wf-chat-log li.other")].map(li => li.innerText).join("\n")`, &others)
	if reportWho == "" || strings.Trim(strings.ReplaceAll(reportWho, "助手", ""), ",") != "" || others != "" {
		t.Fatalf("the reports are said by %q; turns of others: %q", reportWho, others)
	}
	var nodes []string
	b.eval("the canvas's texts", `[...document.querySelectorAll("g.wf-node")].map(g => g.textContent)`, &nodes)
	for _, n := range nodes {
		if strings.Contains(n, "user_agent_") {
			t.Fatalf("a canvas node reads %q", n)
		}
	}
	var marked string
	b.run("a twin's step in the editor",
		chromedp.Evaluate(`document.querySelector('g.wf-node[data-simulated="true"] .wf-sim').textContent`, &marked),
		chromedp.Click(`g.wf-node[data-simulated="true"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#wf-node-state .wf-result[data-simulated="true"]`, chromedp.ByQuery))
	if marked != "模拟" {
		t.Fatalf("a twin's step is marked %q", marked)
	}
	b.until("its result says it was simulated", `((document.querySelector("#wf-node-state .wf-result") || {}).textContent || "").includes("模拟")`)
	b.run("close the editor", chromedp.Click(`#wf-panel-close`, chromedp.ByQuery))
}

// canvasGestures checks the canvas on a phone: a drag on its background
// pans it, the + button and the wheel zoom it, a two-finger pinch zooms
// it out.
func canvasGestures(t *testing.T, b *browserTab) {
	t.Helper()
	zoom := func() float64 {
		var z float64
		b.eval("the zoom", `+document.getElementById("wf-canvas").dataset.zoom`, &z)
		return z
	}
	var at []float64 // a spot of the canvas's background, right in the frame (the drag goes left)
	b.run("the canvas in view", chromedp.ScrollIntoView(`#wf-canvas-frame`, chromedp.ByQuery))
	b.eval("a background spot", `(() => { const r = document.getElementById("wf-canvas-frame").getBoundingClientRect();
		for (let y = Math.max(r.top, 0) + 20; y < r.bottom - 20; y += 10) for (let x = r.right - 20; x > r.left + 150; x -= 10) {
			const el = document.elementFromPoint(x, y);
			if (el && el.id === "wf-canvas") return [x, y];
		}
		return [r.left + 5, r.top + 5]; })()`, &at)
	var scroll0, scroll1 float64
	b.eval("the frame's scroll", `document.getElementById("wf-canvas-frame").scrollLeft`, &scroll0)
	held := func(p *input.DispatchMouseEventParams) *input.DispatchMouseEventParams {
		return p.WithButton(input.Left).WithButtons(1)
	}
	x, y := at[0], at[1]
	b.run("drag the background", chromedp.MouseEvent(input.MousePressed, x, y, held, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.MouseMoved, x-40, y, held), chromedp.MouseEvent(input.MouseMoved, x-120, y, held),
		chromedp.MouseEvent(input.MouseReleased, x-120, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	b.eval("the frame's scroll", `document.getElementById("wf-canvas-frame").scrollLeft`, &scroll1)
	if scroll1-scroll0 < 60 {
		var dbg string
		b.eval("debug", `JSON.stringify({sw: document.getElementById("wf-canvas-frame").scrollWidth, cw: document.getElementById("wf-canvas-frame").clientWidth, w: document.getElementById("wf-canvas").getAttribute("width"), z: document.getElementById("wf-canvas").dataset.zoom, r: document.getElementById("wf-canvas-frame").getBoundingClientRect()})`, &dbg)
		t.Fatalf("a drag on the background at %v panned the canvas from %v to %v (%s)", at, scroll0, scroll1, dbg)
	}
	z0 := zoom()
	b.run("zoom in", chromedp.Click(`#wf-zoom-in`, chromedp.ByQuery))
	if z1 := zoom(); z1 <= z0 {
		t.Fatalf("+ zoomed from %v to %v", z0, z1)
	}
	z1 := zoom()
	b.run("the wheel", chromedp.ActionFunc(func(ctx context.Context) error {
		return input.DispatchMouseEvent(input.MouseWheel, x, y).WithDeltaX(0).WithDeltaY(300).Do(ctx)
	}))
	if z2 := zoom(); z2 >= z1 {
		t.Fatalf("the wheel down zoomed from %v to %v", z1, z2)
	}
	z2 := zoom()
	touch := func(typ input.TouchType, pts ...float64) chromedp.Action {
		var points []*input.TouchPoint
		for i := 0; i+1 < len(pts); i += 2 {
			points = append(points, &input.TouchPoint{X: pts[i], Y: pts[i+1], ID: float64(i/2 + 1)})
		}
		return input.DispatchTouchEvent(typ, points)
	}
	var mid []float64 // the frame's middle: both fingers on the canvas
	b.eval("the frame's middle", `(() => { const r = document.getElementById("wf-canvas-frame").getBoundingClientRect();
		return [(r.left + r.right) / 2, (Math.max(r.top, 0) + Math.min(r.bottom, innerHeight)) / 2]; })()`, &mid)
	cx, cy := mid[0], mid[1]
	b.run("pinch", emulation.SetTouchEmulationEnabled(true).WithMaxTouchPoints(2),
		touch(input.TouchStart, cx-80, cy, cx+80, cy), touch(input.TouchMove, cx-60, cy, cx+60, cy), touch(input.TouchMove, cx-30, cy, cx+30, cy),
		touch(input.TouchEnd))
	if z3 := zoom(); z3 >= z2 {
		t.Fatalf("a pinch in zoomed from %v to %v", z2, z3)
	}
	b.shot("loop-canvas-zoomed-phone")
}
