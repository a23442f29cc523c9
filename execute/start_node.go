package execute

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/uow"
)

// StartNodeArgs start the next attempt of a ready node.
type StartNodeArgs struct {
	WorkflowID string `json:"workflow_id"`
	NodeID     string `json:"node_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (StartNodeArgs) Kind() string { return "towow.start_node" }

// StartNodeWorker runs the StartNode job.
type StartNodeWorker struct {
	river.WorkerDefaults[StartNodeArgs]
	e *Process
}

// Work records the next attempt of a ready node, once its retry
// time has come.
func (wk *StartNodeWorker) Work(ctx context.Context, job *river.Job[StartNodeArgs]) error {
	e := wk.e
	a := job.Args
	w, _, err := e.loadWorkflowFrom(ctx, e.store, a.WorkflowID)
	if err != nil {
		return err
	}
	if at := w.Run(a.NodeID).RetryAt; !at.IsZero() {
		if err := e.u.WaitUntil(ctx, at); err != nil {
			return err
		}
	}
	_, _, err = e.workflowStep(ctx, "start node", a.WorkflowID, event.ActorSystem, uow.Causation(job.Kind, job.ID), nil, "",
		func(w *workflow.Workflow) ([]event.Payload, error) { return w.StartNode(a.NodeID, e.cfg.Now()) })
	return e.jobError(ctx, "start node", err)
}
