package negotiate

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
)

// DemandStuckArgs are the arguments of the DemandStuck step.
type DemandStuckArgs struct {
	DemandID string    `json:"demand_id"`
	Deadline time.Time `json:"deadline"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (DemandStuckArgs) Kind() string { return "towow.demand_stuck_check" }

// DemandStuckWorker runs the DemandStuck step.
type DemandStuckWorker struct {
	river.WorkerDefaults[DemandStuckArgs]
	e *Process
}

// Work fails a demand whose understanding or filtering never
// finished, so that a parent negotiation waiting for it hears back.
func (w *DemandStuckWorker) Work(ctx context.Context, job *river.Job[DemandStuckArgs]) error {
	e := w.e
	// A fresh fold: this check comes long after the demand's last step, and
	// a successful demand's stream has no ending event to keep it out of
	// the cache.
	d := &negotiation.DemandState{}
	if _, err := e.store.Fold(ctx, negotiation.DemandStream(job.Args.DemandID), d.Apply); err != nil || d.ChannelID != "" || d.Failure != nil {
		return err
	}
	if err := e.waitDeadline(ctx, job.CreatedAt, job.Args.Deadline); err != nil {
		return err
	}
	_, err := e.demandStep(ctx, "demand stuck check", job.Args.DemandID, event.ActorSystem, uow.Causation(job.Kind, job.ID), nil, "",
		func(d *negotiation.DemandState) ([]event.Payload, error) { return d.Stuck() })
	return e.jobError(ctx, "demand stuck check", err)
}
