package eventstore

import (
	"context"
	"sync"
	"time"

	"github.com/towow/towow/internal/sqlcdb"
)

// announceTimeout bounds one NOTIFY; a lost one costs subscribers a poll
// interval of latency, never an event.
const announceTimeout = 5 * time.Second

// announcer sends the wake-up NOTIFY for commits, outside the appending
// transactions: a transaction that notifies holds PostgreSQL's
// notification-queue lock through its commit, so notifying in every append
// would make commits wait for each other. At most one NOTIFY is in flight
// per store; commits announced meanwhile are folded into the next one.
type announcer struct {
	q *sqlcdb.Queries

	mu      sync.Mutex
	sending bool // a goroutine is sending
	again   bool // a commit was announced after the current NOTIFY began
}

func (a *announcer) poke() {
	a.mu.Lock()
	if a.sending {
		a.again = true
		a.mu.Unlock()
		return
	}
	a.sending = true
	a.mu.Unlock()
	go a.send()
}

func (a *announcer) send() {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), announceTimeout)
		// pg_notify in a transaction of its own: it writes no WAL, so it
		// holds the queue lock only for a moment. An error (the database
		// is away) is dropped: subscriptions poll.
		_ = a.q.AnnounceCommit(ctx)
		cancel()
		a.mu.Lock()
		if !a.again {
			a.sending = false
			a.mu.Unlock()
			return
		}
		a.again = false
		a.mu.Unlock()
	}
}
