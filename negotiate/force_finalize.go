package negotiate

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// ForceFinalizeArgs are the arguments of the ForceFinalize step.
type ForceFinalizeArgs struct {
	ChannelID string `json:"channel_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (ForceFinalizeArgs) Kind() string { return "towow.force_finalize" }

// ForceFinalizeWorker runs the ForceFinalize step.
type ForceFinalizeWorker struct {
	river.WorkerDefaults[ForceFinalizeArgs]
	e *Process
}

// Work ends the last round's partial agreement with the
// compromise of prompt 9.
func (w *ForceFinalizeWorker) Work(ctx context.Context, job *river.Job[ForceFinalizeArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingForceFinalize() {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	var still []string
	for _, f := range c.FeedbackList() {
		if f.FeedbackType == negotiation.FeedbackAccept || f.FeedbackType == negotiation.FeedbackNegotiate {
			still = append(still, f.AgentID)
		}
	}
	var gaps []negotiation.Gap
	for _, g := range c.Proposal.Gaps {
		gaps = append(gaps, negotiation.Gap{GapType: g})
	}
	res, call, err := llm.Call(ctx, e.llm, llm.Compromise, llm.CompromiseInput{Demand: d.PromptUnderstanding(), RawInput: d.RawInput,
		Available: assignmentsOf(c.Proposal, still), Offers: allOfferViews(c), Gaps: gaps,
		Feedbacks: feedbackViews(c, c.FeedbackList()), Reason: "partial_agreement"})
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "force finalize", c.ID, event.ActorChannelAdmin, uow.Causation(job.Kind, job.ID), &call,
		negotiation.EventNegotiationForceFinalized, func(c *negotiation.Channel) ([]event.Payload, error) {
			return c.ForceFinalize(res.Proposal, e.cfg.Now())
		})
	return e.jobError(ctx, "force finalize", err)
}
