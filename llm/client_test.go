package llm

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

// scripted is a test double of Provider: each call runs fn.
type scripted struct {
	mu    sync.Mutex
	calls int
	reqs  []Request
	fn    func(ctx context.Context, req Request) (Response, error)
}

func (s *scripted) Name() string  { return "scripted" }
func (s *scripted) Model() string { return "script-1" }

func (s *scripted) Complete(ctx context.Context, req Request) (Response, error) {
	s.mu.Lock()
	s.calls++
	s.reqs = append(s.reqs, req)
	fn := s.fn
	s.mu.Unlock()
	return fn(ctx, req)
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func (s *scripted) set(fn func(ctx context.Context, req Request) (Response, error)) {
	s.mu.Lock()
	s.fn = fn
	s.mu.Unlock()
}

// answer replies with the good reply of the request's key.
func answer(_ context.Context, req Request) (Response, error) {
	return Response{Text: goodReply(req.Key), Model: "script-1b", InputTokens: 100, OutputTokens: 50}, nil
}

func fail(context.Context, Request) (Response, error) {
	return Response{}, errors.New("upstream exploded")
}

func garbage(context.Context, Request) (Response, error) {
	return Response{Text: "我不知道", InputTokens: 5, OutputTokens: 3}, nil
}

// hang waits for its context.
func hang(ctx context.Context, _ Request) (Response, error) {
	<-ctx.Done()
	return Response{}, ctx.Err()
}

// stepClock advances by step on every reading.
func stepClock(step time.Duration) func() time.Time {
	var n atomic.Int64
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { return base.Add(time.Duration(n.Add(1)) * step) }
}

func newTestClient(p Provider, cfg Config) *Client {
	cfg.Provider = p
	if cfg.Timeout == 0 {
		cfg.Timeout = time.Second
	}
	return NewClient(cfg)
}

func ret[T any](v T, rec event.LLMCall, err error) (any, event.LLMCall, error) { return v, rec, err }

func TestClientOK(t *testing.T) {
	for _, key := range PromptKeys() {
		t.Run(string(key), func(t *testing.T) {
			p := &scripted{fn: answer}
			var hooked []event.LLMCall
			c := newTestClient(p, Config{Now: stepClock(7 * time.Millisecond), OnCall: func(r event.LLMCall) { hooked = append(hooked, r) }})
			out, rec, err := invoke(context.Background(), c, key)
			if err != nil {
				t.Fatal(err)
			}
			want := event.LLMCall{PromptKey: string(key), Provider: "scripted", Model: "script-1b", LatencyMS: 7,
				InputTokens: 100, OutputTokens: 50, Outcome: event.LLMOutcomeOK,
				InputHash: InputHash(key, "script-1", renderedInput(t, key, sampleInput(key))), Answer: goodReply(key)}
			if !reflect.DeepEqual(rec, want) {
				t.Errorf("record = %+v, want %+v", rec, want)
			}
			if len(hooked) != 1 || !reflect.DeepEqual(hooked[0], rec) {
				t.Errorf("OnCall got %+v", hooked)
			}
			if reflect.DeepEqual(out, fallbackFor(key)) {
				t.Error("the result is the fallback")
			}
			req := p.reqs[0]
			spec := specOf(key)
			if req.Key != key || req.System != spec.system || req.MaxTokens != spec.maxTokens || req.Temperature != spec.temperature {
				t.Errorf("request = %+v", req)
			}
			if prompt, _ := render(key, sampleInput(key)); req.Prompt != prompt {
				t.Error("request prompt is not the rendered template")
			}
			if reflect.TypeOf(req.Input) != reflect.TypeOf(sampleInput(key)) {
				t.Errorf("request input is %T", req.Input)
			}
		})
	}
}

func TestClientFailuresFallBack(t *testing.T) {
	tests := []struct {
		name    string
		fn      func(context.Context, Request) (Response, error)
		outcome string
		errSub  string
		tokens  int
	}{
		{"provider error", fail, event.LLMOutcomeError, "upstream exploded", 0},
		{"timeout", hang, event.LLMOutcomeTimeout, "timed out", 0},
		{"parse error", garbage, event.LLMOutcomeParseError, "invalid reply", 5},
		{"validation error", func(context.Context, Request) (Response, error) {
			return Response{Text: `{"decision":"perhaps","feedback_type":"perhaps","surface_demand":"","should_recurse":"perhaps",
				"summary":"s","assignments":[{"agent_id":"ghost"}],"definitely_related":["ghost"],"is_complete":true,"gaps":[]}`}, nil
		}, event.LLMOutcomeParseError, "invalid reply", 0},
		{"panic", func(context.Context, Request) (Response, error) { panic("boom") }, event.LLMOutcomeError, "panicked", 0},
	}
	for _, tt := range tests {
		for _, key := range PromptKeys() {
			if tt.name == "validation error" && key == PromptGaps {
				continue // that reply is a valid "no gaps" answer
			}
			t.Run(tt.name+"/"+string(key), func(t *testing.T) {
				c := newTestClient(&scripted{fn: tt.fn}, Config{Timeout: 20 * time.Millisecond})
				out, rec, err := invoke(context.Background(), c, key)
				if err != nil {
					t.Fatalf("error returned for an LLM failure: %v", err)
				}
				if rec.Outcome != tt.outcome || !rec.FallbackUsed || !strings.Contains(rec.Error, tt.errSub) || rec.InputTokens != tt.tokens {
					t.Errorf("record = %+v, want outcome %s, error containing %q", rec, tt.outcome, tt.errSub)
				}
				if !reflect.DeepEqual(out, fallbackFor(key)) {
					t.Errorf("result = %+v, want the fallback %+v", out, fallbackFor(key))
				}
			})
		}
	}
}

func TestClientTimeoutIgnoringProvider(t *testing.T) {
	// A provider that ignores its context still cannot hold a call past
	// the timeout.
	p := &scripted{fn: func(context.Context, Request) (Response, error) {
		time.Sleep(2 * time.Second)
		return Response{Text: replyOffer}, nil
	}}
	c := newTestClient(p, Config{Timeout: 30 * time.Millisecond})
	start := time.Now()
	_, rec, err := Call(context.Background(), c, Offer, sampleOfferInput())
	if err != nil || rec.Outcome != event.LLMOutcomeTimeout {
		t.Fatalf("rec = %+v, err = %v", rec, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("call took %v", d)
	}
}

func TestClientBreaker(t *testing.T) {
	p := &scripted{fn: fail}
	var openings atomic.Int32
	c := newTestClient(p, Config{FailureThreshold: 3, RecoveryTimeout: 50 * time.Millisecond, OnBreakerOpen: func() { openings.Add(1) }})
	ctx := context.Background()
	for i := range 3 {
		if _, rec, _ := Call(ctx, c, Offer, sampleOfferInput()); rec.Outcome != event.LLMOutcomeError {
			t.Fatalf("call %d: %+v", i, rec)
		}
	}
	if got := c.BreakerState(); got != "open" {
		t.Fatalf("state after 3 failures = %q", got)
	}
	// Open: the 4th call (any prompt) is not sent.
	out, rec, err := Call(ctx, c, Feedback, sampleFeedbackInput())
	if err != nil || rec.Outcome != event.LLMOutcomeBreakerOpen || !rec.FallbackUsed || p.count() != 3 {
		t.Fatalf("4th call: rec %+v, err %v, provider calls %d", rec, err, p.count())
	}
	if out.FeedbackType != negotiation.FeedbackNoAnswer || rec.Error != "circuit breaker open" {
		t.Errorf("4th call: %+v, %q", out, rec.Error)
	}

	// After the recovery timeout: one probe; it fails and reopens.
	time.Sleep(70 * time.Millisecond)
	if got := c.BreakerState(); got != "half-open" {
		t.Fatalf("state after recovery = %q", got)
	}
	if _, rec, _ := Call(ctx, c, Offer, sampleOfferInput()); rec.Outcome != event.LLMOutcomeError || p.count() != 4 {
		t.Fatalf("failed probe: %+v, calls %d", rec, p.count())
	}
	if got := c.BreakerState(); got != "open" {
		t.Fatalf("state after a failed probe = %q", got)
	}
	if n := openings.Load(); n != 2 {
		t.Fatalf("OnBreakerOpen called %d times, want 2 (the first opening and the failed probe's)", n)
	}

	// Next recovery: while the probe is in flight, other calls are refused;
	// the probe succeeds and closes the breaker.
	time.Sleep(70 * time.Millisecond)
	entered, release := make(chan struct{}), make(chan struct{})
	p.set(func(ctx context.Context, req Request) (Response, error) {
		close(entered)
		<-release
		return answer(ctx, req)
	})
	done := make(chan event.LLMCall)
	go func() {
		_, rec, _ := Call(ctx, c, Offer, sampleOfferInput())
		done <- rec
	}()
	<-entered
	if _, rec, _ := Call(ctx, c, Gaps, sampleGapInput()); rec.Outcome != event.LLMOutcomeBreakerOpen || p.count() != 5 {
		t.Errorf("second call during the probe: %+v, calls %d", rec, p.count())
	}
	close(release)
	if rec := <-done; rec.Outcome != event.LLMOutcomeOK {
		t.Errorf("probe: %+v", rec)
	}
	if got := c.BreakerState(); got != "closed" {
		t.Errorf("state after a successful probe = %q", got)
	}
	p.set(answer)
	if _, rec, _ := Call(ctx, c, Understand, sampleUnderstandInput()); rec.Outcome != event.LLMOutcomeOK {
		t.Errorf("after closing: %+v", rec)
	}
}

func TestClientParseFailuresOpenBreaker(t *testing.T) {
	p := &scripted{fn: garbage}
	c := newTestClient(p, Config{FailureThreshold: 2, RecoveryTimeout: time.Minute})
	for range 2 {
		Call(context.Background(), c, Gaps, sampleGapInput())
	}
	// Each call asked maxReasks more times before it failed; the breaker
	// counts each call once.
	if _, rec, _ := Call(context.Background(), c, Gaps, sampleGapInput()); rec.Outcome != event.LLMOutcomeBreakerOpen || p.count() != 2*(1+maxReasks) {
		t.Errorf("after 2 parse failures: %+v, calls %d", rec, p.count())
	}
}

// TestClientAsksAgain: a reply that does not parse is asked again with
// what was wrong with it, and the second answer is used (every attempt
// recorded); a reply that never parses falls back after maxReasks more
// tries; a transport failure and its retry are recorded too; a client
// without a retry budget asks once.
func TestClientAsksAgain(t *testing.T) {
	ctx := context.Background()
	first := true
	p := &scripted{fn: func(ctx context.Context, req Request) (Response, error) {
		if first {
			first = false
			return garbage(ctx, req)
		}
		return answer(ctx, req)
	}}
	c := newTestClient(p, Config{})
	out, rec, err := Call(ctx, c, Gaps, sampleGapInput())
	if err != nil || rec.Outcome != event.LLMOutcomeOK || rec.FallbackUsed || reflect.DeepEqual(out, Gaps.fallback(new(sampleGapInput()))) {
		t.Fatalf("asked again: %+v", rec)
	}
	if len(rec.Attempts) != 2 || rec.Attempts[0].Outcome != event.LLMOutcomeParseError || rec.Attempts[0].Error == "" ||
		rec.Attempts[1].Outcome != event.LLMOutcomeOK || p.count() != 2 {
		t.Fatalf("attempts %+v, calls %d", rec.Attempts, p.count())
	}
	again := p.reqs[1].Prompt
	if !strings.HasPrefix(again, p.reqs[0].Prompt) || !strings.Contains(again, "你上一次的回答无法使用：") ||
		!strings.Contains(again, "我不知道") || strings.Contains(again, "invalid reply:") {
		t.Fatalf("the second request does not say what was wrong:\n%s", again[len(p.reqs[0].Prompt):])
	}

	never := &scripted{fn: garbage}
	_, rec, _ = Call(ctx, newTestClient(never, Config{}), Gaps, sampleGapInput())
	if rec.Outcome != event.LLMOutcomeParseError || !rec.FallbackUsed || len(rec.Attempts) != 1+maxReasks || never.count() != 1+maxReasks {
		t.Fatalf("never parses: %+v, calls %d", rec, never.count())
	}

	flaky := 0
	transport := &scripted{fn: func(ctx context.Context, req Request) (Response, error) {
		if flaky++; flaky == 1 {
			return Response{}, &safeError{status: 503, msg: "unavailable"}
		}
		return answer(ctx, req)
	}}
	_, rec, _ = Call(ctx, newTestClient(transport, Config{}), Gaps, sampleGapInput())
	if rec.Outcome != event.LLMOutcomeOK || len(rec.Attempts) != 2 || rec.Attempts[0].Outcome != event.LLMOutcomeError {
		t.Fatalf("a transport retry: %+v", rec)
	}

	once := &scripted{fn: garbage}
	_, rec, _ = Call(ctx, newTestClient(once, Config{RetryBudget: -1}), Gaps, sampleGapInput())
	if !rec.FallbackUsed || once.count() != 1 || rec.Attempts != nil {
		t.Fatalf("without a budget: %+v, calls %d", rec, once.count())
	}
}

func TestClientSuccessResetsFailures(t *testing.T) {
	p := &scripted{fn: fail}
	c := newTestClient(p, Config{FailureThreshold: 3})
	ctx := context.Background()
	for _, fn := range []func(context.Context, Request) (Response, error){fail, fail, answer, fail, fail} {
		p.set(fn)
		Call(ctx, c, Offer, sampleOfferInput())
	}
	if got := c.BreakerState(); got != "closed" {
		t.Errorf("state = %q: failures were not consecutive", got)
	}
}

func TestClientCallerContext(t *testing.T) {
	p := &scripted{fn: hang}
	c := newTestClient(p, Config{FailureThreshold: 3, Timeout: 5 * time.Second})

	// Cancelled before the call: not sent.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, rec, err := Call(ctx, c, Offer, sampleOfferInput())
	if !errors.Is(err, context.Canceled) || p.count() != 0 || !rec.FallbackUsed || rec.PromptKey != string(PromptOffer) {
		t.Fatalf("pre-cancelled: err %v, calls %d, rec %+v", err, p.count(), rec)
	}
	if out.Decision != negotiation.OfferDecisionNoAnswer {
		t.Errorf("result = %+v", out)
	}

	// Cancelled during the call, more often than the threshold: errors
	// returned, the breaker does not count them.
	for range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(5 * time.Millisecond); cancel() }()
		_, rec, err := Call(ctx, c, Filter, sampleFilterInput())
		if !errors.Is(err, context.Canceled) || rec.Outcome != event.LLMOutcomeError || !rec.FallbackUsed {
			t.Fatalf("cancelled: err %v, rec %+v", err, rec)
		}
	}
	if got := c.BreakerState(); got != "closed" {
		t.Errorf("cancellations opened the breaker: %q", got)
	}

	// The caller's own deadline: an error too, outcome timeout.
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, rec, err := Call(ctx, c, Gaps, sampleGapInput()); !errors.Is(err, context.DeadlineExceeded) || rec.Outcome != event.LLMOutcomeTimeout {
		t.Errorf("caller deadline: err %v, rec %+v", err, rec)
	}
	if got := c.BreakerState(); got != "closed" {
		t.Errorf("caller deadline opened the breaker: %q", got)
	}
}

