package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
	"unicode/utf8"

	"github.com/sony/gobreaker/v2"
	"go.opentelemetry.io/otel/trace"

	"github.com/towow/towow/domain/event"
)

// Defaults of [Config].
const (
	DefaultTimeout          = 10 * time.Second
	DefaultFailureThreshold = 3
	DefaultRecoveryTimeout  = 30 * time.Second
	DefaultRetryBudget      = 2 * DefaultTimeout
)

// maxErrorRunes bounds the error message recorded in event.LLMCall.
const maxErrorRunes = 300

// Config configures a [Client]. Zero fields take their defaults.
type Config struct {
	// Provider answers the prompts. Nil makes every call fail (outcome
	// error), so every prompt falls back.
	Provider Provider
	// Timeout bounds each attempt of a call (LLM_TIMEOUT); default 10s.
	Timeout time.Duration
	// RetryBudget bounds a call with its retries (LLM_RETRY_BUDGET;
	// default 20s): a retryable failure (429, 5xx, 529, a connection error,
	// an attempt that timed out) is repeated with backoff while the budget
	// lasts, and only the call's final failure counts against the breaker.
	// Zero: twice Timeout; negative: no retries.
	RetryBudget time.Duration
	// FailureThreshold is the number of consecutive failures that open the
	// breaker (LLM_FAILURE_THRESHOLD); default 3.
	FailureThreshold uint32
	// RecoveryTimeout is how long the breaker stays open before one probe
	// (LLM_RECOVERY_TIMEOUT); default 30s.
	RecoveryTimeout time.Duration
	// Now is the clock used to measure latency; default time.Now. (The
	// breaker's own timing and the outages' use the real clock.)
	Now func() time.Time
	// Logger receives warnings about fallbacks and breaker state changes;
	// default: discard.
	Logger *slog.Logger
	// OnCall, when set, is called after every call with its record (for
	// metrics). It must not block.
	OnCall func(event.LLMCall)
	// OnBreakerOpen, when set, is called each time the circuit breaker
	// opens (for metrics: the openings counter). It must not block.
	OnBreakerOpen func()
	// OutageBudget is how long calls wait out a provider that is
	// unavailable before they fall back (LLM_OUTAGE_BUDGET; the server's
	// default is DefaultOutageBudget): within it a call that finds the
	// provider down returns an *OutageError instead of the fallback. Zero
	// or less: calls fall back at once.
	OutageBudget time.Duration
	// TracerProvider, when set, traces every call as a GenAI client span
	// (see trace.go), a child of the caller's span; nil: no spans, no cost.
	TracerProvider trace.TracerProvider
}

// Client runs prompts (see [Call]) through one provider with timeout,
// circuit breaker, retries, reuse of recorded answers, parsing and
// fallbacks. It is safe for concurrent use.
type Client struct {
	provider Provider
	timeout  time.Duration
	budget   time.Duration // of a call with its retries; <= 0: no retries
	now      func() time.Time
	log      *slog.Logger
	onCall   func(event.LLMCall)
	breaker  *gobreaker.CircuitBreaker[struct{}]
	tracer   trace.Tracer // nil: no spans
	// suspect lets one call at a time through while the breaker has
	// counted failures but not tripped yet (see execute).
	suspect chan struct{}
	// auth remembers a key the provider refused (health.go).
	auth authGate
	// outageBudget and outages: waiting out an outage (outage.go).
	outageBudget time.Duration
	outages      outageLog
}

