package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/sony/gobreaker/v2"
)

// Errors of the call path, classified into the outcomes of event.LLMCall.
var (
	// errCallTimeout: the call exceeded Config.Timeout.
	errCallTimeout = errors.New("llm call timed out")
	// errCallerDone: the caller's context ended during the call; excluded
	// from the breaker's counts.
	errCallerDone = errors.New("caller context done")
)

// newBreaker returns the circuit breaker shared by all prompts: it opens
// after threshold consecutive failures, stays open for recovery, then lets
// one probe through (MaxRequests 1). Calls abandoned by the caller
// (errCallerDone) and keys the provider refused (Unauthorized: a
// configuration error, health.go) count neither way. onOpen (nil: none) is called each
// time it opens.
func newBreaker(threshold uint32, recovery time.Duration, log *slog.Logger, onOpen func()) *gobreaker.CircuitBreaker[struct{}] {
	return gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        "llm",
		MaxRequests: 1,
		Timeout:     recovery,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= threshold },
		IsExcluded:  func(err error) bool { return errors.Is(err, errCallerDone) || Unauthorized(err) },
		OnStateChange: func(name string, from, to gobreaker.State) {
			log.Warn("llm circuit breaker state changed", "breaker", name, "from", from.String(), "to", to.String())
			if to == gobreaker.StateOpen && onOpen != nil {
				onOpen()
			}
		},
	})
}

// isBreakerRefusal reports whether err is the breaker refusing a call
// (open, or half-open with its probe already in flight).
func isBreakerRefusal(err error) bool {
	return errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests)
}

// callResult is what a provider goroutine hands back.
type callResult struct {
	resp Response
	err  error
}

// complete calls the provider with the per-call timeout. It returns as
// soon as the deadline passes even if the provider does not honour its
// context (the late answer is dropped). Errors: errCallTimeout (wrapping
// context.DeadlineExceeded) when the timeout fired, errCallerDone
// (wrapping ctx's error) when the caller's context ended, else the
// provider's error.
func (c *Client) complete(ctx context.Context, req Request, timeout time.Duration) (Response, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan callResult, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- callResult{err: fmt.Errorf("llm: provider %s panicked: %v", c.provider.Name(), r)}
			}
		}()
		resp, err := c.provider.Complete(cctx, req)
		done <- callResult{resp: resp, err: err}
	}()
	var res callResult
	select {
	case res = <-done:
		if res.err == nil {
			return res.resp, nil
		}
	case <-cctx.Done():
		res = callResult{err: cctx.Err()}
	}
	switch {
	case ctx.Err() != nil:
		return Response{}, fmt.Errorf("%w: %w", errCallerDone, ctx.Err())
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return res.resp, fmt.Errorf("%w after %v: %w", errCallTimeout, timeout, context.DeadlineExceeded)
	}
	return res.resp, res.err
}
