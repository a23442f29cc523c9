package llm

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// Waiting out an outage. A provider that is down (its breaker open, or a
// call that failed with a 5xx, 429, 529, a timeout or a dropped connection
// even after its retries) is usually back within minutes. A step that
// fell back then would decide a negotiation on answers nobody gave, so
// while the outage is younger than the client's outage budget
// (Config.OutageBudget) a call does not fall back: it returns an
// *OutageError, and the step that made it runs again later (the job
// runner snoozes it for RetryAfter) and continues where it stopped. Only
// once the outage has lasted the whole budget do calls fall back. A
// refused key (401, 403), a request the provider rejects and a reply that
// does not parse are no outage: they fall back at once.
//
// The client keeps the outages it saw (outageLog), so that a deadline a
// step set before or during one (a round's timeout, a stuck check) can be
// moved on by the time the provider was down (Client.OutageBetween).

// DefaultOutageBudget is the server's outage budget (LLM_OUTAGE_BUDGET).
const DefaultOutageBudget = 15 * time.Minute

// Snoozes while waiting out an outage: about half the outage's age so far,
// between minOutageWait and maxOutageWait, with jitter so that the waiting
// steps do not all come back at once; longer when the provider asked for
// it (Retry-After).
const (
	minOutageWait = 2 * time.Second
	maxOutageWait = 20 * time.Second
)

// outageReturn is the longest a step that waited out an outage takes to
// run again after the provider answers (its last snooze, with jitter): a
// deadline moved on by an outage is moved on by this much more, so that
// the steps that waited have their time after it.
const outageReturn = maxOutageWait*5/4 + 5*time.Second

// keptOutages bounds the outages a client remembers.
const keptOutages = 64

// OutageError is a call that failed because the provider is unavailable,
// within the outage budget: the caller should run the step again after
// RetryAfter rather than use a fallback answer.
type OutageError struct {
	// Prompt is the prompt that was asked.
	Prompt PromptKey
	// Since is when the provider stopped answering (this client's first
	// failed call of the outage).
	Since time.Time
	// Wait is how long to wait before trying again.
	Wait time.Duration
	// Err is the call's failure.
	Err error
}

// Error implements error.
func (e *OutageError) Error() string {
	return fmt.Sprintf("llm: %s: the provider is unavailable (since %s); try again in %s: %v",
		e.Prompt, e.Since.UTC().Format(time.RFC3339), e.Wait.Round(time.Second), e.Err)
}

// Unwrap returns the call's failure.
func (e *OutageError) Unwrap() error { return e.Err }

// RetryAfter is how long the step should wait before it runs again (the
// job runner snoozes a job that failed with an error that has it).
func (e *OutageError) RetryAfter() time.Duration { return e.Wait }

// IsOutage reports whether err is a call that waits out an outage.
func IsOutage(err error) bool {
	var oe *OutageError
	return errors.As(err, &oe)
}

// outageClass reports whether a call's failure says the provider is
// unavailable, rather than that the request or the reply was wrong.
func outageClass(err error) bool {
	if err == nil || errors.Is(err, errCallerDone) || errors.Is(err, errInvalidReply) || errors.Is(err, errUnauthorized) || Unauthorized(err) {
		return false
	}
	return isBreakerRefusal(err) || retryable(err)
}

// outageLog is what a client knows of the provider's outages: the one
// going on (since is not zero) and the last keptOutages that ended.
type outageLog struct {
	mu    sync.Mutex
	since time.Time
	past  []outage
}

// outage is one past outage.
type outage struct{ from, to time.Time }

// failed records a call that found the provider unavailable at now and
// returns when the outage began.
func (l *outageLog) failed(now time.Time) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.since.IsZero() {
		l.since = now
	}
	return l.since
}

// answered records a call the provider answered at now: an outage going on
// ends.
func (l *outageLog) answered(now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.since.IsZero() {
		return
	}
	l.past = append(l.past, outage{l.since, now})
	if len(l.past) > keptOutages {
		l.past = l.past[len(l.past)-keptOutages:]
	}
	l.since = time.Time{}
}

// between is how long the provider was down between from and to.
func (l *outageLog) between(from, to time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	overlap := func(a, b time.Time) time.Duration {
		a, b = later(a, from), earlier(b, to)
		return max(b.Sub(a), 0)
	}
	var d time.Duration
	for _, o := range l.past {
		d += overlap(o.from, o.to)
	}
	if !l.since.IsZero() {
		d += overlap(l.since, to)
	}
	return d
}

// current returns when the outage going on began (zero: none).
func (l *outageLog) current() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.since
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// outageWait is how long a step waits before it asks again, an outage
// having lasted age.
func outageWait(age time.Duration) time.Duration {
	w := min(max(age/2, minOutageWait), maxOutageWait)
	return w - w/4 + rand.N(w/2+1)
}

// OutageBetween is how long the provider was unavailable, as this client
// saw it, between from and to: the time a deadline set at from should be
// moved on by when it comes at to.
func (c *Client) OutageBetween(from, to time.Time) time.Duration { return c.outages.between(from, to) }

// DeadlineExtension is how far a deadline set at set is moved on, now,
// for the provider's outages since: the time it was down and, when it was,
// the time the steps that waited take to come back. Rounds, stuck checks
// and workflow nodes move their deadlines on by it, so nothing times out
// because the model was down while its steps waited the outage out.
func (c *Client) DeadlineExtension(set time.Time) time.Duration {
	if d := c.outages.between(set, time.Now()); d > 0 {
		return d + outageReturn
	}
	return 0
}

// OutageSince returns when the outage going on began, as this client saw
// it; the zero time when the provider answers.
func (c *Client) OutageSince() time.Time { return c.outages.current() }

// waitOut decides what a call that failed with err does at now: an
// *OutageError to wait the outage out, or nil to fall back. It also keeps
// the outage log: a call the provider answered (also with an unusable
// reply or a refusal such as 404) ends an outage; one that found it
// unavailable starts one. A breaker refusal waits only during an outage:
// a breaker opened by refusals (a wrong model name, a bad request) is a
// configuration error, and its calls fall back at once.
func (c *Client) waitOut(key PromptKey, err error, now time.Time) *OutageError {
	var since time.Time
	switch {
	case err == nil:
		c.outages.answered(now)
		return nil
	case errors.Is(err, errCallerDone) || errors.Is(err, errUnauthorized):
		return nil // nothing was learnt of the provider
	case isBreakerRefusal(err):
		if since = c.outages.current(); since.IsZero() {
			return nil
		}
	case outageClass(err):
		since = c.outages.failed(now)
	default:
		c.outages.answered(now)
		return nil
	}
	age := now.Sub(since)
	if c.outageBudget <= 0 || age >= c.outageBudget {
		return nil
	}
	return &OutageError{Prompt: key, Since: since, Wait: max(outageWait(age), retryAfterOf(err)), Err: err}
}
