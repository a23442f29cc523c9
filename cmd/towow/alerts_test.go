package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/towow/towow/internal/dbtest"
)

// promtoolPath finds promtool (Debian's prometheus package, installed by
// scripts/ensure-promtool.sh from `make test`).
func promtoolPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("promtool"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no promtool on PATH: `make test` installs it with scripts/ensure-promtool.sh (as root)")
	}
	t.Skip("no promtool on PATH; run scripts/ensure-promtool.sh (as root) or `make test`")
	return ""
}

// TestAlertRules checks monitoring/towow-alerts.yml (the named metrics
// and alert thresholds: LLM success under 90 %, LLM p95 over 10 s, any
// breaker opening, negotiation success under 70 %, over 1,000 SSE
// connections) with promtool: the rules load, each alert
// fires on the series that should set it off (towow-alerts.test.yml), and
// a real server's /metrics scrape passes promtool's lint and carries every
// series the rules read.
func TestAlertRules(t *testing.T) {
	promtool := promtoolPath(t)
	for _, args := range [][]string{{"check", "rules", "towow-alerts.yml"}, {"test", "rules", "towow-alerts.test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = "../../monitoring"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	s := startServer(t, "DATABASE_URL="+dbtest.NewURL(t))
	base := "http://" + s.addr
	// One negotiation, so that the labelled series have samples.
	var sub struct {
		DemandID string `json:"demand_id"`
		Cursor   int64  `json:"cursor"`
	}
	token := s.token(t, "alerts")
	postJSON(t, base+"/api/v1/demand/submit", token, map[string]string{"raw_input": "我想在北京办一场AI主题聚会，需要场地和嘉宾"},
		http.StatusAccepted, &sub)
	waitFor(t, "the negotiation ends", func() bool {
		var d struct{ Status string }
		getJSONAuth(t, fmt.Sprintf("%s/api/v1/demands/%s?min_cursor=%d", base, sub.DemandID, sub.Cursor), token, &d) // read-your-writes
		return d.Status != "" && d.Status != "processing"
	})
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	scrape, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(string(scrape))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
	// Every metric the rules read is exported (a labelled counter or
	// histogram appears once it counted something).
	for _, name := range []string{"llm_call_total", "llm_call_duration_seconds", "circuit_breaker_openings_total",
		"negotiation_outcomes_total", "sse_active_connections"} {
		if !strings.Contains(string(scrape), "# HELP "+name+" ") {
			t.Errorf("/metrics has no %s", name)
		}
	}
}
