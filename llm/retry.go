package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
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
// retryMax, each wait drawn between half and all of it, or longer when the
// provider's answer asked for it (Retry-After); at most
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
// backoff until deadline (at most maxAttempts attempts); each attempt gets
// the call timeout, or what is left until the deadline when that is less,
// and is recorded in att.
func (c *Client) completeRetrying(ctx context.Context, req Request, deadline time.Time, att *attemptLog) (Response, error) {
	if c.budget <= 0 || c.breaker.Counts().ConsecutiveFailures > 0 {
		return att.run(func() (Response, error) { return c.complete(ctx, req, c.timeout) })
	}
	for attempt := 0; ; attempt++ {
		timeout := min(c.timeout, time.Until(deadline))
		resp, err := att.run(func() (Response, error) { return c.complete(ctx, req, timeout) })
		if err == nil || !retryable(err) || attempt+1 >= maxAttempts {
			return resp, err
		}
		wait := min(retryBase<<min(attempt, 8), retryMax)
		wait = wait/2 + rand.N(wait/2+1)
		wait = max(wait, retryAfterOf(err)) // the provider's Retry-After, when it asked for longer
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

// attemptLog records a call's attempts (event.LLMCall.Attempts).
type attemptLog struct {
	list []event.LLMAttempt
}

// run makes one attempt and records it.
func (a *attemptLog) run(attempt func() (Response, error)) (Response, error) {
	start := time.Now()
	resp, err := attempt()
	at := event.LLMAttempt{Outcome: outcomeOf(err), LatencyMS: time.Since(start).Milliseconds()}
	if err != nil {
		at.Error = shortError(err)
	}
	a.list = append(a.list, at)
	return resp, err
}

// unusable marks the last attempt's answer as one that did not parse or
// validate.
func (a *attemptLog) unusable(err error) {
	if n := len(a.list); n > 0 {
		a.list[n-1].Outcome, a.list[n-1].Error = event.LLMOutcomeParseError, shortError(err)
	}
}

// Asking again. A reply that does not parse or validate is usually right
// the next time when the model is told what was wrong with it: the call
// asks again, with the prompt followed by the error (and the start of the
// unusable answer), at most maxReasks times while its budget lasts; only
// then does the prompt's fallback answer.
const (
	maxReasks = 2
	// minReaskTime is the least time left in the budget worth asking
	// again in.
	minReaskTime = time.Second
	// maxQuotedAnswer bounds what a re-ask quotes of the unusable answer.
	maxQuotedAnswer = 600
)

// withFeedback is prompt asking again after answer failed with err.
func withFeedback(prompt, answer string, err error) string {
	quoted := strings.TrimSpace(answer)
	if utf8.RuneCountInString(quoted) > maxQuotedAnswer {
		quoted = string([]rune(quoted)[:maxQuotedAnswer]) + "…"
	}
	return prompt + "\n\n## 上一次回答的问题\n\n你上一次的回答无法使用：" + strings.TrimPrefix(err.Error(), errInvalidReply.Error()+": ") +
		"。\n\n上一次的回答（开头）：\n\n" + quoted + "\n\n请改正这个问题，严格按照上面的输出要求重新回答：只输出一个有效的 JSON 对象，每个字段用要求的类型（文本是字符串，列表是数组）。\n"
}
