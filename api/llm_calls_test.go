package api_test

import (
	"context"
	"encoding/json"
	"maps"
	"math"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/projections"
)

// llmCallPage is the body of GET /api/v1/llm-calls.
type llmCallPage struct {
	Calls      []projections.LLMCallView    `json:"calls"`
	NextCursor int64                        `json:"next_cursor"`
	Summary    []projections.LLMCallSummary `json:"summary"`
}

// TestLLMCalls runs two negotiations (plus a few recorded failures the
// builtin brain never produces), then checks GET /api/v1/llm-calls against
// the log itself: every call in log order with every field, each filter,
// paging, the per-prompt summary, bad parameters, and a rebuild of the
// read model equal to the live build.
func TestLLMCalls(t *testing.T) {
	a := newAPI(t)
	ctx := context.Background()
	var demands []string
	for _, text := range []string{"我想在北京办一场AI主题聚会，需要场地和嘉宾", "在深圳组织一次前端开发workshop，需要讲师和会议室"} {
		id, _ := a.submit(t, text)
		a.follow(t, id, 0, false, func([]message) bool { return false })
		demands = append(demands, id)
	}
	appendFailedCalls(t, a.store, demands[0])
	head, err := a.store.HeadPosition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := llmCallsInLog(t, a.store, head)
	agents, prompts := map[string]bool{}, map[string]bool{}
	for _, c := range want {
		prompts[c.PromptKey] = true
		if c.AgentID != "" {
			agents[c.AgentID] = true
		}
	}
	if len(prompts) < 4 || len(agents) < 2 {
		t.Fatalf("the negotiations made too few kinds of calls to test with: prompts %v, agents %v", prompts, agents)
	}
	mid := want[len(want)/2]

	// Every call, whole and page by page, unfiltered and under each filter:
	// exactly the log's calls that match, and a summary that adds them up.
	all := func(query string) url.Values {
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		q.Set("min_cursor", strconv.FormatInt(head, 10)) // read-your-writes
		return q
	}
	type filterCase struct {
		query string
		match func(projections.LLMCallView) bool
	}
	cases := []filterCase{
		{"", func(projections.LLMCallView) bool { return true }},
		{"demand_id=" + demands[1], func(c projections.LLMCallView) bool { return c.DemandID == demands[1] }},
		{"outcome=ok", func(c projections.LLMCallView) bool { return c.Outcome == event.LLMOutcomeOK }},
		{"outcome=timeout", func(c projections.LLMCallView) bool { return c.Outcome == event.LLMOutcomeTimeout }},
		{"provider=scripted", func(c projections.LLMCallView) bool { return c.Provider == "scripted" }},
		{"fallback_used=true", func(c projections.LLMCallView) bool { return c.FallbackUsed }},
		{"fallback_used=false", func(c projections.LLMCallView) bool { return !c.FallbackUsed }},
		{"since=" + mid.RecordedAt.UTC().Format(time.RFC3339Nano), func(c projections.LLMCallView) bool { return !c.RecordedAt.Before(mid.RecordedAt) }},
		{"before=" + mid.RecordedAt.UTC().Format(time.RFC3339Nano), func(c projections.LLMCallView) bool { return c.RecordedAt.Before(mid.RecordedAt) }},
		{"outcome=ok&fallback_used=false&demand_id=" + demands[0], func(c projections.LLMCallView) bool {
			return c.Outcome == event.LLMOutcomeOK && !c.FallbackUsed && c.DemandID == demands[0]
		}},
	}
	for p := range prompts {
		cases = append(cases, filterCase{"prompt=" + p, func(c projections.LLMCallView) bool { return c.PromptKey == p }})
	}
	// A few of the agents (the failing one among them) are enough.
	ids := slices.DeleteFunc(slices.Sorted(maps.Keys(agents)), func(id string) bool { return id == "faulty_agent" })
	for _, id := range append(ids[:min(3, len(ids))], "faulty_agent") {
		cases = append(cases, filterCase{"agent_id=" + id, func(c projections.LLMCallView) bool { return c.AgentID == id }})
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			var expect []projections.LLMCallView
			for _, c := range want {
				if tc.match(c) {
					expect = append(expect, c)
				}
			}
			if tc.query != "" && (len(expect) == 0 || len(expect) == len(want)) {
				t.Fatalf("filter selects %d of the %d calls: it tests nothing", len(expect), len(want))
			}
			for _, limit := range []int{1000, 7} {
				got, summary := a.listLLMCalls(t, all(tc.query), limit)
				got = slices.DeleteFunc(got, func(c projections.LLMCallView) bool { return c.Cursor > head })
				checkCalls(t, got, expect)
				checkSummary(t, summary, expect)
			}
		})
	}

	// Bad parameters are problems, before any query.
	for _, query := range []string{"limit=0", "limit=1001", "outcome=bogus", "since=notatime", "before=2026-13-01",
		"fallback_used=maybe", "after=-1", "min_cursor=-1"} {
		t.Run("bad "+query, func(t *testing.T) {
			resp, err := http.Get(a.url + "/api/v1/llm-calls?" + query)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var p struct{ Code string }
			_ = json.NewDecoder(resp.Body).Decode(&p)
			if resp.StatusCode != http.StatusUnprocessableEntity || p.Code != "TOWOW_REQUEST_001" ||
				resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("%d %s %+v, want 422 TOWOW_REQUEST_001 problem+json", resp.StatusCode, resp.Header.Get("Content-Type"), p)
			}
		})
	}

	// A rebuild (in SQL) gives the rows the live fold (in Go) built, the
	// failed calls' edge cases included.
	m := projections.LLMCalls{}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := a.runner.WaitFor(wctx, head, m.Name()); err != nil {
		t.Fatal(err)
	}
	live, err := m.Checksum(ctx, a.pool)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.runner.Rebuild(ctx, m); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := m.Checksum(ctx, a.pool)
	if err != nil {
		t.Fatal(err)
	}
	if live.Rows < int64(len(want)) || live != rebuilt {
		t.Fatalf("live %+v, rebuilt %+v (the log holds %d calls up to %d)", live, rebuilt, len(want), head)
	}
}

