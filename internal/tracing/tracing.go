// Package tracing builds the OpenTelemetry tracer provider of a ToWow
// process from the standard OTEL_* variables. Tracing is on when an OTLP
// endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), unless OTEL_SDK_DISABLED is true or
// OTEL_TRACES_EXPORTER is none. The SDK and the OTLP/HTTP exporter read
// the rest themselves (headers, OTEL_TRACES_SAMPLER and its argument,
// OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_BSP_*). Off, the
// provider is OpenTelemetry's no-op one and nothing else exists: no
// exporter, no goroutine.
//
// Nothing here touches OpenTelemetry's global provider: each App owns its
// Provider and hands it to the parts that trace.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// DefaultServiceName is the service.name of the spans when
// OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) says
// nothing else.
const DefaultServiceName = "towow"

// Config says whether and where a process traces.
type Config struct {
	// Enabled turns tracing on; see FromEnv.
	Enabled bool
	// Exporter, when set, receives the spans instead of the OTLP/HTTP
	// exporter configured by OTEL_EXPORTER_OTLP_* (benchmarks).
	Exporter sdktrace.SpanExporter
}

// Samplers are the OTEL_TRACES_SAMPLER values the SDK knows.
var Samplers = []string{"always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off",
	"parentbased_traceidratio"}

// FromEnv reads whether tracing is on from the standard variables (getenv
// is os.Getenv in the binary): an OTLP endpoint is set, OTEL_SDK_DISABLED
// is not true and OTEL_TRACES_EXPORTER is not none. With tracing on, a
// sampler the SDK does not know (it would silently sample everything) or
// a ratio that is no number from 0 to 1 is an error.
func FromEnv(getenv func(string) string) (Config, error) {
	endpoint := getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
	disabled := strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true")
	none := strings.EqualFold(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")), "none")
	cfg := Config{Enabled: endpoint && !disabled && !none}
	if !cfg.Enabled {
		return cfg, nil
	}
	sampler := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER")))
	if sampler != "" && !slices.Contains(Samplers, sampler) {
		return cfg, fmt.Errorf("OTEL_TRACES_SAMPLER=%q: want one of %s", getenv("OTEL_TRACES_SAMPLER"), strings.Join(Samplers, ", "))
	}
	if arg := strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER_ARG")); arg != "" && strings.HasSuffix(sampler, "traceidratio") {
		if r, err := strconv.ParseFloat(arg, 64); err != nil || r < 0 || r > 1 {
			return cfg, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG=%q: want a ratio from 0 to 1 for %s", arg, sampler)
		}
	}
	return cfg, nil
}

// Provider is a process's tracer provider: the SDK's with a batching
// exporter when tracing is on, the no-op one otherwise.
type Provider struct {
	sdk *sdktrace.TracerProvider
	tp  trace.TracerProvider
}

// New builds the provider cfg asks for. Off, it returns the no-op provider
// at once.
func New(ctx context.Context, cfg Config) (*Provider, error) {
	if !cfg.Enabled {
		return &Provider{tp: noop.NewTracerProvider()}, nil
	}
	exp := cfg.Exporter
	if exp == nil {
		var err error
		// Endpoint, headers, timeout, compression: OTEL_EXPORTER_OTLP_*.
		if exp, err = otlptracehttp.New(ctx); err != nil {
			return nil, fmt.Errorf("otlp trace exporter: %w", err)
		}
	}
	// service.name defaults to towow; OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES, read by WithFromEnv, come later and win.
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(DefaultServiceName)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("trace resource: %w", err)
	}
	// The sampler is OTEL_TRACES_SAMPLER's (default parentbased_always_on),
	// read by the SDK.
	sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Provider{sdk: sdk, tp: sdk}, nil
}

// Enabled reports whether spans are recorded and exported.
func (p *Provider) Enabled() bool { return p.sdk != nil }

// TracerProvider is the provider to hand to the parts that trace (the
// no-op one when tracing is off).
func (p *Provider) TracerProvider() trace.TracerProvider { return p.tp }

// Shutdown exports the spans still buffered and stops the exporter (a
// no-op when tracing is off). Call it after the parts that trace stopped.
func (p *Provider) Shutdown(ctx context.Context) error {
	if p.sdk == nil {
		return nil
	}
	if err := p.sdk.Shutdown(ctx); err != nil {
		return fmt.Errorf("shut down tracing: %w", err)
	}
	return nil
}

// Propagator is the W3C Trace Context propagator ToWow uses, explicitly,
// wherever a trace crosses a process (HTTP requests, River jobs, events).
func Propagator() propagation.TextMapPropagator { return propagation.TraceContext{} }
