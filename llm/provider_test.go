package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go/v3"
)

// wireServer is a local server speaking one provider's wire format; it
// records the requests it receives.
type wireServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []recordedRequest
}

type recordedRequest struct {
	method, path string
	header       http.Header
	body         map[string]any
}

// newWireServer starts a server whose handler writes status and body after
// recording the request. A negative status makes the handler hang until
// the client gives up.
func newWireServer(t *testing.T, status int, body string) *wireServer {
	t.Helper()
	ws := &wireServer{}
	ws.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		ws.mu.Lock()
		ws.requests = append(ws.requests, recordedRequest{r.Method, r.URL.Path, r.Header.Clone(), m})
		ws.mu.Unlock()
		if status < 0 {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(ws.Close)
	return ws
}

func (ws *wireServer) only(t *testing.T) recordedRequest {
	t.Helper()
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if len(ws.requests) != 1 {
		t.Fatalf("%d requests, want 1", len(ws.requests))
	}
	return ws.requests[0]
}

// testRequest is the request the provider tests send.
var testRequest = Request{Key: PromptOffer, System: "你是数字分身系统。", Prompt: "请以 JSON 格式输出。", MaxTokens: 800, Temperature: 0.5}

const anthropicOK = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test-1",
 "content":[{"type":"text","text":"{\"decision\":\"participate\"}"}],
 "stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":34}}`

const openAIOK = `{"id":"c1","object":"chat.completion","created":1,"model":"qwen-test",
 "choices":[{"index":0,"message":{"role":"assistant","content":"{\"decision\":\"participate\"}"},"finish_reason":"stop"}],
 "usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}}`

func newTestAnthropic(url string) Provider {
	return NewAnthropic(AnthropicConfig{APIKey: "test-key", BaseURL: url, Model: "claude-test-1", MaxRetries: 0})
}

func newTestOpenAI(url string) Provider {
	return NewOpenAI(OpenAIConfig{APIKey: "test-key", BaseURL: url, Model: "qwen-test", MaxRetries: 0})
}

func TestAnthropicSuccess(t *testing.T) {
	ws := newWireServer(t, 200, anthropicOK)
	p := newTestAnthropic(ws.URL)
	if p.Name() != "anthropic" || p.Model() != "claude-test-1" {
		t.Errorf("name %q model %q", p.Name(), p.Model())
	}
	resp, err := p.Complete(context.Background(), testRequest)
	if err != nil {
		t.Fatal(err)
	}
	want := Response{Text: `{"decision":"participate"}`, Model: "claude-test-1", InputTokens: 12, OutputTokens: 34}
	if resp != want {
		t.Errorf("resp = %+v, want %+v", resp, want)
	}
	r := ws.only(t)
	if r.method != http.MethodPost || r.path != "/v1/messages" || r.header.Get("X-Api-Key") != "test-key" {
		t.Errorf("request %s %s key %q", r.method, r.path, r.header.Get("X-Api-Key"))
	}
	b, _ := json.Marshal(r.body)
	body := string(b)
	for _, want := range []string{`"model":"claude-test-1"`, `"max_tokens":800`, `"temperature":0.5`,
		`"system":[{"text":"你是数字分身系统。","type":"text"}]`,
		`"messages":[{"content":[{"text":"请以 JSON 格式输出。","type":"text"}],"role":"user"}]`} {
		if !strings.Contains(body, want) {
			t.Errorf("request body lacks %s:\n%s", want, body)
		}
	}
}

func TestAnthropicDefaults(t *testing.T) {
	ws := newWireServer(t, 200, anthropicOK)
	p := NewAnthropic(AnthropicConfig{APIKey: "k", BaseURL: ws.URL})
	if p.Model() != DefaultAnthropicModel {
		t.Errorf("default model %q", p.Model())
	}
	if _, err := p.Complete(context.Background(), Request{Prompt: "x"}); err != nil {
		t.Fatal(err)
	}
	r := ws.only(t)
	if r.body["max_tokens"] != float64(defaultMaxTokens) || r.body["system"] != nil || r.body["temperature"] != nil {
		t.Errorf("body = %v", r.body)
	}
}

func TestOpenAISuccess(t *testing.T) {
	ws := newWireServer(t, 200, openAIOK)
	p := newTestOpenAI(ws.URL)
	if p.Name() != "openai" || p.Model() != "qwen-test" {
		t.Errorf("name %q model %q", p.Name(), p.Model())
	}
	resp, err := p.Complete(context.Background(), testRequest)
	if err != nil {
		t.Fatal(err)
	}
	want := Response{Text: `{"decision":"participate"}`, Model: "qwen-test", InputTokens: 12, OutputTokens: 34}
	if resp != want {
		t.Errorf("resp = %+v, want %+v", resp, want)
	}
	r := ws.only(t)
	if r.method != http.MethodPost || r.path != "/chat/completions" || r.header.Get("Authorization") != "Bearer test-key" {
		t.Errorf("request %s %s auth %q", r.method, r.path, r.header.Get("Authorization"))
	}
	b, _ := json.Marshal(r.body)
	body := string(b)
	for _, want := range []string{`"model":"qwen-test"`, `"max_tokens":800`, `"temperature":0.5`,
		`"messages":[{"content":"你是数字分身系统。","role":"system"},{"content":"请以 JSON 格式输出。","role":"user"}]`} {
		if !strings.Contains(body, want) {
			t.Errorf("request body lacks %s:\n%s", want, body)
		}
	}
}

func TestOpenAIWithoutModel(t *testing.T) {
	ws := newWireServer(t, 200, openAIOK)
	cfg := OpenAIConfig{BaseURL: ws.URL}
	if err := cfg.Validate(); !errors.Is(err, ErrNoModel) {
		t.Errorf("Validate() = %v", err)
	}
	_, err := NewOpenAI(cfg).Complete(context.Background(), testRequest)
	if !errors.Is(err, ErrNoModel) {
		t.Errorf("Complete error = %v, want ErrNoModel", err)
	}
	if len(ws.requests) != 0 {
		t.Error("a request was sent without a model")
	}
	if err := (OpenAIConfig{Model: "m"}).Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
}

// TestProviderFailures covers both providers: HTTP errors, a slow server
// with a context deadline, malformed and empty replies.
func TestProviderFailures(t *testing.T) {
	type provider struct {
		name string
		new  func(string) Provider
		// status extracts the HTTP status from the SDK error.
		status func(error) int
		empty  string // a well-formed reply without text
	}
	providers := []provider{
		{"anthropic", newTestAnthropic, func(err error) int {
			var e *anthropic.Error
			if errors.As(err, &e) {
				return e.StatusCode
			}
			return 0
		}, `{"id":"m","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":1,"output_tokens":0}}`},
		{"openai", newTestOpenAI, func(err error) int {
			var e *openai.Error
			if errors.As(err, &e) {
				return e.StatusCode
			}
			return 0
		}, `{"id":"c","object":"chat.completion","created":1,"model":"x","choices":[]}`},
	}
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			for _, status := range []int{500, 429} {
				ws := newWireServer(t, status, `{"type":"error","error":{"type":"api_error","message":"secret-detail"}}`)
				_, err := p.new(ws.URL).Complete(context.Background(), testRequest)
				if err == nil || p.status(err) != status {
					t.Fatalf("status %d: err = %v", status, err)
				}
				if msg := err.Error(); strings.Contains(msg, ws.URL) || strings.Contains(msg, "secret-detail") || !strings.Contains(msg, p.name) {
					t.Errorf("error message %q leaks the URL or body, or lacks the provider", msg)
				}
			}

			ws := newWireServer(t, -1, "")
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := p.new(ws.URL).Complete(ctx, testRequest)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("slow server: err = %v, want DeadlineExceeded", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("slow server: returned after %v", d)
			}

			for _, body := range []string{`this is not json`, `{"truncated":`, p.empty} {
				ws := newWireServer(t, 200, body)
				if _, err := p.new(ws.URL).Complete(context.Background(), testRequest); err == nil {
					t.Errorf("body %q: no error", body)
				}
			}
		})
	}
}
