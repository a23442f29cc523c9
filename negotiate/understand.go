package negotiate

import (
	"context"
	"slices"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// UnderstandArgs are the arguments of the Understand step.
type UnderstandArgs struct {
	DemandID string `json:"demand_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (UnderstandArgs) Kind() string { return "towow.understand_demand" }

// UnderstandWorker runs the Understand step.
type UnderstandWorker struct {
	river.WorkerDefaults[UnderstandArgs]
	e *Process
}

// Work is the Coordinator's first step: prompt 1 on the raw demand. A
// sub-demand's smart filtering runs beside it; when that answered first,
// the understanding accepts the demand and opens its channel.
func (w *UnderstandWorker) Work(ctx context.Context, job *river.Job[UnderstandArgs]) error {
	e := w.e
	d, _, err := e.loadDemand(ctx, job.Args.DemandID)
	if err != nil {
		return err
	}
	if !d.Exists() || d.Understanding != nil {
		return nil
	}
	active, known, err := e.dir.Summary(ctx, knownTagsInPrompt)
	if err != nil {
		return err
	}
	history, err := e.userContext(ctx, d)
	if err != nil {
		return err
	}
	u, call, err := llm.Call(ctx, e.llm, llm.Understand, llm.UnderstandInput{RawInput: d.RawInput, UserID: d.UserID,
		GapType: d.GapType, CapabilityTags: d.CapabilityHints, KnownTags: known, UserContext: history})
	if err != nil {
		return err
	}
	_, err = e.demandStep(ctx, "understand demand", d.ID, event.ActorCoordinator, uow.Causation(job.Kind, job.ID), &call,
		negotiation.EventDemandUnderstood, func(d *negotiation.DemandState) ([]event.Payload, error) {
			evs, err := d.Understand(u)
			if len(evs) == 1 && !d.FilterStarted { // not rejected: filtering starts (a sub-demand's started with it)
				evs = append(evs, &negotiation.FilterStarted{DemandID: d.ID, TotalAgents: active})
			}
			if fb := negotiation.FellBack(negotiation.FallbackUnderstand, &call, "", d.ID); fb != nil && len(evs) > 0 {
				evs = slices.Insert(evs, 1, event.Payload(fb)) // right after the understanding it explains
			}
			return evs, err
		})
	return e.jobError(ctx, "understand demand", err)
}