// TestClientRefusesUnknownAgents: a reply naming an agent that is not in
// the list is asked again (the error names the id); the corrected reply
// is used, the excluded agent dropped.
func TestClientRefusesUnknownAgents(t *testing.T) {
	p := &scripted{fn: func(_ context.Context, req Request) (Response, error) {
		if !strings.Contains(req.Prompt, "user_agent_ghost") {
			return Response{Text: `{"analysis":"a","definitely_related":[{"agent_id":"user_agent_ghost"},{"agent_id":"user_agent_bob"}],
			"possibly_related":[{"agent_id":"user_agent_eve"}]}`}, nil
		}
		return Response{Text: `{"analysis":"a","definitely_related":[{"agent_id":"user_agent_bob"}],"possibly_related":[{"agent_id":"user_agent_eve"}]}`}, nil
	}}
	c := newTestClient(p, Config{})
	out, rec, err := Call(context.Background(), c, Filter, sampleFilterInput())
	if err != nil || rec.Outcome != event.LLMOutcomeOK || len(out.Candidates) != 1 || out.Candidates[0].AgentID != "user_agent_bob" ||
		len(rec.Attempts) != 2 || !strings.Contains(rec.Attempts[0].Error, "user_agent_ghost") {
		t.Errorf("out %+v rec %+v err %v", out, rec, err)
	}
}

