package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// formNode is the part of a canvas node the node form test reads.
type formNode struct {
	ID             string            `json:"id"`
	Type           string            `json:"type"`
	Title          string            `json:"title"`
	URL            string            `json:"url"`
	Method         string            `json:"method"`
	Body           map[string]string `json:"body"`
	TimeoutSeconds int               `json:"timeout_seconds"`
	MaxAttempts    int               `json:"max_attempts"`
	WaitUntil      time.Time         `json:"wait_until"`
	Approver       string            `json:"approver"`
}

// TestNodeFormsInBrowser drives the canvas's form for the node types with
// fields of their own, in headless Chromium against a real `towow serve`
// (http nodes allowed to hooks.example.com): an http node with a URL the
// server refuses shows the refusal under the URL field; with an allowed
// URL, the method PUT, a body of two rows, a timeout and a number of
// attempts it is added as typed (a body referencing a step that does not
// run before it is refused under the body first); edited, a URL off the
// allow list is refused under the URL, and GET is saved without the
// body. A wait node takes its time; an approval node an approver, a
// refused one shown under the approver field. Screenshots
// (.towow/screenshots): node-form-http.png, node-form-refused.png,
// node-form-phone.png.
func TestNodeFormsInBrowser(t *testing.T) {
	chrome, _, s, base, shots := browserServer(t, "TOWOW_HTTP_ALLOW=hooks.example.com")
	const user = "forms"
	token := s.token(t, user)
	var sub struct {
		DemandID string `json:"demand_id"`
	}
	postJSON(t, base+"/api/v1/demand/submit", token, map[string]string{"raw_input": "我想在北京办一场AI主题聚会，需要场地和嘉宾"},
		http.StatusAccepted, &sub)
	wfID := "wf-" + strings.TrimPrefix(sub.DemandID, "d-")
	nodes := func() map[string]formNode {
		var c struct {
			Nodes []formNode `json:"nodes"`
		}
		getJSONAuth(t, base+"/api/v1/workflows/"+wfID+"/canvas", token, &c)
		out := map[string]formNode{}
		for _, n := range c.Nodes {
			out[n.Title] = n
		}
		return out
	}
	waitFor(t, "the agreement's workflow", func() bool {
		var out struct {
			Workflows []struct{} `json:"workflows"`
		}
		getJSONAuth(t, base+"/api/v1/workflows?demand_id="+sub.DemandID, token, &out)
		return len(out.Workflows) == 1
	})
	const first = "task-1" // the plan's first task: a body value references its summary

	ctx := newBrowser(t, chrome, 1366, 900, 3*time.Minute)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	b := &browserTab{t: t, name: "forms", ctx: ctx, shots: shots, srv: s}
	b.run("open the plan", chromedp.EmulateViewport(1366, 900), signIn(base, user), visit(base+"/#/w/"+wfID), chromedp.WaitVisible(`g.wf-node`, chromedp.ByQuery))
	// choose picks an option of a select by its label's start (the types'
	// labels come from the server) and says it changed.
	choose := func(sel, label string) chromedp.Action {
		return chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector(%q);
			s.value = [...s.options].find(o => o.textContent.startsWith(%q)).value; s.dispatchEvent(new Event("change")); })()`, sel, label), nil)
	}
	refusal := func(field string) string { // the refusal under the field of input field
		var text string
		b.eval("the refusal under "+field, fmt.Sprintf(`document.querySelector(%q).closest(".wf-field").querySelector(".wf-field-error").textContent`, field), &text)
		return text
	}

	// 1. An http node: a URL off the allow list is refused under the URL.
	b.run("a new http node",
		chromedp.Click(`#wf-add`, chromedp.ByQuery), chromedp.WaitVisible(`#wf-new-type`, chromedp.ByQuery),
		choose(`#wf-new-type`, "HTTP"),
		chromedp.WaitVisible(`#wf-new-url`, chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-title`, "通知报名系统", chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-url`, "https://elsewhere.example.org/hook", chromedp.ByQuery),
		chromedp.WaitEnabled(`#wf-new-save`, chromedp.ByQuery), chromedp.Click(`#wf-new-save`, chromedp.ByQuery),
		chromedp.WaitVisible(`.wf-field.refused #wf-new-url`, chromedp.ByQuery))
	if r := refusal("#wf-new-url"); !strings.Contains(r, "不在允许调用的名单上") {
		t.Fatalf("the URL's refusal: %q", r)
	}
	b.run("the refusal in view", chromedp.ScrollIntoView(`#wf-new-url`, chromedp.ByQuery))
	b.shot("node-form-refused")
	// A body value may reference an earlier step only: the first task is
	// not before the new node, and the refusal stands under the body.
	body := func(venue string) chromedp.Action {
		return chromedp.Evaluate(fmt.Sprintf(`(() => { const rows = () => document.querySelectorAll("#wf-new-body .wf-body-row");
			while (rows().length < 2) document.getElementById("wf-new-body-add").click();
			rows()[0].querySelector(".wf-body-key").value = "event"; rows()[0].querySelector(".wf-body-value").value = "AI 聚会";
			rows()[1].querySelector(".wf-body-key").value = "venue"; rows()[1].querySelector(".wf-body-value").value = %q; })()`, venue), nil)
	}
	b.run("an allowed URL, PUT, a body referencing a step not before it, a timeout and attempts",
		chromedp.SetValue(`#wf-new-url`, "https://hooks.example.com/towow", chromedp.ByQuery),
		choose(`#wf-new-method`, "PUT"),
		body("{{nodes."+first+".summary}}"),
		chromedp.SetValue(`#wf-new-timeout`, "20", chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-attempts`, "2", chromedp.ByQuery),
		chromedp.WaitEnabled(`#wf-new-save`, chromedp.ByQuery), chromedp.Click(`#wf-new-save`, chromedp.ByQuery),
		chromedp.WaitVisible(`.wf-field.refused #wf-new-body`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`.wf-field.refused #wf-new-url`, chromedp.ByQuery))
	if r := refusal("#wf-new-body"); !strings.Contains(r, "引用了前面步骤没有提供的数据") {
		t.Fatalf("the body's refusal: %q", r)
	}
	b.run("the body in view", chromedp.ScrollIntoView(`#wf-new-body`, chromedp.ByQuery))
	b.shot("node-form-http")
	b.run("add it with a plain body", body("望京会议室"), chromedp.WaitEnabled(`#wf-new-save`, chromedp.ByQuery), chromedp.Click(`#wf-new-save`, chromedp.ByQuery),
		chromedp.WaitVisible(`g.wf-node[data-title="通知报名系统"]`, chromedp.ByQuery))
	h := nodes()["通知报名系统"]
	if h.Type != "http" || h.URL != "https://hooks.example.com/towow" || h.Method != "PUT" || h.TimeoutSeconds != 20 || h.MaxAttempts != 2 ||
		len(h.Body) != 2 || h.Body["venue"] != "望京会议室" {
		t.Fatalf("the http node on the server: %+v", h)
	}

	// 2. Edited: a URL off the allow list is refused under the URL; GET
	// (which sends no body) saved, its body taken off.
	node := fmt.Sprintf(`g.wf-node[data-node=%q]`, h.ID)
	b.run("edit its URL", chromedp.Click(node, chromedp.ByQuery), chromedp.WaitVisible(`#wf-edit-url`, chromedp.ByQuery),
		chromedp.SetValue(`#wf-edit-url`, "https://elsewhere.example.org/towow", chromedp.ByQuery),
		chromedp.WaitEnabled(`#wf-edit-save`, chromedp.ByQuery), chromedp.Click(`#wf-edit-save`, chromedp.ByQuery), chromedp.WaitVisible(`.wf-field.refused #wf-edit-url`, chromedp.ByQuery))
	if r := refusal("#wf-edit-url"); !strings.Contains(r, "不在允许调用的名单上") {
		t.Fatalf("the edited URL's refusal: %q", r)
	}
	b.run("GET on the allowed URL", chromedp.SetValue(`#wf-edit-url`, "https://hooks.example.com/towow?q=1", chromedp.ByQuery),
		choose(`#wf-edit-method`, "GET"), chromedp.WaitNotVisible(`#wf-edit-body`, chromedp.ByQuery),
		chromedp.WaitEnabled(`#wf-edit-save`, chromedp.ByQuery), chromedp.Click(`#wf-edit-save`, chromedp.ByQuery), chromedp.WaitNotPresent(`#wf-edit-form`, chromedp.ByQuery))
	waitFor(t, "the GET on the server", func() bool {
		n := nodes()["通知报名系统"]
		return n.Method == "GET" && len(n.Body) == 0 && n.URL == "https://hooks.example.com/towow?q=1"
	})

	// 3. A wait node takes its time; an approval its approver.
	b.run("a wait node", chromedp.Click(`#wf-add`, chromedp.ByQuery), chromedp.WaitVisible(`#wf-new-type`, chromedp.ByQuery),
		choose(`#wf-new-type`, "等待"), chromedp.WaitVisible(`#wf-new-wait-until`, chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-title`, "等到报名截止", chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-wait-until`, "2031-05-20T09:30", chromedp.ByQuery),
		chromedp.WaitEnabled(`#wf-new-save`, chromedp.ByQuery), chromedp.Click(`#wf-new-save`, chromedp.ByQuery), chromedp.WaitVisible(`g.wf-node[data-title="等到报名截止"]`, chromedp.ByQuery))
	var local string
	b.eval("the browser's reading of the time", `new Date("2031-05-20T09:30").toISOString()`, &local)
	if w := nodes()["等到报名截止"]; w.Type != "wait" || w.WaitUntil.UTC().Format(time.RFC3339) != strings.Replace(local, ".000Z", "Z", 1) {
		t.Fatalf("the wait node on the server: %+v (want %s)", w, local)
	}
	b.run("an approval node", chromedp.Click(`#wf-add`, chromedp.ByQuery), chromedp.WaitVisible(`#wf-new-type`, chromedp.ByQuery),
		choose(`#wf-new-type`, "审批"), chromedp.WaitVisible(`#wf-new-approver`, chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-title`, "预算审批", chromedp.ByQuery),
		chromedp.SetValue(`#wf-new-approver`, "bob smith", chromedp.ByQuery),
		chromedp.WaitEnabled(`#wf-new-save`, chromedp.ByQuery), chromedp.Click(`#wf-new-save`, chromedp.ByQuery), chromedp.WaitVisible(`.wf-field.refused #wf-new-approver`, chromedp.ByQuery))
	if r := refusal("#wf-new-approver"); !strings.Contains(r, "审批人需要是一个用户") {
		t.Fatalf("the approver's refusal: %q", r)
	}
	b.run("a user id", chromedp.SetValue(`#wf-new-approver`, "bob", chromedp.ByQuery), chromedp.WaitEnabled(`#wf-new-save`, chromedp.ByQuery), chromedp.Click(`#wf-new-save`, chromedp.ByQuery),
		chromedp.WaitVisible(`g.wf-node[data-title="预算审批"]`, chromedp.ByQuery))
	if a := nodes()["预算审批"]; a.Type != "approval" || a.Approver != "bob" {
		t.Fatalf("the approval node on the server: %+v", a)
	}
	var meta string
	b.eval("the approval's line", `document.querySelector('g.wf-node[data-title="预算审批"] .wf-node-sub').textContent`, &meta)
	if !strings.Contains(meta, "bob") {
		t.Fatalf("the approval's node reads %q", meta)
	}
	b.run("phone size", chromedp.EmulateViewport(390, 844), chromedp.Click(node, chromedp.ByQuery), chromedp.WaitVisible(`#wf-edit-url`, chromedp.ByQuery))
	b.shot("node-form-phone")
}
