package api_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/api"
	"github.com/towow/towow/app"
	"github.com/towow/towow/data"
	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/database"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
	"github.com/towow/towow/personal"
	"github.com/towow/towow/projections"
)

type testAPI struct {
	url    string
	store  *eventstore.Store
	pool   *pgxpool.Pool
	runner *projections.Runner
	engine *app.WriteSide
}

// newAPI runs the real write side (builtin brain, real River, real database)
// behind the real HTTP handler.
func newAPI(t *testing.T) *testAPI {
	t.Helper()
	return newAPIOn(t, dbtest.NewURL(t))
}

// newAPIOn is newAPI on a given database (several "processes" may share it).
func newAPIOn(t *testing.T, url string) *testAPI {
	t.Helper()
	return newAPIWith(t, url, apiOptions{})
}

// apiOptions vary the test server.
type apiOptions struct {
	profiles        []negotiation.AgentProfile // default: the embedded mock profiles
	rules           negotiation.Rules          // default: the design's
	sseWriteTimeout time.Duration              // default: the server's
	bodyTimeout     time.Duration              // default: the server's
	logger          *slog.Logger               // default: none
	noWorkers       bool                       // insert-only write side: nothing runs after a command
	offlineAfter    time.Duration              // default: presence.DefaultOfflineAfter
	limits          api.Limits                 // default: none
	people          *identity.Authority        // default: testPeople (local mode)
	httpAllow       []string                   // hosts http nodes and webhooks may call (default: none)
}

// testAdminToken is the test servers' admin token.
const testAdminToken = "test-admin-token-0123456789"

func newAPIWith(t *testing.T, url string, o apiOptions) *testAPI {
	t.Helper()
	if url == "" {
		url = dbtest.NewURL(t)
	}
	ctx := context.Background()
	pool, err := database.Open(ctx, url, database.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	keys := personal.New(pool, nil) // personal texts sealed at rest, revealed by the API, as served
	store := eventstore.New(pool, eventstore.Options{Personal: keys})
	m := metrics.New()
	client := llm.NewClient(llm.Config{Provider: builtin.New(), OnCall: m.LLMCall})
	dir := directory.NewDirectory(store)
	e, err := app.NewWriteSide(pool, store, dir, client, !o.noWorkers, app.WriteConfig{Observe: m.Observe, Rules: o.rules, OfflineAfter: o.offlineAfter,
		HTTPAllow: o.httpAllow, Personal: keys})
	if err != nil {
		t.Fatal(err)
	}
	cmds := e.Commands
	profiles := o.profiles
	if profiles == nil {
		profiles, _ = negotiation.ParseProfiles(data.MockProfiles)
	}
	if _, err := cmds.RegisterProfiles(ctx, profiles, "test", false); err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	n := eventstore.NewNotifier(pool.Config().ConnConfig, nil)
	go func() { _ = n.Run(runCtx) }()
	hub := eventstore.NewHub(store, n, eventstore.HubOptions{Capacity: 64})
	go func() { _ = hub.Run(runCtx) }()
	runner := projections.NewRunner(pool, store, n, nil)
	for _, p := range projections.All() {
		go runner.RunForever(runCtx, p)
	}
	if !o.noWorkers {
		if err := e.Start(runCtx); err != nil {
			t.Fatal(err)
		}
	}
	m.Watch(metrics.Sources{Pool: pool, BreakerOpen: func() bool { return client.BreakerState() == "open" }})
	queries := projections.NewQueries(runner, pool)
	queries.Reveal = store.Reveal
	srv := httptest.NewServer((&api.Server{DB: pool, Commands: cmds, Events: store, Personal: keys,
		Status: testStatus{client: client, rules: e.Rules(), pool: pool}, Notifier: n, Hub: hub, Heartbeat: 50 * time.Millisecond,
		SSEWriteTimeout: o.sseWriteTimeout, BodyTimeout: o.bodyTimeout, Metrics: m, ReadModels: queries, AdminToken: testAdminToken,
		Logger: o.logger, People: cmp.Or(o.people, testPeople), Limits: o.limits}).Handler())
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		sctx, c := context.WithTimeout(ctx, 10*time.Second)
		defer c()
		_ = e.Stop(sctx)
		cancel()
	})
	return &testAPI{url: srv.URL, store: store, pool: pool, runner: runner, engine: e}
}