// appendFailedCalls records calls that failed in every way (and an actor
// "agent:" with no id), which the builtin brain never produces, on a
// stream of their own.
func appendFailedCalls(t *testing.T, store *eventstore.Store, demandID string) {
	t.Helper()
	calls := []struct {
		actor, demand string
		call          event.LLMCall
	}{
		{"agent:faulty_agent", demandID, event.LLMCall{PromptKey: "response_generation", Provider: "scripted", Model: "script-1b",
			LatencyMS: 10000, InputTokens: 812, OutputTokens: 0, Outcome: event.LLMOutcomeTimeout, FallbackUsed: true,
			Error: "context deadline exceeded"}},
		{"agent:", demandID, event.LLMCall{PromptKey: "proposal_feedback", Provider: "scripted", LatencyMS: 35,
			InputTokens: 640, OutputTokens: 120, Outcome: event.LLMOutcomeParseError, FallbackUsed: true, Error: "reply is not JSON"}},
		{event.ActorChannelAdmin, "", event.LLMCall{PromptKey: "proposal_aggregation", Provider: "scripted",
			Outcome: event.LLMOutcomeBreakerOpen, FallbackUsed: true, Error: "circuit breaker open"}},
		{event.ActorCoordinator, demandID, event.LLMCall{PromptKey: "demand_understanding", Provider: "scripted", Model: "script-1b",
			LatencyMS: 2, Outcome: event.LLMOutcomeError, FallbackUsed: true, Error: "HTTP 500"}},
	}
	for _, c := range calls {
		e := eventstore.EventData{Type: "towow.test.llm_call", Payload: []byte(`{}`),
			Metadata: event.Metadata{CorrelationID: c.demand, Actor: c.actor, LLMCall: &c.call}}
		if _, err := store.Append(context.Background(), "test-llm-calls", eventstore.AnyVersion, e); err != nil {
			t.Fatal(err)
		}
	}
}

// listLLMCalls pages through GET /api/v1/llm-calls?q, limit calls at a
// time, checking that the pages follow each other in log order without
// overlap and all carry the same summary. It returns every call and the
// summary.
func (a *testAPI) listLLMCalls(t *testing.T, q url.Values, limit int) ([]projections.LLMCallView, []projections.LLMCallSummary) {
	t.Helper()
	q = maps.Clone(q)
	q.Set("limit", strconv.Itoa(limit))
	var (
		all     []projections.LLMCallView
		summary []projections.LLMCallSummary
		after   int64
	)
	for page := 0; ; page++ {
		if after > 0 {
			q.Set("after", strconv.FormatInt(after, 10))
		}
		var p llmCallPage
		path := "/api/v1/llm-calls?" + q.Encode()
		if st := a.getJSON(t, path, &p); st != http.StatusOK {
			t.Fatalf("GET %s: %d", path, st)
		}
		if page == 0 {
			summary = p.Summary
		} else if !reflect.DeepEqual(p.Summary, summary) {
			t.Fatalf("GET %s: summary %+v, the first page's %+v", path, p.Summary, summary)
		}
		for _, c := range p.Calls {
			if c.Cursor <= after {
				t.Fatalf("GET %s: call at %d after cursor %d (out of order or repeated)", path, c.Cursor, after)
			}
			after = c.Cursor
		}
		all = append(all, p.Calls...)
		switch {
		case len(p.Calls) < limit && p.NextCursor != 0:
			t.Fatalf("GET %s: short page (%d calls) with next_cursor %d", path, len(p.Calls), p.NextCursor)
		case len(p.Calls) == limit && p.NextCursor != after:
			t.Fatalf("GET %s: full page ending at %d with next_cursor %d", path, after, p.NextCursor)
		case p.NextCursor == 0:
			return all, summary
		case page > 1000:
			t.Fatalf("GET %s: more than 1000 pages", path)
		}
	}
}

