package agents

import (
	"context"
	"errors"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
)

// moot reports whether a decision error only says the step is no longer
// needed (someone else answered, the round moved on, offers closed).
func moot(err error) bool {
	return errors.Is(err, domain.ErrDuplicate) || errors.Is(err, domain.ErrOffersClosed) ||
		errors.Is(err, domain.ErrFeedbackClosed) || errors.Is(err, domain.ErrWrongRound)
}

// jobError turns a step's error into what River should do with the job:
// a domain error will not go away by retrying, so the job is cancelled
// (and logged); anything else (database, context) is retried.
func (e *Engine) jobError(ctx context.Context, step string, err error) error {
	var de *domain.Error
	if errors.As(err, &de) {
		e.log.ErrorContext(ctx, "step refused by the domain; job cancelled", "step", step, "err", err)
		return river.JobCancel(err)
	}
	return err
}

// stepMeta is the metadata of a step's events.
func stepMeta(root, actor, causation string) domain.Metadata {
	return domain.Metadata{CorrelationID: root, Actor: actor, CausationID: causation}
}

func causation(kind string, jobID int64) string { return fmt.Sprintf("job:%s:%d", kind, jobID) }

// channelStep decides on a channel, appends the events with reactions and
// retries on conflict. decide sees a freshly loaded channel each attempt.
// call, if not nil, is recorded on the first event of type callFor.
func (e *Engine) channelStep(ctx context.Context, step, channelID, actor, cause string, call *domain.LLMCall, callFor domain.EventType,
	decide func(c *domain.Channel) ([]domain.Payload, error)) (int64, error) {
	return e.commit(ctx, step, []string{domain.ChannelStream(channelID)}, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
		p, _, err := e.planChannel(ctx, st, channelID, actor, cause, call, callFor, decide)
		return p, err
	})
}

// planChannel loads the channel through st, decides, applies the events to
// it and plans their reactions: the body of a channel step. It returns a
// nil plan when decide has nothing to do, and the channel as it will be
// after the append.
func (e *Engine) planChannel(ctx context.Context, st *eventstore.Store, channelID, actor, cause string, call *domain.LLMCall,
	callFor domain.EventType, decide func(c *domain.Channel) ([]domain.Payload, error)) (*plan, *domain.Channel, error) {
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
	jobs, err := e.reactions(ctx, evs, c, nil)
	if err != nil {
		return nil, c, err
	}
	p := &plan{jobs: jobs}
	if wf, err := e.agreedWorkflow(ctx, st, c, evs); err != nil {
		return nil, c, err
	} else if wf != nil { // first, so it comes before the completion in the log
		p.appends = append(p.appends, appendOp{stream: domain.WorkflowStream(wf.WorkflowID), expected: eventstore.NoStream,
			events: []domain.Payload{wf}, meta: stepMeta(c.RootDemandID, domain.ActorCoordinator, cause)})
	}
	p.appends = append(p.appends, appendOp{stream: domain.ChannelStream(channelID), expected: v, events: evs,
		meta: stepMeta(c.RootDemandID, actor, cause), call: call, callFor: callFor})
	return p, c, nil
}

// demandStep is channelStep for a demand stream.
func (e *Engine) demandStep(ctx context.Context, step, demandID, actor, cause string, call *domain.LLMCall, callFor domain.EventType,
	decide func(d *domain.DemandState) ([]domain.Payload, error)) (int64, error) {
	return e.commit(ctx, step, []string{domain.DemandStream(demandID)}, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
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
		return &plan{jobs: jobs, appends: []appendOp{{stream: domain.DemandStream(demandID), expected: v, events: evs,
			meta: stepMeta(d.RootDemandID, actor, cause), call: call, callFor: callFor}}}, nil
	})
}

// DecideDemand runs one command on a demand stream through the unit of
// work: it locks the stream, folds the demand afresh, lets decide choose
// the events, enqueues the jobs they set off and appends them, all in one
// transaction, deciding again on a version conflict. actor and cause go
// into the events' metadata. It returns the last position written (0 when
// decide chose nothing); a decision error (*domain.Error) comes back as is
// and writes nothing.
func (e *Engine) DecideDemand(ctx context.Context, step, demandID, actor, cause string,
	decide func(d *domain.DemandState) ([]domain.Payload, error)) (int64, error) {
	return e.demandStep(ctx, step, demandID, actor, cause, nil, "", decide)
}

// DecideChannel is DecideDemand for a channel stream.
func (e *Engine) DecideChannel(ctx context.Context, step, channelID, actor, cause string,
	decide func(c *domain.Channel) ([]domain.Payload, error)) (int64, error) {
	return e.channelStep(ctx, step, channelID, actor, cause, nil, "", decide)
}
