package llm

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// TestCallsWaitOutAnOutage: within the outage budget a call that finds the
// provider unavailable returns an *OutageError (no fallback) that says
// when to ask again; a refused key, a refused request and an unusable
// reply fall back at once; an outage older than the budget falls back; an
// answer ends the outage.
func TestCallsWaitOutAnOutage(t *testing.T) {
	ctx := context.Background()
	status := func(code int) func(context.Context, Request) (Response, error) {
		return func(context.Context, Request) (Response, error) {
			return Response{}, wrapProviderError("scripted", &http.Response{StatusCode: code}, errors.New("x"))
		}
	}
	tests := []struct {
		name   string
		budget time.Duration
		reply  func(context.Context, Request) (Response, error)
		wait   bool
		outage bool // the client counts an outage (also without a budget)
	}{
		{"503 within the budget", time.Minute, status(503), true, true},
		{"429 within the budget", time.Minute, status(429), true, true},
		{"529 within the budget", time.Minute, status(529), true, true},
		{"a timed-out attempt within the budget", time.Minute, func(ctx context.Context, _ Request) (Response, error) {
			<-ctx.Done()
			return Response{}, ctx.Err()
		}, true, true},
		{"503 without a budget", 0, status(503), false, true},
		{"a refused key", time.Minute, status(401), false, false},
		{"a refused request", time.Minute, status(400), false, false},
		{"an unusable reply", time.Minute, func(context.Context, Request) (Response, error) { return Response{Text: "不是 JSON"}, nil }, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &scripted{}
			s.set(tc.reply)
			c := NewClient(Config{Provider: s, Timeout: 100 * time.Millisecond, RetryBudget: -1, OutageBudget: tc.budget})
			_, rec, err := Call(ctx, c, Offer, sampleOfferInput())
			var oe *OutageError
			switch {
			case tc.wait && (!errors.As(err, &oe) || !IsOutage(err)):
				t.Fatalf("err %v, want an *OutageError", err)
			case tc.wait && (rec.FallbackUsed || oe.RetryAfter() < minOutageWait*3/4 || oe.RetryAfter() > maxOutageWait*5/4 || oe.Prompt != Offer.Key()):
				t.Fatalf("fallback %v, retry after %s, prompt %s", rec.FallbackUsed, oe.RetryAfter(), oe.Prompt)
			case !tc.wait && (err != nil || !rec.FallbackUsed):
				t.Fatalf("err %v, fallback %v: want the fallback at once", err, rec.FallbackUsed)
			}
			if tc.outage != !c.OutageSince().IsZero() {
				t.Fatalf("outage since %v after %s", c.OutageSince(), tc.name)
			}
		})
	}

	// A breaker opened by refusals (a model the provider does not have)
	// is no outage: its refusals fall back at once.
	s404 := &scripted{}
	s404.set(status(404))
	c404 := NewClient(Config{Provider: s404, Timeout: 100 * time.Millisecond, RetryBudget: -1, OutageBudget: time.Minute, FailureThreshold: 1})
	for i := range 3 {
		if _, rec, err := Call(ctx, c404, Offer, sampleOfferInput()); err != nil || !rec.FallbackUsed {
			t.Fatalf("404 call %d (breaker %s): err %v, fallback %v; want the fallback at once", i, c404.BreakerState(), err, rec.FallbackUsed)
		}
	}
	if c404.BreakerState() != "open" || !c404.OutageSince().IsZero() {
		t.Fatalf("after three 404s: breaker %s, outage since %v; want open and no outage", c404.BreakerState(), c404.OutageSince())
	}

	// Past the budget the calls fall back; the first answer ends the
	// outage, which is then counted in OutageBetween.
	s := &scripted{}
	s.set(status(503))
	c := NewClient(Config{Provider: s, Timeout: 100 * time.Millisecond, RetryBudget: -1, OutageBudget: 150 * time.Millisecond})
	start := time.Now()
	if _, _, err := Call(ctx, c, Offer, sampleOfferInput()); !IsOutage(err) {
		t.Fatalf("first call of the outage: %v, want an outage", err)
	}
	time.Sleep(200 * time.Millisecond)
	if _, rec, err := Call(ctx, c, Offer, sampleOfferInput()); err != nil || !rec.FallbackUsed {
		t.Fatalf("past the budget: err %v, fallback %v; want the fallback", err, rec.FallbackUsed)
	}
	s.set(answer)
	c.breaker = newBreaker(DefaultFailureThreshold, DefaultRecoveryTimeout, c.log, nil) // closed again, as after a probe
	if _, rec, err := Call(ctx, c, Offer, sampleOfferInput()); err != nil || rec.FallbackUsed {
		t.Fatalf("after the outage: err %v, fallback %v", err, rec.FallbackUsed)
	}
	down := c.OutageBetween(start, time.Now())
	if !c.OutageSince().IsZero() || down < 200*time.Millisecond || down > time.Since(start) {
		t.Fatalf("outage since %v, down %s of %s", c.OutageSince(), down, time.Since(start))
	}
}

// TestOutageBetween: the time the provider was down within a window
// counts the parts of past outages and of the one going on inside it.
func TestOutageBetween(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	var l outageLog
	l.failed(at(10))
	l.failed(at(15)) // the same outage
	l.answered(at(70))
	l.answered(at(80)) // no outage going on: nothing
	l.failed(at(100))
	tests := []struct {
		from, to int
		want     time.Duration
	}{
		{0, 5, 0},
		{0, 40, 30 * time.Second},
		{20, 90, 50 * time.Second},
		{0, 130, 90 * time.Second}, // 60 s past, 30 s going on
		{110, 120, 10 * time.Second},
	}
	for _, tc := range tests {
		if got := l.between(at(tc.from), at(tc.to)); got != tc.want {
			t.Errorf("between %ds and %ds: %s, want %s", tc.from, tc.to, got, tc.want)
		}
	}
	if got := l.current(); !got.Equal(at(100)) {
		t.Errorf("current outage since %v, want %v", got, at(100))
	}
}

// TestRetryAfterHeader reads the wait a provider asks for.
func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{"milliseconds first", http.Header{"Retry-After": {"3"}, "Retry-After-Ms": {"1500"}}, 1500 * time.Millisecond},
		{"an HTTP date", http.Header{"Retry-After": {now.Add(7 * time.Second).Format(http.TimeFormat)}}, 7 * time.Second},
		{"a date passed", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"capped", http.Header{"Retry-After": {"3600"}}, maxRetryAfter},
		{"unreadable", http.Header{"Retry-After": {"soon"}}, 0},
	}
	for _, tc := range tests {
		if got := retryAfterHeader(tc.h, now); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
