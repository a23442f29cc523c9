package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/towow/towow/internal/dbtest"
)

// keyServer is an OpenAI-compatible stand-in that accepts the key or,
// once refuse is set, answers 401 to everything; it counts the requests.
type keyServer struct {
	*httptest.Server
	refuse atomic.Bool
	calls  atomic.Int64
}

func newKeyServer(t *testing.T) *keyServer {
	k := &keyServer{}
	k.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k.calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		if k.refuse.Load() {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`))
			return
		}
		_, _ = w.Write([]byte(`{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`))
	}))
	t.Cleanup(k.Close)
	return k
}

// serveExit runs `towow serve` with env and returns its exit code and
// what it printed, failing the test if it does not exit within 30 s.
func serveExit(t *testing.T, env ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, towowBin, "serve")
	cmd.Env = append(cleanEnv(), append([]string{"TOWOW_DATA_DIR=" + testDataDir(t), "TOWOW_ADDR=" + freeAddr(t)}, env...)...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("towow serve did not exit: %s", out)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, string(out)
}

// TestLLMKeyChecks: a provider's key is checked before the server
// starts. A missing Anthropic key and a key the provider refuses stop the
// start with one line naming the variable; TOWOW_LLM_START_DEGRADED starts
// anyway, and /readyz says llm: unauthorized (503 with
// TOWOW_LLM_REQUIRED). A key revoked while the server runs is logged once
// and shown in /readyz, and the calls after it stop reaching the
// provider.
func TestLLMKeyChecks(t *testing.T) {
	code, out := serveExit(t, "TOWOW_LLM=anthropic")
	if code == 0 || !strings.Contains(out, "ANTHROPIC_API_KEY") || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("no Anthropic key: exit %d, %q", code, out)
	}

	k := newKeyServer(t)
	openai := []string{"TOWOW_LLM=openai", "OPENAI_BASE_URL=" + k.URL + "/v1", "OPENAI_API_KEY=sk-test", "LLM_MODEL=m"}
	k.refuse.Store(true)
	code, out = serveExit(t, openai...)
	if code == 0 || !strings.Contains(out, "the provider refused OPENAI_API_KEY") || !strings.Contains(out, "401") {
		t.Fatalf("a refused key: exit %d, %s", code, out)
	}

	ready := func(s *server) (int, string) {
		resp, err := http.Get("http://" + s.addr + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			LLM    string `json:"llm"`
			Detail string `json:"detail"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body.LLM + body.Detail
	}
	degraded := startServer(t, append(openai, "DATABASE_URL="+dbtest.NewURL(t), "TOWOW_LLM_START_DEGRADED=1", "TOWOW_LLM_REQUIRED=1")...)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		// The first call after the start learns the refusal; none has been made yet.
		postJSON(t, "http://"+degraded.addr+"/api/v1/demand/submit", degraded.token(t, "alice"), map[string]string{"raw_input": "我想在北京办一场AI主题聚会"},
			http.StatusAccepted, nil)
		if st, what := ready(degraded); st == 503 && strings.Contains(what, "unauthorized") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz never said unauthorized; log:\n%s", degraded.log())
		}
	}
	degraded.stop(t)

	// Revoked at run time: accepted at the start, refused later.
	k.refuse.Store(false)
	s := startServer(t, append(openai, "DATABASE_URL="+dbtest.NewURL(t))...)
	if st, what := ready(s); st != 200 || what != "ok" {
		t.Fatalf("/readyz with an accepted key: %d %q", st, what)
	}
	k.refuse.Store(true)
	token := s.token(t, "alice")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		postJSON(t, "http://"+s.addr+"/api/v1/demand/submit", token, map[string]string{"raw_input": "我想在北京办一场AI主题聚会"}, http.StatusAccepted, nil)
		if st, what := ready(s); st == 200 && what == "unauthorized" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz never said unauthorized after the key was revoked; log:\n%s", s.log())
		}
	}
	before := k.calls.Load()
	for range 3 {
		postJSON(t, "http://"+s.addr+"/api/v1/demand/submit", token, map[string]string{"raw_input": "上海周末想组织一次亲子读书会"}, http.StatusAccepted, nil)
	}
	time.Sleep(2 * time.Second)
	if after := k.calls.Load(); after != before {
		t.Errorf("%d calls reached the provider after it refused the key", after-before)
	}
	if n := strings.Count(s.log(), "the LLM provider refused the key"); n != 1 {
		t.Errorf("%d log lines about the refused key:\n%s", n, s.log())
	}
}
