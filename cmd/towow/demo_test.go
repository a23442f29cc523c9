package main

import (
	"bytes"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/towow/towow/internal/dbtest"
)

func runTowow(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(towowBin, args...)
	cmd.Env = append(cleanEnv(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

var (
	demandLine = regexp.MustCompile(`^demand (d-[0-9a-f]+), channel `)
	eventLine  = regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} +[+-]\d+\.\d\ds  towow\.`)
)

// TestDemoAndReplay runs `towow demo` on the sample demand, then `towow
// replay` on its demand id: replay prints the same timeline from the stored
// events, without an LLM (it is pointed at an unreachable one).
func TestDemoAndReplay(t *testing.T) {
	env := []string{"DATABASE_URL=" + dbtest.NewURL(t)}
	out, errOut, code := runTowow(t, env, "demo", "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	if code != 0 {
		t.Fatalf("demo exit %d\nstderr:\n%s\nstdout:\n%s", code, errOut, out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	m := demandLine.FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("first line %q", lines[0])
	}
	last := lines[len(lines)-1]
	if !regexp.MustCompile(`^status: (finalized|force_finalized|failed)`).MatchString(last) {
		t.Fatalf("last line %q", last)
	}
	var events []string
	for _, l := range lines {
		if eventLine.MatchString(l) {
			events = append(events, l)
		}
	}
	for _, want := range []string{"towow.demand.submitted", "towow.filter.completed", "towow.offer.submitted",
		"towow.proposal.distributed", "towow.feedback.evaluated", "towow.negotiation.completed"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %s", want)
		}
	}

	replayEnv := append(env, "TOWOW_LLM=openai", "LLM_MODEL=none", "OPENAI_BASE_URL=http://127.0.0.1:1/v1")
	rout, rerr, code := runTowow(t, replayEnv, "replay", m[1])
	if code != 0 {
		t.Fatalf("replay exit %d: %s", code, rerr)
	}
	var replayed []string
	rlines := strings.Split(strings.TrimRight(rout, "\n"), "\n")
	for _, l := range rlines {
		if eventLine.MatchString(l) {
			replayed = append(replayed, l)
		}
	}
	if strings.Join(replayed, "\n") != strings.Join(events, "\n") {
		t.Fatalf("replay timeline differs from the live one:\n--- live\n%s\n--- replay\n%s", strings.Join(events, "\n"), strings.Join(replayed, "\n"))
	}
	if rlines[len(rlines)-1] != last {
		t.Fatalf("replay ends %q, demo ended %q", rlines[len(rlines)-1], last)
	}
}

func TestDemoAndReplayErrors(t *testing.T) {
	env := []string{"DATABASE_URL=" + dbtest.NewURL(t)}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"empty demand", []string{"demo", "  "}, 1, "towow: TOWOW_DEMAND_002: "},
		{"too long", []string{"demo", strings.Repeat("长", 10001)}, 1, "towow: TOWOW_DEMAND_001: "},
		{"no demand", []string{"demo"}, 2, "towow: usage: towow demo"},
		{"unknown demand", []string{"replay", "d-000000"}, 1, `towow: no negotiation with demand id "d-000000"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runTowow(t, env, tc.args...)
			lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
			if code != tc.code || len(lines) != 1 || !strings.HasPrefix(lines[0], tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and one line starting %q", code, errOut, tc.code, tc.want)
			}
		})
	}
}

// TestWorkerProcess runs `towow worker` beside `towow demo` on one
// database: both processes work the same River queue, the negotiation
// completes, and the worker stops cleanly on SIGTERM. (Which process runs
// which step is River's choice, so it is not asserted.)
func TestWorkerProcess(t *testing.T) {
	db := dbtest.NewURL(t)
	w := exec.Command(towowBin, "worker")
	metricsAddr := freeAddr(t)
	w.Env = append(cleanEnv(), "DATABASE_URL="+db, "TOWOW_METRICS_ADDR="+metricsAddr)
	var werr bytes.Buffer
	w.Stderr = &werr
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Process.Kill(); _ = w.Wait() }()
	out, errOut, code := runTowow(t, []string{"DATABASE_URL=" + db}, "demo", "杭州的创业团队需要一位UI设计师和一位后端开发，做一个小程序")
	if code != 0 {
		t.Fatalf("demo beside a worker: %d %s", code, errOut)
	}
	if !strings.Contains(out, "status: ") {
		t.Fatalf("no terminal state:\n%s", out)
	}
	// The worker's own /metrics: River's jobs of the negotiation (read from
	// the shared database) and its breaker, whichever process ran the steps.
	// River marks finished jobs completed in batches, a moment after they
	// end: a negotiation that ended in well under a second may not show
	// its completed jobs at once.
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + metricsAddr + "/metrics")
		if err != nil {
			t.Fatalf("worker metrics: %v\n%s", err, werr.String())
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		completed := regexp.MustCompile(`(?m)^river_jobs\{state="completed"\} ([0-9]+)$`).FindSubmatch(body)
		if resp.StatusCode == 200 && completed != nil && string(completed[1]) != "0" && bytes.Contains(body, []byte("circuit_breaker_open 0")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("worker /metrics: %d\n%s", resp.StatusCode, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := w.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := w.Wait(); err != nil {
		t.Fatalf("worker exit after SIGTERM: %v\n%s", err, werr.String())
	}
	if !strings.Contains(werr.String(), `msg="towow worker running"`) {
		t.Fatalf("worker log:\n%s", werr.String())
	}
}
