package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestRetryable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"429", wrapProviderError("openai", &http.Response{StatusCode: 429}, errors.New("x")), true},
		{"500", wrapProviderError("openai", &http.Response{StatusCode: 500}, errors.New("x")), true},
		{"529 overloaded", wrapProviderError("anthropic", &http.Response{StatusCode: 529}, errors.New("x")), true},
		{"408", wrapProviderError("openai", &http.Response{StatusCode: 408}, errors.New("x")), true},
		{"400", wrapProviderError("openai", &http.Response{StatusCode: 400}, errors.New("x")), false},
		{"401", wrapProviderError("openai", &http.Response{StatusCode: 401}, errors.New("x")), false},
		{"422", wrapProviderError("openai", &http.Response{StatusCode: 422}, errors.New("x")), false},
		{"connection refused", wrapProviderError("openai", nil, &net.OpError{Op: "dial", Err: errors.New("refused")}), true},
		{"dropped connection", wrapProviderError("openai", nil, io.ErrUnexpectedEOF), true},
		{"attempt timed out", errCallTimeout, true},
		{"caller done", errCallerDone, false},
		{"invalid reply", errInvalidReply, false},
		{"anything else", errors.New("upstream exploded"), false},
	}
	for _, tc := range tests {
		if got := retryable(tc.err); got != tc.want {
			t.Errorf("%s: retryable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRetriesAbsorbTransientFailures: a call repeats retryable failures
// and succeeds without a fallback; a refused request is not repeated; while
// the breaker counts failures a call makes one attempt.
func TestRetriesAbsorbTransientFailures(t *testing.T) {
	ctx := context.Background()
	s := &scripted{}
	c := NewClient(Config{Provider: s, Timeout: time.Second, RetryBudget: 5 * time.Second})
	failures := 2
	s.set(func(ctx context.Context, req Request) (Response, error) {
		if failures > 0 {
			failures--
			return Response{}, wrapProviderError("scripted", &http.Response{StatusCode: 503}, errors.New("overloaded"))
		}
		return answer(ctx, req)
	})
	_, rec, err := Call(ctx, c, Offer, sampleOfferInput())
	if err != nil || rec.FallbackUsed || s.count() != 3 || c.breaker.Counts().ConsecutiveFailures != 0 {
		t.Fatalf("two 503s then an answer: fallback %v, %d attempts, breaker failures %d, err %v",
			rec.FallbackUsed, s.count(), c.breaker.Counts().ConsecutiveFailures, err)
	}

	s = &scripted{}
	c = NewClient(Config{Provider: s, Timeout: time.Second, RetryBudget: 5 * time.Second})
	s.set(func(context.Context, Request) (Response, error) {
		return Response{}, wrapProviderError("scripted", &http.Response{StatusCode: 401}, errors.New("bad key"))
	})
	if _, rec, _ := Call(ctx, c, Offer, sampleOfferInput()); !rec.FallbackUsed || s.count() != 1 {
		t.Fatalf("a 401: fallback %v after %d attempts, want a fallback after 1", rec.FallbackUsed, s.count())
	}

	s = &scripted{}
	c = NewClient(Config{Provider: s, Timeout: time.Second, RetryBudget: 30 * time.Second})
	s.set(func(context.Context, Request) (Response, error) {
		return Response{}, wrapProviderError("scripted", &http.Response{StatusCode: 503}, errors.New("down"))
	})
	if _, rec, _ := Call(ctx, c, Offer, sampleOfferInput()); !rec.FallbackUsed || s.count() != maxAttempts {
		t.Fatalf("a provider that is down: %d attempts on the first call, want %d", s.count(), maxAttempts)
	}
	if _, rec, _ := Call(ctx, c, Offer, sampleOfferInput()); !rec.FallbackUsed || s.count() != maxAttempts+1 {
		t.Fatalf("after a failed call: %d attempts in all, want one more", s.count())
	}
}