// llmCallsInLog reads, straight from the log, the call recorded in the
// metadata of each event up to head, as the endpoint should show it.
func llmCallsInLog(t *testing.T, store *eventstore.Store, head int64) []projections.LLMCallView {
	t.Helper()
	var out []projections.LLMCallView
	for after := int64(0); ; {
		page, err := store.ReadAll(context.Background(), after, eventstore.Filter{UntilPosition: head}, eventstore.MaxReadLimit)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			return out
		}
		for _, e := range page {
			c := e.Metadata.LLMCall
			if c == nil {
				continue
			}
			v := projections.LLMCallView{Cursor: e.Position, EventID: e.EventID.String(), EventType: string(e.Type),
				StreamID: e.StreamID, DemandID: e.Metadata.CorrelationID, Actor: e.Metadata.Actor, PromptKey: c.PromptKey,
				Provider: c.Provider, Model: c.Model, LatencyMS: c.LatencyMS, InputTokens: c.InputTokens,
				OutputTokens: c.OutputTokens, Outcome: c.Outcome, FallbackUsed: c.FallbackUsed, Error: c.Error,
				RecordedAt: e.RecordedAt, Attempts: c.Attempts}
			if id, ok := strings.CutPrefix(e.Metadata.Actor, "agent:"); ok {
				v.AgentID = id
			}
			out = append(out, v)
		}
		after = page[len(page)-1].Position
	}
}

// checkCalls compares listed calls with the log's, field by field.
func checkCalls(t *testing.T, got, want []projections.LLMCallView) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("listed %d calls, the log holds %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if !g.RecordedAt.Equal(w.RecordedAt) {
			t.Fatalf("call %d recorded at %v, want %v", i, g.RecordedAt, w.RecordedAt)
		}
		g.RecordedAt, w.RecordedAt = time.Time{}, time.Time{}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("call %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// checkSummary recomputes the per-prompt summary from the calls.
func checkSummary(t *testing.T, got []projections.LLMCallSummary, calls []projections.LLMCallView) {
	t.Helper()
	latencies := map[string][]float64{}
	want := map[string]projections.LLMCallSummary{}
	for _, c := range calls {
		s := want[c.PromptKey]
		s.PromptKey = c.PromptKey
		s.Calls++
		if c.Outcome != event.LLMOutcomeOK {
			s.Errors++
		}
		if c.FallbackUsed {
			s.Fallbacks++
		}
		want[c.PromptKey] = s
		latencies[c.PromptKey] = append(latencies[c.PromptKey], float64(c.LatencyMS))
	}
	if len(got) != len(want) {
		t.Fatalf("summary has %d prompts, the calls %d: %+v", len(got), len(want), got)
	}
	if !slices.IsSortedFunc(got, func(x, y projections.LLMCallSummary) int { return strings.Compare(x.PromptKey, y.PromptKey) }) {
		t.Fatalf("summary not ordered by prompt: %+v", got)
	}
	for _, g := range got {
		w := want[g.PromptKey]
		xs := latencies[g.PromptKey]
		slices.Sort(xs)
		var sum float64
		for _, x := range xs {
			sum += x
		}
		w.AvgLatencyMS, w.P50LatencyMS, w.P95LatencyMS = sum/float64(len(xs)), percentile(xs, 0.5), percentile(xs, 0.95)
		if g.PromptKey != w.PromptKey || g.Calls != w.Calls || g.Errors != w.Errors || g.Fallbacks != w.Fallbacks ||
			!near(g.AvgLatencyMS, w.AvgLatencyMS) || !near(g.P50LatencyMS, w.P50LatencyMS) || !near(g.P95LatencyMS, w.P95LatencyMS) {
			t.Fatalf("summary %+v, want %+v", g, w)
		}
	}
}

// percentile is PostgreSQL's percentile_cont over sorted xs.
func percentile(xs []float64, p float64) float64 {
	pos := p * float64(len(xs)-1)
	lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
	return xs[lo] + (pos-float64(lo))*(xs[hi]-xs[lo])
}

func near(x, y float64) bool { return math.Abs(x-y) <= 1e-9*max(1, math.Abs(y)) }
