package llm

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/towow/towow/domain/event"
)

// recordedOnce is a Recorded that knows one answer for every input.
type recordedOnce struct{ answer string }

func (r recordedOnce) Answer(context.Context, PromptKey, string) (string, bool, error) {
	return r.answer, true, nil
}

// TestClientSpans checks the GenAI span of each kind of call: its name,
// kind, parent and attributes.
func TestClientSpans(t *testing.T) {
	tests := []struct {
		name    string
		fn      func(context.Context, Request) (Response, error)
		reuse   bool
		want    map[attribute.Key]any
		absent  []attribute.Key
		failed  bool
		outcome string
	}{
		{name: "ok", fn: answer, outcome: event.LLMOutcomeOK,
			want: map[attribute.Key]any{"gen_ai.response.model": "script-1b", "gen_ai.usage.input_tokens": int64(100),
				"gen_ai.usage.output_tokens": int64(50), "towow.llm.fallback_used": false, "towow.llm.reused": false},
			absent: []attribute.Key{"error.type"}},
		{name: "provider failure", fn: fail, failed: true, outcome: event.LLMOutcomeError,
			want:   map[attribute.Key]any{"error.type": "error", "towow.llm.fallback_used": true},
			absent: []attribute.Key{"gen_ai.response.model", "gen_ai.usage.input_tokens"}},
		{name: "parse error", fn: garbage, failed: true, outcome: event.LLMOutcomeParseError,
			want: map[attribute.Key]any{"error.type": "parse_error", "towow.llm.fallback_used": true,
				"gen_ai.usage.input_tokens": int64(5), "gen_ai.usage.output_tokens": int64(3)}},
		{name: "reused", fn: fail, reuse: true, outcome: event.LLMOutcomeOK,
			want:   map[attribute.Key]any{"towow.llm.reused": true, "towow.llm.fallback_used": false},
			absent: []attribute.Key{"gen_ai.response.model", "gen_ai.usage.input_tokens", "error.type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			c := newTestClient(&scripted{fn: tt.fn}, Config{TracerProvider: tp})
			ctx, parent := tp.Tracer("test").Start(context.Background(), "step")
			if tt.reuse {
				ctx = WithReuse(ctx, recordedOnce{answer: goodReply(PromptOffer)}, nil)
			}
			if _, _, err := invoke(ctx, c, PromptOffer); err != nil {
				t.Fatal(err)
			}
			parent.End()
			spans := rec.Ended()
			if len(spans) != 2 {
				t.Fatalf("%d spans, want the call's and its parent's", len(spans))
			}
			s := spans[0]
			if s.Name() != "chat script-1" || s.SpanKind() != trace.SpanKindClient {
				t.Errorf("span %q kind %v, want \"chat script-1\" client", s.Name(), s.SpanKind())
			}
			if s.Parent().SpanID() != parent.SpanContext().SpanID() || s.SpanContext().TraceID() != parent.SpanContext().TraceID() {
				t.Errorf("the call's span is not a child of the caller's")
			}
			attrs := map[attribute.Key]any{}
			for _, kv := range s.Attributes() {
				attrs[kv.Key] = kv.Value.AsInterface()
			}
			want := map[attribute.Key]any{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "scripted", "gen_ai.system": "scripted",
				"gen_ai.request.model": "script-1", "towow.prompt_key": string(PromptOffer), "towow.llm.outcome": tt.outcome}
			for k, v := range tt.want {
				want[k] = v
			}
			for k, v := range want {
				if attrs[k] != v {
					t.Errorf("%s = %#v, want %#v", k, attrs[k], v)
				}
			}
			for _, k := range tt.absent {
				if v, ok := attrs[k]; ok {
					t.Errorf("%s = %#v, want none", k, v)
				}
			}
			if got := s.Status().Code == codes.Error; got != tt.failed {
				t.Errorf("status %v, want error %v", s.Status(), tt.failed)
			}
		})
	}
}

// BenchmarkClientCall measures one call of the builtin-sized path (a
// scripted provider answering at once) without a tracer provider (tracing
// off: no span at all), and with the SDK recording into memory.
func BenchmarkClientCall(b *testing.B) {
	for _, bc := range []struct {
		name string
		tp   trace.TracerProvider
	}{
		{"off", nil},
		{"on", sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewInMemoryExporter()))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := newTestClient(&scripted{fn: answer}, Config{TracerProvider: bc.tp})
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Call(ctx, c, Offer, sampleOfferInput()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
