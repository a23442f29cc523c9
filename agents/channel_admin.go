package agents

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
)

// The ChannelAdmin's steps.

func (e *Engine) broadcast(ctx context.Context, job *river.Job[broadcastArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || c.Status != domain.ChannelStatusCreated {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "broadcast", c.ID, domain.ActorChannelAdmin, causation(job.Kind, job.ID), nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) { return c.Broadcast(demandOf(d)) })
	return e.jobError(ctx, "broadcast", err)
}

func (e *Engine) offerTimeout(ctx context.Context, job *river.Job[offerTimeoutArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || c.Status != domain.ChannelStatusCollecting {
		return err // collection closed already: nothing to wait for
	}
	if err := e.waitUntil(ctx, job.Args.Deadline); err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "offer timeout", job.Args.ChannelID, domain.ActorSystem, causation(job.Kind, job.ID), nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) { return c.OfferTimeout() })
	return e.jobError(ctx, "offer timeout", err)
}

// aggregate makes the first proposal (prompt 4) from the offers, or, when
// nobody will take part, the compromise (prompt 9) that ends the channel.
func (e *Engine) aggregate(ctx context.Context, job *river.Job[aggregateArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingAggregation() {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	cause := causation(job.Kind, job.ID)
	if len(c.ActiveParticipants()) == 0 {
		reason := "no_participants"
		if len(c.Offers) == 0 {
			reason = "no_offers"
		}
		res, call, err := llm.Call(ctx, e.llm, llm.Compromise, llm.CompromiseInput{Demand: understanding(d), RawInput: d.RawInput,
			Offers: allOfferViews(c), Reason: reason})
		if err != nil {
			return err
		}
		_, err = e.channelStep(ctx, "compromise", c.ID, domain.ActorChannelAdmin, cause, &call, domain.EventNegotiationFailed,
			func(c *domain.Channel) ([]domain.Payload, error) {
				return c.FailNoParticipants(res.Proposal, e.cfg.Now())
			})
		return e.jobError(ctx, "compromise", err)
	}
	res, call, err := llm.Call(ctx, e.llm, llm.Aggregate, llm.AggregateInput{Demand: understanding(d), RawInput: d.RawInput, Offers: participantViews(c)})
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "aggregate", c.ID, domain.ActorChannelAdmin, cause, &call, domain.EventProposalDistributed,
		func(c *domain.Channel) ([]domain.Payload, error) {
			evs, err := c.Propose(res.Proposal, e.cfg.Now())
			if fb := domain.FellBack(domain.FallbackAggregate, &call, c.ID, c.DemandID); fb != nil && len(evs) > 0 {
				evs = append(evs, fb)
			}
			return evs, err
		})
	return e.jobError(ctx, "aggregate", err)
}

func (e *Engine) feedbackTimeout(ctx context.Context, job *river.Job[feedbackTimeoutArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.AwaitingFeedback() || c.Round != job.Args.Round {
		return err // the round is over already
	}
	if err := e.waitUntil(ctx, job.Args.Deadline); err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "feedback timeout", job.Args.ChannelID, domain.ActorSystem, causation(job.Kind, job.ID), nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) {
			return c.FeedbackTimeout(job.Args.Round, e.cfg.Now())
		})
	return e.jobError(ctx, "feedback timeout", err)
}

// adjust adapts the proposal to the last round's feedback (prompt 6).
func (e *Engine) adjust(ctx context.Context, job *river.Job[adjustArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingAdjustment() || c.Round != job.Args.Round {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	res, call, err := llm.Call(ctx, e.llm, llm.Adjust, llm.AdjustInput{Demand: understanding(d), RawInput: d.RawInput, Current: promptProposal(*c.Proposal),
		Feedbacks: feedbackViews(c, c.LastRoundFeedback), Round: c.Round, MaxRounds: c.Rules.MaxRounds, Participants: participantViews(c)})
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "adjust proposal", c.ID, domain.ActorChannelAdmin, causation(job.Kind, job.ID), &call,
		domain.EventProposalDistributed, func(c *domain.Channel) ([]domain.Payload, error) {
			if c.Round != job.Args.Round {
				return nil, nil
			}
			return c.Adjust(res.Proposal, e.cfg.Now())
		})
	return e.jobError(ctx, "adjust proposal", err)
}

// forceFinalize ends the last round's partial agreement with the
// compromise of prompt 9.
func (e *Engine) forceFinalize(ctx context.Context, job *river.Job[forceFinalizeArgs]) error {
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
		if f.FeedbackType == domain.FeedbackAccept || f.FeedbackType == domain.FeedbackNegotiate {
			still = append(still, f.AgentID)
		}
	}
	var gaps []domain.Gap
	for _, g := range c.Proposal.Gaps {
		gaps = append(gaps, domain.Gap{GapType: g})
	}
	res, call, err := llm.Call(ctx, e.llm, llm.Compromise, llm.CompromiseInput{Demand: understanding(d), RawInput: d.RawInput,
		Available: assignmentsOf(c.Proposal, still), Offers: allOfferViews(c), Gaps: gaps,
		Feedbacks: feedbackViews(c, c.FeedbackList()), Reason: "partial_agreement"})
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "force finalize", c.ID, domain.ActorChannelAdmin, causation(job.Kind, job.ID), &call,
		domain.EventNegotiationForceFinalized, func(c *domain.Channel) ([]domain.Payload, error) {
			return c.ForceFinalize(res.Proposal, e.cfg.Now())
		})
	return e.jobError(ctx, "force finalize", err)
}

