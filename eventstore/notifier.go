package eventstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// NotifyChannel is the PostgreSQL NOTIFY channel a Store signals on (with
// an empty payload) after appending transactions commit (Store.Committed;
// queries/events.sql names it too).
const NotifyChannel = "towow_events"

// Notifier holds one LISTEN connection for the whole process and wakes every
// registered subscription when events commit. A notification is only a
// wake-up hint; subscribers always read the events from the table, so a lost
// notification (for example while reconnecting) costs latency, never data.
type Notifier struct {
	connCfg *pgx.ConnConfig
	logger  *slog.Logger

	mu      sync.Mutex
	waiters map[chan struct{}]struct{}

	readyOnce sync.Once
	ready     chan struct{}
}

// NewNotifier prepares a Notifier that opens its own connection from
// connCfg (typically pool.Config().ConnConfig); it does not take a pool slot.
// A half-open connection (the server vanished without a FIN) is noticed only
// through TCP keepalives (set keepalives_idle etc. in the URL to shorten the
// kernel's default); meanwhile subscriptions still poll every PollInterval.
func NewNotifier(connCfg *pgx.ConnConfig, logger *slog.Logger) *Notifier {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Notifier{
		connCfg: connCfg.Copy(),
		logger:  logger,
		waiters: map[chan struct{}]struct{}{},
		ready:   make(chan struct{}),
	}
}

// Ready is closed once the first LISTEN is established.
func (n *Notifier) Ready() <-chan struct{} { return n.ready }

// Run listens until ctx ends, reconnecting with backoff after connection
// loss (and waking every subscriber then, since notifications may have been
// missed). It returns ctx's error.
func (n *Notifier) Run(ctx context.Context) error {
	backoff := 50 * time.Millisecond
	for {
		err := n.listen(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		n.logger.Warn("event listener lost its connection; reconnecting", "err", err, "backoff", backoff)
		n.wakeAll()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

func (n *Notifier) listen(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, n.connCfg)
	if err != nil {
		return fmt.Errorf("connect listener: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	// LISTEN takes an identifier, not a bind parameter, so it is not in
	// queries/ (sqlc cannot express it).
	if _, err := conn.Exec(ctx, "LISTEN "+NotifyChannel); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	n.readyOnce.Do(func() { close(n.ready) })
	n.wakeAll() // anything committed while we were not listening
	for {
		_, err := conn.WaitForNotification(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return ctx.Err()
			}
			return fmt.Errorf("wait for notification: %w", err)
		}
		n.wakeAll()
	}
}

// register returns a channel that receives a value (coalesced, capacity 1)
// after each wake-up, and a function to unregister it.
func (n *Notifier) register() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	n.mu.Lock()
	n.waiters[ch] = struct{}{}
	n.mu.Unlock()
	return ch, func() {
		n.mu.Lock()
		delete(n.waiters, ch)
		n.mu.Unlock()
	}
}

func (n *Notifier) wakeAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for ch := range n.waiters {
		select {
		case ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}
