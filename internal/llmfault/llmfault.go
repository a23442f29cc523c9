// Package llmfault is an OpenAI-compatible chat completions server that
// fails on purpose, for fault tests and `towow bench faults`: it answers
// each prompt as the builtin brain does, except for a seeded share of
// requests that fail in one of seven ways (Kinds), and it can be taken down
// altogether for an outage (Down).
//
// The server cannot work out the builtin brain's answer from a prompt's
// text, so requests reach it through Provider: the real OpenAI-compatible
// provider, told first what the builtin brain answers to the same typed
// input. Prompts are rendered, as for any real model.
package llmfault

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// Kind is one way a request fails.
type Kind string

// The seven faults, equally likely for a faulted request.
const (
	Status500  Kind = "500"         // an internal server error
	Status429  Kind = "429"         // rate limited, with Retry-After: 1
	Status529  Kind = "529"         // overloaded (Anthropic's status)
	Hang       Kind = "hang"        // no answer for Config.Hang (20 s)
	Reset      Kind = "reset"       // the connection dropped without an answer
	Malformed  Kind = "malformed"   // the reply cut off halfway: not JSON
	WrongTypes Kind = "wrong_types" // valid JSON with every value of the wrong type
)

// Kinds lists the faults in the order they are counted.
var Kinds = []Kind{Status500, Status429, Status529, Hang, Reset, Malformed, WrongTypes}

// DefaultHang is how long a Hang fault keeps the request waiting.
const DefaultHang = 20 * time.Second

// Config configures a Server.
type Config struct {
	// Rate is the share of requests that fail (0 to 1).
	Rate float64
	// Seed seeds the choice of faulted requests and of their kind.
	Seed uint64
	// Hang is how long a Hang fault waits (DefaultHang when zero); the
	// client gives up first, at its timeout.
	Hang time.Duration
	// Kinds are the faults drawn from (all of Kinds when empty).
	Kinds []Kind
}

// Server is the failing OpenAI-compatible endpoint. It is safe for
// concurrent use.
type Server struct {
	srv   *httptest.Server
	cfg   Config
	brain llm.Provider

	mu       sync.Mutex
	rng      *rand.Rand
	reply    map[string]string
	down     bool
	requests int
	counts   map[Kind]int
	downHits int
}

// New starts a Server on a local port; Close stops it.
func New(cfg Config) *Server {
	if cfg.Hang <= 0 {
		cfg.Hang = DefaultHang
	}
	if len(cfg.Kinds) == 0 {
		cfg.Kinds = Kinds
	}
	s := &Server{cfg: cfg, brain: builtin.New(), rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		reply: map[string]string{}, counts: map[Kind]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the server's base URL for an OpenAI-compatible client (with /v1).
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Down takes the server down (every request answers 503) or brings it
// back.
func (s *Server) Down(down bool) {
	s.mu.Lock()
	s.down = down
	s.mu.Unlock()
}

// Stats are what a Server has seen.
type Stats struct {
	// Requests is the number of requests.
	Requests int
	// Faults counts the injected faults by kind.
	Faults map[Kind]int
	// WhileDown is the number of requests refused while the server was
	// down.
	WhileDown int
}

// Stats returns what the server has seen so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Stats{Requests: s.requests, Faults: map[Kind]int{}, WhileDown: s.downHits}
	for k, n := range s.counts {
		st.Faults[k] = n
	}
	return st
}

// Provider is the client side: the OpenAI-compatible provider pointed at
// the server, which first tells the server the builtin brain's answer to
// each request.
func (s *Server) Provider() llm.Provider {
	return &tap{server: s, inner: llm.NewOpenAI(llm.OpenAIConfig{APIKey: "fault-test", BaseURL: s.URL(), Model: "builtin-faulty"})}
}

// tap tells the server what the builtin brain answers, then asks it.
type tap struct {
	server *Server
	inner  llm.Provider
}

func (p *tap) Name() string  { return p.inner.Name() }
func (p *tap) Model() string { return p.inner.Model() }
func (p *tap) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	want, err := p.server.brain.Complete(ctx, req)
	if err != nil {
		return llm.Response{}, err
	}
	p.server.expect(req.System, req.Prompt, want.Text)
	return p.inner.Complete(ctx, req)
}

func (s *Server) expect(system, prompt, reply string) {
	s.mu.Lock()
	s.reply[system+"\x00"+prompt] = reply
	s.mu.Unlock()
}

// draw decides the fate of one request: down, a fault kind, or "".
func (s *Server) draw() (down bool, kind Kind) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if s.down {
		s.downHits++
		return true, ""
	}
	if s.rng.Float64() < s.cfg.Rate {
		kind = s.cfg.Kinds[s.rng.IntN(len(s.cfg.Kinds))]
		s.counts[kind]++
	}
	return false, kind
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) == 0 {
		writeError(w, http.StatusBadRequest, "bad request")
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
	down, kind := s.draw()
	if down {
		writeError(w, http.StatusServiceUnavailable, "the provider is down")
		return
	}
	s.mu.Lock()
	reply, known := s.reply[system+"\x00"+prompt]
	s.mu.Unlock()
	switch kind {
	case Status500:
		writeError(w, http.StatusInternalServerError, "injected internal error")
		return
	case Status429:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "injected rate limit")
		return
	case Status529:
		writeError(w, 529, "injected overload")
		return
	case Reset:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
	case Hang:
		select {
		case <-time.After(s.cfg.Hang):
		case <-r.Context().Done():
			return
		}
	case Malformed:
		reply = reply[:len(reply)/2]
	case WrongTypes:
		reply = wrongTypes(reply)
	}
	if !known {
		writeError(w, http.StatusInternalServerError, "no reply known for this prompt")
		return
	}
	out, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion", "created": 1, "model": body.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": reply}}}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"error":{"message":%q,"type":"server_error"}}`, msg)
}

// wrongTypes is reply (a JSON object) with every top-level value of the
// wrong type: text becomes a number, a number or a boolean becomes text, a
// list or an object becomes a number. A reply that is no JSON object is
// returned as a number.
func wrongTypes(reply string) string {
	var obj map[string]any
	if err := json.Unmarshal([]byte(reply), &obj); err != nil {
		return "42"
	}
	for k, v := range obj {
		switch v.(type) {
		case string:
			obj[k] = 42
		case float64, bool:
			obj[k] = "many"
		case nil:
			obj[k] = []any{7}
		default:
			obj[k] = 7
		}
	}
	b, _ := json.Marshal(obj)
	return string(b)
}
