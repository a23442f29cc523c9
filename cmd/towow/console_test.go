package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/towow/towow/data"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/pgcluster"
)

// chromiumPath finds the browser the console test drives (Debian's
// chromium, installed by scripts/ensure-chromium.sh from `make test`).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH: `make test` installs it with scripts/ensure-chromium.sh (as root)")
	}
	t.Skip("no chromium on PATH; run scripts/ensure-chromium.sh (as root) or `make test`")
	return ""
}

// screenshotDir is where the console test saves its screenshots
// (git-ignored): .towow/screenshots at the repository root.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".towow", "screenshots"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browserServer starts `towow serve` on an embedded database of its own
// for a browser test (env adds to its environment): the browser to drive,
// the database's folder (a restarted server reuses it), the server, its
// base URL and where screenshots go.
func browserServer(t *testing.T, env ...string) (chrome, dataDir string, s *server, base, shots string) {
	t.Helper()
	chrome = chromiumPath(t)
	dataDir = traversableTempDir(t)
	t.Cleanup(func() { _ = pgcluster.Stop(context.Background(), filepath.Join(dataDir, "pg")) })
	s = startServer(t, append([]string{"TOWOW_DATA_DIR=" + dataDir}, env...)...)
	return chrome, dataDir, s, "http://" + s.addr, screenshotDir(t)
}

// newBrowser starts headless Chromium (chrome) with a w×h window (and the
// more options) and returns its first tab's context, which ends after within or with the
// test (a new tab: chromedp.NewContext of it).
func newBrowser(t *testing.T, chrome string, w, h int, within time.Duration, more ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	// A loaded machine can take longer than chromedp's default 20 s to
	// start Chromium.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(w, h), chromedp.WSURLReadTimeout(time.Minute))
	opts = append(opts, more...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(bctx, within)
	t.Cleanup(func() { cancel(); cancelBrowser(); cancelAlloc() })
	return ctx
}

// visit opens url, an address of the console: by setting the location's
// hash when the page is on the console already (the router answers the
// hashchange), otherwise by navigating. chromedp.Navigate to an address
// that differs only in its hash now and then waits for a load that a
// same-document navigation never fires, until its context ends.
func visit(url string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var same bool
		js := fmt.Sprintf(`(() => { const u = new URL(%q); if (location.origin + location.pathname !== u.origin + u.pathname || u.hash === "") return false; location.hash = u.hash; return true })()`, url)
		if err := chromedp.Evaluate(js, &same).Do(ctx); err != nil {
			return err
		}
		if same {
			return nil
		}
		return chromedp.Navigate(url).Do(ctx)
	})
}

// signIn signs the page in on the console's sign-in view (local mode) as
// name: the header then shows the name and 退出.
func signIn(base, name string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(base + "/"),
		chromedp.WaitVisible(`#signin[data-mode="local"] #signin-name`, chromedp.ByQuery),
		chromedp.SendKeys(`#signin-name`, name, chromedp.ByQuery),
		chromedp.Click(`#signin-submit`, chromedp.ByQuery),
		chromedp.WaitVisible(`#sign-out`, chromedp.ByQuery),
		chromedp.WaitVisible(`#app .card`, chromedp.ByQuery),
	}
}

