package eventstore

import (
	"context"
	"time"
)

// SubscribeOptions configures Store.Subscribe.
type SubscribeOptions struct {
	// After is the cursor: delivery starts with the first event whose
	// position is greater. 0 starts at the beginning of the log.
	After  int64
	Filter Filter
	// BatchSize is the most events handed to the handler at once (default 500).
	BatchSize int
	// Notifier wakes the subscription when events commit. Without one the
	// subscription polls every PollInterval.
	Notifier *Notifier
	// PollInterval is the longest wait between reads when idle (default 1s
	// with a Notifier, 50ms without).
	PollInterval time.Duration
}

// Handler receives events in position order. The batch's last Position is
// the subscription's new cursor once the handler returns nil; a non-nil
// error stops the subscription and is returned by Subscribe.
type Handler func(ctx context.Context, batch []RecordedEvent) error

// Subscribe delivers every committed event matching opts.Filter after
// opts.After, exactly once and in position order: first the backlog (catch-
// up), then new events as they commit. It blocks until ctx ends (returning
// ctx.Err()), the handler fails, or a read fails. With Filter.UntilPosition
// set it returns nil once every event up to that position was delivered
// (once that position is settled, none can appear below it).
// Filter.Since and Filter.Until only filter; they do not end the
// subscription.
func (s *Store) Subscribe(ctx context.Context, opts SubscribeOptions, handle Handler) error {
	if opts.BatchSize <= 0 {
		opts.BatchSize = 500
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
		if opts.Notifier == nil {
			opts.PollInterval = 50 * time.Millisecond
		}
	}
	var wake <-chan struct{}
	if opts.Notifier != nil {
		// Register before the first read, so a commit between that read and
		// the wait below leaves a pending wake-up.
		ch, unregister := opts.Notifier.register()
		defer unregister()
		wake = ch
	}
	timer := time.NewTimer(opts.PollInterval)
	defer timer.Stop()
	cursor := opts.After
	until := opts.Filter.UntilPosition
	// settling is the next wait while committed events wait for an older
	// transaction to end: that transaction may never append (and so never
	// announce), so the subscription looks again soon, backing off.
	settling := time.Duration(0)
	for {
		page, err := s.ReadPage(ctx, cursor, opts.Filter, opts.BatchSize)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if len(page.Events) > 0 {
			if err := handle(ctx, page.Events); err != nil {
				return err
			}
		}
		// Everything matching up to Through is delivered; only this read's
		// own bound says so (see Page).
		cursor = page.Through
		if until > 0 && cursor >= until {
			return nil
		}
		if len(page.Events) >= min(opts.BatchSize, MaxReadLimit) {
			continue // more backlog
		}
		wait := opts.PollInterval
		if page.latest >= page.below {
			settling = min(max(2*settling, time.Millisecond), opts.PollInterval, 50*time.Millisecond)
			wait = settling
		} else {
			settling = 0
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		case <-timer.C:
		}
	}
}
