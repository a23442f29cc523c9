package presence

import (
	"context"

	"github.com/riverqueue/river"
)

// CheckArgs is the periodic check for silent agents; River's leader
// inserts it every presenceEvery.
type CheckArgs struct{}

// Kind is the job kind (stored in river_job rows: never renamed).
func (CheckArgs) Kind() string { return "towow.agent_presence" }

// CheckWorker runs the periodic check.
type CheckWorker struct {
	river.WorkerDefaults[CheckArgs]
	e *Presence
}

// Work takes the silent agents offline.
func (w *CheckWorker) Work(ctx context.Context, _ *river.Job[CheckArgs]) error {
	e := w.e
	n, err := e.MarkSilentAgentsOffline(ctx)
	if n > 0 {
		e.log.InfoContext(ctx, "silent agents taken offline", "agents", n, "after", e.cfg.OfflineAfter)
	}
	return err
}

// PeriodicJob is the periodic job of the check.
func (e *Presence) PeriodicJob() *river.PeriodicJob {
	every := e.cfg.presenceEvery()
	return river.NewPeriodicJob(river.PeriodicInterval(every), func() (river.JobArgs, *river.InsertOpts) {
		return CheckArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: every}}
	}, &river.PeriodicJobOpts{ID: CheckArgs{}.Kind(), RunOnStart: true})
}

// Register adds presence's worker to workers.
func (e *Presence) Register(workers *river.Workers) {
	river.AddWorker(workers, &CheckWorker{e: e})
}
