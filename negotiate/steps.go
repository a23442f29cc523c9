package negotiate

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/uow"
)

// moot reports whether a decision error only says the step is no longer
// needed (someone else answered, the round moved on, offers closed).
func moot(err error) bool {
	return errors.Is(err, negotiation.ErrDuplicate) || errors.Is(err, negotiation.ErrOffersClosed) ||
		errors.Is(err, negotiation.ErrFeedbackClosed) || errors.Is(err, negotiation.ErrWrongRound)
}

// jobError turns a step's error into what River should do with the job
// (uow.UnitOfWork.JobError).
func (e *Process) jobError(ctx context.Context, step string, err error) error {
	return e.u.JobError(ctx, step, err)
}

// waitDeadline waits for a deadline set at set (when its job was
// inserted), moved on by the time the LLM provider was unavailable since
// then and the time the steps that waited take to come back
// (llm.Client.DeadlineExtension): a round, a channel or a demand does not time out
// because the model was down while its steps waited the outage out
// (llm.OutageError).
func (e *Process) waitDeadline(ctx context.Context, set, deadline time.Time) error {
	return e.u.WaitUntil(ctx, deadline.Add(e.llm.DeadlineExtension(set)))
}

// channelStep decides on a channel, appends the events with reactions and
// retries on conflict. decide sees a freshly loaded channel each attempt.
// call, if not nil, is recorded on the first event of type callFor.
func (e *Process) channelStep(ctx context.Context, step, channelID, actor, cause string, call *event.LLMCall, callFor event.EventType,
	decide func(c *negotiation.Channel) ([]event.Payload, error)) (int64, error) {
	return e.u.Commit(ctx, step, []string{negotiation.ChannelStream(channelID)}, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		p, _, err := e.planChannel(ctx, st, channelID, actor, cause, call, callFor, decide)
		return p, err
	})
}

// planChannel loads the channel through st, decides, applies the events to
// it and plans their reactions: the body of a channel step. It returns a
// nil plan when decide has nothing to do, and the channel as it will be
// after the append.
func (e *Process) planChannel(ctx context.Context, st *eventstore.Store, channelID, actor, cause string, call *event.LLMCall,
	callFor event.EventType, decide func(c *negotiation.Channel) ([]event.Payload, error)) (*uow.Plan, *negotiation.Channel, error) {
	c, v, err := e.loadChannelFrom(ctx, st, channelID)
	if err != nil {
		return nil, nil, err
	}
	evs, err := decide(c)
	if err != nil || len(evs) == 0 {
		return nil, c, err
	}
	for _, ev := range evs {
		c.Apply(ev)
	}
	p, err := e.planChannelAppend(ctx, st, c, uow.Append{Stream: negotiation.ChannelStream(channelID), Expected: v, Events: evs,
		Meta: uow.Meta(c.RootDemandID, actor, cause), Call: call, CallFor: callFor})
	if err != nil {
		return nil, c, err
	}
	return p, c, nil
}

// planChannelAppend plans what a channel step writes once its events
// (a.Events, appended by a) are applied to channel c: their reactions, the
// workflow an agreement of the root channel creates (first, so the log
// holds it before the completion), the channel's own append, and what a
// sub-negotiation's completion tells its parent (after it).
func (e *Process) planChannelAppend(ctx context.Context, st *eventstore.Store, c *negotiation.Channel, a uow.Append) (*uow.Plan, error) {
	jobs, err := e.reactions(ctx, a.Events, c, nil)
	if err != nil {
		return nil, err
	}
	p := &uow.Plan{Jobs: jobs}
	if err := e.addAgreedWorkflow(ctx, st, c, a.Events, a.Meta.CausationID, p); err != nil {
		return nil, err
	}
	p.Appends = append(p.Appends, a)
	if err := e.addParentNotice(ctx, st, c, a.Events, a.Meta.CausationID, p); err != nil {
		return nil, err
	}
	return p, nil
}

// demandStep is channelStep for a demand stream. Events that accept the
// demand open its channel in the same commit (openChannel).
func (e *Process) demandStep(ctx context.Context, step, demandID, actor, cause string, call *event.LLMCall, callFor event.EventType,
	decide func(d *negotiation.DemandState) ([]event.Payload, error)) (int64, error) {
	lock := []string{negotiation.DemandStream(demandID), negotiation.ChannelStream(negotiation.ChannelIDFor(demandID))}
	return e.u.Commit(ctx, step, lock, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		d, v, err := e.loadDemandFrom(ctx, st, demandID)
		if err != nil {
			return nil, err
		}
		evs, err := decide(d)
		if err != nil || len(evs) == 0 {
			return nil, err
		}
		for _, ev := range evs {
			d.Apply(ev)
		}
		jobs, err := e.reactions(ctx, evs, nil, d)
		if err != nil {
			return nil, err
		}
		meta := uow.Meta(d.RootDemandID, actor, cause)
		p := &uow.Plan{Jobs: jobs, Appends: []uow.Append{{Stream: negotiation.DemandStream(demandID), Expected: v, Events: evs,
			Meta: meta, Call: call, CallFor: callFor}}}
		if slices.ContainsFunc(evs, func(ev event.Payload) bool { _, ok := ev.(*negotiation.DemandAccepted); return ok }) {
			return p, e.openChannel(ctx, d, meta, p)
		}
		return p, nil
	})
}

