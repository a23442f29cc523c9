package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"golang.org/x/time/rate"

	"github.com/towow/towow/identity"
)

// Per-user limits, keyed on the authenticated principal (a user, or an
// external agent), never on a name a request writes: the operator is not
// limited. Each answers 429 with Retry-After and its code.
//
//   - requests: a token bucket per principal (RequestsPerSecond, Burst),
//     in this process;
//   - demands: root demands submitted (forks and clarifications too) in
//     the last hour, counted from the demands read model;
//   - LLM tokens: what the user's negotiation trees and their workflows'
//     conversations spent in the last 24 hours, counted from the recorded
//     calls (the LLM calls read model); a user over it starts nothing new
//     that calls the model.

// Limits are the per-user limits; a zero field is no limit.
type Limits struct {
	// RequestsPerSecond and Burst bound one principal's requests.
	RequestsPerSecond float64
	Burst             int
	// DemandsPerHour bounds a user's new negotiations.
	DemandsPerHour int
	// TokensPerDay bounds the LLM tokens a user's negotiations spend.
	TokensPerDay int64
}

// The limits' codes.
const (
	CodeTooManyRequests = "TOWOW_LIMIT_001" // 429: over the requests per second
	CodeTooManyDemands  = "TOWOW_LIMIT_002" // 429: over the demands per hour
	CodeTokenBudget     = "TOWOW_LIMIT_003" // 429: over the LLM tokens per day
)

// limiter holds the request buckets.
type limiter struct {
	limits Limits
	reads  ReadModels
	now    func() time.Time
	mu     sync.Mutex
	bucket map[string]*rate.Limiter
}

// maxBuckets bounds the buckets kept; past it they are dropped at once
// (each principal starts a full bucket again).
const maxBuckets = 100_000

func newLimiter(l Limits, reads ReadModels) *limiter {
	return &limiter{limits: l, reads: reads, now: time.Now, bucket: map[string]*rate.Limiter{}}
}

// request takes one request of p from its bucket: the wait before the
// next would pass, 0 when this one passes.
func (l *limiter) request(p identity.Principal) time.Duration {
	if l == nil || l.limits.RequestsPerSecond <= 0 || p.Anonymous() || p.IsAdmin() {
		return 0
	}
	key := p.Actor()
	l.mu.Lock()
	b, ok := l.bucket[key]
	if !ok {
		if len(l.bucket) >= maxBuckets {
			clear(l.bucket)
		}
		b = rate.NewLimiter(rate.Limit(l.limits.RequestsPerSecond), max(l.limits.Burst, 1))
		l.bucket[key] = b
	}
	l.mu.Unlock()
	now := l.now()
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d
	}
	return 0
}

// tooMany is a 429 with its Retry-After (whole seconds, at least 1).
func tooMany(code, detail string, wait time.Duration) error {
	secs := strconv.Itoa(max(1, int(math.Ceil(wait.Seconds()))))
	return huma.ErrorWithHeaders(newProblem(http.StatusTooManyRequests, code, detail+"; retry in "+secs+" s"), http.Header{"Retry-After": {secs}})
}

// newWork checks that userID may start new work that calls the model: a
// new negotiation (demand) also counts against the demands per hour.
func (l *limiter) newWork(ctx context.Context, demand bool) error {
	p := principalOf(ctx)
	if l == nil || l.reads == nil || !p.IsUser() {
		return nil
	}
	now := l.now()
	if n := l.limits.DemandsPerHour; demand && n > 0 {
		u, err := l.reads.UserDemandsSince(ctx, p.ID, now.Add(-time.Hour))
		if err != nil {
			return problem(err)
		}
		if u.Used >= int64(n) {
			return tooMany(CodeTooManyDemands, fmt.Sprintf("you started %d negotiations in the last hour (the limit is %d)", u.Used, n),
				u.Oldest.Add(time.Hour).Sub(now))
		}
	}
	if n := l.limits.TokensPerDay; n > 0 {
		u, err := l.reads.UserTokensSince(ctx, p.ID, now.Add(-24*time.Hour))
		if err != nil {
			return problem(err)
		}
		if u.Used >= n {
			return tooMany(CodeTokenBudget, fmt.Sprintf("your negotiations used %d LLM tokens in the last 24 hours (the budget is %d)", u.Used, n),
				u.Oldest.Add(24*time.Hour).Sub(now))
		}
	}
	return nil
}
