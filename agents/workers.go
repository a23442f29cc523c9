package agents

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/towow/towow/internal/logctx"
)

// stepWorker adapts an engine step to River's Worker interface.
type stepWorker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	work    func(context.Context, *river.Job[T]) error
	timeout time.Duration
	log     *slog.Logger
	// prepare adds what the step's context needs beyond the log
	// attributes (a fork's reuse of recorded LLM answers); nil: nothing.
	prepare func(ctx context.Context, encodedArgs []byte) context.Context
}

func (w *stepWorker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	start := time.Now()
	ctx = logctx.With(ctx, jobAttrs(job.JobRow)...)
	if w.prepare != nil {
		ctx = w.prepare(ctx, job.EncodedArgs)
	}
	err := w.work(ctx, job)
	if w.log.Enabled(ctx, slog.LevelDebug) {
		w.log.DebugContext(ctx, "step", "attempt", job.Attempt,
			"queued", start.Sub(job.ScheduledAt).Round(time.Microsecond), "ran", time.Since(start).Round(time.Microsecond), "err", err)
	}
	return err
}

// jobAttrs are the log attributes of a step: its job and the demand or
// channel it works on (every step's arguments name one of them), so every
// record the step logs through its context can be found by demand or
// channel.
func jobAttrs(job *rivertype.JobRow) []slog.Attr {
	attrs := []slog.Attr{slog.String("job_kind", job.Kind), slog.Int64("job_id", job.ID)}
	var ids struct {
		DemandID   string `json:"demand_id"`
		ChannelID  string `json:"channel_id"`
		WorkflowID string `json:"workflow_id"`
		NodeID     string `json:"node_id"`
		MessageID  string `json:"message_id"`
		Round      int    `json:"round"`
	}
	if json.Unmarshal(job.EncodedArgs, &ids) != nil {
		return attrs
	}
	if ids.DemandID != "" {
		attrs = append(attrs, slog.String("demand_id", ids.DemandID))
	}
	if ids.ChannelID != "" {
		attrs = append(attrs, slog.String("channel_id", ids.ChannelID))
	}
	if ids.WorkflowID != "" {
		attrs = append(attrs, slog.String("workflow_id", ids.WorkflowID))
	}
	if ids.MessageID != "" {
		attrs = append(attrs, slog.String("message_id", ids.MessageID))
	}
	if ids.NodeID != "" {
		attrs = append(attrs, slog.String("node_id", ids.NodeID))
	}
	if ids.Round > 0 {
		attrs = append(attrs, slog.Int("round", ids.Round))
	}
	return attrs
}

func (w *stepWorker[T]) Timeout(*river.Job[T]) time.Duration { return w.timeout }

func add[T river.JobArgs](ws *river.Workers, log *slog.Logger, timeout time.Duration,
	prepare func(context.Context, []byte) context.Context, f func(context.Context, *river.Job[T]) error) {
	river.AddWorker(ws, &stepWorker[T]{work: f, timeout: timeout, log: log, prepare: prepare})
}

func (e *Engine) workers() *river.Workers {
	ws := river.NewWorkers()
	t, l := e.cfg.JobTimeout, e.log
	add(ws, l, t, e.forkContext, e.understand)
	add(ws, l, t, e.forkContext, e.filter)
	add(ws, l, t, e.forkContext, e.broadcast)
	add(ws, l, t, e.forkContext, e.twinOffers)
	add(ws, l, t, e.forkContext, e.offerTimeout)
	add(ws, l, t, e.forkContext, e.aggregate)
	add(ws, l, t, e.forkContext, e.twinFeedback)
	add(ws, l, t, e.forkContext, e.feedbackTimeout)
	add(ws, l, t, e.forkContext, e.adjust)
	add(ws, l, t, e.forkContext, e.forceFinalize)
	add(ws, l, t, e.forkContext, e.gaps)
	add(ws, l, t, e.forkContext, e.recursion)
	add(ws, l, t, e.forkContext, e.notifyParent)
	add(ws, l, t, e.forkContext, e.stuck)
	add(ws, l, t, e.forkContext, e.demandStuck)
	add(ws, l, t, e.forkContext, e.startNode)
	add(ws, l, t, e.forkContext, e.nodeEffect)
	add(ws, l, t, e.forkContext, e.nodeTimeout)
	add(ws, l, t, e.forkContext, e.converse)
	add(ws, l, t, nil, e.presence)
	return ws
}
