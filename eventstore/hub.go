package eventstore

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
)

// Hub is one process's shared tail of the log: a single subscription reads
// each new event once and keeps the latest ones in memory, and any number
// of followers (SSE clients) take what matches their filter from there
// instead of each querying the database on every commit. A follower that
// starts behind the buffer, or falls behind it, reads the database until it
// is back within it, so delivery stays exactly once and in order.
type Hub struct {
	store    *Store // followers' catch-up reads
	tailRead *Store // the shared tail's reads
	notifier *Notifier
	capacity int
	log      *slog.Logger

	mu      sync.RWMutex
	wmu     sync.Mutex      // with mu read-locked: creating byCorrelation entries
	buf     []RecordedEvent // every event in (from, tail], oldest first
	from    int64           // the buffer is complete after this position
	tail    int64           // the position the tail has read up to
	started bool
	changed chan struct{} // closed (and replaced) when tail moves
	// byCorrelation holds, per correlation id, a channel closed (and
	// dropped) when the tail publishes an event of that negotiation tree:
	// a follower of one negotiation sleeps through everyone else's events
	// instead of waking for each (with 1000 followers of 8 negotiations,
	// most wake-ups were for nothing). Guarded by mu like changed.
	byCorrelation map[string]chan struct{}
}

// HubOptions tunes NewHub.
type HubOptions struct {
	// Capacity is how many of the latest events stay in memory (default
	// 8192); followers further behind read the database.
	Capacity int
	// Logger receives tail failures (default: discarded).
	Logger *slog.Logger
	// Tail is the store the shared tail reads through (default: the
	// hub's). Every follower waits for the tail's reads, so a store on a
	// connection pool of its own keeps them from queueing behind
	// everything else the process asks of the database.
	Tail *Store
}

