package llm

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
)

// TestClientUnauthorized: a provider that refuses the key (401) makes the
// client unhealthy at once, logged once; the calls after it fall back
// without reaching the provider and without opening the breaker; the key
// is tried again after authProbeEvery, and a call that goes through makes
// the client healthy again. A breaker that is open is degraded.
func TestClientUnauthorized(t *testing.T) {
	var logs bytes.Buffer
	refused := true
	p := &scripted{fn: func(ctx context.Context, req Request) (Response, error) {
		if refused {
			return Response{}, &safeError{msg: "openai: http 401 Unauthorized", status: 401}
		}
		return answer(ctx, req)
	}}
	c := newTestClient(p, Config{FailureThreshold: 2, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx := context.Background()
	if c.Health() != HealthOK {
		t.Fatalf("health before any call: %s", c.Health())
	}
	for i := range 5 {
		_, rec, _ := Call(ctx, c, Gaps, sampleGapInput())
		if !rec.FallbackUsed || rec.Outcome != event.LLMOutcomeError {
			t.Fatalf("call %d: %+v", i, rec)
		}
	}
	if c.Health() != HealthUnauthorized || p.count() != 1 || c.BreakerState() != "closed" {
		t.Fatalf("health %s, %d provider calls, breaker %s", c.Health(), p.count(), c.BreakerState())
	}
	if n := strings.Count(logs.String(), "level=ERROR"); n != 1 || strings.Count(logs.String(), "level=WARN") > 1 {
		t.Fatalf("%d log lines about the key:\n%s", n, logs.String())
	}
	refused = false
	c.auth.mu.Lock()
	c.auth.lastProbe = time.Now().Add(-authProbeEvery)
	c.auth.mu.Unlock()
	if _, rec, _ := Call(ctx, c, Gaps, sampleGapInput()); rec.Outcome != event.LLMOutcomeOK || c.Health() != HealthOK ||
		!strings.Contains(logs.String(), "accepts the key again") {
		t.Fatalf("after the key was fixed: %+v, health %s", rec, c.Health())
	}

	down := newTestClient(&scripted{fn: fail}, Config{FailureThreshold: 1, RecoveryTimeout: time.Minute})
	Call(ctx, down, Gaps, sampleGapInput())
	if down.Health() != HealthDegraded {
		t.Fatalf("an open breaker: %s", down.Health())
	}
}

// TestCheckProvider: the start-up check names a refused key as such.
func TestCheckProvider(t *testing.T) {
	err := CheckProvider(context.Background(), &scripted{fn: func(context.Context, Request) (Response, error) {
		return Response{}, &safeError{msg: "anthropic: http 403 Forbidden", status: 403}
	}}, time.Second)
	if !Unauthorized(err) || !strings.Contains(err.Error(), "403") {
		t.Fatalf("a refused key: %v", err)
	}
	if err := CheckProvider(context.Background(), &scripted{fn: answer}, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := CheckProvider(context.Background(), &scripted{fn: fail}, time.Second); err == nil || Unauthorized(err) {
		t.Fatalf("a provider that fails otherwise: %v", err)
	}
}
