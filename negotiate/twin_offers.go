package negotiate

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/logctx"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// TwinOffersArgs runs the offers (prompt 3) of every twin invited to a
// channel: their LLM calls run concurrently inside the job.
type TwinOffersArgs struct {
	ChannelID string `json:"channel_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (TwinOffersArgs) Kind() string { return "towow.twin_offers" }

// TwinOffersWorker runs the TwinOffers step.
type TwinOffersWorker struct {
	river.WorkerDefaults[TwinOffersArgs]
	e *Process
}

// Work answers the invitation for every invited twin that has not yet
// (prompt 3), their calls concurrent.
func (w *TwinOffersWorker) Work(ctx context.Context, job *river.Job[TwinOffersArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || c.Status != negotiation.ChannelStatusCollecting {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	var twins []negotiation.AgentProfile
	reasons := map[string]string{}
	for _, cand := range c.Candidates {
		reasons[cand.AgentID] = cand.Reason
		if _, done := c.Offers[cand.AgentID]; done {
			continue
		}
		prof, active, ok, err := e.dir.Get(ctx, cand.AgentID)
		if err != nil {
			return err
		}
		if ok && active && !prof.IsExternal() { // others: the offer timeout settles
			twins = append(twins, prof)
		}
	}
	ask := func(ctx context.Context, i int) (answer, error) {
		prof := twins[i]
		ctx = logctx.With(ctx, slog.String("agent_id", prof.AgentID))
		res, call, err := llm.Call(ctx, e.llm, llm.Offer, llm.OfferInput{Profile: prof, Demand: d.PromptUnderstanding(), RawInput: d.RawInput,
			FilterReason: reasons[prof.AgentID]})
		o := negotiation.Offer{AgentID: prof.AgentID, OfferAnswer: res}
		return answer{agentID: prof.AgentID, name: prof.UserName, offer: &o, call: call}, err
	}
	err = e.fanOut(ctx, "twin offers", c.ID, uow.Causation(job.Kind, job.ID), len(twins), ask,
		func(c *negotiation.Channel, a answer) ([]event.Payload, error) {
			evs, err := c.SubmitOffer(*a.offer, a.name, e.cfg.Now())
			if moot(err) {
				return nil, nil
			}
			return evs, err
		})
	return e.jobError(ctx, "twin offers", err)
}
