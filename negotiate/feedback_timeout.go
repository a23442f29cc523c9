package negotiate

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
)

// FeedbackTimeoutArgs are the arguments of the FeedbackTimeout step.
type FeedbackTimeoutArgs struct {
	ChannelID string    `json:"channel_id"`
	Round     int       `json:"round"`
	Deadline  time.Time `json:"deadline"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (FeedbackTimeoutArgs) Kind() string { return "towow.feedback_timeout" }

// FeedbackTimeoutWorker runs the FeedbackTimeout step.
type FeedbackTimeoutWorker struct {
	river.WorkerDefaults[FeedbackTimeoutArgs]
	e *Process
}

// Work closes a round's feedback at its deadline: a missing feedback
// counts as accept.
func (w *FeedbackTimeoutWorker) Work(ctx context.Context, job *river.Job[FeedbackTimeoutArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.AwaitingFeedback() || c.Round != job.Args.Round {
		return err // the round is over already
	}
	if err := e.waitDeadline(ctx, job.CreatedAt, job.Args.Deadline); err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "feedback timeout", job.Args.ChannelID, event.ActorSystem, uow.Causation(job.Kind, job.ID), nil, "",
		func(c *negotiation.Channel) ([]event.Payload, error) {
			return c.FeedbackTimeout(job.Args.Round, e.cfg.Now())
		})
	return e.jobError(ctx, "feedback timeout", err)
}
