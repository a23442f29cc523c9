package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/towow/towow/projections"
)

// TestBenchSSE runs a small `towow bench sse` in both modes, with both
// readers, flat out and paced: it fails unless every client received every
// event it follows. The paced run writes its lock-contention profile.
func TestBenchSSE(t *testing.T) {
	url := freshEmptyDatabase(t)
	mutexProfile := filepath.Join(t.TempDir(), "mutex.pprof")
	for _, args := range [][]string{
		{"-follow", "all", "-reader", "poll", "-llm-latency", "0"},
		{"-follow", "demand", "-reader", "http", "-llm-latency", "0"},
		{"-follow", "demand", "-llm-latency", "20ms", "-mutexprofile", mutexProfile},
	} {
		cmd := exec.Command(towowBin, append([]string{"bench", "sse", "-clients", "20", "-n", "3", "-c", "2"}, args...)...)
		cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bench sse %v: %v\n%s", args, err, out)
		}
		if !strings.Contains(string(out), "p99") || !strings.Contains(string(out), "target ≤ 25 ms") {
			t.Fatalf("bench sse %v printed no figures:\n%s", args, out)
		}
	}
	if err := isProfile(mutexProfile); err != nil {
		t.Fatalf("bench sse -mutexprofile: %v", err)
	}
}

// TestBenchNegotiateProfiles runs a small `towow bench negotiate` that
// writes its CPU and allocation profiles.
func TestBenchNegotiateProfiles(t *testing.T) {
	url := freshEmptyDatabase(t)
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	cmd := exec.Command(towowBin, "bench", "negotiate", "-n", "2", "-c", "2", "-cpuprofile", cpu, "-memprofile", mem)
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "negotiations/s") {
		t.Fatalf("bench negotiate: %v\n%s", err, out)
	}
	for _, f := range []string{cpu, mem} {
		if err := isProfile(f); err != nil {
			t.Errorf("bench negotiate: %v", err)
		}
	}
}

// isProfile checks that path holds a pprof profile (gzip-compressed
// protocol buffers).
func isProfile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return fmt.Errorf("no profile in %s: %d bytes, %v", filepath.Base(path), len(b), err)
	}
	return nil
}

// TestBenchRebuild builds a small log, catches the read models up, rebuilds
// them and reports the rebuilt rows identical to the caught-up ones.
func TestBenchRebuild(t *testing.T) {
	url := freshEmptyDatabase(t)
	cmd := exec.Command(towowBin, "bench", "rebuild", "-n", "4")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench rebuild: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "identical to the rows before"); n != len(projections.All()) {
		t.Fatalf("%d read models rebuilt identical, want %d:\n%s", n, len(projections.All()), out)
	}
	// And the operator command on the same database (empty log: no rows).
	cmd = exec.Command(towowBin, "projections", "rebuild", "--name", "demands")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "demands  up to cursor") {
		t.Fatalf("projections rebuild: %v\n%s", err, out)
	}
}

// TestBenchSoak runs a small `towow bench soak`: a memory sample before the
// first negotiation and after each batch, and the closing ratio.
func TestBenchSoak(t *testing.T) {
	url := freshEmptyDatabase(t)
	cmd := exec.Command(towowBin, "bench", "soak", "-n", "12", "-every", "6", "-c", "4")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench soak: %v\n%s", err, out)
	}
	rows := regexp.MustCompile(`(?m)^ +(0|6|12) +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +\S+$`).FindAllString(string(out), -1)
	if len(rows) != 3 || !strings.Contains(string(out), "heap in use after 12 negotiations is") {
		t.Fatalf("want 3 samples (0, 6, 12) and the ratio:\n%s", out)
	}
}

// TestFuzzCommand runs a short `towow fuzz` (its own server, a scratch
// database, the engine idle) and a usage error.
func TestFuzzCommand(t *testing.T) {
	url := freshEmptyDatabase(t)
	cmd := exec.Command(towowBin, "fuzz", "-n", "300", "-seed", "5")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	out, err := cmd.CombinedOutput()
	if err != nil || !regexp.MustCompile(`(?m)^300 requests over [0-9]+ operations`).Match(out) ||
		!strings.Contains(string(out), "no violation") {
		t.Fatalf("fuzz: %v\n%s", err, out)
	}
	cmd = exec.Command(towowBin, "fuzz", "-n", "0")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	if out, err := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "-n must be at least 1") {
		t.Fatalf("fuzz -n 0: %v\n%s", err, out)
	}
}

