package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"
)

// A provider that refuses the key (401, 403) is not down for a moment: it
// is misconfigured, and asking again will not help. The client says so
// once (an error log line), stops sending calls (each falls back at once,
// without the breaker opening and probing every RecoveryTimeout) and tries
// the key again only every authProbeEvery; /readyz reports it. A call
// that goes through clears it.

// authProbeEvery is how often a client whose key was refused tries it
// again.
const authProbeEvery = 5 * time.Minute

// Health states of a client (Client.Health).
const (
	HealthOK           = "ok"
	HealthDegraded     = "degraded"     // the breaker is open or half-open: the provider looks down
	HealthUnauthorized = "unauthorized" // the provider refused the key
)

// errUnauthorized marks a call not sent because the provider refused the
// key.
var errUnauthorized = errors.New("the LLM provider refused the key")

// Unauthorized reports whether err is the provider refusing the key: an
// HTTP 401 or 403.
func Unauthorized(err error) bool {
	var se *safeError
	return errors.As(err, &se) && (se.status == http.StatusUnauthorized || se.status == http.StatusForbidden)
}

// authGate remembers a refused key.
type authGate struct {
	mu        sync.Mutex
	refused   bool
	lastProbe time.Time
}

// admit reports whether a call may go to the provider now: always while
// the key is accepted; once every authProbeEvery while it is refused.
func (g *authGate) admit(now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.refused || now.Sub(g.lastProbe) >= authProbeEvery {
		g.lastProbe = now
		return true
	}
	return false
}

// observe records a call's error; it reports whether the key's state
// changed (refused now, or accepted again).
func (g *authGate) observe(err error, now time.Time) (changed, refused bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case Unauthorized(err) && !g.refused:
		g.refused, g.lastProbe = true, now
		return true, true
	case err == nil && g.refused:
		g.refused = false
		return true, false
	}
	return false, g.refused
}

func (g *authGate) isRefused() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.refused
}

// Health is the client's state for /readyz: HealthUnauthorized while the
// provider refuses the key, HealthDegraded while the breaker is not
// closed, else HealthOK.
func (c *Client) Health() string {
	switch {
	case c.auth.isRefused():
		return HealthUnauthorized
	case c.breaker.State() != gobreaker.StateClosed:
		return HealthDegraded
	}
	return HealthOK
}

// noteAuth records what a call's error says of the key, logging a change
// once.
func (c *Client) noteAuth(ctx context.Context, err error) {
	changed, refused := c.auth.observe(err, time.Now())
	switch {
	case changed && refused:
		c.log.ErrorContext(ctx, "the LLM provider refused the key: fix its API key; calls use their fallbacks, and the key is tried again every "+
			authProbeEvery.String(), "provider", c.provider.Name(), "error", err)
	case changed:
		c.log.WarnContext(ctx, "the LLM provider accepts the key again", "provider", c.provider.Name())
	}
}

// CheckProvider makes one cheap call to p (a one-word prompt, one output
// token) and returns its error: Unauthorized(err) when the key is
// refused.
func CheckProvider(ctx context.Context, p Provider, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err := p.Complete(ctx, Request{Key: "check", System: "Reply with OK.", Prompt: "ping", MaxTokens: 1})
	if err != nil {
		return fmt.Errorf("check the LLM provider %s: %w", p.Name(), err)
	}
	return nil
}
