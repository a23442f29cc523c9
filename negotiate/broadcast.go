package negotiate

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
)

// BroadcastArgs are the arguments of the Broadcast step.
type BroadcastArgs struct {
	ChannelID string `json:"channel_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (BroadcastArgs) Kind() string { return "towow.broadcast" }

// BroadcastWorker runs the Broadcast step.
type BroadcastWorker struct {
	river.WorkerDefaults[BroadcastArgs]
	e *Process
}

// Work is the ChannelAdmin's broadcast of a channel opened without it: the
// demand goes to every candidate, and the channel starts collecting
// offers. A channel broadcasts in the commit that opens it
// (Process.openChannel); this step serves channels of logs written before
// that, whose history (a fork's copy, a queued job) stops between the two.
func (w *BroadcastWorker) Work(ctx context.Context, job *river.Job[BroadcastArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || c.Status != negotiation.ChannelStatusCreated {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "broadcast", c.ID, event.ActorChannelAdmin, uow.Causation(job.Kind, job.ID), nil, "",
		func(c *negotiation.Channel) ([]event.Payload, error) { return c.Broadcast(demandOf(d)) })
	return e.jobError(ctx, "broadcast", err)
}
