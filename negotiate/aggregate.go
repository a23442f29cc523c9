package negotiate

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// AggregateArgs are the arguments of the Aggregate step.
type AggregateArgs struct {
	ChannelID string `json:"channel_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (AggregateArgs) Kind() string { return "towow.aggregate" }

// AggregateWorker runs the Aggregate step.
type AggregateWorker struct {
	river.WorkerDefaults[AggregateArgs]
	e *Process
}

// Work makes the first proposal (prompt 4) from the offers, or, when
// nobody will take part, the compromise (prompt 9) that ends the channel.
func (w *AggregateWorker) Work(ctx context.Context, job *river.Job[AggregateArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingAggregation() {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	cause := uow.Causation(job.Kind, job.ID)
	if len(c.ActiveParticipants()) == 0 {
		reason := "no_participants"
		if len(c.Offers) == 0 {
			reason = "no_offers"
		}
		res, call, err := llm.Call(ctx, e.llm, llm.Compromise, llm.CompromiseInput{Demand: d.PromptUnderstanding(), RawInput: d.RawInput,
			Offers: allOfferViews(c), Reason: reason})
		if err != nil {
			return err
		}
		_, err = e.channelStep(ctx, "compromise", c.ID, event.ActorChannelAdmin, cause, &call, negotiation.EventNegotiationFailed,
			func(c *negotiation.Channel) ([]event.Payload, error) {
				return c.FailNoParticipants(res.Proposal, e.cfg.Now())
			})
		return e.jobError(ctx, "compromise", err)
	}
	res, call, err := llm.Call(ctx, e.llm, llm.Aggregate, llm.AggregateInput{Demand: d.PromptUnderstanding(), RawInput: d.RawInput, Offers: participantViews(c)})
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "aggregate", c.ID, event.ActorChannelAdmin, cause, &call, negotiation.EventProposalDistributed,
		func(c *negotiation.Channel) ([]event.Payload, error) {
			evs, err := c.Propose(res.Proposal, e.cfg.Now())
			if fb := negotiation.FellBack(negotiation.FallbackAggregate, &call, c.ID, c.DemandID); fb != nil && len(evs) > 0 {
				evs = append(evs, fb)
			}
			return evs, err
		})
	return e.jobError(ctx, "aggregate", err)
}
