package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/towow/towow/llm"
)

// ProviderName is the name of the builtin provider.
const ProviderName = "builtin"

// ModelName is the model name the builtin provider reports.
const ModelName = "towow-builtin-v1"

// Provider is the offline, deterministic stand-in for an LLM. It answers
// from the typed input of each request (llm.Request.Input), never from the
// prose. The zero value is ready to use and answers at once.
type Provider struct {
	latency time.Duration
	exact   bool // every wait is latency, not spread around it
}

// New returns the builtin provider; it answers at once.
func New() llm.Provider { return &Provider{} }

// NewWithLatency returns the builtin provider that waits about d before
// each answer (or until the context is done), as a real model does: each
// wait lies between d/2 and 3d/2, spread by a hash of the answer, so the
// twelve agents asked at once do not all answer in the same instant. The
// wait is the only use of time; answers never depend on it.
func NewWithLatency(d time.Duration) llm.Provider { return &Provider{latency: max(d, 0)} }

// NewWithExactLatency returns the builtin provider that waits exactly d
// before each answer: a benchmark can then count a run's time in model
// latencies.
func NewWithExactLatency(d time.Duration) llm.Provider {
	return &Provider{latency: max(d, 0), exact: true}
}

// wait is how long to wait before answering with text: latency scaled by
// a factor in [0.5, 1.5) taken from text's FNV-1a hash (exactly latency
// for an exact provider).
func (p *Provider) wait(text string) time.Duration {
	if p.exact {
		return p.latency
	}
	h := fnv.New32a()
	h.Write([]byte(text))
	return p.latency/2 + time.Duration(uint64(p.latency)*uint64(h.Sum32()%1024)/1024)
}

// Name returns "builtin".
func (p *Provider) Name() string { return ProviderName }

// Model returns "towow-builtin-v1".
func (p *Provider) Model() string { return ModelName }

// Complete answers one request. Request.Input must be the typed input that
// matches Request.Key (a pointer, such as *llm.FilterInput for
// llm.Filter; a value is accepted too). It returns ctx.Err() when the
// context is done, and an error for an unknown key or a missing or
// mismatched input.
func (p *Provider) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	reply, err := answer(req)
	if err != nil {
		return llm.Response{}, err
	}
	text, err := render(string(req.Key), reply)
	if err != nil {
		return llm.Response{}, fmt.Errorf("builtin: encode %s reply: %w", req.Key, err)
	}
	if p.latency > 0 {
		t := time.NewTimer(p.wait(text))
		select {
		case <-ctx.Done():
			t.Stop()
			return llm.Response{}, ctx.Err()
		case <-t.C:
		}
	}
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	return llm.Response{
		Text:         text,
		Model:        ModelName,
		InputTokens:  inputTokens(req),
		OutputTokens: estimateTokens(text),
	}, nil
}

// ReadsInputOnly implements llm.InputReader: the builtin brain answers
// from Request.Input, so the client need not render the prose prompt.
func (*Provider) ReadsInputOnly() bool { return true }

// inputTokens estimates the prompt's size; without prose, from the input.
func inputTokens(req llm.Request) int {
	n := estimateTokens(req.System) + estimateTokens(req.Prompt)
	if req.Prompt == "" && req.Input != nil {
		if b, err := json.Marshal(req.Input); err == nil {
			n += estimateTokens(string(b))
		}
	}
	return n
}

// answers are the brain's answers by prompt key: each file of the brain
// registers its answer against the prompt value it answers.
var answers = map[llm.PromptKey]func(req llm.Request) (any, error){}

// register makes fn the brain's answer to prompt p: fn reads the prompt's
// typed input and fills its reply shape. It panics when p already has an
// answer (a programming error, caught when the package loads).
func register[In, Reply, Out any](p *llm.Prompt[In, Reply, Out], fn func(*In) Reply) {
	if _, dup := answers[p.Key()]; dup {
		panic("builtin: prompt " + string(p.Key()) + " answered twice")
	}
	answers[p.Key()] = func(req llm.Request) (any, error) { return with(req, fn) }
}

// answer answers req by its prompt key.
func answer(req llm.Request) (any, error) {
	fn, ok := answers[req.Key]
	if !ok {
		return nil, fmt.Errorf("builtin: unknown prompt key %q", req.Key)
	}
	return fn(req)
}

// with calls fn with the request's typed input *In (given as *In or In).
func with[In, Reply any](req llm.Request, fn func(*In) Reply) (any, error) {
	switch in := req.Input.(type) {
	case *In:
		if in != nil {
			return fn(in), nil
		}
	case In:
		return fn(&in), nil
	}
	var want *In
	return nil, fmt.Errorf("builtin: prompt %s needs Input of type %T, got %T", req.Key, want, req.Input)
}
