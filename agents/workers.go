package agents

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
)

// stepWorker adapts an engine step to River's Worker interface.
type stepWorker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	work    func(context.Context, *river.Job[T]) error
	timeout time.Duration
	log     *slog.Logger
}

func (w *stepWorker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	start := time.Now()
	err := w.work(ctx, job)
	if w.log.Enabled(ctx, slog.LevelDebug) {
		w.log.DebugContext(ctx, "step", "kind", job.Kind, "job", job.ID, "attempt", job.Attempt,
			"queued", start.Sub(job.ScheduledAt).Round(time.Microsecond), "ran", time.Since(start).Round(time.Microsecond), "err", err)
	}
	return err
}

func (w *stepWorker[T]) Timeout(*river.Job[T]) time.Duration { return w.timeout }

func add[T river.JobArgs](ws *river.Workers, log *slog.Logger, timeout time.Duration, f func(context.Context, *river.Job[T]) error) {
	river.AddWorker(ws, &stepWorker[T]{work: f, timeout: timeout, log: log})
}

func (e *Engine) workers() *river.Workers {
	ws := river.NewWorkers()
	t, l := e.cfg.JobTimeout, e.log
	add(ws, l, t, e.understand)
	add(ws, l, t, e.filter)
	add(ws, l, t, e.broadcast)
	add(ws, l, t, e.twinOffers)
	add(ws, l, t, e.offerTimeout)
	add(ws, l, t, e.aggregate)
	add(ws, l, t, e.twinFeedback)
	add(ws, l, t, e.feedbackTimeout)
	add(ws, l, t, e.adjust)
	add(ws, l, t, e.forceFinalize)
	add(ws, l, t, e.gaps)
	add(ws, l, t, e.recursion)
	add(ws, l, t, e.notifyParent)
	add(ws, l, t, e.stuck)
	add(ws, l, t, e.demandStuck)
	return ws
}
