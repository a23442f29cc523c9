package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"time"
)

// Retries. A provider that fails now and then (rate limits, overloaded
// servers, dropped connections, a slow answer) usually answers the same
// request a moment later; without retries three such failures in a row
// open the breaker and whole negotiations run on fallbacks. So a call
// repeats a retryable failure with exponential backoff and jitter while
// its budget (Config.RetryBudget) lasts; what is not retryable — a request
// the server refuses (400, 401, 403, 404, 422), a caller that is done, a
// reply that does not parse — fails at once. The breaker sees only the
// call's final outcome.

// Backoff between attempts: retryBase doubled per attempt, capped at
// retryMax, each wait drawn between half and all of it; at most
// maxAttempts attempts per call. While the breaker counts failures (the
// last call failed even with its retries: the provider looks down) a call
// makes one attempt, so a provider that is down costs one call's retries,
// and then the breaker opens after a few quick failures.
const (
	retryBase   = 250 * time.Millisecond
	retryMax    = 4 * time.Second
	maxAttempts = 6
)

// retryable reports whether a failed attempt may succeed when repeated.
func retryable(err error) bool {
	if errors.Is(err, errCallerDone) || errors.Is(err, errInvalidReply) {
		return false
	}
	if errors.Is(err, errCallTimeout) {
		return true
	}
	var se *safeError
	if errors.As(err, &se) && se.status != 0 {
		switch s := se.status; {
		case s == http.StatusRequestTimeout, s == http.StatusConflict, s == http.StatusTooEarly, s == http.StatusTooManyRequests:
			return true
		case s >= 500: // 500, 502, 503, 504, and Anthropic's 529 overloaded
			return true
		}
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, net.ErrClosed)
}

// completeRetrying calls the provider, repeating retryable failures with
// backoff while the budget lasts (at most maxAttempts attempts); each
// attempt gets the call timeout, or what is left of the budget when that
// is less.
func (c *Client) completeRetrying(ctx context.Context, req Request) (Response, error) {
	if c.budget <= 0 || c.breaker.Counts().ConsecutiveFailures > 0 {
		return c.complete(ctx, req, c.timeout)
	}
	deadline := time.Now().Add(max(c.budget, c.timeout))
	for attempt := 0; ; attempt++ {
		timeout := min(c.timeout, time.Until(deadline))
		resp, err := c.complete(ctx, req, timeout)
		if err == nil || !retryable(err) || attempt+1 >= maxAttempts {
			return resp, err
		}
		wait := min(retryBase<<min(attempt, 8), retryMax)
		wait = wait/2 + rand.N(wait/2+1)
		if time.Until(deadline)-wait < 100*time.Millisecond {
			return resp, err // no time for another attempt
		}
		c.log.DebugContext(ctx, "llm attempt failed; retrying", "prompt_key", req.Key, "attempt", attempt+1, "err", err, "wait", wait)
		select {
		case <-ctx.Done():
			return resp, fmt.Errorf("%w: %w", errCallerDone, ctx.Err())
		case <-time.After(wait):
		}
	}
}
