// Package logthrottle keeps a repeating warning or error from flooding the
// log: while a dependency is down (the database restarting, say) the same
// failure is reported many times a second by every loop that touches it.
package logthrottle

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Interval is how often ToWow lets one warning or error message through
// where it throttles them.
const Interval = 5 * time.Second

// maxKeys bounds the messages remembered; past it the memory starts over
// (the messages of a process are a small, fixed set in practice).
const maxKeys = 1024

// Handler passes records below WARN through untouched, and lets a WARN or
// ERROR record with a given level and message through at most once per
// interval; the first one let through after others were held back carries
// "repeated": how many were held back.
type Handler struct {
	next  slog.Handler
	every time.Duration
	st    *state
}

type state struct {
	mu   sync.Mutex
	seen map[string]*entry
}

type entry struct {
	last time.Time
	held int
}

// New wraps next, letting each warning or error message through at most
// once per every.
func New(next slog.Handler, every time.Duration) *Handler {
	return &Handler{next: next, every: every, st: &state{seen: map[string]*entry{}}}
}

// Enabled implements slog.Handler.
func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

// Handle implements slog.Handler.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn {
		return h.next.Handle(ctx, r)
	}
	key := r.Level.String() + "\x00" + r.Message
	h.st.mu.Lock()
	e := h.st.seen[key]
	if e != nil && r.Time.Sub(e.last) < h.every && r.Time.Sub(e.last) >= 0 {
		e.held++
		h.st.mu.Unlock()
		return nil
	}
	held := 0
	if e != nil {
		held = e.held
	}
	if len(h.st.seen) >= maxKeys {
		clear(h.st.seen)
	}
	h.st.seen[key] = &entry{last: r.Time}
	h.st.mu.Unlock()
	if held > 0 {
		r = r.Clone()
		r.AddAttrs(slog.Int("repeated", held))
	}
	return h.next.Handle(ctx, r)
}

// WithAttrs implements slog.Handler; the result shares the throttle.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &Handler{next: h.next.WithAttrs(attrs), every: h.every, st: h.st}
}

// WithGroup implements slog.Handler; the result shares the throttle.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{next: h.next.WithGroup(name), every: h.every, st: h.st}
}
