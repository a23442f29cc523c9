package api_test

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// metric scrapes /metrics and returns the value of the sample whose line
// starts with series (name plus labels), or -1 when it is absent.
func (a *testAPI) metric(t *testing.T, series string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` ([0-9.e+-]+)$`).FindStringSubmatch(a.scrape(t))
	if m == nil {
		return -1
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMetrics(t *testing.T) {
	a := newAPI(t)
	if v := a.metric(t, "sse_active_connections"); v != 0 {
		t.Fatalf("sse_active_connections before any stream = %v", v)
	}
	if v := a.metric(t, "circuit_breaker_open"); v != 0 {
		t.Fatalf("circuit_breaker_open = %v", v)
	}
	demandID, _ := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	var during float64
	a.follow(t, demandID, 0, false, func(ms []message) bool {
		if during == 0 {
			during = a.metric(t, "sse_active_connections")
		}
		return len(ms) > 0 && rootDone(ms[len(ms)-1], demandID)
	})
	if during != 1 {
		t.Errorf("sse_active_connections while streaming = %v, want 1", during)
	}
	// The stream's handler notices the client left shortly after.
	deadline := time.Now().Add(5 * time.Second)
	for a.metric(t, "sse_active_connections") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("sse_active_connections did not return to 0")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if v := a.metric(t, `llm_call_total{outcome="ok",prompt="demand_understanding"}`); v < 1 {
		t.Errorf("llm_call_total for demand_understanding = %v, want >= 1", v)
	}
	if v := a.metric(t, `llm_call_duration_seconds_count{prompt="demand_understanding"}`); v < 1 {
		t.Errorf("llm_call_duration_seconds_count = %v", v)
	}
	var done float64
	for _, status := range []string{"finalized", "force_finalized", "failed"} {
		done += max(0, a.metric(t, `negotiation_outcomes_total{status="`+status+`"}`))
	}
	if done < 1 { // the root at least (sub-negotiations count too)
		t.Errorf("negotiation_outcomes_total sums to %v, want >= 1", done)
	}
	if v := a.metric(t, `negotiation_plan_size_sum{part="assignments"}`); v < 1 {
		t.Errorf("negotiation_plan_size_sum for assignments = %v, want the plan's assignments", v)
	}
	if v := a.metric(t, `negotiation_need_coverage_count`); v < 1 {
		t.Errorf("negotiation_need_coverage_count = %v", v)
	}
	if v := a.metric(t, `negotiation_rounds_count`); v < 1 {
		t.Errorf("negotiation_rounds_count = %v", v)
	}
	// River marks jobs completed in batches, a moment after they ran, so
	// count every state.
	var jobs float64
	for _, state := range []string{"available", "running", "scheduled", "retryable", "completed"} {
		jobs += max(0, a.metric(t, `river_jobs{state="`+state+`"}`))
	}
	if jobs < 10 {
		t.Errorf("river_jobs sums to %v, want the negotiation's steps (>= 10)\n%s", jobs, a.scrape(t))
	}
}

// scrape returns the whole /metrics page.
func (a *testAPI) scrape(t *testing.T) string {
	t.Helper()
	resp, err := http.Get(a.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", resp.StatusCode, body)
	}
	return string(body)
}
