package negotiate

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// AdjustArgs are the arguments of the Adjust step.
type AdjustArgs struct {
	ChannelID string `json:"channel_id"`
	Round     int    `json:"round"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (AdjustArgs) Kind() string { return "towow.adjust_proposal" }

// AdjustWorker runs the Adjust step.
type AdjustWorker struct {
	river.WorkerDefaults[AdjustArgs]
	e *Process
}

// Work adapts the proposal to the last round's feedback (prompt 6).
func (w *AdjustWorker) Work(ctx context.Context, job *river.Job[AdjustArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingAdjustment() || c.Round != job.Args.Round {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	res, call, err := llm.Call(ctx, e.llm, llm.Adjust, llm.AdjustInput{Demand: d.PromptUnderstanding(), RawInput: d.RawInput, Current: promptProposal(*c.Proposal),
		Feedbacks: feedbackViews(c, c.LastRoundFeedback), Round: c.Round, MaxRounds: c.Rules.MaxRounds, Participants: participantViews(c)})
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "adjust proposal", c.ID, event.ActorChannelAdmin, uow.Causation(job.Kind, job.ID), &call,
		negotiation.EventProposalDistributed, func(c *negotiation.Channel) ([]event.Payload, error) {
			if c.Round != job.Args.Round {
				return nil, nil
			}
			return c.Adjust(res.Proposal, e.cfg.Now())
		})
	return e.jobError(ctx, "adjust proposal", err)
}
