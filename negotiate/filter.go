package negotiate

import (
	"context"
	"fmt"
	"slices"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// FilterArgs are the arguments of the Filter step.
type FilterArgs struct {
	DemandID string `json:"demand_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (FilterArgs) Kind() string { return "towow.filter_candidates" }

// FilterWorker runs the Filter step.
type FilterWorker struct {
	river.WorkerDefaults[FilterArgs]
	e *Process
}

// Work is the Coordinator's smart filtering (prompt 2); with candidates
// it opens the channel, without any the demand fails (TOWOW_FILTER_001).
func (w *FilterWorker) Work(ctx context.Context, job *river.Job[FilterArgs]) error {
	e := w.e
	d, _, err := e.loadDemand(ctx, job.Args.DemandID)
	if err != nil {
		return err
	}
	if !d.Exists() || (d.Understanding == nil && !d.IsSub()) || d.ChannelID != "" || d.Failure != nil || d.FilterDone {
		return nil
	}
	active, _, err := e.dir.Summary(ctx, 0)
	if err != nil {
		return err
	}
	var exclude []string
	if d.IsSub() { // the parent negotiation's candidates were asked already
		parent, _, err := e.loadChannel(ctx, d.ParentChannelID)
		if err != nil {
			return err
		}
		for _, c := range parent.Candidates {
			exclude = append(exclude, c.AgentID)
		}
	}
	fork, err := e.forkChange(ctx, d) // a fork's later channels follow its change
	if err != nil {
		return err
	}
	if fork != nil && fork.Type == negotiation.ForkRemoveAgent {
		exclude = append(exclude, fork.AgentID)
	}
	started := e.cfg.Now()
	u := d.PromptUnderstanding()
	// A sub-demand is filtered beside its understanding, on what its gap
	// asks, whichever of the two ends first: the same question either way
	// (a fork reuses the answer).
	if d.IsSub() {
		parent, _, err := e.loadDemand(ctx, d.ParentDemandID)
		if err != nil {
			return err
		}
		u = d.GapUnderstanding(parent.PromptUnderstanding())
	}
	// Stage 1: SQL shortlists per need; stage 2: prompt 2 reads only the
	// shortlist. Nobody on it: the demand is rejected without a call.
	shortlist, err := e.shortlist(ctx, shortlistQuery{Needs: negotiation.NeedsOf(u), Location: u.Context.Location, Salt: d.RawInput,
		Exclude: exclude, Max: e.cfg.Shortlist})
	if err != nil {
		return err
	}
	var res llm.FilterResult
	var call *event.LLMCall
	if len(shortlist) > 0 {
		r, c, err := llm.Call(ctx, e.llm, llm.Filter, llm.FilterInput{Demand: u, RawInput: d.RawInput, Profiles: shortlist,
			MaxCandidates: e.cfg.MaxCandidates, Exclude: exclude})
		if err != nil {
			return err
		}
		res, call = r, &c
	}
	took := int(e.cfg.Now().Sub(started).Milliseconds())
	cands := make([]negotiation.Candidate, 0, len(res.Candidates))
	for _, c := range res.Candidates {
		cands = append(cands, negotiation.Candidate{AgentID: c.AgentID, DisplayName: c.DisplayName, Reason: c.Reason,
			RelevanceScore: int(c.Confidence*100 + 0.5)})
	}
	if fork != nil && fork.Type == negotiation.ForkAddAgent && d.ID == d.RootDemandID &&
		!slices.ContainsFunc(cands, func(c negotiation.Candidate) bool { return c.AgentID == fork.AgentID }) {
		// A fork from before the root channel opened: the agent it adds is
		// a candidate whatever the filter chose.
		prof, _, _, err := e.dir.Get(ctx, fork.AgentID)
		if err != nil {
			return err
		}
		cands = append(cands, negotiation.Candidate{AgentID: fork.AgentID, DisplayName: prof.UserName, Reason: negotiation.ForkAddedReason})
	}
	channelID := negotiation.ChannelIDFor(d.ID)
	_, err = e.demandStep(ctx, "filter candidates", d.ID, event.ActorCoordinator, uow.Causation(job.Kind, job.ID), call,
		negotiation.EventFilterCompleted, func(d *negotiation.DemandState) ([]event.Payload, error) {
			fb := negotiation.FellBack(negotiation.FallbackFilter, call, "", d.ID)
			if fb != nil {
				d.Apply(fb) // a fallback's candidates: finding none says nothing of the demand
			}
			evs, err := d.Filtered(cands, channelID, active, took)
			if fb != nil && len(evs) > 0 {
				evs = slices.Insert(evs, 1, event.Payload(fb)) // right after the filter's result it explains
			}
			return evs, err
		})
	return e.jobError(ctx, "filter candidates", err)
}

// openChannel adds to p the creation of accepted demand d's channel with
// its candidates, and the jobs it sets off. meta is the demand events'
// metadata. A fork's changed rules apply to the channels of its tree.
func (e *Process) openChannel(ctx context.Context, d *negotiation.DemandState, meta event.Metadata, p *uow.Plan) error {
	rules := e.cfg.Rules
	fork, err := e.forkChange(ctx, d)
	if err != nil {
		return err
	}
	if fork != nil && fork.Type == negotiation.ForkChangeRule && fork.Rules != nil {
		rules = fork.Rules.Apply(rules)
	}
	c := &negotiation.Channel{}
	created, err := c.Create(negotiation.CreateChannel{ChannelID: d.ChannelID, DemandID: d.ID, RootDemandID: d.RootDemandID,
		ParentChannelID: d.ParentChannelID, ParentDemandID: d.ParentDemandID, Depth: d.Depth, Candidates: d.Candidates, Rules: rules, Now: e.cfg.Now()})
	if err != nil {
		return err
	}
	for _, ev := range created {
		c.Apply(ev)
	}
	// The ChannelAdmin broadcasts the demand in the commit that opens the
	// channel: a broadcast asks no model, so a step of its own would only
	// add a job and a commit before the candidates are asked.
	broadcast, err := c.Broadcast(demandOf(d))
	if err != nil {
		return err
	}
	for _, ev := range broadcast {
		c.Apply(ev)
	}
	created = append(created, broadcast...)
	jobs, err := e.reactions(ctx, created, c, nil)
	if err != nil {
		return err
	}
	p.Jobs = append(p.Jobs, jobs...)
	meta.Actor = event.ActorChannelAdmin
	p.Appends = append(p.Appends, uow.Append{Stream: negotiation.ChannelStream(d.ChannelID), Expected: eventstore.NoStream, Events: created, Meta: meta})
	return nil
}

// forkChange is the change of the fork whose tree d belongs to (nil for a
// tree that is no fork): its later channels keep a removed agent out and
// take changed rules. A root demand carries it; a sub-demand's root is
// loaded.
func (e *Process) forkChange(ctx context.Context, d *negotiation.DemandState) (*negotiation.ForkChange, error) {
	root := d
	if d.RootDemandID != d.ID {
		var err error
		if root, _, err = e.loadDemand(ctx, d.RootDemandID); err != nil {
			return nil, fmt.Errorf("fork change of %s: %w", d.RootDemandID, err)
		}
	}
	if root.Fork == nil {
		return nil, nil
	}
	return &root.Fork.Change, nil
}
