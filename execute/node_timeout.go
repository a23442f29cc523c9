package execute

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/uow"
)

// NodeTimeoutArgs fail a node's attempt at its deadline.
type NodeTimeoutArgs struct {
	WorkflowID string    `json:"workflow_id"`
	NodeID     string    `json:"node_id"`
	Attempt    int       `json:"attempt"`
	Deadline   time.Time `json:"deadline"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (NodeTimeoutArgs) Kind() string { return "towow.node_timeout" }

// NodeTimeoutWorker runs the NodeTimeout job.
type NodeTimeoutWorker struct {
	river.WorkerDefaults[NodeTimeoutArgs]
	e *Process
}

// Work fails an attempt still running at its deadline, moved on by the
// time the LLM provider was unavailable since the attempt began and the
// time a step that waited takes to come back (a twin's task waits the
// outage out, llm.OutageError).
func (wk *NodeTimeoutWorker) Work(ctx context.Context, job *river.Job[NodeTimeoutArgs]) error {
	e := wk.e
	a := job.Args
	if err := e.u.WaitUntil(ctx, a.Deadline.Add(e.llm.DeadlineExtension(job.CreatedAt))); err != nil {
		return err
	}
	_, _, err := e.workflowStep(ctx, "node timeout", a.WorkflowID, event.ActorSystem, uow.Causation(job.Kind, job.ID), nil, "",
		func(w *workflow.Workflow) ([]event.Payload, error) {
			return w.TimeOut(a.NodeID, a.Attempt, e.cfg.Now())
		})
	return e.jobError(ctx, "node timeout", err)
}
