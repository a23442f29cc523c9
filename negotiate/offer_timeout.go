package negotiate

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
)

// OfferTimeoutArgs are the arguments of the OfferTimeout step.
type OfferTimeoutArgs struct {
	ChannelID string    `json:"channel_id"`
	Deadline  time.Time `json:"deadline"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (OfferTimeoutArgs) Kind() string { return "towow.offer_timeout" }

// OfferTimeoutWorker runs the OfferTimeout step.
type OfferTimeoutWorker struct {
	river.WorkerDefaults[OfferTimeoutArgs]
	e *Process
}

// Work closes the collection of offers at its deadline, when it is still
// open.
func (w *OfferTimeoutWorker) Work(ctx context.Context, job *river.Job[OfferTimeoutArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || c.Status != negotiation.ChannelStatusCollecting {
		return err // collection closed already: nothing to wait for
	}
	if err := e.waitDeadline(ctx, job.CreatedAt, job.Args.Deadline); err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "offer timeout", job.Args.ChannelID, event.ActorSystem, uow.Causation(job.Kind, job.ID), nil, "",
		func(c *negotiation.Channel) ([]event.Payload, error) { return c.OfferTimeout() })
	return e.jobError(ctx, "offer timeout", err)
}
