package negotiate

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
)

// StuckArgs are the arguments of the Stuck step.
type StuckArgs struct {
	ChannelID string    `json:"channel_id"`
	Deadline  time.Time `json:"deadline"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (StuckArgs) Kind() string { return "towow.stuck_check" }

// StuckWorker runs the Stuck step.
type StuckWorker struct {
	river.WorkerDefaults[StuckArgs]
	e *Process
}

// Work fails a channel still not finished at its stuck deadline.
func (w *StuckWorker) Work(ctx context.Context, job *river.Job[StuckArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || c.Completed {
		return err
	}
	if err := e.waitDeadline(ctx, job.CreatedAt, job.Args.Deadline); err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "stuck check", job.Args.ChannelID, event.ActorSystem, uow.Causation(job.Kind, job.ID), nil, "",
		func(c *negotiation.Channel) ([]event.Payload, error) { return c.Stuck() })
	return e.jobError(ctx, "stuck check", err)
}
