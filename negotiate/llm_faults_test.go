package negotiate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/bench"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
	"github.com/towow/towow/writetest"
)

// tapProvider sends every request through the real OpenAI-compatible
// provider to a local server, after telling that server what the builtin
// brain answers to the same input (the server cannot compute it from the
// prompt text). Prompts are rendered (it is no InputReader), as for any
// real model.
type tapProvider struct {
	inner  llm.Provider
	server *faultServer
}

func (p *tapProvider) Name() string  { return p.inner.Name() }
func (p *tapProvider) Model() string { return p.inner.Model() }
func (p *tapProvider) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	want, err := builtin.New().Complete(ctx, req)
	if err != nil {
		return llm.Response{}, err
	}
	p.server.expect(req.System, req.Prompt, want.Text)
	return p.inner.Complete(ctx, req)
}

// faultServer is an OpenAI-compatible chat completions endpoint that
// answers each prompt with the reply it was told, except for a share of
// requests that fail in one of five ways, in turn: 429, 500, 529, a
// dropped connection, and an answer slower than the client waits.
type faultServer struct {
	*httptest.Server
	rate  float64
	slow  time.Duration
	mu    sync.Mutex
	rng   *rand.Rand
	next  int
	reply map[string]string
	kinds map[string]int
}

var faultKinds = []string{"429", "500", "529", "reset", "slow"}

func newFaultServer(t *testing.T, rate float64, slow time.Duration) *faultServer {
	s := &faultServer{rate: rate, slow: slow, rng: rand.New(rand.NewPCG(1, 2)), reply: map[string]string{}, kinds: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *faultServer) expect(system, prompt, reply string) {
	s.mu.Lock()
	s.reply[system+"\x00"+prompt] = reply
	s.mu.Unlock()
}

func (s *faultServer) serve(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	var system, prompt string
	for _, m := range body.Messages {
		switch m.Role {
		case "system":
			system = m.Content
		case "user":
			prompt = m.Content
		}
	}
	s.mu.Lock()
	reply, known := s.reply[system+"\x00"+prompt]
	kind := ""
	if s.rng.Float64() < s.rate {
		kind = faultKinds[s.next%len(faultKinds)]
		s.next++
		s.kinds[kind]++
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch kind {
	case "429", "500", "529":
		code := map[string]int{"429": 429, "500": 500, "529": 529}[kind]
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error":{"message":"injected %s","type":"server_error"}}`, kind)
		return
	case "reset":
		if hj, ok := w.(http.Hijacker); ok {
			conn, _, err := hj.Hijack()
			if err == nil {
				_ = conn.Close()
				return
			}
		}
	case "slow":
		select {
		case <-time.After(s.slow):
		case <-r.Context().Done():
			return
		}
	}
	if !known {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"error":{"message":"no reply known for this prompt"}}`)
		return
	}
	out, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion", "created": 1, "model": body.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": reply}}}})
	_, _ = w.Write(out)
}

// TestNegotiationsThroughLLMFaults runs negotiations through the real
// OpenAI-compatible provider against a server that fails 30 % of requests
// (429, 500, 529, dropped connections and answers slower than the timeout,
// in equal shares): every negotiation ends, and at least 90 % end as they
// do without faults (same status, same assigned agents), because the
// client retries what is retryable within its budget.
func TestNegotiationsThroughLLMFaults(t *testing.T) {
	// Ten demands, so that "at least 90 %" allows one to end otherwise (a
	// call whose retries outlast the budget falls back, as it should).
	demands := append(slices.Clone(bench.SampleDemands), "年会需要两位主讲嘉宾、一位主持人和5名志愿者",
		"I need a photographer and a caterer for a 30-person wedding in Shanghai next month",
		"想给我们的开源项目做一个新网站，需要设计师和前端开发", "找一位律师帮忙看合同")
	plan := func(o writetest.Outcome) string {
		if o.Channel == nil {
			return "failed before a channel"
		}
		var ids []string
		if p := o.Channel.FinalProposal; p != nil {
			for _, a := range p.Assignments {
				ids = append(ids, a.AgentID)
			}
		}
		slices.Sort(ids)
		return string(o.Channel.Status) + " " + strings.Join(ids, ",")
	}
	run := func(h *writetest.Harness) map[string]string {
		ctx := context.Background()
		ids := map[string]string{}
		for _, text := range demands {
			sub, err := h.C.SubmitDemand(ctx, "u1", text)
			if err != nil {
				t.Fatal(err)
			}
			ids[text] = sub.DemandID
		}
		out := map[string]string{}
		for text, id := range ids {
			out[text] = plan(h.Wait(id, 3*time.Minute))
		}
		return out
	}
	clean := run(writetest.New(t, writetest.Opts{}))

	server := newFaultServer(t, 0.3, 1500*time.Millisecond)
	provider := &tapProvider{server: server, inner: llm.NewOpenAI(llm.OpenAIConfig{APIKey: "k", BaseURL: server.URL + "/v1", Model: "tap"})}
	h := writetest.New(t, writetest.Opts{Provider: provider, LLMCfg: func(c *llm.Config) {
		c.Timeout, c.RetryBudget = time.Second, 8*time.Second
	}})
	faulty := run(h)

	same := 0
	for _, text := range demands {
		if faulty[text] == clean[text] {
			same++
		} else {
			t.Logf("%s:\n  without faults: %s\n  with faults:    %s", text, clean[text], faulty[text])
		}
	}
	server.mu.Lock()
	kinds := fmt.Sprint(server.kinds)
	server.mu.Unlock()
	t.Logf("%d of %d negotiations ended as without faults; injected faults: %s", same, len(demands), kinds)
	for _, k := range faultKinds {
		if !strings.Contains(kinds, k+":") {
			t.Fatalf("fault %s never injected (%s): the test did not test it", k, kinds)
		}
	}
	if same*10 < len(demands)*9 {
		t.Fatalf("only %d of %d negotiations ended as they do without faults", same, len(demands))
	}
}
