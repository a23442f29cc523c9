package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
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
// restart. The first server runs 30 negotiations with a builtin brain that
// answers like a model (about 400 ms a call), started in three waves so
// that the kill finds them at different stages (the first wave ending or in
// sub-negotiations, the second half-way through its rounds, the third
// being understood); the second server notices that the dead process's
// steps lost their worker (its liveness lock is gone) and runs them again
// at once, without waiting for River's rescue (TOWOW_JOB_RESCUE_AFTER,
// 3 min). Each demand is understood exactly once.
func TestKilledServerHealsFast(t *testing.T) {
	db := dbtest.NewURL(t)
	s := startServer(t, "DATABASE_URL="+db, "TOWOW_LLM=builtin", "TOWOW_BUILTIN_LATENCY=400ms", "TOWOW_USER_RPS=0")
	texts := []string{"我想在北京办一场AI主题聚会，需要场地和嘉宾", "需要一位摄影师和一位化妆师", "找一个数据分析师做用户研究",
		"上海周末办一个50人的产品经理交流会，需要场地、主持和茶歇", "年会需要两位主讲嘉宾、一位主持人和5名志愿者",
		"I need a photographer and a caterer for a 30-person wedding in Shanghai next month",
		"想给我们的开源项目做一个新网站，需要设计师和前端开发", "下个月在深圳组织一次黑客马拉松，需要场地、评委和赞助商",
		"杭州的创业团队需要一位UI设计师和一位后端开发，做一个小程序", "成都办一场摄影展开幕活动，需要场地、摄影师和餐饮"}
	base := "http://" + s.addr
	mint := userTokens(t, s.dataDir)
	var ids []string
	tokens := map[string]string{} // demand id → its user's token
	submitWave := func() {
		for range 10 {
			i := len(ids)
			token := mint(fmt.Sprintf("u%d", i))
			resp, err := authRequest(http.MethodPost, base+"/api/v1/demand/submit", token, fmt.Sprintf(`{"raw_input":%q}`, texts[i%len(texts)]))
			if err != nil {
				t.Fatal(err)
			}
			var b struct {
				DemandID string `json:"demand_id"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&b)
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				t.Fatalf("submit %d: %d", i, resp.StatusCode)
			}
			ids = append(ids, b.DemandID)
			tokens[b.DemandID] = token
		}
	}
	status := func(id string) string {
		resp, err := authRequest(http.MethodGet, base+"/api/v1/demands/"+id, tokens[id], "")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		var v struct {
			Demand struct {
				Status string `json:"status"`
			} `json:"demand"`
			Status string `json:"status"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&v)
		return v.Demand.Status + v.Status
	}
	ended := func(id string) bool { st := status(id); return st == "completed" || st == "failed" }

	// The first wave's time to its first end measures how long a
	// negotiation takes on this machine now; the other waves start from it.
	start := time.Now()
	submitWave()
	for first := false; !first; {
		if time.Since(start) > 60*time.Second {
			t.Fatal("no negotiation of the first wave ended within 60 s")
		}
		time.Sleep(100 * time.Millisecond)
		for _, id := range ids {
			if first = ended(id); first {
				break
			}
		}
	}
	took := time.Since(start)
	submitWave()
	time.Sleep(took / 4)
	submitWave()
	time.Sleep(took / 4)
	endedBefore := 0 // counted just before the kill: an upper bound
	for _, id := range ids {
		if ended(id) {
			endedBefore++
		}
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s.done
	// The third wave started a quarter of the fastest negotiation's time
	// before the kill, so its ten at least were running.
	if endedBefore > 20 {
		t.Fatalf("%d of 30 negotiations had ended before the kill: the test did not catch them running", endedBefore)
	}

	restarted := time.Now()
	s2 := startServerAt(t, s.addr, "DATABASE_URL="+db, "TOWOW_LLM=builtin", "TOWOW_USER_RPS=0")
	defer s2.stop(t)
	for _, id := range ids {
		for {
			if ended(id) {
				break
			}
			if time.Since(restarted) > 60*time.Second {
				out, _, _ := runTowow(t, []string{"DATABASE_URL=" + db}, "replay", id)
				t.Fatalf("demand %s not ended 60 s after the restart:\n%s\nserver log:\n%s", id, out, s2.log())
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	healed := time.Since(restarted)
	for _, id := range ids {
		rout, _, code := runTowow(t, []string{"DATABASE_URL=" + db}, "replay", id)
		if sub, u := strings.Count(rout, "towow.demand.submitted"), strings.Count(rout, "towow.demand.understood"); code != 0 || sub != u {
			t.Fatalf("%d demands submitted, %d understandings:\n%s", sub, u, rout)
		}
	}
	t.Logf("a negotiation took %s before the kill; 30 negotiations, %d ended before the kill; the other %d ended %s after the restart",
		took.Round(100*time.Millisecond), endedBefore, 30-endedBefore, healed.Round(100*time.Millisecond))
}

// TestKilledWorkflowResumes: a server executing a workflow is SIGKILLed
// while an http node's request is on its way (the local hook holds the
// first request); the restarted server records that attempt as
// interrupted instead of sending it again, sends the node's next attempt
// once, and the workflow completes: each recorded attempt reached the
// hook at most once.
func TestKilledWorkflowResumes(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	arrived := make(chan struct{}, 8)
	release := make(chan struct{})
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		first := len(keys) == 1
		mu.Unlock()
		arrived <- struct{}{}
		if first { // held until the server that sent it is dead
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(func() { close(release); hook.Close() })
	host := strings.TrimPrefix(hook.URL, "http://")

	db := dbtest.NewURL(t)
	env := []string{"DATABASE_URL=" + db, "TOWOW_LLM=builtin", "TOWOW_HTTP_ALLOW=" + host}
	s := startServer(t, env...)
	base := "http://" + s.addr
	token := s.token(t, "u1")
	post := func(path, body string, into any) int {
		t.Helper()
		resp, err := authRequest(http.MethodPost, base+path, token, body)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 {
			t.Logf("POST %s: %d %s", path, resp.StatusCode, b)
		}
		if into != nil {
			_ = json.Unmarshal(b, into)
		}
		return resp.StatusCode
	}
	var sub struct {
		DemandID string `json:"demand_id"`
	}
	post("/api/v1/demand/submit", `{"raw_input":"我想在北京办一场AI主题聚会，需要场地和嘉宾"}`, &sub)
	type wfView struct {
		WorkflowID string `json:"workflow_id"`
		Status     string `json:"status"`
		Version    int    `json:"version"`
		Nodes      []struct {
			ID      string `json:"id"`
			Status  string `json:"status"`
			Attempt int    `json:"attempt"`
		} `json:"nodes"`
	}
	get := func(id string) (w wfView) {
		resp, err := authRequest(http.MethodGet, base+"/api/v1/workflows/"+id, token, "")
		if err != nil {
			return w
		}
		defer resp.Body.Close()
		_ = json.NewDecoder(resp.Body).Decode(&w)
		return w
	}
	id := "wf-" + strings.TrimPrefix(sub.DemandID, "d-")
	deadline := time.Now().Add(60 * time.Second)
	for get(id).WorkflowID == "" {
		if time.Now().After(deadline) {
			t.Fatalf("no workflow for %s:\n%s", sub.DemandID, s.log())
		}
		time.Sleep(100 * time.Millisecond)
	}
	w := get(id)
	if code := post("/api/v1/workflows/"+id+"/decisions", fmt.Sprintf(`{"decision_type":"create_node","base_version":%d,
		"payload":{"node":{"id":"notify","type":"http","title":"通知","url":%q},"after":[%q]}}`, w.Version, hook.URL+"/x", w.Nodes[0].ID), nil); code != 200 {
		t.Fatalf("create http node: %d", code)
	}
	if code := post("/api/v1/workflows/"+id+"/decisions", fmt.Sprintf(`{"decision_type":"execute_workflow","base_version":%d}`, w.Version+1), nil); code != 200 {
		t.Fatalf("execute: %d", code)
	}
	select {
	case <-arrived:
	case <-time.After(60 * time.Second):
		t.Fatalf("the http node never posted:\n%s", s.log())
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s.done

	restarted := time.Now()
	s2 := startServerAt(t, s.addr, env...)
	defer s2.stop(t)
	for w = get(id); w.Status != "completed"; w = get(id) {
		if w.Status == "failed" || w.Status == "cancelled" || time.Since(restarted) > 60*time.Second {
			out, _, _ := runTowow(t, []string{"DATABASE_URL=" + db}, "replay", sub.DemandID)
			t.Fatalf("workflow %s after the restart:\n%s\nserver log:\n%s", w.Status, out, s2.log())
		}
		time.Sleep(200 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{id + "/notify/1", id + "/notify/2"}; !slices.Equal(keys, want) {
		t.Fatalf("the hook got %v, want %v (one request per recorded attempt)", keys, want)
	}
	t.Logf("workflow completed %s after the restart; the interrupted attempt was not sent again", time.Since(restarted).Round(100*time.Millisecond))
	if testing.Verbose() {
		out, _, _ := runTowow(t, []string{"DATABASE_URL=" + db}, "replay", sub.DemandID)
		t.Log(out)
	}
}
