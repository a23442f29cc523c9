package negotiate

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// GapsArgs are the arguments of the Gaps step.
type GapsArgs struct {
	ChannelID string `json:"channel_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (GapsArgs) Kind() string { return "towow.identify_gaps" }

// GapsWorker runs the Gaps step.
type GapsWorker struct {
	river.WorkerDefaults[GapsArgs]
	e *Process
}

// Work runs gap identification (prompt 7) as soon as the offers are in:
// it reads the willing offers, so sub-negotiations can start while the
// rounds run. Its input depends on nothing the rounds change (not the
// proposal, not the feedback), so the same negotiation asks the same
// question whenever the step runs, and a replay or a fork reuses the
// answer.
func (w *GapsWorker) Work(ctx context.Context, job *river.Job[GapsArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingGaps() {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	res, call, err := llm.Call(ctx, e.llm, llm.Gaps, llm.GapInput{Demand: d.PromptUnderstanding(), RawInput: d.RawInput,
		Offers: willingViews(c)})
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "identify gaps", c.ID, event.ActorChannelAdmin, uow.Causation(job.Kind, job.ID), &call,
		negotiation.EventGapIdentified, func(c *negotiation.Channel) ([]event.Payload, error) {
			return c.IdentifyGaps(res.Gaps, res.IsComplete, res.Analysis)
		})
	return e.jobError(ctx, "identify gaps", err)
}
