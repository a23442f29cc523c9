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

// request takes one request of p, from address, from its buckets: the
// wait before the next would pass, 0 when this one passes. In local mode
// (byName: anyone signs in as any name) a person's address has a bucket
// too, so a new name from the same address does not get a new budget.
func (l *limiter) request(p identity.Principal, address string, byName bool) time.Duration {
	if l == nil || l.limits.RequestsPerSecond <= 0 || p.Anonymous() || p.IsAdmin() {
		return 0
	}
	keys := []string{p.Actor()}
	if byName && p.IsUser() && address != "" {
		keys = append(keys, "address:"+address)
	}
	return l.take(keys, l.limits.RequestsPerSecond, max(l.limits.Burst, 1))
}

// signIns bounds the local-mode sign-ins from one address: new names an
// hour (with that many at once).
const signInsPerHour = 20

// signIn takes one local-mode sign-in from address.
func (l *limiter) signIn(address string) time.Duration {
	if l == nil || l.limits.RequestsPerSecond <= 0 {
		return 0
	}
	return l.take([]string{"sign-in:" + address}, signInsPerHour/3600.0, signInsPerHour)
}

// take takes one token from every bucket of keys (each made at per
// second with burst when new), or from none: the longest wait when one
// is empty.
func (l *limiter) take(keys []string, per float64, burst int) time.Duration {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var taken []*rate.Reservation
	for _, key := range keys {
		b, ok := l.bucket[key]
		if !ok {
			if len(l.bucket) >= maxBuckets {
				clear(l.bucket)
			}
			b = rate.NewLimiter(rate.Limit(per), burst)
			l.bucket[key] = b
		}
		r := b.ReserveN(now, 1)
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			for _, t := range taken {
				t.CancelAt(now)
			}
			return d
		}
		taken = append(taken, r)
	}
	return 0
}

// retryAfter is a wait as a Retry-After header: whole seconds, at least 1.
func retryAfter(wait time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(wait.Seconds()))))
}

// tooMany is a 429 with its Retry-After (whole seconds, at least 1).
func tooMany(code, detail string, wait time.Duration) error {
	secs := retryAfter(wait)
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
