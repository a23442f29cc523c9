package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// Request is one completion request to a Provider.
type Request struct {
	Key    PromptKey
	System string // system prompt (Chinese)
	Prompt string // the rendered prompt template (Chinese)
	// Input is the typed input the prompt was rendered from: a pointer to
	// the input type of the prompt of Key (*GapInput for Gaps …). Network
	// providers ignore it; the offline builtin brain reads it instead of
	// the prose.
	Input       any
	MaxTokens   int
	Temperature float64
}

// Response is a Provider's raw answer: text that should contain one JSON
// object (possibly inside prose or a code fence), parsed by this package.
type Response struct {
	Text         string
	Model        string
	InputTokens  int
	OutputTokens int
}

// Provider is one LLM backend: "builtin" (offline simulation), "anthropic"
// or "openai" (any OpenAI-compatible server).
type Provider interface {
	// Name is the provider name recorded with each call.
	Name() string
	// Model is the model name recorded with each call ("" if none).
	Model() string
	// Complete sends one request. It must honour ctx (deadline and
	// cancellation) and return an error for any failure; it never falls
	// back by itself (the Client does, per prompt).
	Complete(ctx context.Context, req Request) (Response, error)
}

// InputReader is implemented by providers that answer from Request.Input
// alone and never read the prose (the offline builtin brain): the Client
// then skips rendering the prompt template, which for smart filtering
// serializes every agent profile.
type InputReader interface {
	ReadsInputOnly() bool
}

// defaultMaxTokens is the completion budget of a request that sets none.
const defaultMaxTokens = 2048

// safeError is an error whose message is a short summary without request
// URLs, response bodies or credentials, while Unwrap still exposes the
// underlying SDK error (errors.As to *anthropic.Error, errors.Is to
// context.DeadlineExceeded, ...).
type safeError struct {
	msg    string
	status int // the HTTP status of an API error, 0 if none
	err    error
}

func (e *safeError) Error() string { return e.msg }
func (e *safeError) Unwrap() error { return e.err }

// wrapProviderError turns an SDK error into a safeError named after the
// provider. status is the HTTP status of an API error (0 if none).
func wrapProviderError(provider string, status int, err error) error {
	switch {
	case status != 0:
		msg := fmt.Sprintf("%s: http %d", provider, status)
		if text := http.StatusText(status); text != "" {
			msg += " " + text
		}
		return &safeError{msg: msg, status: status, err: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &safeError{msg: provider + ": " + context.DeadlineExceeded.Error(), err: err}
	case errors.Is(err, context.Canceled):
		return &safeError{msg: provider + ": " + context.Canceled.Error(), err: err}
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		// *url.Error names the URL, which may carry credentials.
		return &safeError{msg: fmt.Sprintf("%s: %s request: %v", provider, uerr.Op, uerr.Err), err: err}
	}
	return &safeError{msg: fmt.Sprintf("%s: %v", provider, err), err: err}
}

// maxTokens returns req.MaxTokens, or the default when it is not positive.
func maxTokens(req Request) int64 {
	if req.MaxTokens > 0 {
		return int64(req.MaxTokens)
	}
	return defaultMaxTokens
}

// noProvider is the Provider of a Client configured without one: every call
// fails, so every prompt falls back.
type noProvider struct{}

// errNoProvider is returned by noProvider.
var errNoProvider = errors.New("llm: no provider configured")

func (noProvider) Name() string  { return "none" }
func (noProvider) Model() string { return "" }
func (noProvider) Complete(context.Context, Request) (Response, error) {
	return Response{}, errNoProvider
}