// TestBenchFilter runs a small `towow bench filter`: one row per size, the
// shortlist bounded, and the prompt growth line.
func TestBenchFilter(t *testing.T) {
	url := freshEmptyDatabase(t)
	cmd := exec.Command(towowBin, "bench", "filter", "-sizes", "60,400", "-reps", "2")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url, "TOWOW_SHORTLIST=20")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench filter: %v\n%s", err, out)
	}
	rows := regexp.MustCompile(`(?m)^ +(60|400) +\S+ +\S+ +\S+ +\S+ +([0-9.]+) +[0-9]+ +\S+$`).FindAllStringSubmatch(string(out), -1)
	if len(rows) != 2 || !strings.Contains(string(out), "prompt 2 at 400 agents is") {
		t.Fatalf("want two rows and the growth line:\n%s", out)
	}
	for _, r := range rows {
		if n, _ := strconv.ParseFloat(r[2], 64); n <= 0 || n > 20 {
			t.Fatalf("shortlist of %s outside 1..20:\n%s", r[2], out)
		}
	}
}

// TestEvalSlice runs a slice of the scenario suite (`towow eval -only`):
// every scenario ends as expected (plans agreed, the unclear and impossible
// rejected), the needs covered, nobody padded or irrelevant, and the table
// prints the baseline next to it.
func TestEvalSlice(t *testing.T) {
	url := freshEmptyDatabase(t)
	cmd := exec.Command(towowBin, "eval", "-only", "wedding-en,website-zh,annual-party,contract,legal-en,unclear-x,mars,forever-en")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("eval: %v\n%s", err, out)
	}
	s := string(out)
	m := regexp.MustCompile(`negotiated: coverage ([0-9.]+)%, padding ([0-9]+), irrelevant assignees [0-9]+ of [0-9]+ \(([0-9.]+)%\), stability ([0-9.]+)%`).FindStringSubmatch(s)
	if !strings.Contains(s, "8 scenarios, 8 ended as expected; 5 agreed; unclear or impossible rejected: 3 of 3") || m == nil ||
		!strings.Contains(s, "baseline:   coverage") {
		t.Fatalf("eval table:\n%s", s)
	}
	coverage, _ := strconv.ParseFloat(m[1], 64)
	irrelevant, _ := strconv.ParseFloat(m[3], 64)
	if coverage < 95 || m[2] != "0" || irrelevant > 10 {
		t.Fatalf("coverage %s%%, padding %s, irrelevant %s%%:\n%s", m[1], m[2], m[3], s)
	}
	// Against the needs the scenarios name themselves (not the brain's
	// reading of them): every place of these five filled, no city missed.
	own := regexp.MustCompile(`own needs:  coverage ([0-9.]+)% \(([0-9]+) of ([0-9]+) places; [0-9]+ needs nobody in the network serves\), city misses ([0-9]+)`).FindStringSubmatch(s)
	if own == nil || own[2] != own[3] || own[3] == "0" || own[4] != "0" ||
		!strings.Contains(s, "places missed: 0 of needs not read, 0 more than the network holds, 0 of people who offered and were left out, 0 that too few offered for") {
		t.Fatalf("own needs: %v\n%s", own, s)
	}
	// These scenarios were tuned on: all dev.
	if strings.Contains(s, " holdout ") {
		t.Fatalf("a tuned scenario held out:\n%s", s)
	}
	// The negotiated plans cover at least what the baseline's would once
	// its assignees answer.
	b := regexp.MustCompile(`baseline: +coverage [0-9.]+% \(([0-9.]+)% without`).FindStringSubmatch(s)
	if b == nil {
		t.Fatalf("no baseline line:\n%s", s)
	}
	if kept, _ := strconv.ParseFloat(b[1], 64); coverage < kept {
		t.Fatalf("negotiated coverage %.1f%% below the baseline's %.1f%% without refusers:\n%s", coverage, kept, s)
	}
	// -set runs one half: of a held-out and a tuned scenario, the first.
	cmd = exec.Command(towowBin, "eval", "-set", "holdout", "-only", "lottery-en,unclear-x")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "1 scenarios, 1 ended as expected") ||
		!regexp.MustCompile(`(?m)^lottery-en +holdout `).Match(out) {
		t.Fatalf("eval -set holdout: %v\n%s", err, out)
	}
	cmd = exec.Command(towowBin, "eval", "-set", "nope")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "-set must be dev, holdout or all") {
		t.Fatalf("eval -set nope:\n%s", out)
	}
	cmd = exec.Command(towowBin, "eval", "-only", "nope")
	cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "names scenarios the suite does not have") {
		t.Fatalf("eval -only nope:\n%s", out)
	}
}
