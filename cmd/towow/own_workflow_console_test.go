package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestOwnWorkflowInBrowser: a person starts a workflow of their own on the
// home page, with no negotiation, from the 审批流程 template; builds on it
// by talking to the assistant (an approval step before 完成 comes on
// top of the template's); runs it and approves both steps in words in
// the chat; the assistant reports the run's end. The home page then lists
// it, completed. Screenshots: own-workflow.png (the chat), own-workflow-
// home.png (the list).
func TestOwnWorkflowInBrowser(t *testing.T) {
	chrome, _, s, base, shots := browserServer(t)
	bctx := newBrowser(t, chrome, 1366, 900, 3*time.Minute)
	if err := chromedp.Run(bctx); err != nil {
		t.Fatal(err)
	}
	p := &browserTab{t: t, name: "own-workflow", ctx: bctx, shots: shots, srv: s}
	p.run("sign in", chromedp.EmulateViewport(1366, 900), signIn(base, "qiu"))
	p.run("the home page's form", chromedp.Navigate(base+"/"), chromedp.WaitReady(`#new-workflow-template option[value="approval"]`, chromedp.ByQuery),
		chromedp.SetValue(`#new-workflow-template`, "approval", chromedp.ByQuery),
		chromedp.SendKeys(`#new-workflow-title`, "新品发布审批", chromedp.ByQuery),
		chromedp.Click(`#new-workflow`, chromedp.ByQuery),
		chromedp.WaitVisible(`g.wf-node`, chromedp.ByQuery))
	var hash, title, back string
	p.eval("the address", `location.hash`, &hash)
	p.eval("the title", `document.querySelector("h1").textContent`, &title)
	p.eval("the way back", `document.querySelector("#wf-back") ? document.querySelector("#wf-back").textContent : ""`, &back)
	if !strings.HasPrefix(hash, "#/w/wf-") || !strings.Contains(title, "新品发布审批") {
		t.Fatalf("after 新建: at %s, titled %q", hash, title)
	}
	wfID := strings.TrimPrefix(hash, "#/w/")
	p.until("the template's three steps", `document.querySelectorAll("g.wf-node").length === 3`)

	p.say("在完成之前加一个法务审批步骤", 1)
	p.until("the new approval on the canvas", `document.querySelectorAll("g.wf-node.t-approval").length === 2`)
	p.say("开始执行", 2)
	p.until("the first approval waits", `document.querySelector('g.wf-node[data-node="approve"][data-status="running"]') !== null`)
	p.say("批准审批，材料齐全", 3)
	p.until("it is approved", `document.querySelector('g.wf-node[data-node="approve"][data-status="completed"]') !== null`)
	p.until("the second approval waits", `document.querySelectorAll('g.wf-node.t-approval[data-status="running"]').length === 1`)
	p.say("批准法务审批", 4)
	p.until("the plan completes", `document.querySelector('#wf-status[data-status="completed"]') !== null`)
	p.until("the assistant's report", `[...document.querySelectorAll('#wf-chat-log li[data-report="true"]')].some(li => li.textContent.includes("已完成"))`)
	p.run("the chat in view", chromedp.ScrollIntoView(`#wf-chat`, chromedp.ByQuery))
	p.shot("own-workflow")
	var chat []string
	p.eval("the chat's messages", `[...document.querySelectorAll("#wf-chat-log li")].map(li => li.innerText)`, &chat)
	for _, m := range chat {
		for _, bad := range append([]string{"ok:", "wf-", "approve"}, consoleTools...) {
			if strings.Contains(m, bad) {
				t.Fatalf("a chat message reads %q (%s)", m, bad)
			}
		}
	}

	p.run("home", chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`#own-workflows li[data-workflow="`+wfID+`"]`, chromedp.ByQuery))
	var listed string
	p.eval("the list", `document.querySelector('#own-workflows li[data-workflow="`+wfID+`"]').textContent`, &listed)
	if !strings.Contains(listed, "新品发布审批") || !strings.Contains(listed, "已完成") || !strings.Contains(listed, "4 步") {
		t.Fatalf("the home page lists it as %q", listed)
	}
	p.run("the list in view", chromedp.ScrollIntoView(`#own-workflows-card`, chromedp.ByQuery))
	p.shot("own-workflow-home")
}
