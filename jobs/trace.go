package jobs

import (
	"context"
	"encoding/json"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/riverqueue/rivercontrib/otelriver"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// One trace per negotiation tree. The span that submits a root demand (its
// HTTP request) is the tree's root: its W3C traceparent is written on the
// demand's first event and on every later event of the tree
// (event.Metadata.TraceParent), and on every job the tree's steps enqueue
// (River job metadata, key jobTraceKey). A step's span, River's work span,
// is started as a child of that traceparent, whichever process runs it
// and however much later; its database and LLM spans are its children.
// River's own propagation (otelriver) links each work span to the span
// that enqueued it, so the causal chain stays visible in the flat tree.

// jobTraceKey is the job metadata key of the tree's traceparent.
const jobTraceKey = "tree_traceparent"

// treeTraceKey is the context key of the tree's traceparent while a step
// runs.
type treeTraceKey struct{}

// TraceParentOf formats ctx's span context as a W3C traceparent ("" when
// ctx has none).
func TraceParentOf(ctx context.Context) string {
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier.Get("traceparent")
}

// withTreeTrace makes traceparent the parent of the spans started from the
// returned context, and the tree's traceparent for the events it writes.
func withTreeTrace(ctx context.Context, traceparent string) context.Context {
	ctx = propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": traceparent})
	return context.WithValue(ctx, treeTraceKey{}, traceparent)
}

// riverMiddleware is what the River client runs around inserts
// and steps when tracing is on: the tree's parent first, then otelriver's
// spans (river.insert_many, river.work/<kind>) inside it.
func riverMiddleware(tp trace.TracerProvider) []rivertype.Middleware {
	return []rivertype.Middleware{
		river.WorkerMiddlewareFunc(treeParent),
		otelriver.NewMiddleware(&otelriver.MiddlewareConfig{
			TracerProvider:              tp,
			MeterProvider:               metricnoop.NewMeterProvider(),
			EnableTracePropagation:      true,
			EnableWorkSpanJobKindSuffix: true,
		}),
	}
}

// treeParent starts a step under its tree's traceparent, read from the
// job's metadata (a job enqueued without one runs in a trace of its own).
func treeParent(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	var md map[string]json.RawMessage
	if len(job.Metadata) > 0 && json.Unmarshal(job.Metadata, &md) == nil {
		var tp string
		if raw, ok := md[jobTraceKey]; ok && json.Unmarshal(raw, &tp) == nil && tp != "" {
			ctx = withTreeTrace(ctx, tp)
		}
	}
	return doInner(ctx)
}

// TreeTraceOf is the traceparent of the tree whose step runs in ctx (set
// by the trace middleware from the job's metadata).
func TreeTraceOf(ctx context.Context) (string, bool) {
	tp, ok := ctx.Value(treeTraceKey{}).(string)
	return tp, ok
}

// Metadata is the metadata of a job the tree of traceparent enqueues
// (nil without one).
func Metadata(traceparent string) []byte {
	if traceparent == "" {
		return nil
	}
	b, _ := json.Marshal(map[string]string{jobTraceKey: traceparent})
	return b
}