func TestClientEnumNormalization(t *testing.T) {
	tests := []struct {
		reply string
		want  negotiation.FeedbackType
	}{
		{`{"feedback_type":"同意"}`, negotiation.FeedbackAccept},
		{`{"feedback_type":" ACCEPT "}`, negotiation.FeedbackAccept},
		{`{"feedback_type":"调整","reasoning":"改时间"}`, negotiation.FeedbackNegotiate},
		{`{"feedback_type":"退出"}`, negotiation.FeedbackWithdraw},
		{`{"feedback_type":"拒绝"}`, negotiation.FeedbackWithdraw},
		{`{"feedback_type":"reject"}`, negotiation.FeedbackReject},
	}
	for _, tt := range tests {
		c := newTestClient(&scripted{fn: func(context.Context, Request) (Response, error) { return Response{Text: tt.reply}, nil }}, Config{})
		out, rec, _ := Call(context.Background(), c, Feedback, sampleFeedbackInput())
		if rec.Outcome != event.LLMOutcomeOK || out.FeedbackType != tt.want {
			t.Errorf("%s: %+v %+v", tt.reply, out, rec)
		}
	}
}

func TestClientWithoutProvider(t *testing.T) {
	c := NewClient(Config{})
	if c.ProviderName() != "none" || c.BreakerState() != "closed" {
		t.Errorf("provider %q state %q", c.ProviderName(), c.BreakerState())
	}
	out, rec, err := Call(context.Background(), c, Understand, UnderstandInput{RawInput: "找个摄影师"})
	if err != nil || rec.Outcome != event.LLMOutcomeError || !rec.FallbackUsed || out.CapabilityTags[0] != "摄影" {
		t.Errorf("out %+v rec %+v err %v", out, rec, err)
	}
}

