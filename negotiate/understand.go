package negotiate

import (
	"context"
	"slices"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
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
	cause := uow.Causation(job.Kind, job.ID)
	channelID := negotiation.ChannelIDFor(d.ID)
	_, err = e.u.Commit(ctx, "understand demand", []string{negotiation.DemandStream(d.ID), negotiation.ChannelStream(channelID)},
		func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
			d, v, err := e.loadDemandFrom(ctx, st, job.Args.DemandID)
			if err != nil {
				return nil, err
			}
			evs, err := d.Understand(u)
			if err != nil || len(evs) == 0 {
				return nil, err
			}
			if len(evs) == 1 && !d.FilterStarted { // not rejected: filtering starts (a sub-demand's started with it)
				evs = append(evs, &negotiation.FilterStarted{DemandID: d.ID, TotalAgents: active})
			}
			if fb := negotiation.FellBack(negotiation.FallbackUnderstand, &call, "", d.ID); fb != nil {
				evs = slices.Insert(evs, 1, event.Payload(fb)) // right after the understanding it explains
			}
			for _, ev := range evs {
				d.Apply(ev)
			}
			jobs, err := e.reactions(ctx, evs, nil, d)
			if err != nil {
				return nil, err
			}
			meta := uow.Meta(d.RootDemandID, event.ActorCoordinator, cause)
			p := &uow.Plan{Jobs: jobs, Appends: []uow.Append{{Stream: negotiation.DemandStream(d.ID), Expected: v, Events: evs, Meta: meta,
				Call: &call, CallFor: negotiation.EventDemandUnderstood}}}
			if d.ChannelID == "" {
				return p, nil
			}
			return p, e.openChannel(ctx, d, d.Candidates, meta, p) // filtered first: its channel opens now
		})
	return e.jobError(ctx, "understand demand", err)
}