// addAgreedWorkflow adds to p, first (so it comes before the completion in
// the log), the draft workflow that events completing the root channel c
// (c after them) with an agreed plan create (agreedWorkflow); nothing
// otherwise. Every step that can complete a channel calls it.
func (e *Process) addAgreedWorkflow(ctx context.Context, st *eventstore.Store, c *negotiation.Channel, events []event.Payload, cause string,
	p *uow.Plan) error {
	wf, err := e.agreedWorkflow(ctx, st, c, events)
	if err != nil || wf == nil {
		return err
	}
	p.Appends = append([]uow.Append{{Stream: workflow.WorkflowStream(wf.WorkflowID), Expected: eventstore.NoStream,
		Events: []event.Payload{wf}, Meta: uow.Meta(c.RootDemandID, event.ActorCoordinator, cause)}}, p.Appends...)
	return nil
}

// addParentNotice adds to p, after the sub-negotiation's own append, what
// events completing sub-negotiation c (c after them) tell the channel that
// spawned it: its towow.subnet.completed, and what that sets off there
// (the parent's completion with the merged plan, its workflow, its own
// parent's notice), in the same commit, so the parent hears of the end
// without a step of its own. Nothing for other events. A parent that
// refuses the notice (it triggered no such sub-negotiation) gets it from
// the NotifyParent step instead, which records the refusal.
func (e *Process) addParentNotice(ctx context.Context, st *eventstore.Store, c *negotiation.Channel, events []event.Payload, cause string,
	p *uow.Plan) error {
	if c.ParentChannelID == "" || !completes(events) {
		return nil
	}
	res := subnetResult(c)
	parent, _, err := e.planChannel(ctx, st, c.ParentChannelID, event.ActorChannelAdmin, cause, nil, "",
		func(pc *negotiation.Channel) ([]event.Payload, error) { return pc.SubnetDone(res) })
	var refused *event.Error
	switch {
	case errors.As(err, &refused):
		p.Jobs = append(p.Jobs, uow.Job{Args: NotifyParentArgs{ParentChannelID: c.ParentChannelID, SubChannelID: c.ID, SubDemandID: c.DemandID}})
		return nil
	case err != nil:
		return err
	case parent != nil:
		p.Jobs = append(p.Jobs, parent.Jobs...)
		p.Appends = append(p.Appends, parent.Appends...)
	}
	return nil
}

// completes reports whether events complete their channel.
func completes(events []event.Payload) bool {
	return slices.ContainsFunc(events, func(p event.Payload) bool {
		_, ok := p.(*negotiation.NegotiationCompleted)
		return ok
	})
}

// subnetResult is what completed sub-negotiation sub tells its parent.
func subnetResult(sub *negotiation.Channel) negotiation.SubnetCompleted {
	res := negotiation.SubnetCompleted{ParentChannelID: sub.ParentChannelID, SubChannelID: sub.ID, SubDemandID: sub.DemandID,
		Status: sub.Status, Success: sub.Agreed(), Result: sub.FinalProposal}
	if sub.Failure != nil {
		res.FailureReason = string(sub.Failure.Reason)
		if res.Result == nil {
			res.Result = sub.Failure.LastProposal
		}
	}
	return res
}

// agreedWorkflow is the draft workflow a root negotiation's agreement
// becomes (workflow.PlanWorkflow), when events complete the root channel c
// (c is after them) with an agreed plan; nil otherwise. It is appended in
// the completion's own commit, so the tree's log holds it before the
// completion and nothing can complete without it.
func (e *Process) agreedWorkflow(ctx context.Context, st *eventstore.Store, c *negotiation.Channel, events []event.Payload) (*workflow.WorkflowCreated, error) {
	if c.ParentChannelID != "" || !completes(events) {
		return nil, nil
	}
	agreed := c.AgreedPlan()
	if agreed == nil || len(agreed.Assignments) == 0 {
		return nil, nil
	}
	d, _, err := e.loadDemandFrom(ctx, st, c.DemandID)
	if err != nil {
		return nil, err
	}
	return workflow.PlanWorkflow(workflow.PlanInput{DemandID: c.DemandID, ChannelID: c.ID, UserID: d.UserID, Plan: *agreed,
		Now: e.cfg.Now()}), nil
}