// gaps runs gap identification (prompt 7) after an agreement.
func (e *Engine) gaps(ctx context.Context, job *river.Job[gapsArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingGaps() {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	fbs := c.FeedbackList()
	if len(fbs) == 0 {
		fbs = c.LastRoundFeedback
	}
	res, call, err := llm.Call(ctx, e.llm, llm.Gaps, llm.GapInput{Demand: understanding(d), RawInput: d.RawInput, Proposal: promptProposal(*c.FinalProposal),
		Feedbacks: feedbackViews(c, fbs)})
	if err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "identify gaps", c.ID, domain.ActorChannelAdmin, causation(job.Kind, job.ID), &call,
		domain.EventGapIdentified, func(c *domain.Channel) ([]domain.Payload, error) {
			return c.IdentifyGaps(res.Gaps, res.IsComplete, res.Analysis)
		})
	return e.jobError(ctx, "identify gaps", err)
}

// recursion decides on sub-negotiations (prompt 8) and spawns them: each a
// sub-demand of its own, submitted in the same transaction.
func (e *Engine) recursion(ctx context.Context, job *river.Job[recursionArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingRecursion() {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	cost := subnetCost(c)
	res, call, err := llm.Call(ctx, e.llm, llm.Recursion, llm.RecursionInput{Demand: understanding(d), RawInput: d.RawInput, Gaps: c.Gaps,
		Proposal: promptProposal(*c.FinalProposal), Depth: c.Depth, MaxDepth: c.Rules.MaxDepth, EstimatedCost: cost})
	if err != nil {
		return err
	}
	var plans []domain.SubnetPlan
	if res.ShouldRecurse {
		for _, s := range res.SubDemands {
			plans = append(plans, domain.SubnetPlan{GapType: s.GapType, SubDemand: s.Demand, NeedCount: shortfall(d, c, s.GapType)})
		}
	}
	cause := causation(job.Kind, job.ID)
	callFor := domain.EventSubnetTriggered
	if len(plans) == 0 { // the answer ends the channel: record it there
		callFor = domain.EventNegotiationCompleted
	}
	lock := []string{domain.ChannelStream(c.ID)}
	for i := range min(len(plans), domain.MaxSubnets) {
		lock = append(lock, domain.DemandStream(domain.SubDemandID(c.DemandID, i)))
	}
	_, err = e.commit(ctx, "decide recursion", lock, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
		p, c, err := e.planChannel(ctx, st, job.Args.ChannelID, domain.ActorChannelAdmin, cause, &call, callFor,
			func(c *domain.Channel) ([]domain.Payload, error) { return c.Recurse(plans, res.Decision(cost)) })
		if err != nil || p == nil {
			return nil, err
		}
		// Each sub-negotiation starts with its sub-demand's own stream.
		for _, ev := range p.appends[0].events {
			t, ok := ev.(*domain.SubnetTriggered)
			if !ok {
				continue
			}
			sub := &domain.DemandState{}
			raw := t.SubDemand.Description
			if raw == "" {
				raw = t.GapType
			}
			subEvs, err := sub.Submit(domain.SubmitDemand{DemandID: t.SubDemandID, UserID: d.UserID, RawInput: raw,
				Parent: &domain.SubDemandOrigin{RootDemandID: c.RootDemandID, ParentDemandID: c.DemandID, ParentChannelID: c.ID,
					Depth: t.RecursionDepth, GapType: t.GapType, CapabilityTags: t.SubDemand.CapabilityTags,
					NeedCount: t.NeedCount}})
			if err != nil {
				return nil, err
			}
			more, err := e.reactions(ctx, subEvs, nil, sub)
			if err != nil {
				return nil, err
			}
			p.jobs = append(p.jobs, more...)
			p.appends = append(p.appends, appendOp{stream: domain.DemandStream(t.SubDemandID), expected: eventstore.NoStream,
				events: subEvs, meta: stepMeta(c.RootDemandID, domain.ActorChannelAdmin, cause)})
		}
		return p, nil
	})
	return e.jobError(ctx, "decide recursion", err)
}

// shortfall is how many people the gap of the parent demand d (channel c)
// still needs, 0 when the gap names none of its needs.
func shortfall(d *domain.DemandState, c *domain.Channel, gap string) int {
	if d == nil || d.Understanding == nil {
		return 0
	}
	return domain.Shortfall(domain.NeedsOf(d.Understanding.Understanding()), c.FinalProposal, gap)
}

// notifyParent reports a finished sub-negotiation to the channel that
// spawned it.
func (e *Engine) notifyParent(ctx context.Context, job *river.Job[notifyParentArgs]) error {
	a := job.Args
	res := domain.SubnetCompleted{ParentChannelID: a.ParentChannelID, SubChannelID: a.SubChannelID, SubDemandID: a.SubDemandID}
	sub, _, err := e.loadChannel(ctx, a.SubChannelID)
	if err != nil {
		return err
	}
	switch {
	case sub.Exists() && sub.Completed:
		res.Status = sub.Status
		res.Success = sub.Agreed()
		res.Result = sub.FinalProposal
		if sub.Failure != nil {
			res.FailureReason = string(sub.Failure.Reason)
			if res.Result == nil {
				res.Result = sub.Failure.LastProposal
			}
		}
	case !sub.Exists(): // the sub-demand failed before it had a channel
		d, _, err := e.loadDemand(ctx, a.SubDemandID)
		if err != nil {
			return err
		}
		if d.Failure == nil {
			return nil
		}
		res.Status, res.FailureReason = domain.ChannelStatusFailed, string(d.Failure.Reason)
	default:
		return nil // not finished yet; its completion enqueues this again
	}
	_, err = e.channelStep(ctx, "notify parent", a.ParentChannelID, domain.ActorChannelAdmin, causation(job.Kind, job.ID), nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) { return c.SubnetDone(res) })
	return e.jobError(ctx, "notify parent", err)
}

func (e *Engine) stuck(ctx context.Context, job *river.Job[stuckArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || c.Completed {
		return err
	}
	if err := e.waitUntil(ctx, job.Args.Deadline); err != nil {
		return err
	}
	_, err = e.channelStep(ctx, "stuck check", job.Args.ChannelID, domain.ActorSystem, causation(job.Kind, job.ID), nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) { return c.Stuck() })
	return e.jobError(ctx, "stuck check", err)
}

// demandStuck fails a demand whose understanding or filtering never
// finished, so that a parent negotiation waiting for it hears back.
func (e *Engine) demandStuck(ctx context.Context, job *river.Job[demandStuckArgs]) error {
	// A fresh fold: this check comes long after the demand's last step, and
	// a successful demand's stream has no ending event to keep it out of
	// the cache.
	d := &domain.DemandState{}
	if _, err := e.store.Fold(ctx, domain.DemandStream(job.Args.DemandID), d.Apply); err != nil || d.ChannelID != "" || d.Failure != nil {
		return err
	}
	if err := e.waitUntil(ctx, job.Args.Deadline); err != nil {
		return err
	}
	_, err := e.demandStep(ctx, "demand stuck check", job.Args.DemandID, domain.ActorSystem, causation(job.Kind, job.ID), nil, "",
		func(d *domain.DemandState) ([]domain.Payload, error) { return d.Stuck() })
	return e.jobError(ctx, "demand stuck check", err)
}

// Prompt 8's cost estimate (001 §3.3.8 estimated_cost, where the design
// wrote 5000 tokens and 30 s): what a sub-negotiation shaped like this
// channel costs. It counts the LLM calls such a negotiation makes —
// understanding and filtering, one offer per candidate, the aggregation,
// per round one feedback per participant and an adjustment, gap
// identification and this decision — at tokensPerCall each, and its
// sequential steps at secondsPerStep each. It is derived from the
// channel's events alone, not from measured tokens or clocks, so a replay
// or a fork of the same log asks prompt 8 the same question (and reuses
// its answer).
const (
	tokensPerCall  = 700 // a typical prompt of 2-9 with its answer
	secondsPerStep = 3   // a typical model call
)

// subnetCost is the estimate for a sub-negotiation of c.
func subnetCost(c *domain.Channel) domain.SubnetCost {
	rounds := max(c.Round, 1)
	participants := max(len(c.ActiveParticipants()), 1)
	calls := 2 + len(c.Candidates) + 1 + rounds*(participants+1) + 2
	steps := 5 + 2*rounds // understand, filter, offers, aggregate, each round's feedback and adjustment, gaps
	return domain.SubnetCost{Tokens: calls * tokensPerCall, TimeSeconds: steps * secondsPerStep}
}