// TestConsoleInBrowser drives the console in headless Chromium against a
// real `towow serve` on the embedded database: sign in on the sign-in
// view (a refused name first); submit a demand and
// see the outcome; reload in the middle of a negotiation (held open by an
// external agent that has not answered yet), restart the server under the
// open page (EventSource reconnects with Last-Event-ID), and find the
// timeline without duplicates or holes; stop the server for longer than
// the reconnect policy lasts and resume with the page's retry control; move the replay slider of a finished negotiation
// back to an earlier round's proposal; list the agent directory; read the
// operations view; sign out, and the sign-in view is back. Screenshots go
// to .towow/screenshots.
func TestConsoleInBrowser(t *testing.T) {
	const admin = "console-test-admin-token"
	chrome, dataDir, s, base, shots := browserServer(t, "TOWOW_ADMIN_TOKEN="+admin)

	ctx := newBrowser(t, chrome, 1200, 860, 4*time.Minute)
	if err := chromedp.Run(ctx); err != nil { // starts the browser on ctx itself: a step's timeout must not close it
		t.Fatal(err)
	}
	// run runs a step within a minute (so that a failure's screenshot and
	// the page's text are taken while the browser still answers).
	run := func(what string, actions ...chromedp.Action) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := chromedp.Run(sctx, actions...); err != nil {
			var b []byte
			var text string
			// The page's text, then the files and API answers it was refused.
			_ = chromedp.Run(ctx, chromedp.FullScreenshot(&b, 100), chromedp.Evaluate(`document.body.innerText + "\n" +
				performance.getEntriesByType("resource").filter(e => e.responseStatus >= 400).map(e => e.responseStatus + " " + e.name).join("\n")`, &text))
			_ = os.WriteFile(filepath.Join(shots, "failure.png"), b, 0o644)
			t.Fatalf("%s: %v (screenshot: %s/failure.png; the page says:\n%s\nserver log:\n%s)", what, err, shots, text, s.log())
		}
	}
	shot := func(name string) {
		t.Helper()
		var b []byte
		run("screenshot "+name, chromedp.CaptureScreenshot(&b))
		if err := os.WriteFile(filepath.Join(shots, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// 0. The sign-in view: local mode asks for a name; one the server
	// refuses is shown with its code; then the person signs in and the
	// header shows their name.
	const user = "console"
	var mode, badName, shown string
	run("the sign-in view",
		visit(base+"/#/history"),
		chromedp.WaitVisible(`#signin #signin-name`, chromedp.ByQuery),
		chromedp.AttributeValue(`#signin`, "data-mode", &mode, nil, chromedp.ByQuery))
	if mode != "local" {
		t.Fatalf("the sign-in view's mode: %q", mode)
	}
	shot("signin")
	run("a name the server refuses",
		chromedp.SendKeys(`#signin-name`, "a b", chromedp.ByQuery),
		chromedp.Click(`#signin-submit`, chromedp.ByQuery),
		chromedp.WaitVisible(`#signin-error:not(:empty)`, chromedp.ByQuery),
		chromedp.Text(`#signin-error`, &badName, chromedp.ByQuery))
	if !strings.Contains(badName, "TOWOW_AUTH_004") {
		t.Fatalf("a refused name shows %q", badName)
	}
	run("sign in", signIn(base, user), chromedp.Text(`#account-name`, &shown, chromedp.ByQuery))
	if shown != user {
		t.Fatalf("the header shows %q, want %q", shown, user)
	}
	token := mintToken(t, dataDir, user) // the same person, for the API calls below

	// 1. Submit a demand from the home page; the outcome appears.
	var outcome, hash string
	run("submit a demand",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`button.example`, chromedp.ByQuery),
		chromedp.Click(`button.example`, chromedp.ByQuery),
		// A demand the builtin brain settles in round 2, so that the replay
		// below has a later proposal to move back from.
		chromedp.SetValue(`#demand-input`, "上海周末办一个50人的产品经理交流会，需要场地、主持和茶歇", chromedp.ByQuery),
		chromedp.Click(`#submit-demand`, chromedp.ByQuery),
		chromedp.WaitVisible(`#outcome`, chromedp.ByQuery),
		chromedp.AttributeValue(`#outcome`, "data-outcome", &outcome, nil, chromedp.ByQuery),
		// Its quality scores, fetched when it ends.
		chromedp.WaitVisible(`#quality[data-final="true"]`, chromedp.ByQuery),
		chromedp.Evaluate(`location.hash`, &hash))
	if outcome != "finalized" && outcome != "force_finalized" && outcome != "failed" {
		t.Fatalf("outcome %q", outcome)
	}
	// Each proposal shows its success criteria and risks.
	var criteria, risks int
	run("the proposal's success criteria and risks",
		chromedp.Evaluate(`document.querySelectorAll("[data-proposal-version] .criteria li").length`, &criteria),
		chromedp.Evaluate(`document.querySelectorAll("[data-proposal-version] .risks li").length`, &risks))
	if criteria == 0 || risks == 0 {
		t.Fatalf("proposals show %d success criteria and %d risks", criteria, risks)
	}
	first := strings.TrimPrefix(hash, "#/n/")
	shot("negotiation")
	t.Logf("demand %s: %s", first, outcome)

	// 2. An external agent holds the next negotiation open until it offers
	// (it matches every tag of the demand, so smart filtering invites it).
	ext := negotiation.AgentProfile{AgentID: "user_agent_console_ext", UserName: "外部场地方", Location: "北京",
		ProfileSummary: "在北京望京有40人会议室，常办AI沙龙，也做演讲嘉宾和活动策划。", Tags: []string{"场地提供", "演讲嘉宾", "活动策划"},
		Capabilities: map[string]string{"场地": "望京40人会议室", "演讲": "AI应用落地"}, Interests: []string{"AI"},
		Availability: "周末全天", Mode: negotiation.AgentModeExternal}
	var created struct{ Token string }
	postJSON(t, base+"/api/v1/agents", admin, ext, http.StatusCreated, &created)
	var sub struct {
		DemandID string `json:"demand_id"`
		Cursor   int64  `json:"cursor"`
	}
	postJSON(t, base+"/api/v1/demand/submit", token, map[string]string{"raw_input": "我想在北京办一场AI主题聚会，需要场地和嘉宾"},
		http.StatusAccepted, &sub)
	var before int
	run("open the running negotiation",
		visit(base+"/#/n/"+sub.DemandID),
		chromedp.WaitVisible(`li[data-type="towow.offer.submitted"]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#timeline li").length`, &before))
	run("reload in the middle", chromedp.Reload(), chromedp.WaitVisible(`li[data-type="towow.offer.submitted"]`, chromedp.ByQuery))
	waitFor(t, "the channel waits for the external agent's offer", func() bool {
		var inbox struct {
			Tasks []struct {
				Kind      string `json:"kind"`
				ChannelID string `json:"channel_id"`
			} `json:"tasks"`
		}
		getJSONAuth(t, base+"/api/v1/agent/inbox", created.Token, &inbox)
		return len(inbox.Tasks) == 1 && inbox.Tasks[0].Kind == "offer"
	})
	var channel string
	{
		var inbox struct {
			Tasks []struct {
				ChannelID string `json:"channel_id"`
			} `json:"tasks"`
		}
		getJSONAuth(t, base+"/api/v1/agent/inbox", created.Token, &inbox)
		channel = inbox.Tasks[0].ChannelID
	}
	shot("negotiation-waiting")
	// The server restarts while the page follows: the browser's EventSource
	// reconnects by itself, sending Last-Event-ID, and goes on from there.
	env := []string{"TOWOW_DATA_DIR=" + dataDir, "TOWOW_ADMIN_TOKEN=" + admin}
	s.stop(t)
	var reconnecting string
	run("the page notices the dropped stream",
		chromedp.WaitVisible(`#banner.info`, chromedp.ByQuery), chromedp.Text(`#banner`, &reconnecting, chromedp.ByQuery))
	s = startServerAt(t, s.addr, env...)
	run("the stream reconnects", chromedp.WaitNotVisible(`#banner`, chromedp.ByQuery))
	// Down for longer than the reconnect policy lasts (5 attempts; the
	// first wait shortened to 200 ms for the test): the page stops trying,
	// says so with a retry control, and the control resumes the stream.
	run("a short reconnect policy", chromedp.Evaluate(`localStorage.setItem("towow.sse.delay", "200")`, nil), chromedp.Reload(),
		chromedp.WaitVisible(`li[data-type="towow.offer.submitted"]`, chromedp.ByQuery))
	s.stop(t)
	var lost string
	run("the page gives up and offers to retry", chromedp.WaitVisible(`#banner.lost #reconnect`, chromedp.ByQuery),
		chromedp.Text(`#banner`, &lost, chromedp.ByQuery))
	if !strings.Contains(lost, "5") {
		t.Fatalf("the lost connection's message: %q", lost)
	}
	s = startServerAt(t, s.addr, env...)
	run("retry resumes the stream", chromedp.Click(`#reconnect`, chromedp.ByQuery), chromedp.WaitNotVisible(`#banner`, chromedp.ByQuery),
		chromedp.Evaluate(`localStorage.removeItem("towow.sse.delay")`, nil))
	postJSON(t, base+"/api/v1/channels/"+channel+"/offers", created.Token,
		map[string]string{"decision": "decline", "decline_reason": "那周场地已被预订"}, http.StatusCreated, nil)
	waitFor(t, "the negotiation ends", func() bool {
		var d struct{ Status string }
		getJSONAuth(t, base+"/api/v1/demands/"+sub.DemandID, token, &d)
		return d.Status != "processing"
	})
	want := negotiationCursors(t, base, sub.DemandID, token)
	var cursorsText string
	run("the page receives the whole tree after the reload",
		chromedp.WaitVisible(`#outcome`, chromedp.ByQuery),
		chromedp.WaitVisible(fmt.Sprintf(`#timeline li[data-cursor="%d"]`, want[len(want)-1]), chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll("#timeline li")].map(li => li.dataset.cursor).join(",")`, &cursorsText))
	got := parseCursors(t, cursorsText)
	if !slices.Equal(got, want) {
		t.Fatalf("timeline after a reload and a server restart mid-negotiation (%d items before the reload): %d items, want the log's %d\n got %v\nwant %v",
			before, len(got), len(want), got, want)
	}
	// Each line of the timeline is the server's: the type's label from the
	// event catalog and the event's summary (timeline.Describe's).
	var lines []string
	run("the timeline's lines", chromedp.Evaluate(`[...document.querySelectorAll("#timeline li")].map(li => li.children[1].textContent)`, &lines))
	if wantLines := timelineLines(t, base, sub.DemandID, token); !slices.Equal(lines, wantLines) {
		t.Fatalf("timeline lines:\n got %q\nwant %q", lines, wantLines)
	}

	// 3. Replay: the slider moved back shows an earlier proposal.
	var types string
	run("open the finished negotiation",
		visit(base+"/#/n/"+first),
		chromedp.WaitVisible(`#replay-slider`, chromedp.ByQuery),
		chromedp.AttributeValue(`#replay-slider`, "data-types", &types, nil, chromedp.ByQuery),
		chromedp.WaitVisible(`#tt-version`, chromedp.ByQuery))
	var last string
	run("the latest state", chromedp.AttributeValue(`#tt-version`, "data-version", &last, nil, chromedp.ByQuery))
	firstProposal := slices.Index(strings.Fields(types), "towow.proposal.distributed")
	if firstProposal < 0 {
		t.Fatalf("no proposal among the replay's events: %s", types)
	}
	var earlier string
	run("move the slider back",
		chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.getElementById("replay-slider"); s.value = %d;
			s.dispatchEvent(new Event("input")); })()`, firstProposal), nil),
		chromedp.WaitVisible(`#tt-version[data-version="1"]`, chromedp.ByQuery),
		chromedp.AttributeValue(`#tt-version`, "data-version", &earlier, nil, chromedp.ByQuery))
	if earlier != "1" || last == "" {
		t.Fatalf("replay: version %q at the first proposal, %q at the end", earlier, last)
	}
	if n, _ := strconv.Atoi(last); n <= 1 {
		t.Fatalf("the negotiation's last proposal is v%s; the test needs a later round to move back from", last)
	}
	run("scroll to the replay", chromedp.ScrollIntoView(`#replay`, chromedp.ByQuery))
	shot("replay")

	// 3b. An unclear demand is rejected with its questions; answering them
	// on the page starts a new, linked demand that negotiates to an outcome.
	var reason, clarified string
	run("clarify a rejected demand",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`#demand-input`, chromedp.ByQuery),
		chromedp.SetValue(`#demand-input`, "x", chromedp.ByQuery),
		chromedp.Click(`#submit-demand`, chromedp.ByQuery),
		jsData(`#rejection`, "reason", &reason),
		jsSetValue(`#clarify-input`, "下周在上海拍产品照片，需要一位摄影师"), // nothing the held-open external agent offers
		jsClick(`#clarify-submit`),
		jsData(`#outcome`, "outcome", &clarified))
	if reason != "unclear" || (clarified != "finalized" && clarified != "force_finalized" && clarified != "failed") {
		t.Fatalf("rejection %q, clarified negotiation %q", reason, clarified)
	}
	shot("clarified")

	// 4. The agent directory lists the 100 profiles (and the external one).
	var ids, online string
	run("agent directory",
		visit(base+"/#/agents"),
		chromedp.WaitVisible(`#agents .agent`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll("#agents .agent")].map(a => a.dataset.agent).join(" ")`, &ids),
		// The external agent answered over the API: it is online.
		chromedp.Evaluate(`(document.querySelector('[data-agent="user_agent_console_ext"] .presence') || {dataset: {}}).dataset.online`, &online))
	if online != "true" {
		t.Fatalf("the external agent's presence in the directory: %q, want online", online)
	}
	profiles, _ := negotiation.ParseProfiles(data.MockProfiles)
	listed := strings.Fields(ids)
	for _, p := range profiles {
		if !slices.Contains(listed, p.AgentID) {
			t.Fatalf("agent %s missing from the directory (%d listed)", p.AgentID, len(listed))
		}
	}
	if len(listed) != len(profiles)+1 {
		t.Fatalf("%d agents listed, want %d", len(listed), len(profiles)+1)
	}
	shot("agents")

	// 5. Operations view; a bad request's error is shown as a message.
	var provider, errText string
	run("operations view",
		visit(base+"/#/ops"),
		chromedp.WaitVisible(`#llm-provider`, chromedp.ByQuery),
		chromedp.Text(`#llm-provider`, &provider, chromedp.ByQuery))
	if provider != "builtin" {
		t.Fatalf("ops view provider %q", provider)
	}
	// River UI from the operations view: a wrong token is refused with a
	// message; the admin token opens River UI's own page, whose API then
	// answers this browser (the session cookie), and its jobs list shows
	// this server's negotiation steps.
	var loginErr, riverTitle, jobsStatus string
	run("River UI refuses a wrong token",
		chromedp.SendKeys(`#riverui-token`, "not-the-admin-token-0000", chromedp.ByQuery),
		chromedp.Click(`#riverui-login`, chromedp.ByQuery),
		chromedp.WaitVisible(`#riverui .error:not(:empty)`, chromedp.ByQuery),
		chromedp.Text(`#riverui .error`, &loginErr, chromedp.ByQuery))
	if !strings.Contains(loginErr, "TOWOW_AUTH_001") {
		t.Fatalf("River UI login with a wrong token: %q", loginErr)
	}
	run("River UI login with the admin token",
		chromedp.SetValue(`#riverui-token`, admin, chromedp.ByQuery),
		chromedp.Click(`#riverui-login`, chromedp.ByQuery))
	for deadline := time.Now().Add(20 * time.Second); ; { // the page navigates: ask until River UI's page answers
		var path string
		err := chromedp.Run(ctx, chromedp.Evaluate(`location.pathname + "|" + document.readyState`, &path))
		if err == nil && strings.HasPrefix(path, "/riverui/") && strings.HasSuffix(path, "|complete") { // River UI routes on to /riverui/jobs
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("River UI's page not reached after the login (at %q)", path)
		}
		time.Sleep(100 * time.Millisecond)
	}
	run("River UI's page and API answer the browser",
		chromedp.Poll(`document.body.innerText.includes("Jobs") && document.title`, &riverTitle, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.Evaluate(`fetch("/riverui/api/jobs?state=completed&limit=5").then(r => r.status + " " + r.headers.get("content-type"))`, &jobsStatus,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if !strings.HasPrefix(jobsStatus, "200 application/json") {
		t.Fatalf("River UI's API from the browser after the login: %q (page %q)", jobsStatus, riverTitle)
	}
	shot("riverui")
	run("an empty demand is refused with a readable message",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`#submit-demand`, chromedp.ByQuery),
		chromedp.Click(`#submit-demand`, chromedp.ByQuery),
		chromedp.WaitVisible(`form .error:not(:empty)`, chromedp.ByQuery),
		chromedp.Text(`form .error`, &errText, chromedp.ByQuery))
	if !strings.Contains(errText, "TOWOW_DEMAND_002") {
		t.Fatalf("error shown: %q", errText)
	}

	// 6. A phone-sized screen.
	run("phone size", chromedp.EmulateViewport(390, 844), visit(base+"/#/n/"+first), chromedp.WaitVisible(`#outcome`, chromedp.ByQuery))
	shot("negotiation-phone")

	// 7. 退出: the sign-in view is back (on the phone: its screenshot), the
	// pages stay behind it, and the API no longer knows this browser.
	var signedIn bool
	run("sign out",
		chromedp.Click(`#sign-out`, chromedp.ByQuery),
		chromedp.WaitVisible(`#signin #signin-name`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`#outcome`, chromedp.ByQuery),
		chromedp.Evaluate(`fetch("/auth/me").then(r => r.json()).then(m => m.signed_in)`, &signedIn,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if signedIn {
		t.Fatal("GET /auth/me says signed in after 退出")
	}
	var accountHidden bool
	run("the header after 退出", chromedp.Evaluate(`document.getElementById("account").hidden && document.querySelector("header.top nav").hidden`, &accountHidden))
	if !accountHidden {
		t.Fatal("the header still shows the account or the pages' links after 退出")
	}
	shot("signin-phone")
	run("a page's address shows the sign-in view", visit(base+"/#/n/"+first), chromedp.WaitVisible(`#signin #signin-name`, chromedp.ByQuery))

	// 8. An ended session (here: the cookie removed under the open page)
	// brings the sign-in view back at the page's next API answer, a 401.
	run("sign in again", signIn(base, user), visit(base+"/#/ops"), chromedp.WaitVisible(`#llm-provider`, chromedp.ByQuery))
	run("the session ends under the page",
		network.DeleteCookies("towow_session").WithURL(base+"/"),
		chromedp.WaitVisible(`#signin #signin-name`, chromedp.ByQuery))
}

// callJSON sends a request (a JSON body unless body is nil, a bearer token
// unless token is empty), requires the status and decodes the answer into
// out (unless nil).
// jsClick clicks the element sel selects, found at the moment of the
// click and retried until it is there and visible: the console re-renders
// a view as its stream delivers events, so a node found a moment earlier
// may be gone.
func jsClick(sel string) chromedp.Action {
	var done bool
	return chromedp.Poll(fmt.Sprintf(`(() => { const e = document.querySelector(%q);
		if (!e || e.getClientRects().length === 0) return false; e.click(); return true; })()`, sel), &done)
}

// jsSetValue sets the value of the input sel selects (see jsClick).
func jsSetValue(sel, value string) chromedp.Action {
	var done bool
	return chromedp.Poll(fmt.Sprintf(`(() => { const e = document.querySelector(%q);
		if (!e || e.getClientRects().length === 0) return false; e.value = %q; return true; })()`, sel, value), &done)
}

// jsData reads the data attribute name of the element sel selects, once
// it is there with one (see jsClick).
func jsData(sel, name string, out *string) chromedp.Action {
	return chromedp.Poll(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return (e && e.dataset[%q]) || false; })()`, sel, name), out)
}

func callJSON(t *testing.T, method, url, token string, body any, status int, out any) {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, url, nil)
	if rd != nil {
		req, _ = http.NewRequest(method, url, rd)
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b.String())
	}
	if out != nil {
		if err := json.Unmarshal(b.Bytes(), out); err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
	}
}

func postJSON(t *testing.T, url, token string, body any, status int, out any) {
	t.Helper()
	callJSON(t, http.MethodPost, url, token, body, status, out)
}

func getJSONAuth(t *testing.T, url, token string, out any) {
	t.Helper()
	callJSON(t, http.MethodGet, url, token, nil, http.StatusOK, out)
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
	}
}

func parseCursors(t *testing.T, s string) []int64 {
	t.Helper()
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatalf("timeline cursor %q", f)
		}
		out = append(out, n)
	}
	return out
}

// negotiationCursors lists the cursors of a negotiation tree's events from
// the audit API, in log order.
func negotiationCursors(t *testing.T, base, demandID, token string) []int64 {
	t.Helper()
	var out []int64
	for after := int64(0); ; {
		var page struct {
			Events []struct {
				Cursor int64 `json:"cursor"`
			} `json:"events"`
			NextCursor int64 `json:"next_cursor"`
		}
		getJSONAuth(t, fmt.Sprintf("%s/api/v1/events?demand_id=%s&limit=1000&after=%d", base, demandID, after), token, &page)
		for _, e := range page.Events {
			out = append(out, e.Cursor)
		}
		if page.NextCursor == 0 {
			return out
		}
		after = page.NextCursor
	}
}

// timelineLines are a negotiation's timeline lines as the API names its
// events: each type's label from GET /api/v1/events/catalog followed by
// the event's summary.
func timelineLines(t *testing.T, base, demandID, token string) []string {
	t.Helper()
	var cat struct {
		Events []struct{ Type, Label string } `json:"events"`
	}
	getJSONAuth(t, base+"/api/v1/events/catalog", "", &cat)
	labels := map[string]string{}
	for _, e := range cat.Events {
		labels[e.Type] = e.Label
	}
	var page struct {
		Events []struct {
			Type    string `json:"event_type"`
			Summary string `json:"summary"`
		} `json:"events"`
	}
	getJSONAuth(t, fmt.Sprintf("%s/api/v1/events?demand_id=%s&limit=1000", base, demandID), token, &page)
	out := make([]string, len(page.Events))
	for i, e := range page.Events {
		if labels[e.Type] == "" || e.Summary == "" {
			t.Fatalf("%s: label %q, summary %q", e.Type, labels[e.Type], e.Summary)
		}
		out[i] = labels[e.Type] + e.Summary
	}
	return out
}
