package agents

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// stepWorker adapts an engine step to River's Worker interface.
type stepWorker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	work    func(context.Context, *river.Job[T]) error
	timeout time.Duration
}

func (w *stepWorker[T]) Work(ctx context.Context, job *river.Job[T]) error { return w.work(ctx, job) }

func (w *stepWorker[T]) Timeout(*river.Job[T]) time.Duration { return w.timeout }

func add[T river.JobArgs](ws *river.Workers, timeout time.Duration, f func(context.Context, *river.Job[T]) error) {
	river.AddWorker(ws, &stepWorker[T]{work: f, timeout: timeout})
}

func (e *Engine) workers() *river.Workers {
	ws := river.NewWorkers()
	t := e.cfg.JobTimeout
	add(ws, t, e.understand)
	add(ws, t, e.filter)
	add(ws, t, e.broadcast)
	add(ws, t, e.offer)
	add(ws, t, e.offerTimeout)
	add(ws, t, e.aggregate)
	add(ws, t, e.feedback)
	add(ws, t, e.feedbackTimeout)
	add(ws, t, e.adjust)
	add(ws, t, e.forceFinalize)
	add(ws, t, e.gaps)
	add(ws, t, e.recursion)
	add(ws, t, e.notifyParent)
	add(ws, t, e.stuck)
	return ws
}
