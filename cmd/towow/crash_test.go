package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/towow/towow/internal/dbtest"
)

// hangingLLM is an OpenAI-compatible server that never answers; calls
// receives one value per request (up to 64 unread).
func hangingLLM(t *testing.T) (*httptest.Server, <-chan struct{}) {
	calls := make(chan struct{}, 64)
	stop := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case calls <- struct{}{}:
		default:
		}
		select { // never answers
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(func() {
		close(stop) // first: release any handler Close would wait for
		hang.Close()
	})
	return hang, calls
}

// TestKilledProcessResumes runs `towow demo` against an OpenAI-compatible
// server that never answers, SIGKILLs the process while its first step is
// inside the LLM call (after the demand was committed, before the step's
// commit), then starts `towow serve` (builtin brain) on the same database:
// River rescues the abandoned step and the negotiation finishes, each
// demand understood exactly once.
func TestKilledProcessResumes(t *testing.T) {
	db := dbtest.NewURL(t)
	hang, calls := hangingLLM(t)

	demo := exec.Command(towowBin, "demo", "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	demo.Env = append(cleanEnv(), "DATABASE_URL="+db, "TOWOW_LLM=openai", "LLM_MODEL=hang", "OPENAI_API_KEY=k",
		"OPENAI_BASE_URL="+hang.URL+"/v1", "LLM_TIMEOUT=60s")
	out, err := demo.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.Start(); err != nil {
		t.Fatal(err)
	}
	first, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^demand (d-[0-9a-f]+),`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("first line %q", first)
	}
	select {
	case <-calls: // the understand step is inside its LLM call
	case <-time.After(30 * time.Second):
		t.Fatal("no LLM call")
	}
	if err := demo.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = demo.Wait()

	// A new process with a short rescue delay picks the step up.
	s := startServer(t, "DATABASE_URL="+db, "TOWOW_LLM=builtin", "TOWOW_JOB_TIMEOUT=2s", "TOWOW_JOB_RESCUE_AFTER=3s")
	defer s.stop(t)
	deadline := time.Now().Add(150 * time.Second)
	for {
		rout, _, code := runTowow(t, []string{"DATABASE_URL=" + db}, "replay", m[1])
		lines := strings.Split(strings.TrimRight(rout, "\n"), "\n")
		last := lines[len(lines)-1]
		if code == 0 && regexp.MustCompile(`^status: (finalized|force_finalized|failed)`).MatchString(last) {
			submitted := strings.Count(rout, "towow.demand.submitted")
			understood := strings.Count(rout, "towow.demand.understood")
			if understood != submitted {
				t.Fatalf("%d demands submitted, %d understandings (a duplicate or a loss):\n%s", submitted, understood, rout)
			}
			t.Logf("resumed and finished after the kill: %s (%d demands in the tree)", last, submitted)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("negotiation did not finish after the restart:\n%s", rout)
		}
		time.Sleep(time.Second)
	}
}

// TestKilledServerHealsFast: with the default job timeout and rescue delay,
// every negotiation a SIGKILLed server was running ends within 60 s of the
// restart. The first server's steps hang inside their LLM calls when it is
// killed; the second notices that their worker is dead (its liveness lock
// is gone) and runs them again at once, without waiting for River's rescue
// (TOWOW_JOB_RESCUE_AFTER, 3 min).
func TestKilledServerHealsFast(t *testing.T) {
	db := dbtest.NewURL(t)
	hang, calls := hangingLLM(t)

	s := startServer(t, "DATABASE_URL="+db, "TOWOW_LLM=openai", "LLM_MODEL=hang", "OPENAI_API_KEY=k",
		"OPENAI_BASE_URL="+hang.URL+"/v1", "LLM_TIMEOUT=60s")
	var ids []string
	for _, text := range []string{"我想在北京办一场AI主题聚会，需要场地和嘉宾", "需要一位摄影师和一位化妆师", "找一个数据分析师做用户研究"} {
		resp, err := http.Post("http://"+s.addr+"/api/v1/demand/submit", "application/json",
			strings.NewReader(`{"raw_input":"`+text+`","user_id":"u1"}`))
		if err != nil {
			t.Fatal(err)
		}
		var b struct {
			DemandID string `json:"demand_id"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&b)
		resp.Body.Close()
		ids = append(ids, b.DemandID)
	}
	for range ids { // every understand step is inside its LLM call
		select {
		case <-calls:
		case <-time.After(30 * time.Second):
			t.Fatal("no LLM call")
		}
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s.done

	restarted := time.Now()
	s2 := startServer(t, "DATABASE_URL="+db, "TOWOW_LLM=builtin")
	defer s2.stop(t)
	for _, id := range ids {
		for {
			rout, _, code := runTowow(t, []string{"DATABASE_URL=" + db}, "replay", id)
			lines := strings.Split(strings.TrimRight(rout, "\n"), "\n")
			if code == 0 && regexp.MustCompile(`^status: (finalized|force_finalized|failed)`).MatchString(lines[len(lines)-1]) {
				if s, u := strings.Count(rout, "towow.demand.submitted"), strings.Count(rout, "towow.demand.understood"); s != u {
					t.Fatalf("%d demands submitted, %d understandings:\n%s", s, u, rout)
				}
				break
			}
			if time.Since(restarted) > 60*time.Second {
				t.Fatalf("demand %s not ended 60 s after the restart:\n%s\nserver log:\n%s", id, rout, s2.log())
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	t.Logf("all %d negotiations ended %s after the restart", len(ids), time.Since(restarted).Round(100*time.Millisecond))
}
