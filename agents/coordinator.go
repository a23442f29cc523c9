package agents

import (
	"context"
	"slices"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
)

// understand is the Coordinator's first step: prompt 1 on the raw demand.
func (e *Engine) understand(ctx context.Context, job *river.Job[understandArgs]) error {
	d, _, err := e.loadDemand(ctx, job.Args.DemandID)
	if err != nil {
		return err
	}
	if !d.Exists() || d.Understanding != nil {
		return nil
	}
	active, known, err := e.dir.summary(ctx, knownTagsInPrompt)
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
	_, err = e.demandStep(ctx, "understand demand", d.ID, domain.ActorCoordinator, causation(job.Kind, job.ID), &call,
		domain.EventDemandUnderstood, func(d *domain.DemandState) ([]domain.Payload, error) {
			evs, err := d.Understand(u)
			if len(evs) == 1 { // not rejected: filtering starts
				evs = append(evs, &domain.FilterStarted{DemandID: d.ID, TotalAgents: active})
			}
			if fb := domain.FellBack(domain.FallbackUnderstand, &call, "", d.ID); fb != nil && len(evs) > 0 {
				evs = slices.Insert(evs, 1, domain.Payload(fb)) // right after the understanding it explains
			}
			return evs, err
		})
	return e.jobError(ctx, "understand demand", err)
}

// filter is the Coordinator's smart filtering (prompt 2); with candidates
// it opens the channel, without any the demand fails (TOWOW_FILTER_001).
func (e *Engine) filter(ctx context.Context, job *river.Job[filterArgs]) error {
	d, _, err := e.loadDemand(ctx, job.Args.DemandID)
	if err != nil {
		return err
	}
	if !d.Exists() || d.Understanding == nil || d.ChannelID != "" || d.Failure != nil {
		return nil
	}
	active, _, err := e.dir.summary(ctx, 0)
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
	rules := e.cfg.Rules
	fork, err := e.forkChange(ctx, d) // a fork's later channels follow its change
	if err != nil {
		return err
	}
	switch {
	case fork == nil:
	case fork.Type == domain.ForkRemoveAgent:
		exclude = append(exclude, fork.AgentID)
	case fork.Type == domain.ForkChangeRule && fork.Rules != nil:
		rules = fork.Rules.Apply(rules)
	}
	started := e.cfg.Now()
	u := understanding(d)
	// Stage 1: SQL shortlists per need; stage 2: prompt 2 reads only the
	// shortlist. Nobody on it: the demand is rejected without a call.
	shortlist, err := e.shortlist(ctx, shortlistQuery{Needs: domain.NeedsOf(u), Location: u.Context.Location, Salt: d.RawInput,
		Exclude: exclude, Max: e.cfg.Shortlist})
	if err != nil {
		return err
	}
	var res llm.FilterResult
	var call *domain.LLMCall
	if len(shortlist) > 0 {
		r, c, err := llm.Call(ctx, e.llm, llm.Filter, llm.FilterInput{Demand: u, RawInput: d.RawInput, Profiles: shortlist,
			MaxCandidates: e.cfg.MaxCandidates, Exclude: exclude})
		if err != nil {
			return err
		}
		res, call = r, &c
	}
	took := int(e.cfg.Now().Sub(started).Milliseconds())
	cands := make([]domain.Candidate, 0, len(res.Candidates))
	for _, c := range res.Candidates {
		cands = append(cands, domain.Candidate{AgentID: c.AgentID, DisplayName: c.DisplayName, Reason: c.Reason,
			RelevanceScore: int(c.Confidence*100 + 0.5)})
	}
	if fork != nil && fork.Type == domain.ForkAddAgent && d.ID == d.RootDemandID &&
		!slices.ContainsFunc(cands, func(c domain.Candidate) bool { return c.AgentID == fork.AgentID }) {
		// A fork from before the root channel opened: the agent it adds is
		// a candidate whatever the filter chose.
		prof, _, _, err := e.dir.Get(ctx, fork.AgentID)
		if err != nil {
			return err
		}
		cands = append(cands, domain.Candidate{AgentID: fork.AgentID, DisplayName: prof.UserName, Reason: domain.ForkAddedReason})
	}
	channelID := domain.ChannelIDFor(d.ID)
	_, err = e.commit(ctx, "filter candidates", []string{domain.DemandStream(d.ID), domain.ChannelStream(channelID)},
		func(ctx context.Context, st *eventstore.Store) (*plan, error) {
			d, v, err := e.loadDemandFrom(ctx, st, job.Args.DemandID)
			if err != nil {
				return nil, err
			}
			evs, err := d.Filtered(cands, channelID, active, took)
			if err != nil || len(evs) == 0 {
				return nil, err
			}
			if fb := domain.FellBack(domain.FallbackFilter, call, "", d.ID); fb != nil {
				evs = slices.Insert(evs, 1, domain.Payload(fb)) // right after the filter's result it explains
			}
			for _, ev := range evs {
				d.Apply(ev)
			}
			meta := stepMeta(d.RootDemandID, domain.ActorCoordinator, causation(job.Kind, job.ID))
			jobs, err := e.reactions(ctx, evs, nil, d)
			if err != nil {
				return nil, err
			}
			p := &plan{jobs: jobs, appends: []appendOp{{stream: domain.DemandStream(d.ID), expected: v, events: evs, meta: meta,
				call: call, callFor: domain.EventFilterCompleted}}}
			if d.ChannelID == "" {
				return p, nil
			}
			c := &domain.Channel{}
			created, err := c.Create(domain.CreateChannel{ChannelID: channelID, DemandID: d.ID, RootDemandID: d.RootDemandID,
				ParentChannelID: d.ParentChannelID, ParentDemandID: d.ParentDemandID, Depth: d.Depth, Candidates: cands, Rules: rules, Now: e.cfg.Now()})
			if err != nil {
				return nil, err
			}
			for _, ev := range created {
				c.Apply(ev)
			}
			more, err := e.reactions(ctx, created, c, nil)
			if err != nil {
				return nil, err
			}
			p.jobs = append(p.jobs, more...)
			meta.Actor = domain.ActorChannelAdmin
			p.appends = append(p.appends, appendOp{stream: domain.ChannelStream(channelID), expected: eventstore.NoStream, events: created, meta: meta})
			return p, nil
		})
	return e.jobError(ctx, "filter candidates", err)
}