func TestClientErrorMessageIsShort(t *testing.T) {
	long := strings.Repeat("很长的错误", 200)
	c := newTestClient(&scripted{fn: func(context.Context, Request) (Response, error) { return Response{}, errors.New(long) }}, Config{})
	_, rec, _ := Call(context.Background(), c, Offer, sampleOfferInput())
	if n := len([]rune(rec.Error)); n > maxErrorRunes+1 {
		t.Errorf("error has %d runes", n)
	}
}

func TestClientDefaults(t *testing.T) {
	c := NewClient(Config{Provider: &scripted{fn: answer}})
	if c.timeout != DefaultTimeout {
		t.Errorf("timeout %v", c.timeout)
	}
	p := &scripted{fn: fail}
	c = NewClient(Config{Provider: p})
	for range DefaultFailureThreshold + 1 {
		Call(context.Background(), c, Offer, sampleOfferInput())
	}
	if p.count() != DefaultFailureThreshold || c.BreakerState() != "open" {
		t.Errorf("default threshold: %d calls, state %q", p.count(), c.BreakerState())
	}
}

// TestClientConcurrent runs many calls at once (for the race detector).
func TestClientConcurrent(t *testing.T) {
	p := &scripted{fn: answer}
	c := newTestClient(p, Config{})
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			key := PromptKeys()[i%len(PromptKeys())]
			if _, rec, err := invoke(context.Background(), c, key); err != nil || rec.Outcome != event.LLMOutcomeOK {
				t.Errorf("%s: %+v %v", key, rec, err)
			}
		})
	}
	wg.Wait()
}

