package negotiate

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// RecursionArgs are the arguments of the Recursion step.
type RecursionArgs struct {
	ChannelID string `json:"channel_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (RecursionArgs) Kind() string { return "towow.decide_recursion" }

// RecursionWorker runs the Recursion step.
type RecursionWorker struct {
	river.WorkerDefaults[RecursionArgs]
	e *Process
}

// Work decides on sub-negotiations (prompt 8) and spawns them: each a
// sub-demand of its own, submitted in the same transaction.
func (w *RecursionWorker) Work(ctx context.Context, job *river.Job[RecursionArgs]) error {
	e := w.e
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingRecursion() {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	// Like prompt 7's, the input holds nothing the rounds change.
	cost := subnetCost(c)
	res, call, err := llm.Call(ctx, e.llm, llm.Recursion, llm.RecursionInput{Demand: d.PromptUnderstanding(), RawInput: d.RawInput,
		Gaps: c.Gaps, Offers: willingViews(c), Depth: c.Depth, MaxDepth: c.Rules.MaxDepth, EstimatedCost: cost})
	if err != nil {
		return err
	}
	var plans []negotiation.SubnetPlan
	if res.ShouldRecurse {
		for _, s := range res.SubDemands {
			need, err := e.shortfall(ctx, d, c, s.GapType)
			if err != nil {
				return err
			}
			plans = append(plans, negotiation.SubnetPlan{GapType: s.GapType, SubDemand: s.Demand, NeedCount: need})
		}
	}
	decision := res.Decision(cost)
	if e.cfg.TreeTokenBudget > 0 && len(plans) > 0 {
		spent, err := sqlcdb.New(e.pool).TreeTokens(ctx, c.RootDemandID)
		if err != nil {
			return fmt.Errorf("tree tokens of %s: %w", c.RootDemandID, err)
		}
		plans, decision.Budget = negotiation.FitTreeBudget(plans, cost.Tokens, int(spent), e.cfg.TreeTokenBudget)
	}
	active := 0 // the network's size, for the sub-demands' filter.started
	if len(plans) > 0 {
		if active, _, err = e.dir.Summary(ctx, 0); err != nil {
			return err
		}
	}
	cause := uow.Causation(job.Kind, job.ID)
	callFor := negotiation.EventSubnetTriggered
	if len(plans) == 0 {
		callFor = negotiation.EventSubnetDeclined
	}
	lock := []string{negotiation.ChannelStream(c.ID)}
	for i := range min(len(plans), negotiation.MaxSubnets) {
		lock = append(lock, negotiation.DemandStream(negotiation.SubDemandID(c.DemandID, i)))
	}
	_, err = e.u.Commit(ctx, "decide recursion", lock, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		p, c, err := e.planChannel(ctx, st, job.Args.ChannelID, event.ActorChannelAdmin, cause, &call, callFor,
			func(c *negotiation.Channel) ([]event.Payload, error) { return c.Recurse(plans, decision) })
		if err != nil || p == nil {
			return nil, err
		}
		// Each sub-negotiation starts with its sub-demand's own stream.
		for _, ev := range p.Appends[0].Events {
			t, ok := ev.(*negotiation.SubnetTriggered)
			if !ok {
				continue
			}
			sub := &negotiation.DemandState{}
			raw := t.SubDemand.Description
			if raw == "" {
				raw = t.GapType
			}
			subEvs, err := sub.Submit(negotiation.SubmitDemand{DemandID: t.SubDemandID, UserID: d.UserID, RawInput: raw,
				Parent: &negotiation.SubDemandOrigin{RootDemandID: c.RootDemandID, ParentDemandID: c.DemandID, ParentChannelID: c.ID,
					Depth: t.RecursionDepth, GapType: t.GapType, CapabilityTags: t.SubDemand.CapabilityTags,
					NeedCount: t.NeedCount}})
			if err != nil {
				return nil, err
			}
			// Its smart filtering starts beside its understanding, on what
			// the gap asks for.
			subEvs = append(subEvs, &negotiation.FilterStarted{DemandID: t.SubDemandID, TotalAgents: active})
			more, err := e.reactions(ctx, subEvs, nil, sub)
			if err != nil {
				return nil, err
			}
			p.Jobs = append(p.Jobs, more...)
			p.Appends = append(p.Appends, uow.Append{Stream: negotiation.DemandStream(t.SubDemandID), Expected: eventstore.NoStream,
				Events: subEvs, Meta: uow.Meta(c.RootDemandID, event.ActorChannelAdmin, cause)})
		}
		return p, nil
	})
	return e.jobError(ctx, "decide recursion", err)
}

// shortfall is how many people the gap of the parent demand d (channel c)
// still needs beside the willing agents (negotiation.Shortfall), 0 when the
// gap names none of its needs.
func (e *Process) shortfall(ctx context.Context, d *negotiation.DemandState, c *negotiation.Channel, gap string) (int, error) {
	if d == nil || d.Understanding == nil {
		return 0, nil
	}
	var tags [][]string
	for _, id := range c.Willing() {
		prof, _, ok, err := e.dir.Get(ctx, id)
		if err != nil {
			return 0, err
		}
		if ok {
			tags = append(tags, prof.Tags)
		}
	}
	return negotiation.Shortfall(negotiation.NeedsOf(d.Understanding.Understanding()), tags, gap), nil
}

// Prompt 8's cost estimate (its estimated_cost: a fixed guess of 5000
// tokens and 30 s would tell it nothing): what a sub-negotiation shaped like this
// channel costs. It counts the LLM calls such a negotiation makes —
// understanding and filtering, one offer per candidate, the aggregation,
// per round one feedback per participant and an adjustment, gap
// identification and this decision — at tokensPerCall each, and its
// sequential steps at secondsPerStep each. It is derived from what the
// channel's events fix once its offers are in, not from measured tokens or
// clocks or from how far the rounds got, so a replay or a fork of the same
// log asks prompt 8 the same question (and reuses its answer).
const (
	tokensPerCall  = 700 // a typical prompt of 2-9 with its answer
	secondsPerStep = 3   // a typical model call
	typicalRounds  = 2   // rounds a negotiation typically takes
)

// subnetCost is the estimate for a sub-negotiation of c, from what is fixed
// once its offers are in: its candidates, its willing agents (as the
// participants) and typicalRounds rounds.
func subnetCost(c *negotiation.Channel) negotiation.SubnetCost {
	participants := max(len(c.Willing()), 1)
	calls := 2 + len(c.Candidates) + 1 + typicalRounds*(participants+1) + 2
	steps := 5 + 2*typicalRounds // understand, filter, offers, aggregate, each round's feedback and adjustment, gaps
	return negotiation.SubnetCost{Tokens: calls * tokensPerCall, TimeSeconds: steps * secondsPerStep}
}