// NewHub returns a hub over store, woken by notifier. Run must be running
// for followers to see new events.
func NewHub(store *Store, notifier *Notifier, opts HubOptions) *Hub {
	if opts.Capacity <= 0 {
		opts.Capacity = 8192
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Tail == nil {
		opts.Tail = store
	}
	return &Hub{store: store, tailRead: opts.Tail, notifier: notifier, capacity: opts.Capacity, log: opts.Logger, changed: make(chan struct{}),
		byCorrelation: map[string]chan struct{}{}}
}

// Run follows the log from its current head until ctx ends, restarting
// after a failed read.
func (h *Hub) Run(ctx context.Context) error {
	for {
		err := h.follow(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		h.log.Warn("event hub: tail failed, retrying", "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

func (h *Hub) follow(ctx context.Context) error {
	h.mu.Lock()
	started := h.started
	after := h.tail
	h.mu.Unlock()
	if !started {
		head, err := h.tailRead.HeadPosition(ctx)
		if err != nil {
			return err
		}
		after = head
		h.mu.Lock()
		h.from = head
		h.mu.Unlock()
		h.publish(nil, head)
	}
	return h.tailRead.Subscribe(ctx, SubscribeOptions{After: after, Notifier: h.notifier},
		func(_ context.Context, batch []RecordedEvent) error {
			h.publish(batch, batch[len(batch)-1].Position)
			return nil
		})
}

// publish appends a batch read by the tail and wakes the followers.
func (h *Hub) publish(batch []RecordedEvent, tail int64) {
	h.mu.Lock()
	h.buf = append(h.buf, batch...)
	if over := len(h.buf) - h.capacity; over > h.capacity/4 {
		// Drop the oldest in chunks, so appends stay amortised O(1).
		h.from = h.buf[over-1].Position
		h.buf = slices.Clone(h.buf[over:])
	}
	h.tail, h.started = tail, true
	close(h.changed)
	h.changed = make(chan struct{})
	for _, e := range batch {
		if ch, ok := h.byCorrelation[e.Metadata.CorrelationID]; ok {
			close(ch)
			delete(h.byCorrelation, e.Metadata.CorrelationID)
		}
	}
	if len(h.byCorrelation) > maxWaitingTrees {
		// Entries of trees that went quiet after their followers left:
		// wake everyone once (each takes a fresh channel) to stay bounded.
		for id, ch := range h.byCorrelation {
			close(ch)
			delete(h.byCorrelation, id)
		}
	}
	h.mu.Unlock()
}

// maxWaitingTrees bounds byCorrelation.
const maxWaitingTrees = 10000

// wakeup returns the channel that is closed when the tail next publishes
// an event f may match: f's negotiation tree's own channel when f names a
// correlation id, else the channel of every move. The caller holds mu (for
// reading at least), so no publish can fall between its read of the
// buffer and this; wmu serialises the lazy creation among readers.
func (h *Hub) wakeup(f Filter) <-chan struct{} {
	if f.CorrelationID == "" {
		return h.changed
	}
	h.wmu.Lock()
	defer h.wmu.Unlock()
	ch, ok := h.byCorrelation[f.CorrelationID]
	if !ok {
		ch = make(chan struct{})
		h.byCorrelation[f.CorrelationID] = ch
	}
	return ch
}

// take returns the buffered events after `after` that match f, the
// position the caller has now seen up to, and a channel closed when the
// tail next moves. ok is false when the buffer no longer reaches back to
// after (or the tail has not started): the caller must read the database.
func (h *Hub) take(after int64, f Filter) (evs []RecordedEvent, seen int64, changed <-chan struct{}, ok bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if !h.started {
		return nil, after, h.changed, false
	}
	if after >= h.tail {
		return nil, after, h.wakeup(f), true
	}
	if after < h.from {
		return nil, after, h.changed, false
	}
	i, _ := slices.BinarySearchFunc(h.buf, after+1, func(e RecordedEvent, p int64) int {
		switch {
		case e.Position < p:
			return -1
		case e.Position > p:
			return 1
		}
		return 0
	})
	// Counted first, so a burst is copied into one allocation.
	n := 0
	for _, e := range h.buf[i:] {
		if f.Match(e) {
			n++
		}
	}
	if n > 0 {
		evs = make([]RecordedEvent, 0, n)
		for _, e := range h.buf[i:] {
			if f.Match(e) {
				evs = append(evs, e)
			}
		}
	}
	return evs, h.tail, h.wakeup(f), true
}

// Follow delivers, like [Store.Subscribe], every event matching f after
// the cursor after, exactly once and in position order, until ctx ends or
// handle fails: the backlog from the database, then new events from the
// hub's shared tail. f.UntilPosition only filters here; it does not end
// Follow.
func (h *Hub) Follow(ctx context.Context, after int64, f Filter, handle Handler) error {
	seen := after // every event matching f up to seen has been delivered
	for {
		evs, upTo, changed, ok := h.take(seen, f)
		if !ok {
			var err error
			if seen, err = h.catchUp(ctx, seen, f, handle); err != nil {
				return err
			}
			if _, _, changed, ok = h.take(seen, f); ok {
				continue
			}
			// Still outside the buffer (the tail has not started, or the
			// log moved faster than the buffer holds): wait for the tail.
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-changed:
			case <-time.After(time.Second):
			}
			continue
		}
		if len(evs) > 0 {
			if err := handle(ctx, evs); err != nil {
				return err
			}
		}
		seen = upTo
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
	}
}

// catchUp reads the database from after until a read comes back short;
// it returns the position seen up to: that read's own bound, never the
// tail's (a later query may run under a lower bound than the tail's last
// one, and so come back short below the tail with events still to read).
func (h *Hub) catchUp(ctx context.Context, after int64, f Filter, handle Handler) (int64, error) {
	cursor := after
	for {
		page, err := h.store.ReadPage(ctx, cursor, f, MaxReadLimit)
		if err != nil {
			return after, err
		}
		if len(page.Events) > 0 {
			if err := handle(ctx, page.Events); err != nil {
				return after, err
			}
		}
		cursor = page.Through
		if len(page.Events) < MaxReadLimit {
			return cursor, nil
		}
	}
}

// Match reports whether e passes the filter, as ReadAll's query would.
func (f Filter) Match(e RecordedEvent) bool {
	switch {
	case f.StreamID != "" && e.StreamID != f.StreamID,
		len(f.Types) > 0 && !slices.Contains(f.Types, e.Type),
		f.TypePrefix != "" && !strings.HasPrefix(string(e.Type), f.TypePrefix),
		f.CorrelationID != "" && e.Metadata.CorrelationID != f.CorrelationID,
		f.Actor != "" && e.Metadata.Actor != f.Actor,
		f.Principal != "" && cmp.Or(e.Metadata.Principal, "system") != f.Principal,
		f.UntilPosition > 0 && e.Position > f.UntilPosition,
		!f.Since.IsZero() && e.RecordedAt.Before(f.Since),
		!f.Until.IsZero() && !e.RecordedAt.Before(f.Until):
		return false
	}
	return true
}
