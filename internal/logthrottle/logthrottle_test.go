package logthrottle_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/internal/logthrottle"
)

func TestRepeatedErrorsAreHeldBack(t *testing.T) {
	var buf bytes.Buffer
	h := logthrottle.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}), 5*time.Second)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	emit := func(at time.Duration, level slog.Level, msg string) {
		r := slog.NewRecord(t0.Add(at), level, msg, 0)
		if err := h.Handle(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 { // 40 errors in 4 s: one line
		emit(time.Duration(i)*100*time.Millisecond, slog.LevelError, "fetch failed")
	}
	emit(time.Second, slog.LevelWarn, "fetch failed") // another level: its own line
	emit(2*time.Second, slog.LevelError, "other")     // another message: its own line
	for range 3 {
		emit(time.Second, slog.LevelInfo, "info passes") // below WARN: never held back
	}
	emit(6*time.Second, slog.LevelError, "fetch failed") // after the interval: with the count
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 7 {
		t.Fatalf("%d lines:\n%s", len(lines), buf.String())
	}
	if strings.Contains(lines[0], "repeated") || !strings.Contains(lines[6], "repeated=39") {
		t.Fatalf("the count of held-back records is wrong:\n%s", buf.String())
	}
	// Loggers derived with attributes share the throttle.
	buf.Reset()
	d := h.WithAttrs([]slog.Attr{slog.String("component", "river")})
	if err := d.Handle(ctx, slog.NewRecord(t0.Add(7*time.Second), slog.LevelError, "fetch failed", 0)); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Fatalf("a derived logger bypassed the throttle: %s", buf.String())
	}
}
