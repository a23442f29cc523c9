package agents

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/riverqueue/rivercontrib/otelriver"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
)

// One trace per negotiation tree. The span that submits a root demand (its
// HTTP request) is the tree's root: its W3C traceparent is written on the
// demand's first event and on every later event of the tree
// (domain.Metadata.TraceParent), and on every job the tree's steps enqueue
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

// traceParentOf formats ctx's span context as a W3C traceparent ("" when
// ctx has none).
func traceParentOf(ctx context.Context) string {
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

// riverMiddleware is what the engine's River client runs around inserts
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

// treeTrace is the traceparent of the tree whose root demand is root: the
// one of the running step, else the one on the root demand's first event,
// else (the commit creates the root demand) ctx's own span. "" when
// tracing is off or root is no tree (agent profiles).
func (e *Engine) treeTrace(ctx context.Context, st *eventstore.Store, root string) (string, error) {
	if !e.tracing || root == "" {
		return "", nil
	}
	if tp, ok := ctx.Value(treeTraceKey{}).(string); ok {
		return tp, nil
	}
	evs, err := st.ReadStream(ctx, domain.DemandStream(root), 0, 1)
	if err != nil {
		return "", fmt.Errorf("trace of tree %s: %w", root, err)
	}
	if len(evs) > 0 {
		return evs[0].Metadata.TraceParent, nil
	}
	return traceParentOf(ctx), nil
}

// rootOf is the tree an append belongs to.
func rootOf(a appendOp) string {
	if a.meta.CorrelationID == "" && len(a.raw) > 0 {
		return a.raw[0].Metadata.CorrelationID
	}
	return a.meta.CorrelationID
}

// jobMetadata is the metadata of a job the tree of traceparent enqueues
// (nil without one).
func jobMetadata(traceparent string) []byte {
	if traceparent == "" {
		return nil
	}
	b, _ := json.Marshal(map[string]string{jobTraceKey: traceparent})
	return b
}
