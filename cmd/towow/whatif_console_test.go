package main

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// whatIfDemand is the part of GET /api/v1/demands/{id} the what-if test
// reads: the outcome and the final plan's assignees.
type whatIfDemand struct {
	Status        string `json:"status"`
	RoundsTaken   int    `json:"rounds_taken"`
	FinalProposal *struct {
		Assignments []struct {
			AgentID string `json:"agent_id"`
		} `json:"assignments"`
	} `json:"final_proposal"`
}

// TestWhatIfInBrowser drives the console's "what if" in
// headless Chromium against a real `towow serve`: the form offers every
// change the fork endpoint takes; a negotiation of two rounds is forked
// from its replay slider at the first proposal without one of the final
// plan's assignees; the compare view shows the plans differ and the
// fork's participants lack that agent, every agent by name; the fork's
// page links back to the comparison; a fork with no change from the same
// point has the same plan, with every LLM answer reused and no provider
// call; a fork with a rule changed (the form's rule fields) says so in
// words on its page; a fork after the end is refused in the form with
// its code; the history page marks the forks 分叉 with a link to the
// original, counts the participants as the comparison does, and compares
// two ticked demands. Screenshots go to .towow/screenshots
// (whatif-form.png, compare.png).
func TestWhatIfInBrowser(t *testing.T) {
	chrome, _, s, base, shots := browserServer(t)
	const user = "whatif_console"
	token := s.token(t, user)

	// A negotiation the builtin brain settles in round 2, ended.
	var sub struct {
		DemandID string `json:"demand_id"`
		Cursor   int64  `json:"cursor"`
	}
	postJSON(t, base+"/api/v1/demand/submit", token, map[string]string{"raw_input": "上海周末办一个50人的产品经理交流会，需要场地、主持和茶歇"},
		http.StatusAccepted, &sub)
	orig := sub.DemandID
	var d whatIfDemand
	waitFor(t, "the negotiation ends", func() bool {
		getJSONAuth(t, fmt.Sprintf("%s/api/v1/demands/%s?min_cursor=%d", base, orig, sub.Cursor), token, &d) // read-your-writes
		return d.Status != "processing"
	})
	if d.RoundsTaken < 2 || d.FinalProposal == nil {
		t.Fatalf("the negotiation: %+v; the test needs an agreement after round 1 to fork before", d)
	}
	// The fork point: the root channel's first proposal (no sub-negotiation
	// starts before the root agrees, so it is the tree's first).
	var proposals struct {
		Events []struct {
			Cursor  int64 `json:"cursor"`
			Payload struct {
				Proposal struct {
					Version     int `json:"version"`
					Assignments []struct {
						AgentID string `json:"agent_id"`
					} `json:"assignments"`
				} `json:"proposal"`
			} `json:"payload"`
		} `json:"events"`
	}
	getJSONAuth(t, base+"/api/v1/events?demand_id="+orig+"&type=towow.proposal.distributed&limit=1000", token, &proposals)
	if len(proposals.Events) == 0 || proposals.Events[0].Payload.Proposal.Version != 1 {
		t.Fatalf("the negotiation's proposals: %+v", proposals.Events)
	}
	forkAt := proposals.Events[0].Cursor
	// The agent to remove: assigned by the final plan and by the first
	// proposal (it has a part to lose at the fork point).
	var removed string
	for _, a := range d.FinalProposal.Assignments {
		for _, f := range proposals.Events[0].Payload.Proposal.Assignments {
			if removed == "" && f.AgentID == a.AgentID {
				removed = a.AgentID
			}
		}
	}
	if removed == "" {
		t.Fatalf("no assignee of the final plan was in the first proposal")
	}
	t.Logf("negotiation %s: %d rounds; forking at cursor %d without %s", orig, d.RoundsTaken, forkAt, removed)

	bctx := newBrowser(t, chrome, 1300, 1100, 4*time.Minute)
	if err := chromedp.Run(bctx); err != nil { // starts the browser and opens its page
		t.Fatal(err)
	}
	b := &browserTab{t: t, name: "whatif", ctx: bctx, shots: shots, srv: s}
	b.run("sign in as the negotiation's owner", signIn(base, user))
	attr := func(sel, name string) string {
		t.Helper()
		var v string
		var ok bool
		b.run("read "+sel+" "+name, chromedp.AttributeValue(sel, name, &v, &ok, chromedp.ByQuery))
		if !ok {
			t.Fatalf("%s has no %s", sel, name)
		}
		return v
	}
	agents := func(sel string) []string {
		t.Helper()
		var ids string
		b.eval("the agents of "+sel, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.dataset.agent).join(" ")`, sel), &ids)
		return strings.Fields(ids)
	}
	// openWhatIf opens the original's page, moves the replay slider to the
	// event of the slider's data-types at index pos(types) and opens the
	// what-if form there; it returns the cursor the form forks at.
	openWhatIf := func(pos func(types []string) int) string {
		t.Helper()
		b.run("open the negotiation", visit(base+"/#/n/"+orig), chromedp.WaitVisible(`#replay-slider`, chromedp.ByQuery))
		types := strings.Fields(attr(`#replay-slider`, "data-types"))
		i := pos(types)
		b.run("move the slider",
			chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.getElementById("replay-slider"); s.value = %d;
				s.dispatchEvent(new Event("input")); })()`, i), nil),
			chromedp.WaitVisible(`#tt-position`, chromedp.ByQuery),
			chromedp.Click(`#whatif-open`, chromedp.ByQuery),
			chromedp.WaitVisible(`#whatif-form`, chromedp.ByQuery))
		return attr(`#whatif-form`, "data-at")
	}
	atFirstProposal := func(types []string) int {
		i := slices.Index(types, "towow.proposal.distributed")
		if i < 0 {
			t.Fatalf("no proposal among the slider's events: %v", types)
		}
		return i
	}
	// fork submits the open form with a change (set, when given, fills in
	// its fields once the kind is chosen) and waits for the fork's
	// comparison to end; it returns the fork's id.
	fork := func(change string, set func(), screenshot string) string {
		t.Helper()
		b.eval("choose the change", fmt.Sprintf(`(() => { const t = document.getElementById("whatif-type"); t.value = %q;
			t.dispatchEvent(new Event("change")); })()`, change), nil)
		if set != nil {
			set()
		}
		if screenshot != "" {
			b.run("scroll to the form", chromedp.ScrollIntoView(`#whatif-form`, chromedp.ByQuery))
			b.shot(screenshot)
		}
		b.run("submit the fork", chromedp.Click(`#whatif-submit`, chromedp.ByQuery))
		b.until("the fork's comparison", `location.hash.startsWith("#/fork/")`)
		var hash string
		b.eval("the address", `location.hash`, &hash)
		id := strings.TrimPrefix(hash, "#/fork/")
		b.until("both sides end", `document.querySelector('#compare[data-final="true"]') !== null`)
		if l, r := attr(`section.branch[data-side="left"]`, "data-demand"), attr(`section.branch[data-side="right"]`, "data-demand"); l != orig || r != id {
			t.Fatalf("the comparison's sides: %s | %s, want %s | %s", l, r, orig, id)
		}
		// Agents by their names: no agent id on the page.
		var text string
		b.eval("the comparison's text", `document.getElementById("compare").innerText`, &text)
		if strings.Contains(text, "user_agent_") {
			t.Fatalf("the comparison shows an agent id:\n%s", text)
		}
		return id
	}
	// chooseAgent picks the agent of a change that names one.
	chooseAgent := func(agent string) func() {
		return func() {
			var chosen string
			b.run("choose the agent", chromedp.WaitVisible(`#whatif-agent`, chromedp.ByQuery), chromedp.SetValue(`#whatif-agent`, agent, chromedp.ByQuery),
				chromedp.Evaluate(`document.getElementById("whatif-agent").value`, &chosen))
			if chosen != agent {
				t.Fatalf("the form's agents do not list %s (chose %q: %v)", agent, chosen, agents(`#whatif-agent option`))
			}
		}
	}

	// 1. Remove an assignee of the final plan at the first proposal.
	if at := openWhatIf(atFirstProposal); at != strconv.FormatInt(forkAt, 10) {
		t.Fatalf("the form forks at cursor %s, want the first proposal's %d", at, forkAt)
	}
	// The form offers every change the fork endpoint takes.
	var kinds string
	b.eval("the form's changes", `[...document.querySelectorAll("#whatif-type option")].map(o => o.value).join(" ")`, &kinds)
	if kinds != "none remove_agent add_agent replace_offer replace_feedback change_rule change_demand" {
		t.Fatalf("the form offers the changes %q", kinds)
	}
	without := fork("remove_agent", chooseAgent(removed), "whatif-form")
	if same := attr(`#plan-diff`, "data-same"); same != "false" {
		t.Fatalf("fork without %s: #plan-diff data-same=%q", removed, same)
	}
	if l := agents(`section.branch[data-side="left"] .participants [data-agent]`); !slices.Contains(l, removed) {
		t.Fatalf("the original's participants %v lack %s", l, removed)
	}
	if r := agents(`section.branch[data-side="right"] .participants [data-agent]`); len(r) == 0 || slices.Contains(r, removed) {
		t.Fatalf("the fork's participants %v (without %s)", r, removed)
	}
	if r := agents(`#plan-diff [data-kind="removed"] li[data-agent]`); !slices.Contains(r, removed) {
		t.Fatalf("the diff's removed assignments %v lack %s", r, removed)
	}
	b.shot("compare")
	// The fork's own page says where it comes from and links back.
	b.run("open the fork's page", chromedp.Click(`section.branch[data-side="right"] a.open-negotiation`, chromedp.ByQuery),
		chromedp.WaitVisible(`#timeline li[data-type="towow.negotiation.forked"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#fork-link`, chromedp.ByQuery))
	if href := attr(`#fork-link`, "href"); href != "#/fork/"+without {
		t.Fatalf("与原协商对比 links to %q", href)
	}
	// (Clicked from the page's script: the head is drawn again while the
	// fork's events still arrive, and a pointer click can find its link
	// gone from the page.)
	b.run("back to the comparison", chromedp.Evaluate(`document.getElementById("fork-link").click()`, nil),
		chromedp.WaitVisible(`#compare[data-final="true"] #plan-diff[data-same="false"]`, chromedp.ByQuery))

	// 2. No change from the same point: the same plan, every answer reused.
	openWhatIf(atFirstProposal)
	replay := fork("none", nil, "")
	if same := attr(`#plan-diff`, "data-same"); same != "true" {
		t.Fatalf("fork with no change: #plan-diff data-same=%q", same)
	}
	calls, _ := strconv.Atoi(attr(`section.branch[data-side="right"] [data-calls]`, "data-calls"))
	reused, _ := strconv.Atoi(attr(`section.branch[data-side="right"] [data-reused]`, "data-reused"))
	origCalls, _ := strconv.Atoi(attr(`section.branch[data-side="left"] [data-calls]`, "data-calls"))
	if calls != 0 || reused == 0 || origCalls == 0 {
		t.Fatalf("fork with no change: %d provider calls, %d reused (the original: %d calls)", calls, reused, origCalls)
	}

	// 2b. A rule changed from the same point: the form's rule fields; the
	// fork's page says what changed, in words.
	openWhatIf(atFirstProposal)
	ruled := fork("change_rule", func() {
		b.run("one round at most", chromedp.WaitVisible(`#whatif-rule-max-rounds`, chromedp.ByQuery),
			chromedp.SetValue(`#whatif-rule-max-rounds`, "1", chromedp.ByQuery))
	}, "")
	// The page re-renders its head as the fork's events arrive: the note is
	// read once it holds the change (or after the timeout, to show it).
	var note string
	b.run("the ruled fork's page", visit(base+"/#/n/"+ruled),
		chromedp.Poll(`(() => { const t = (document.querySelector(".fork-note") || {}).innerText || ""; return t.includes("最多轮次") && t })()`,
			&note, chromedp.WithPollingTimeout(20*time.Second)))
	if !strings.Contains(note, "最多轮次 1 轮") || strings.Contains(note, orig) {
		t.Fatalf("the fork's note: %q", note)
	}

	// 3. After the end: the server refuses, the form says why.
	openWhatIf(func(types []string) int { return len(types) - 1 })
	var refused, hash string
	b.run("fork after the end",
		chromedp.Click(`#whatif-submit`, chromedp.ByQuery),
		chromedp.WaitVisible(`#whatif-error:not(:empty)`, chromedp.ByQuery),
		chromedp.Text(`#whatif-error`, &refused, chromedp.ByQuery),
		chromedp.Evaluate(`location.hash`, &hash))
	if !strings.Contains(refused, "TOWOW_FORK_001") || hash != "#/n/"+orig {
		t.Fatalf("a fork after the end: %q shown, at %s", refused, hash)
	}

	// 4. History: the forks are marked 分叉 with a link to the original;
	// tick two demands and compare them: the history's participant counts
	// are the comparison's.
	pick := func(id string) string { return fmt.Sprintf(`#demand-table input.compare-pick[data-demand=%q]`, id) }
	b.run("the history", visit(base+"/#/history"), chromedp.WaitVisible(pick(replay), chromedp.ByQuery))
	for _, id := range []string{without, replay, ruled} {
		row := fmt.Sprintf(`#demand-table tr[data-demand=%q]`, id)
		var badge string
		b.run("the fork's row", chromedp.Text(row+` .badge.b-fork`, &badge, chromedp.ByQuery))
		if from, link := attr(row, "data-forked-from"), attr(row+` a.fork-original`, "href"); badge != "分叉" || from != orig || link != "#/n/"+orig {
			t.Fatalf("the fork %s in the history: %q, forked from %q, linked to %q", id, badge, from, link)
		}
	}
	if b.exists(fmt.Sprintf(`#demand-table tr[data-demand=%q] .b-fork`, orig)) {
		t.Fatalf("the original is marked as a fork")
	}
	counts := map[string]string{}
	for _, id := range []string{orig, replay} {
		counts[id] = attr(fmt.Sprintf(`#demand-table tr[data-demand=%q] td.participants-count`, id), "data-count")
	}
	b.run("compare two demands from the history",
		chromedp.Click(pick(orig), chromedp.ByQuery),
		chromedp.Click(pick(replay), chromedp.ByQuery),
		chromedp.Click(`#compare-selected:not([disabled])`, chromedp.ByQuery))
	b.until("the comparison of the two", fmt.Sprintf(`location.hash === %q && document.querySelector('#compare[data-final="true"]') !== null`,
		"#/compare/"+orig+"/"+replay))
	if l, r, same := attr(`section.branch[data-side="left"]`, "data-demand"), attr(`section.branch[data-side="right"]`, "data-demand"),
		attr(`#plan-diff`, "data-same"); l != orig || r != replay || same != "true" {
		t.Fatalf("history comparison: %s | %s, data-same=%q", l, r, same)
	}
	for side, id := range map[string]string{"left": orig, "right": replay} {
		if n := len(agents(`section.branch[data-side="` + side + `"] .participants [data-agent]`)); strconv.Itoa(n) != counts[id] || n == 0 {
			t.Fatalf("%s: the history counts %s participants, the comparison %d", id, counts[id], n)
		}
	}
}

// exists reports whether the page has an element matching sel.
func (b *browserTab) exists(sel string) bool {
	b.t.Helper()
	var ok bool
	b.eval("is there "+sel, fmt.Sprintf(`document.querySelector(%q) !== null`, sel), &ok)
	return ok
}
