package execute

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/uow"
)

// farFuture is a time after any retry: Ready at it lists the nodes ready
// now or once their retry time comes.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// loadWorkflowFrom folds a workflow's stream from st (through the event
// cache). Applying more events to it is safe: Workflow.Apply never writes
// into an event's memory.
func (e *Process) loadWorkflowFrom(ctx context.Context, st *eventstore.Store, id string) (*workflow.Workflow, eventstore.ExpectedVersion, error) {
	w := &workflow.Workflow{}
	v, err := e.u.Fold(ctx, st, workflow.WorkflowStream(id), w.Apply)
	return w, v, err
}

// loadWorkflow folds a workflow from the log (for the command side).
func (e *Process) loadWorkflow(ctx context.Context, id string) (*workflow.Workflow, error) {
	w, _, err := e.loadWorkflowFrom(ctx, e.store, id)
	return w, err
}

// workflowChange is what a step decides on a workflow: its events, the
// jobs it enqueues beyond those the events set off, and the event its LLM
// call (if any) is recorded on.
type workflowChange struct {
	events  []event.Payload
	jobs    []uow.Job
	callFor event.EventType
}

// changeWorkflow decides on a workflow through the unit of work: it locks
// the stream, folds the workflow and its conversation afresh, lets decide
// choose the change, enqueues the jobs its events set off
// (workflowReactions) and its own, and appends, deciding again on a
// version conflict. It returns the events appended (nil when decide chose
// none) and the last position written.
func (e *Process) changeWorkflow(ctx context.Context, step, workflowID, actor, cause string, call *event.LLMCall,
	decide func(w *workflow.Workflow, conv *workflow.Conversation) (workflowChange, error)) ([]event.Payload, int64, error) {
	var appended []event.Payload
	pos, err := e.u.Commit(ctx, step, []string{workflow.WorkflowStream(workflowID)}, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		appended = nil
		w, conv, v, err := e.loadConversation(ctx, st, workflowID)
		if err != nil {
			return nil, err
		}
		before := w.Ready(farFuture)
		ch, err := decide(w, conv)
		if err != nil || len(ch.events) == 0 {
			return nil, err
		}
		for _, ev := range ch.events {
			w.Apply(ev)
		}
		// What needs the person, or the run's end, the agent reports in
		// the same commit.
		ch.events = append(ch.events, workflow.ReportsFor(w, conv, ch.events, int64(v))...)
		appended = ch.events
		return &uow.Plan{Jobs: append(e.workflowReactions(before, w, ch.events), ch.jobs...), Appends: []uow.Append{{
			Stream: workflow.WorkflowStream(workflowID), Expected: v, Events: ch.events, Meta: uow.Meta(cmp.Or(w.DemandID, w.ID), actor, cause),
			Call: call, CallFor: ch.callFor}}}, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return appended, pos, nil
}

// workflowStep is changeWorkflow for a decision that only chooses events.
func (e *Process) workflowStep(ctx context.Context, step, workflowID, actor, cause string, call *event.LLMCall,
	callFor event.EventType, decide func(w *workflow.Workflow) ([]event.Payload, error)) ([]event.Payload, int64, error) {
	return e.changeWorkflow(ctx, step, workflowID, actor, cause, call, func(w *workflow.Workflow, _ *workflow.Conversation) (workflowChange, error) {
		evs, err := decide(w)
		return workflowChange{events: evs, callFor: callFor}, err
	})
}

// workflowReactions are the jobs a workflow's new events set off: w is the
// workflow after them, readyBefore the nodes ready (now or at their retry)
// before them. A started node gets its effect job (held until its time
// when its type starts on a timer) and its timeout job, unless its type
// completes as it starts or the attempt ended in the same commit (a
// reference without a value fails it as it starts).
func (e *Process) workflowReactions(readyBefore []string, w *workflow.Workflow, events []event.Payload) []uow.Job {
	var jobs []uow.Job
	for _, ev := range events {
		if s, ok := ev.(*workflow.NodeStarted); ok && s.NodeType.Spec().Start != workflow.StartCompleted &&
			w.Run(s.NodeID).Status == workflow.NodeStatusRunning && w.Run(s.NodeID).Attempt == s.Attempt {
			n := w.Node(s.NodeID)
			effect := uow.Job{Args: NodeEffectArgs{WorkflowID: w.ID, NodeID: s.NodeID, Attempt: s.Attempt}}
			if n != nil && n.Type.Spec().Start == workflow.StartTimer {
				effect = uow.Deadlined(effect.Args, n.WaitUntil) // a durable timer: River holds the job until about then
			}
			jobs = append(jobs, effect, uow.Deadlined(NodeTimeoutArgs{WorkflowID: w.ID, NodeID: s.NodeID, Attempt: s.Attempt,
				Deadline: s.Deadline}, s.Deadline))
		}
	}
	for _, id := range w.Ready(farFuture) {
		if !slices.Contains(readyBefore, id) {
			// Available at once even for a retry: the start job waits out
			// a short retry delay itself (startNode), rather than rely on
			// River's scheduler, which a restarted process runs only once
			// the dead leader's lease has expired.
			jobs = append(jobs, uow.Job{Args: StartNodeArgs{WorkflowID: w.ID, NodeID: id}})
		}
	}
	return jobs
}

// decisionContext is what the validators know at now.
func (e *Process) decisionContext() workflow.DecisionContext {
	return workflow.DecisionContext{Now: e.cfg.Now(), AllowedHosts: e.cfg.HTTPAllow, RateLimit: e.cfg.DecisionRateLimit,
		RateWindow: workflow.DefaultDecisionRateWindow}
}

// decideWorkflow runs a decision through the validators and records the
// outcome: the validation with its effects, or the rejection (appended
// too: a refused decision is part of the story). It returns the events
// appended (workflow.RejectionOf finds a rejection; nil for a decision id
// already ruled on) and the last position written.
func (e *Process) decideWorkflow(ctx context.Context, workflowID string, d workflow.Decision, cause string) ([]event.Payload, int64, error) {
	return e.workflowStep(ctx, "decide", workflowID, d.Actor, cause, nil, "", func(w *workflow.Workflow) ([]event.Payload, error) {
		return w.Decide(d, e.decisionContext())
	})
}

// actOnWorkflow runs a command on a workflow's execution (an external
// agent's task report, the user's approval) through the unit of work.
func (e *Process) actOnWorkflow(ctx context.Context, step, workflowID, actor, cause string,
	decide func(w *workflow.Workflow) ([]event.Payload, error)) ([]event.Payload, int64, error) {
	return e.workflowStep(ctx, step, workflowID, actor, cause, nil, "", decide)
}

// changeCanvas rules on a batch of canvas changes (domain.DecideCanvas)
// and records the outcome: every change's validation and effects, or the
// one refused change's rejection; nothing for a conflict, a locked
// workflow or a batch ruled on before. It returns the outcome and the last
// position written.
func (e *Process) changeCanvas(ctx context.Context, workflowID string, b workflow.CanvasBatch) (workflow.CanvasOutcome, int64, error) {
	var out workflow.CanvasOutcome
	_, pos, err := e.workflowStep(ctx, "canvas", workflowID, b.Actor, "canvas:"+b.BatchID, nil, "",
		func(w *workflow.Workflow) ([]event.Payload, error) {
			o, err := w.DecideCanvas(b, e.decisionContext())
			out = o
			return o.Events, err
		})
	if err != nil {
		return workflow.CanvasOutcome{}, 0, err
	}
	return out, pos, nil
}

// loadConversation folds a workflow and its conversation from st.
func (e *Process) loadConversation(ctx context.Context, st *eventstore.Store, id string) (*workflow.Workflow, *workflow.Conversation, eventstore.ExpectedVersion, error) {
	w, conv := &workflow.Workflow{}, &workflow.Conversation{}
	v, err := e.u.Fold(ctx, st, workflow.WorkflowStream(id), func(p event.Payload) {
		w.Apply(p)
		conv.Apply(p)
	})
	return w, conv, v, err
}

// conversation folds a workflow's conversation from the log.
func (e *Process) conversation(ctx context.Context, id string) (*workflow.Conversation, error) {
	_, conv, _, err := e.loadConversation(ctx, e.store, id)
	return conv, err
}
