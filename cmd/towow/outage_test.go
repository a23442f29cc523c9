package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/internal/pgcluster"
)

// TestClusterRestartUnderServer stops and starts the embedded cluster
// under a running server: meanwhile commands answer 503 TOWOW_SYSTEM_001
// with Retry-After (never 500) and the log does not flood; afterwards the
// cluster is back on its port and the same server, not restarted, runs a
// negotiation to its end.
func TestClusterRestartUnderServer(t *testing.T) {
	dataDir := traversableTempDir(t)
	env := []string{"TOWOW_DATA_DIR=" + dataDir}
	pgDir := filepath.Join(dataDir, "pg")
	t.Cleanup(func() { _ = pgcluster.Stop(context.Background(), pgDir) })
	s := startServer(t, env...)
	_, port, err := pgcluster.Status(pgDir)
	if err != nil {
		t.Fatal(err)
	}
	// A user's token is checked without the database: the outage is what
	// the answers below say.
	token := s.token(t, "u1")
	submit := func() (status int, code, retryAfter, demandID string) {
		resp, err := authRequest(http.MethodPost, "http://"+s.addr+"/api/v1/demand/submit", token,
			`{"raw_input":"我想在北京办一场AI主题聚会，需要场地和嘉宾"}`)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b struct {
			Code     string `json:"code"`
			DemandID string `json:"demand_id"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&b)
		return resp.StatusCode, b.Code, resp.Header.Get("Retry-After"), b.DemandID
	}

	if _, errOut, code := runTowow(t, env, "db", "stop"); code != 0 {
		t.Fatalf("towow db stop: %d %s", code, errOut)
	}
	logBefore := len(s.log())
	down := time.Now()
	for range 10 {
		status, code, retry, _ := submit()
		if status != http.StatusServiceUnavailable || code != "TOWOW_SYSTEM_001" || retry == "" {
			t.Fatalf("during the outage: %d %s Retry-After %q, want 503 TOWOW_SYSTEM_001 with Retry-After; log:\n%s",
				status, code, retry, s.log()[logBefore:])
		}
		time.Sleep(300 * time.Millisecond)
	}
	outage := s.log()[logBefore:]
	if n := strings.Count(outage, "level=ERROR") + strings.Count(outage, "level=WARN"); n > 40 {
		t.Fatalf("%d warnings and errors in %s of outage:\n%s", n, time.Since(down).Round(time.Second), outage)
	}

	if _, errOut, code := runTowow(t, env, "db", "start"); code != 0 {
		t.Fatalf("towow db start: %d %s", code, errOut)
	}
	if _, again, _ := pgcluster.Status(pgDir); again != port {
		t.Fatalf("the cluster came back on port %d, was %d", again, port)
	}
	var demandID string
	deadline := time.Now().Add(60 * time.Second)
	for demandID == "" {
		status, _, _, id := submit()
		switch {
		case status == http.StatusAccepted:
			demandID = id
		case time.Now().After(deadline):
			t.Fatalf("the server did not take commands again within 60 s (last %d); log:\n%s", status, s.log()[logBefore:])
		default:
			time.Sleep(200 * time.Millisecond)
		}
	}
	for {
		st := demandStatus(t, s.url(), token, demandID)
		if st == "completed" || st == "failed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the negotiation after the restart did not end within 60 s (%q); log:\n%s", st, s.log()[logBefore:])
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.stop(t)
}
