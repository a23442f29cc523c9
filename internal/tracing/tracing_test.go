package tracing_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/towow/towow/internal/tracing"
)

// keep is an exporter that keeps what it exported after shutdown (the
// SDK's in-memory exporter forgets it then).
type keep struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

func (k *keep) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.spans = append(k.spans, spans...)
	return nil
}

func (k *keep) Shutdown(context.Context) error { return nil }

// TestFromEnv checks when the standard variables turn tracing on, and
// which values are refused.
func TestFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		enabled bool
		err     string
	}{
		{name: "nothing set", env: nil},
		{name: "endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://localhost:4318"}, enabled: true},
		{name: "traces endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://localhost:4318/v1/traces"}, enabled: true},
		{name: "sdk disabled", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "TRUE"}},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}},
		{name: "sampler only", env: map[string]string{"OTEL_TRACES_SAMPLER": "always_on"}},
		{name: "ratio sampler", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
			"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25"}, enabled: true},
		{name: "unknown sampler", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_SAMPLER": "sometimes"},
			enabled: true, err: `OTEL_TRACES_SAMPLER="sometimes": want one of always_on`},
		{name: "bad ratio", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
			"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "1.5"}, enabled: true,
			err: `OTEL_TRACES_SAMPLER_ARG="1.5": want a ratio from 0 to 1`},
		{name: "bad sampler ignored when off", env: map[string]string{"OTEL_TRACES_SAMPLER": "sometimes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := tracing.FromEnv(func(k string) string { return tt.env[k] })
			if cfg.Enabled != tt.enabled {
				t.Errorf("enabled %v, want %v", cfg.Enabled, tt.enabled)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

// TestProviderOff checks that tracing off is OpenTelemetry's no-op provider
// and nothing else.
func TestProviderOff(t *testing.T) {
	p, err := tracing.New(t.Context(), tracing.Config{Exporter: tracetest.NewInMemoryExporter()})
	if err != nil {
		t.Fatal(err)
	}
	if p.Enabled() {
		t.Error("enabled without Config.Enabled")
	}
	if _, ok := p.TracerProvider().(noop.TracerProvider); !ok {
		t.Errorf("provider %T, want the no-op one", p.TracerProvider())
	}
	if err := p.Shutdown(t.Context()); err != nil {
		t.Error(err)
	}
}

// TestServiceName checks the service.name of the spans: towow unless
// OTEL_SERVICE_NAME says otherwise.
func TestServiceName(t *testing.T) {
	for _, tt := range []struct{ env, want string }{{"", "towow"}, {"towow-worker-2", "towow-worker-2"}} {
		t.Run(tt.want, func(t *testing.T) {
			t.Setenv("OTEL_SERVICE_NAME", tt.env)
			exp := &keep{}
			p, err := tracing.New(context.Background(), tracing.Config{Enabled: true, Exporter: exp})
			if err != nil {
				t.Fatal(err)
			}
			_, span := p.TracerProvider().Tracer("test").Start(context.Background(), "x")
			span.End()
			if err := p.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			if len(exp.spans) != 1 {
				t.Fatalf("%d spans exported, want 1", len(exp.spans))
			}
			got := ""
			for _, kv := range exp.spans[0].Resource().Attributes() {
				if kv.Key == "service.name" {
					got = kv.Value.AsString()
				}
			}
			if got != tt.want {
				t.Errorf("service.name %q, want %q", got, tt.want)
			}
		})
	}
}
