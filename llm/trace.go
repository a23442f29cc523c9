package llm

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/towow/towow/domain/event"
)

// tracerName is the instrumentation scope of the LLM spans.
const tracerName = "github.com/towow/towow/llm"

// Span attributes of an LLM call beyond the GenAI semantic conventions.
const (
	// attrSystem is gen_ai.system, the older name of gen_ai.provider.name,
	// still read by many backends.
	attrSystem       = attribute.Key("gen_ai.system")
	attrPromptKey    = attribute.Key("towow.prompt_key")
	attrOutcome      = attribute.Key("towow.llm.outcome")
	attrFallbackUsed = attribute.Key("towow.llm.fallback_used")
	attrReused       = attribute.Key("towow.llm.reused")
)

// startSpan starts the GenAI span of one call (OpenTelemetry's GenAI
// semantic conventions: a client span named "chat {model}"), a child of
// ctx's span, with the prompt's budget. Without a tracer it returns ctx and a nil span.
func (c *Client) startSpan(ctx context.Context, key PromptKey, maxTokens int, temperature float64) (context.Context, trace.Span) {
	if c.tracer == nil {
		return ctx, nil
	}
	provider, model := c.provider.Name(), c.provider.Model()
	name := "chat"
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameChat, semconv.GenAIProviderNameKey.String(provider),
		attrSystem.String(provider), attrPromptKey.String(string(key))}
	if model != "" {
		name += " " + model
		attrs = append(attrs, semconv.GenAIRequestModel(model))
	}
	attrs = append(attrs, semconv.GenAIRequestMaxTokens(maxTokens), semconv.GenAIRequestTemperature(temperature))
	return c.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// endSpan records the call's result on its span and ends it (nothing
// without a span). responseModel is the model the provider says answered
// ("" when none answered or it did not say).
func endSpan(span trace.Span, rec event.LLMCall, responseModel string) {
	if span == nil {
		return
	}
	attrs := []attribute.KeyValue{attrOutcome.String(rec.Outcome), attrFallbackUsed.Bool(rec.FallbackUsed), attrReused.Bool(rec.Reused)}
	if responseModel != "" {
		attrs = append(attrs, semconv.GenAIResponseModel(responseModel))
	}
	if rec.InputTokens > 0 || rec.OutputTokens > 0 {
		attrs = append(attrs, semconv.GenAIUsageInputTokens(rec.InputTokens), semconv.GenAIUsageOutputTokens(rec.OutputTokens))
	}
	if rec.Outcome != event.LLMOutcomeOK {
		attrs = append(attrs, semconv.ErrorTypeKey.String(rec.Outcome))
		span.SetStatus(codes.Error, rec.Error)
	}
	span.SetAttributes(attrs...)
	span.End()
}
