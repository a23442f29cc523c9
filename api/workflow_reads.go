package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/projections"
)

// workflowReader reads workflows for the workflow, canvas and agent
// operations: from the workflows read model (reading your writes), or
// folded from the log for time travel and when the server has no read
// models.
type workflowReader struct {
	events EventReader
	// reads is nil in a server without read models: then only the log
	// is read.
	reads ReadModels
}

// view is w as the API shows it, with its participants' display names
// (from the agents read model; none in a server without read models).
func (r *workflowReader) view(ctx context.Context, w *workflow.Workflow) (WorkflowView, error) {
	return r.viewNamed(ctx, w, map[string]string{})
}

// viewNamed is view with the names looked up so far (agent id → name, ""
// for none), so that a list looks each agent up once.
func (r *workflowReader) viewNamed(ctx context.Context, w *workflow.Workflow, known map[string]string) (WorkflowView, error) {
	v := workflowView(w)
	v.Names = map[string]string{}
	if r.reads == nil {
		return v, nil
	}
	for _, id := range w.Participants {
		name, seen := known[id]
		if !seen {
			a, err := r.reads.GetAgent(ctx, id)
			switch {
			case errors.Is(err, projections.ErrNotFound):
			case err != nil:
				return v, problem(err)
			default:
				name = a.Profile.UserName
			}
			known[id] = name
		}
		if name != "" {
			v.Names[id] = name
		}
	}
	return v, nil
}

// workflowNow returns a workflow as the workflows read model holds it
// (see freshWorkflow), and the cursor of its stream's last event; 404
// when there is none.
func (r *workflowReader) workflowNow(ctx context.Context, id string) (*workflow.Workflow, int64, error) {
	st, err := r.freshWorkflow(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	if !st.Workflow.Exists() {
		return nil, 0, notFound(fmt.Sprintf("no workflow %s", id))
	}
	return st.Workflow, st.Cursor, nil
}

// freshWorkflow reads a workflow's row from the workflows read model,
// reading your writes: when the row is behind its stream's last event in
// the log, it waits (at most readWait) for the model to fold it, so a GET
// after a decision's answer sees the decision.
func (r *workflowReader) freshWorkflow(ctx context.Context, id string) (projections.WorkflowState, error) {
	st, err := r.reads.Workflow(ctx, id)
	if err != nil {
		return st, problem(err)
	}
	if st.Fresh() {
		return st, nil
	}
	if err := waitFor(ctx, r.reads, MinCursor{MinCursor: st.StreamHead}, projections.Workflows{}.Name()); err != nil {
		return st, err
	}
	if st, err = r.reads.Workflow(ctx, id); err != nil {
		return st, problem(err)
	}
	return st, nil
}

// read returns a workflow and the cursor of the last event folded: as it
// is now (the read model, reading your writes; the log's fold in a server
// without read models), or as it was at cursor at (at > 0: time travel).
func (r *workflowReader) read(ctx context.Context, id string, at int64) (*workflow.Workflow, int64, error) {
	if r.reads != nil && at == 0 {
		return r.workflowNow(ctx, id)
	}
	return r.workflowAt(ctx, id, at)
}

// workflowExists answers 404 unless the workflow was created: one indexed
// read of its towow.workflow.created in the log, which never waits for a
// read model and folds nothing.
func (r *workflowReader) workflowExists(ctx context.Context, id string) error {
	created, err := r.events.ReadAll(ctx, 0, eventstore.Filter{StreamID: workflow.WorkflowStream(id),
		Types: []event.EventType{workflow.EventWorkflowCreated}}, 1)
	if err != nil {
		return problem(err)
	}
	if len(created) == 0 {
		return notFound(fmt.Sprintf("no workflow %s", id))
	}
	return nil
}

// workflowAt folds a workflow's events up to cursor at through the
// domain's fold: time travel, and the state a write's answer carries when
// the server has no read models (0: all of them). It returns the workflow
// and the position of the last event folded, and 404 when the workflow
// did not exist yet.
func (r *workflowReader) workflowAt(ctx context.Context, id string, at int64) (*workflow.Workflow, int64, error) {
	evs, err := eventstore.ReadEvery(ctx, r.events, 0, eventstore.Filter{StreamID: workflow.WorkflowStream(id), UntilPosition: at})
	if err != nil {
		return nil, 0, problem(err)
	}
	w := &workflow.Workflow{}
	var last int64
	for _, e := range evs {
		p, err := e.Decode()
		if err != nil {
			return nil, 0, problem(err)
		}
		w.Apply(p)
		last = e.Position
	}
	if !w.Exists() {
		if at > 0 {
			return nil, 0, notFound(fmt.Sprintf("no workflow %s at cursor %d", id, at))
		}
		return nil, 0, notFound(fmt.Sprintf("no workflow %s", id))
	}
	return w, last, nil
}

// openTasks returns the running tasks assigned to agentID, by workflow,
// from the workflows read model once it has folded the log as it was at
// the call (the inbox lists a task exactly while the engine would take
// its report).
func (r *workflowReader) openTasks(ctx context.Context, agentID string) (map[string][]projections.OpenNode, error) {
	head, err := r.events.HeadPosition(ctx)
	if err != nil {
		return nil, problem(err)
	}
	if err := waitFor(ctx, r.reads, MinCursor{MinCursor: head}, projections.Workflows{}.Name()); err != nil {
		return nil, err
	}
	nodes, err := r.reads.WorkflowTasks(ctx, agentID)
	if err != nil {
		return nil, problem(err)
	}
	out := map[string][]projections.OpenNode{}
	for _, n := range nodes {
		out[n.WorkflowID] = append(out[n.WorkflowID], n)
	}
	return out, nil
}