// NewClient returns a Client for cfg.
func NewClient(cfg Config) *Client {
	c := &Client{provider: cfg.Provider, timeout: cfg.Timeout, budget: cfg.RetryBudget, now: cfg.Now, log: cfg.Logger, onCall: cfg.OnCall,
		outageBudget: cfg.OutageBudget}
	if c.provider == nil {
		c.provider = noProvider{}
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.budget == 0 {
		c.budget = 2 * c.timeout // DefaultRetryBudget with the default timeout
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	threshold := cfg.FailureThreshold
	if threshold == 0 {
		threshold = DefaultFailureThreshold
	}
	recovery := cfg.RecoveryTimeout
	if recovery <= 0 {
		recovery = DefaultRecoveryTimeout
	}
	c.breaker = newBreaker(threshold, recovery, c.log, cfg.OnBreakerOpen)
	c.suspect = make(chan struct{}, 1)
	if cfg.TracerProvider != nil {
		c.tracer = cfg.TracerProvider.Tracer(tracerName)
	}
	return c
}

// execute runs fn through the breaker. While the provider looks down (the
// last call failed and the breaker has not tripped yet) calls go one at a
// time: a fan-out of parallel calls then stops at the threshold instead of
// every call waiting out its timeout before the breaker opens. Once it is
// open the waiting calls are refused at once.
func (c *Client) execute(ctx context.Context, fn func() (struct{}, error)) error {
	if c.breaker.Counts().ConsecutiveFailures > 0 {
		select {
		case c.suspect <- struct{}{}:
			defer func() { <-c.suspect }()
		case <-ctx.Done():
			return fmt.Errorf("%w: %w", errCallerDone, ctx.Err())
		}
	}
	_, err := c.breaker.Execute(fn)
	return err
}

// BreakerState returns the circuit breaker's state: "closed", "open" or
// "half-open".
func (c *Client) BreakerState() string { return c.breaker.State().String() }

// ProviderName returns the provider's name ("none" without a provider).
func (c *Client) ProviderName() string { return c.provider.Name() }

// Call runs prompt p for in through c: a recorded answer to the same
// input when ctx asks for reuse (WithReuse), else render → provider
// (timeout, breaker, retries) → parse (an unusable reply asked again with
// what was wrong, withFeedback) → fallback on failure → record (with the
// input's hash, the answer parsed and, when there were several, every
// attempt). It returns the typed result,
// the record of the call and an error.
//
// The error is non-nil when ctx is done (cancelled or past its deadline),
// or when the provider is unavailable and the outage is younger than the
// client's outage budget (an *OutageError: the step should run again
// after its RetryAfter, see outage.go); the result must not be used then.
// Any other failure of the LLM (and an outage that outlasted the budget)
// gives the prompt's fallback result, with FallbackUsed set in the record,
// and a nil error.
func Call[In, Reply, Out any](ctx context.Context, c *Client, p *Prompt[In, Reply, Out], in In) (Out, event.LLMCall, error) {
	key := p.key
	ctx, span := c.startSpan(ctx, key, p.maxTokens, p.temperature)
	start := c.now()
	rec := event.LLMCall{PromptKey: string(key), Provider: c.provider.Name(), Model: c.provider.Model()}

	var (
		out  Out
		resp Response
		err  error
		att  attemptLog
	)
	// The rendered prompt is what the model reads: its hash identifies
	// the call's input (an input field the template leaves out, such as a
	// proposal's creation time, does not count).
	prompt, renderErr := p.render(&in)
	var input []byte
	if renderErr == nil {
		input = promptInput(p.system, prompt)
		rec.InputHash = InputHash(key, c.provider.Model(), input)
	}
	if answer, ok := c.recordedAnswer(ctx, key, input, rec.InputHash); ok && ctx.Err() == nil {
		// The recorded answer to the same question, parsed as it was then:
		// one that did not parse falls back again, as the original did.
		out, perr := p.parse(answer, &in)
		rec.Outcome, rec.Reused, rec.Answer = event.LLMOutcomeOK, true, answer
		if perr != nil {
			out, rec.Outcome, rec.FallbackUsed, rec.Error = p.fallback(&in), event.LLMOutcomeParseError, true, shortError(perr)
		}
		rec.LatencyMS = c.now().Sub(start).Milliseconds()
		c.log.DebugContext(ctx, "llm call reused a recorded answer", "prompt_key", rec.PromptKey, "outcome", rec.Outcome)
		if c.onCall != nil {
			c.onCall(rec)
		}
		endSpan(span, rec, "")
		return out, rec, nil
	}
	if err = ctx.Err(); err != nil {
		err = fmt.Errorf("%w: %w", errCallerDone, err)
	} else {
		if ir, ok := c.provider.(InputReader); !ok || !ir.ReadsInputOnly() {
			err = renderErr // a provider that reads only the typed input answers without the prompt
		}
		if err == nil && !c.auth.admit(time.Now()) {
			err = errUnauthorized // the key was refused: not sent again before its next probe
		} else if err == nil {
			req := Request{Key: key, System: p.system, Prompt: prompt, Input: &in, MaxTokens: p.maxTokens, Temperature: p.temperature}
			deadline := time.Now().Add(max(c.budget, c.timeout))
			err = c.execute(ctx, func() (struct{}, error) {
				for reask := 0; ; reask++ {
					var cerr error
					resp, cerr = c.completeRetrying(ctx, req, deadline, &att)
					if cerr != nil {
						return struct{}{}, cerr
					}
					if out, cerr = p.parse(resp.Text, &in); cerr == nil {
						return struct{}{}, nil
					}
					att.unusable(cerr)
					if reask >= maxReasks || c.budget <= 0 || time.Until(deadline) < minReaskTime || ctx.Err() != nil {
						return struct{}{}, cerr
					}
					c.log.DebugContext(ctx, "llm reply unusable; asking again", "prompt_key", key, "err", cerr)
					req.Prompt = withFeedback(prompt, resp.Text, cerr)
				}
			})
			c.noteAuth(ctx, err)
		}
	}
	if len(att.list) > 1 {
		rec.Attempts = att.list
	}

	rec.LatencyMS = c.now().Sub(start).Milliseconds()
	if resp.Model != "" {
		rec.Model = resp.Model
	}
	rec.InputTokens, rec.OutputTokens = resp.InputTokens, resp.OutputTokens
	rec.Outcome = outcomeOf(err)
	rec.Answer = resp.Text // also an answer that did not parse: the same question gets it again
	if ctx.Err() == nil {
		if werr := c.waitOut(key, err, time.Now()); werr != nil {
			rec.Error = shortError(err)
			c.log.WarnContext(ctx, "llm provider unavailable; the step waits and asks again", "prompt_key", rec.PromptKey,
				"provider", rec.Provider, "outcome", rec.Outcome, "error", rec.Error, "retry_after", werr.Wait.Round(time.Millisecond))
			if c.onCall != nil {
				c.onCall(rec)
			}
			endSpan(span, rec, resp.Model)
			var zero Out
			return zero, rec, werr
		}
	}
	var callerErr error
	if err != nil {
		out = p.fallback(&in)
		rec.FallbackUsed = true
		rec.Error = shortError(err)
		if ctx.Err() != nil {
			callerErr = fmt.Errorf("llm: %s: %w", key, ctx.Err())
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				rec.Outcome = event.LLMOutcomeTimeout
			} else {
				rec.Outcome = event.LLMOutcomeError
			}
		}
		level := slog.LevelWarn
		if errors.Is(err, errUnauthorized) {
			level = slog.LevelDebug // the refused key was logged once (noteAuth)
		}
		c.log.Log(ctx, level, "llm call failed, using fallback", "prompt_key", rec.PromptKey, "provider", rec.Provider,
			"outcome", rec.Outcome, "error", rec.Error, "latency_ms", rec.LatencyMS)
	} else {
		c.log.DebugContext(ctx, "llm call", "prompt_key", rec.PromptKey, "provider", rec.Provider, "model", rec.Model,
			"latency_ms", rec.LatencyMS, "input_tokens", rec.InputTokens, "output_tokens", rec.OutputTokens)
	}
	if c.onCall != nil {
		c.onCall(rec)
	}
	endSpan(span, rec, resp.Model)
	return out, rec, callerErr
}

// outcomeOf classifies the error of a call.
func outcomeOf(err error) string {
	switch {
	case err == nil:
		return event.LLMOutcomeOK
	case isBreakerRefusal(err):
		return event.LLMOutcomeBreakerOpen
	case errors.Is(err, errCallTimeout):
		return event.LLMOutcomeTimeout
	case errors.Is(err, errInvalidReply):
		return event.LLMOutcomeParseError
	}
	return event.LLMOutcomeError
}

// shortError is the message recorded for a failed call: at most
// maxErrorRunes runes. Provider errors are already free of URLs, bodies
// and keys (see wrapProviderError).
func shortError(err error) string {
	msg := err.Error()
	switch {
	case errors.Is(err, gobreaker.ErrOpenState):
		msg = "circuit breaker open"
	case errors.Is(err, gobreaker.ErrTooManyRequests):
		msg = "circuit breaker half-open, probe in flight"
	}
	if utf8.RuneCountInString(msg) > maxErrorRunes {
		msg = string([]rune(msg)[:maxErrorRunes]) + "…"
	}
	return msg
}
