package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
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
	// retryAfter is the wait the provider asked for (Retry-After,
	// retry-after-ms), 0 if none.
	retryAfter time.Duration
	err        error
}

func (e *safeError) Error() string { return e.msg }
func (e *safeError) Unwrap() error { return e.err }

// wrapProviderError turns an SDK error into a safeError named after the
// provider. status is the HTTP status of an API error (0 if none).
func wrapProviderError(provider string, resp *http.Response, err error) error {
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	switch {
	case status != 0:
		msg := fmt.Sprintf("%s: http %d", provider, status)
		if text := http.StatusText(status); text != "" {
			msg += " " + text
		}
		return &safeError{msg: msg, status: status, retryAfter: retryAfterHeader(resp.Header, time.Now()), err: err}
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

// maxRetryAfter bounds the wait a provider may ask for.
const maxRetryAfter = time.Minute

// retryAfterHeader is the wait an answer's headers ask for: retry-after-ms
// (OpenAI's and Anthropic's), else Retry-After in seconds or as an HTTP
// date; 0 when none or unreadable, at most maxRetryAfter.
func retryAfterHeader(h http.Header, now time.Time) time.Duration {
	var d time.Duration
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		d = time.Duration(ms * float64(time.Millisecond))
	} else if v := h.Get("Retry-After"); v != "" {
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs > 0 {
			d = time.Duration(secs * float64(time.Second))
		} else if at, err := http.ParseTime(v); err == nil {
			d = at.Sub(now)
		}
	}
	return min(max(d, 0), maxRetryAfter)
}

// retryAfterOf is the wait the provider asked for with err, 0 if none.
func retryAfterOf(err error) time.Duration {
	var se *safeError
	if errors.As(err, &se) {
		return se.retryAfter
	}
	return 0
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
