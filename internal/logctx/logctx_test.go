package logctx_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/towow/towow/internal/logctx"
)

func TestHandlerAddsContextAttrs(t *testing.T) {
	tests := []struct {
		name string
		ctx  func() context.Context
		want string
	}{
		{"none", context.Background, `msg=hi k=v`},
		{"one level", func() context.Context {
			return logctx.With(context.Background(), slog.String("demand_id", "d-1"))
		}, `msg=hi k=v demand_id=d-1`},
		{"nested", func() context.Context {
			ctx := logctx.With(context.Background(), slog.String("demand_id", "d-1"))
			return logctx.With(ctx, slog.String("channel_id", "collab-1"), slog.Int64("job_id", 7))
		}, `msg=hi k=v demand_id=d-1 channel_id=collab-1 job_id=7`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(logctx.NewHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{
				ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey || a.Key == slog.LevelKey {
						return slog.Attr{}
					}
					return a
				}})))
			log.InfoContext(tc.ctx(), "hi", "k", "v")
			if got := strings.TrimSpace(buf.String()); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func ExampleWith() {
	log := slog.New(logctx.NewHandler(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}})))
	ctx := logctx.With(context.Background(), slog.String("demand_id", "d-3f9a1c2b4d5e"))
	log.WarnContext(ctx, "llm call failed, using fallback", "prompt_key", "offer_generation")
	// Output: level=WARN msg="llm call failed, using fallback" prompt_key=offer_generation demand_id=d-3f9a1c2b4d5e
}