// TestClientSuspectFanOut: once a call has failed, a burst of parallel
// calls (a channel's twins answering at once) reaches the provider one at a
// time, so the breaker opens after the threshold instead of every call
// waiting out its timeout; the rest get the fallback at once.
func TestClientSuspectFanOut(t *testing.T) {
	p := &scripted{fn: func(ctx context.Context, req Request) (Response, error) {
		time.Sleep(20 * time.Millisecond) // a slow failure: the burst overlaps it
		return fail(ctx, req)
	}}
	c := newTestClient(p, Config{FailureThreshold: 3, RecoveryTimeout: time.Minute})
	ctx := context.Background()
	if _, rec, _ := Call(ctx, c, Offer, sampleOfferInput()); rec.Outcome != event.LLMOutcomeError {
		t.Fatalf("first call: %+v", rec)
	}
	var wg sync.WaitGroup
	outcomes := make(chan string, 12)
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, rec, _ := Call(ctx, c, Offer, sampleOfferInput())
			outcomes <- rec.Outcome
		}()
	}
	wg.Wait()
	close(outcomes)
	refused := 0
	for o := range outcomes {
		if o == event.LLMOutcomeBreakerOpen {
			refused++
		}
	}
	if p.count() != 3 || refused != 10 || c.BreakerState() != "open" {
		t.Fatalf("provider called %d times, %d calls refused, breaker %s; want 3, 10, open", p.count(), refused, c.BreakerState())
	}
}