// readProblem reads and closes resp's body as a problem (zero when it is
// not one).
func readProblem(resp *http.Response) problemBody {
	defer resp.Body.Close()
	var p problemBody
	_ = json.NewDecoder(resp.Body).Decode(&p)
	return p
}

// testStatus is the status source of the test servers.
type testStatus struct {
	client *llm.Client
	rules  negotiation.Rules
	pool   *pgxpool.Pool
}

func (s testStatus) LLMProvider() string      { return s.client.ProviderName() }
func (s testStatus) LLMBreaker() string       { return s.client.BreakerState() }
func (s testStatus) Rules() negotiation.Rules { return s.rules }
func (s testStatus) Jobs(ctx context.Context) (map[string]int64, error) {
	return metrics.RiverJobs(ctx, s.pool)
}

func (a *testAPI) submit(t *testing.T, text string) (demandID, channelID string) {
	t.Helper()
	return a.submitAs(t, "u1", text)
}

// submitAs submits text as user.
func (a *testAPI) submitAs(t *testing.T, user, text string) (demandID, channelID string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"raw_input": text, "user_id": user})
	resp, err := http.Post(a.url+"/api/v1/demand/submit", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		DemandID  string `json:"demand_id"`
		ChannelID string `json:"channel_id"`
		Status    string `json:"status"`
		Cursor    int64  `json:"cursor"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusAccepted ||
		out.Status != "processing" || out.Cursor <= 0 || !strings.HasPrefix(out.DemandID, "d-") {
		t.Fatalf("submit: %d %+v %v", resp.StatusCode, out, err)
	}
	return out.DemandID, out.ChannelID
}

// message is one SSE message.
type message struct {
	id int64
	ev api.Event
}

// openStream opens a negotiation's stream (query: extra parameters, e.g.
// "format=bridge") from a resume point (lastID, as Last-Event-ID with
// header, else as last_event_id; 0: from the start); the stream ends after
// within, or when the returned close is called (the caller defers it). It
// fails the test unless the answer is an event stream.
func (a *testAPI) openStream(t *testing.T, demandID, query string, lastID int64, header bool, within time.Duration) (*bufio.Scanner, func()) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, a.url+"/api/v1/events/negotiations/"+demandID+"/stream", nil)
	q := req.URL.Query()
	if query != "" {
		q, _ = url.ParseQuery(query)
	}
	if lastID > 0 {
		if header {
			req.Header.Set("Last-Event-ID", strconv.FormatInt(lastID, 10))
		} else {
			q.Set("last_event_id", strconv.FormatInt(lastID, 10))
		}
	}
	req.URL.RawQuery = q.Encode()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	closeStream := func() { _ = resp.Body.Close(); cancel() }
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		closeStream()
		t.Fatalf("stream: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return sc, closeStream
}

// follow reads a negotiation stream from a resume point until stop says so
// (or the root completes), returning every message in order.
func (a *testAPI) follow(t *testing.T, demandID string, lastID int64, header bool, stop func([]message) bool) []message {
	t.Helper()
	sc, closeStream := a.openStream(t, demandID, "", lastID, header, 60*time.Second)
	defer closeStream()
	var out []message
	var cur message
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			cur.id, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[6:]), &cur.ev); err != nil {
				t.Fatalf("data %q: %v", line, err)
			}
		case line == "" && cur.id > 0:
			out = append(out, cur)
			cur = message{}
			if stop(out) || rootDone(out[len(out)-1], demandID) {
				return out
			}
		}
	}
	t.Fatalf("stream ended after %d messages: %v", len(out), sc.Err())
	return nil
}

func rootDone(m message, demandID string) bool {
	return m.ev.EventType == string(negotiation.EventChannelClosed) && // the last event of the completion's commit
		m.ev.StreamID == negotiation.ChannelStream(negotiation.ChannelIDFor(demandID))
}

// TestSubmitAndStream submits the sample demand over HTTP and follows its
// negotiation live to the end: the stream is exactly the stored log of the
// tree, in order, with the cursor as SSE id.
func TestSubmitAndStream(t *testing.T) {
	a := newAPI(t)
	demandID, _ := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	got := a.follow(t, demandID, 0, true, func([]message) bool { return false })
	want, err := a.store.ReadAll(context.Background(), 0, eventstore.Filter{CorrelationID: demandID}, eventstore.MaxReadLimit)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("streamed %d events, the store holds %d", len(got), len(want))
	}
	for i := range got {
		if got[i].id != want[i].Position || got[i].ev.Cursor != want[i].Position || got[i].ev.EventID != want[i].EventID.String() {
			t.Fatalf("message %d: id %d event %s, want %d %s", i, got[i].id, got[i].ev.EventID, want[i].Position, want[i].EventID)
		}
	}
}

// TestStreamResume disconnects at random points and reconnects with
// Last-Event-ID (header or query): the union of the pieces is exactly the
// full ordered log, with no gap and no duplicate.
func TestStreamResume(t *testing.T) {
	a := newAPI(t)
	demandID, _ := a.submit(t, "上海周末办一个50人的产品经理交流会，需要场地、主持和茶歇")
	full := a.follow(t, demandID, 0, true, func([]message) bool { return false })
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for trial := range 5 {
		var union []message
		var last int64
		for piece := 0; ; piece++ {
			n := 1 + rng.IntN(max(1, len(full)/3))
			part := a.follow(t, demandID, last, piece%2 == 0, func(ms []message) bool { return len(ms) >= n })
			union = append(union, part...)
			last = part[len(part)-1].id
			if rootDone(part[len(part)-1], demandID) {
				break
			}
		}
		if len(union) != len(full) {
			t.Fatalf("trial %d: resumed pieces hold %d events, the full stream %d", trial, len(union), len(full))
		}
		for i := range union {
			if union[i].id != full[i].id {
				t.Fatalf("trial %d: event %d is %d, want %d", trial, i, union[i].id, full[i].id)
			}
		}
	}
}

func TestAPIErrors(t *testing.T) {
	a := newAPI(t)
	postAs := func(auth, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, a.url+"/api/v1/demand/submit", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	post := func(body string) *http.Response { return postAs("", body) }
	get := func(path string, header ...string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, a.url+path, nil)
		if len(header) == 2 {
			req.Header.Set(header[0], header[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	tests := []struct {
		name   string
		resp   func() *http.Response
		status int
		code   string
	}{
		{"empty demand", func() *http.Response { return post(`{"raw_input":"  ","user_id":"u"}`) }, 422, "TOWOW_DEMAND_002"},
		{"demand too long", func() *http.Response {
			return post(`{"raw_input":"` + strings.Repeat("长", 10001) + `","user_id":"u"}`)
		}, 422, "TOWOW_DEMAND_001"},
		{"someone else's user_id", func() *http.Response {
			return postAs("Bearer "+userToken(t, "u1"), `{"raw_input":"x","user_id":"u2"}`)
		}, 422, "TOWOW_AUTH_003"},
		{"no credentials", func() *http.Response { return postAs(noCredentials, `{"raw_input":"x"}`) }, 401, "TOWOW_AUTH_001"},
		{"a forged token", func() *http.Response { return postAs("Bearer "+userToken(t, "u1")+"x", `{"raw_input":"x"}`) }, 401, "TOWOW_AUTH_001"},
		{"not json", func() *http.Response { return post(`{raw`) }, 400, "TOWOW_REQUEST_001"},
		{"body too large", func() *http.Response {
			return post(`{"raw_input":"` + strings.Repeat("a", 70<<10) + `","user_id":"u"}`)
		}, 413, "TOWOW_REQUEST_002"},
		{"unknown demand stream", func() *http.Response { return get("/api/v1/events/negotiations/d-000000/stream") }, 404, "TOWOW_NOT_FOUND"},
		{"bad Last-Event-ID", func() *http.Response { return get("/api/v1/events/stream", "Last-Event-ID", "abc") }, 400, "TOWOW_REQUEST_001"},
		{"unknown channel", func() *http.Response { return get("/api/v1/channels/collab-nope/state") }, 404, "TOWOW_NOT_FOUND"},
		{"limit out of range", func() *http.Response { return get("/api/v1/events?limit=5000") }, 422, "TOWOW_REQUEST_001"},
		{"unknown demand", func() *http.Response { return get("/api/v1/demands/d-000000") }, 404, "TOWOW_NOT_FOUND"},
		{"unknown channel (read model)", func() *http.Response { return get("/api/v1/channels/collab-nope/offers") }, 404, "TOWOW_NOT_FOUND"},
		{"bad proposal version", func() *http.Response { return get("/api/v1/channels/collab-nope/feedback?proposal_version=-1") }, 422, "TOWOW_REQUEST_001"},
		{"bad demand status", func() *http.Response { return get("/api/v1/demands?status=done") }, 422, "TOWOW_REQUEST_001"},
		{"demands limit out of range", func() *http.Response { return get("/api/v1/demands?limit=501") }, 422, "TOWOW_REQUEST_001"},
		{"unknown api path", func() *http.Response { return get("/api/v1/nope") }, 404, "TOWOW_NOT_FOUND"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := tc.resp()
			p := readProblem(resp)
			if resp.StatusCode != tc.status || p.Code != tc.code || resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("%d %s %+v, want %d %s problem+json", resp.StatusCode, resp.Header.Get("Content-Type"), p, tc.status, tc.code)
			}
		})
	}
	// Nothing was written by the refused submissions.
	evs, _ := a.store.ReadAll(context.Background(), 0, eventstore.Filter{Types: []event.EventType{negotiation.EventDemandSubmitted}}, 10)
	if len(evs) != 0 {
		t.Fatalf("%d demands written by bad requests", len(evs))
	}
}

// TestAuditAndTimeTravel queries the audit log with filters and pages, and
// folds a channel at earlier cursors.
func TestAuditAndTimeTravel(t *testing.T) {
	a := newAPI(t)
	demandID, channelID := a.submit(t, "在深圳组织一次前端开发workshop，需要讲师和会议室")
	full := a.follow(t, demandID, 0, true, func([]message) bool { return false })

	var page struct {
		Events     []api.Event
		NextCursor int64 `json:"next_cursor"`
	}
	getJSON := func(path string, v any) int {
		resp, err := http.Get(a.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_ = json.NewDecoder(resp.Body).Decode(v)
		return resp.StatusCode
	}
	// Paging through the tree 7 at a time gives the stream back.
	var paged []api.Event
	for after := int64(0); ; {
		page.Events, page.NextCursor = nil, 0
		if code := getJSON(fmt.Sprintf("/api/v1/events?demand_id=%s&limit=7&after=%d", demandID, after), &page); code != 200 {
			t.Fatalf("audit: %d", code)
		}
		paged = append(paged, page.Events...)
		if page.NextCursor == 0 {
			break
		}
		after = page.NextCursor
	}
	if len(paged) != len(full) {
		t.Fatalf("paged %d events, streamed %d", len(paged), len(full))
	}
	page.Events = nil
	getJSON("/api/v1/events?demand_id="+demandID+"&type_prefix=towow.offer.submitted&limit=1000", &page)
	for _, e := range page.Events {
		if e.EventType != "towow.offer.submitted" || !strings.HasPrefix(e.Metadata.Actor, "agent:") {
			t.Fatalf("type filter returned %s by %s", e.EventType, e.Metadata.Actor)
		}
	}
	if len(page.Events) == 0 {
		t.Fatal("no offers found")
	}

	// Time travel: at the first proposal the channel negotiated round 1.
	var first int64
	for _, m := range full {
		if m.ev.EventType == "towow.proposal.distributed" && m.ev.StreamID == negotiation.ChannelStream(channelID) {
			first = m.id
			break
		}
	}
	var st api.ChannelState
	if code := getJSON(fmt.Sprintf("/api/v1/channels/%s/state?at=%d", channelID, first), &st); code != 200 ||
		st.Round != 1 || st.Proposal == nil || st.Proposal.Version != 1 || st.Cursor != first || st.Completed {
		t.Fatalf("state at %d: %d %+v", first, code, st)
	}
	st = api.ChannelState{}
	if code := getJSON("/api/v1/channels/"+channelID+"/state", &st); code != 200 || !st.Completed || !st.Status.IsTerminal() {
		t.Fatalf("state now: %d %+v", code, st)
	}
}

// TestReplay re-emits a finished negotiation: the same events in the same
// order, spaced at least by the original gaps divided by the speed.
func TestReplay(t *testing.T) {
	a := newAPI(t)
	demandID, _ := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	full := a.follow(t, demandID, 0, true, func([]message) bool { return false })
	span := full[len(full)-1].ev.Timestamp.Sub(full[0].ev.Timestamp)
	for _, speed := range []float64{0, 4} {
		start := time.Now()
		resp, err := http.Get(fmt.Sprintf("%s/api/v1/negotiations/%s/replay?speed=%g", a.url, demandID, speed))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body) // the stream closes by itself
		resp.Body.Close()
		took := time.Since(start)
		ids := regexpIDs(string(body))
		if len(ids) != len(full) {
			t.Fatalf("speed %g: replayed %d events, want %d", speed, len(ids), len(full))
		}
		for i, id := range ids {
			if id != full[i].id {
				t.Fatalf("speed %g: event %d is %d, want %d", speed, i, id, full[i].id)
			}
		}
		if speed > 0 && took < span/time.Duration(speed) {
			t.Fatalf("speed %g took %s, the timing says at least %s", speed, took, span/time.Duration(speed))
		}
	}
	resp, _ := http.Get(a.url + "/api/v1/negotiations/d-nope/replay")
	if resp.StatusCode != 404 {
		t.Fatalf("unknown replay: %d", resp.StatusCode)
	}
	resp.Body.Close()
}

func regexpIDs(body string) []int64 {
	var out []int64
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "id: ") {
			n, _ := strconv.ParseInt(line[4:], 10, 64)
			out = append(out, n)
		}
	}
	return out
}

// TestTwoProcesses runs two API servers, each with its own engine, River
// client and LISTEN connection, on one database: a demand submitted on A is
// worked by either and watched live, to the end, on B.
func TestTwoProcesses(t *testing.T) {
	url := dbtest.NewURL(t)
	a := newAPIOn(t, url)
	b := newAPIOn(t, url)
	demandID, _ := a.submit(t, "成都办一场摄影展开幕活动，需要场地、摄影师和餐饮")
	got := b.follow(t, demandID, 0, true, func([]message) bool { return false })
	want, _ := b.store.ReadAll(context.Background(), 0, eventstore.Filter{CorrelationID: demandID}, eventstore.MaxReadLimit)
	if len(got) != len(want) {
		t.Fatalf("B streamed %d events, the store holds %d", len(got), len(want))
	}
}

// TestReadyz: ready once the read model has caught up; 503 while it trails
// by more than MaxLag.
func TestReadyz(t *testing.T) {
	ctx := context.Background()
	pool, err := database.Open(ctx, dbtest.NewURL(t), database.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	store := eventstore.New(pool, eventstore.Options{})
	runner := projections.NewRunner(pool, store, nil, nil)
	srv := httptest.NewServer((&api.Server{DB: pool, Ready: api.Readiness{MaxLag: 2,
		Lag: func(ctx context.Context) (map[string]int64, error) { return runner.Lag(ctx, "streams") }}}).Handler())
	defer srv.Close()
	status := func() int {
		resp, err := http.Get(srv.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status(); got != 200 {
		t.Fatalf("empty log: %d", got)
	}
	for i := range 5 {
		ev := eventstore.EventData{Type: "towow.test.happened", Payload: []byte(fmt.Sprintf(`{"i":%d}`, i))}
		if _, err := store.Append(ctx, "s", eventstore.AnyVersion, ev); err != nil {
			t.Fatal(err)
		}
	}
	if got := status(); got != 503 {
		t.Fatalf("5 events behind: %d, want 503", got)
	}
	if _, err := runner.CatchUp(ctx, projections.Streams{}); err != nil {
		t.Fatal(err)
	}
	if got := status(); got != 200 {
		t.Fatalf("caught up: %d", got)
	}
}
