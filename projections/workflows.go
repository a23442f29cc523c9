package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// Workflows keeps one row per workflow stream: the workflow as the
// domain's fold (workflow.Workflow.Apply) leaves it after the stream's last
// event, with that event's position (the canvas's cursor), and the nodes
// that wait for someone (running tasks for their assignee, running
// approvals for the demand's user).
//
// There is one fold of a workflow: the live Apply reads the row's state,
// applies the event through workflow.Workflow.Apply and writes the row
// back; the rebuild reads the workflow streams' events in log order and
// applies each through the same workflow.Workflow.Apply, in memory, then
// writes each workflow's final row. Both write a row through
// workflowWrites, so a rebuild gives the live fold's rows exactly
// (TestSQLRebuildEqualsFold checks it).
//
// The model folds every event of a workflow stream, whatever its type (a
// conversation message moves the cursor, though the fold ignores it), and
// no other stream's: its Types are nil and Apply picks the streams.
//
// Apply reads (the row, through q): like Quality, it declares its own
// Rebuild, so the runner never hands its Apply the write-only pipeline.
type Workflows struct{ modelMethods[Workflows] }

// Model declares the workflows read model.
func (Workflows) Model() Model { return workflowsModel }

var workflowsModel = Model{
	Name:     "workflows",
	Apply:    applyWorkflow,
	Reset:    (*sqlcdb.Queries).DeleteWorkflows,
	Rebuild:  rebuildWorkflows,
	Checksum: fingerprint((*sqlcdb.Queries).ChecksumWorkflows),
}

// workflowStreamPrefix begins the id of every workflow stream.
var workflowStreamPrefix = workflow.WorkflowStream("")

// workflowOf returns the workflow whose stream is streamID.
func workflowOf(streamID string) (string, bool) {
	return strings.CutPrefix(streamID, workflowStreamPrefix)
}

func applyWorkflow(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, _ event.Payload) error {
	id, ok := workflowOf(e.StreamID)
	if !ok {
		return nil
	}
	p, err := e.Decode()
	if err != nil {
		return err
	}
	state, err := q.GetWorkflowState(ctx, id)
	if err != nil {
		return fmt.Errorf("workflow %q: read its row: %w", id, err)
	}
	var w workflow.Workflow
	if err := json.Unmarshal(state, &w); err != nil {
		return fmt.Errorf("workflow %q: decode its row: %w", id, err)
	}
	if err := foldWorkflow(&w, p); err != nil {
		return fmt.Errorf("workflow %q: %w", id, err)
	}
	var out workflowWrites
	if err := out.add(id, &w, e.Position); err != nil {
		return err
	}
	if err := q.DeleteWorkflowOpenNodes(ctx, []string{id}); err != nil {
		return fmt.Errorf("workflow %q: delete its open nodes: %w", id, err)
	}
	return out.write(ctx, q)
}

// foldWorkflow applies one event through the domain's fold, turning a
// panic (an event the fold cannot take, such as a node's before the
// workflow was created) into an error that stops the model.
func foldWorkflow(w *workflow.Workflow, p event.Payload) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fold %s: %v", p.EventType(), r)
		}
	}()
	w.Apply(p)
	return nil
}

// workflowRebuildPage is how many events rebuildWorkflows reads at once.
const workflowRebuildPage = 5000

// workflowRebuildChunk bounds the rows rebuildWorkflows writes per
// statement.
const workflowRebuildChunk = 500

// rebuildWorkflows folds every workflow stream up to head through
// workflow.Workflow.Apply, in memory and in log order, then writes each
// workflow's row and open nodes.
func rebuildWorkflows(q *sqlcdb.Queries, ctx context.Context, head int64) error {
	type folding struct {
		w    workflow.Workflow
		last int64
	}
	byID := map[string]*folding{}
	var order []string
	var after int64
	for after < head {
		rows, err := q.WorkflowStreamEvents(ctx, sqlcdb.WorkflowStreamEventsParams{AfterPosition: after, HeadPosition: head,
			StreamPrefix: workflowStreamPrefix, MaxCount: workflowRebuildPage})
		if err != nil {
			return fmt.Errorf("rebuild workflows: read events after %d: %w", after, err)
		}
		if len(rows) == 0 {
			break
		}
		for _, r := range rows {
			id, _ := workflowOf(r.StreamID)
			f := byID[id]
			if f == nil {
				f = &folding{}
				byID[id] = f
				order = append(order, id)
			}
			p, err := event.DecodePayload(event.EventType(r.EventType), int(r.SchemaVersion), r.Payload)
			if err != nil {
				return fmt.Errorf("rebuild workflows: event at position %d: %w", r.GlobalPosition, err)
			}
			if err := foldWorkflow(&f.w, p); err != nil {
				return fmt.Errorf("rebuild workflows: workflow %q at position %d: %w", id, r.GlobalPosition, err)
			}
			f.last = r.GlobalPosition
		}
		after = rows[len(rows)-1].GlobalPosition
	}
	for chunk := range slices.Chunk(order, workflowRebuildChunk) {
		var out workflowWrites
		for _, id := range chunk {
			f := byID[id]
			if err := out.add(id, &f.w, f.last); err != nil {
				return fmt.Errorf("rebuild workflows: %w", err)
			}
		}
		if err := out.write(ctx, q); err != nil {
			return fmt.Errorf("rebuild workflows: %w", err)
		}
	}
	return nil
}

// workflowWrites collects workflows' rows and open nodes, for one
// statement each: the one way both folds write them.
type workflowWrites struct {
	rows  sqlcdb.UpsertWorkflowsParams
	nodes sqlcdb.InsertWorkflowOpenNodesParams
}

// add queues workflow id's row (w after the event at position last) and
// its open nodes.
func (o *workflowWrites) add(id string, w *workflow.Workflow, last int64) error {
	state, err := json.Marshal(w)
	if err != nil {
		return fmt.Errorf("workflow %q: encode: %w", id, err)
	}
	r := &o.rows
	r.WorkflowIds, r.DemandIds, r.ChannelIds = append(r.WorkflowIds, id), append(r.DemandIds, w.DemandID), append(r.ChannelIds, w.ChannelID)
	r.UserIds, r.States, r.LastPositions = append(r.UserIds, w.UserID), append(r.States, string(state)), append(r.LastPositions, last)
	for i, n := range w.Nodes {
		assignee, open := openFor(w, n)
		if !open {
			continue
		}
		node, err := json.Marshal(n)
		if err != nil {
			return fmt.Errorf("workflow %q: encode node %q: %w", id, n.ID, err)
		}
		x := &o.nodes
		x.WorkflowIds, x.NodeIds, x.NodeTypes = append(x.WorkflowIds, id), append(x.NodeIds, n.ID), append(x.NodeTypes, string(n.Type))
		x.Assignees, x.Ordinals, x.Nodes = append(x.Assignees, assignee), append(x.Ordinals, int32(i)), append(x.Nodes, string(node))
	}
	return nil
}

// openFor reports whether node n of w waits for someone, and for whom: a
// running node its type's spec says is answered over the API, by its
// assignee (a task) or by its approver (an approval).
func openFor(w *workflow.Workflow, n workflow.WorkflowNode) (string, bool) {
	if w.Run(n.ID).Status != workflow.NodeStatusRunning {
		return "", false
	}
	switch n.Type.Spec().Answer {
	case workflow.AnswerAssignee:
		return n.AssigneeID, true
	case workflow.AnswerUser:
		return w.ApproverOf(n), true
	}
	return "", false
}

// write sends the queued rows and open nodes.
func (o *workflowWrites) write(ctx context.Context, q *sqlcdb.Queries) error {
	if len(o.rows.WorkflowIds) > 0 {
		if err := q.UpsertWorkflows(ctx, o.rows); err != nil {
			return fmt.Errorf("write workflows: %w", err)
		}
	}
	if len(o.nodes.WorkflowIds) > 0 {
		if err := q.InsertWorkflowOpenNodes(ctx, o.nodes); err != nil {
			return fmt.Errorf("write open workflow nodes: %w", err)
		}
	}
	return nil
}

// WorkflowState is a workflow as the workflows read model holds it.
type WorkflowState struct {
	// Workflow is the fold of the stream up to Cursor (not Exists when
	// the workflow was never created).
	Workflow *workflow.Workflow
	// Cursor is the position of the last event of the stream folded (0:
	// none).
	Cursor int64
	// StreamHead is the position of the stream's last event in the log
	// when the row was read: a row with Cursor behind it is stale, and a
	// reader who wants its own writes waits for the model to reach it.
	StreamHead int64
}

// Fresh reports whether the row holds every event of its stream that was
// committed when it was read.
func (s WorkflowState) Fresh() bool { return s.Cursor >= s.StreamHead }

// GetWorkflow returns a workflow's row (a workflow that does not Exist
// when there is none).
func GetWorkflow(ctx context.Context, db DB, workflowID string) (WorkflowState, error) {
	r, err := sqlcdb.New(db).GetWorkflow(ctx, sqlcdb.GetWorkflowParams{WorkflowID: workflowID, StreamID: workflow.WorkflowStream(workflowID)})
	if err != nil {
		return WorkflowState{}, fmt.Errorf("workflow %q: %w", workflowID, err)
	}
	s := WorkflowState{Workflow: &workflow.Workflow{}, Cursor: r.LastPosition, StreamHead: r.StreamHead}
	if err := json.Unmarshal(r.State, s.Workflow); err != nil {
		return WorkflowState{}, fmt.Errorf("workflow %q: decode its row: %w", workflowID, err)
	}
	return s, nil
}

// OpenNode is a workflow node that waits for someone: a running task for
// its assignee, a running approval for the demand's user.
type OpenNode struct {
	WorkflowID, DemandID, ChannelID, UserID string
	// WorkflowTitle is the workflow's title.
	WorkflowTitle string
	Node          workflow.WorkflowNode
}

// WorkflowTasks returns the running task nodes assigned to an agent, by
// workflow, each workflow's in node order.
func WorkflowTasks(ctx context.Context, db DB, agentID string) ([]OpenNode, error) {
	return openNodes(ctx, db, workflow.NodeTask, agentID)
}

// PendingApprovals returns the running approval nodes that wait for a
// user (their approver: the one they name, else the demand's owner), by
// workflow, each workflow's in node order.
func PendingApprovals(ctx context.Context, db DB, userID string) ([]OpenNode, error) {
	return openNodes(ctx, db, workflow.NodeApproval, userID)
}

func openNodes(ctx context.Context, db DB, t workflow.NodeType, assignee string) ([]OpenNode, error) {
	rows, err := sqlcdb.New(db).ListOpenWorkflowNodes(ctx, sqlcdb.ListOpenWorkflowNodesParams{NodeType: string(t), Assignee: assignee})
	if err != nil {
		return nil, fmt.Errorf("open %s nodes of %q: %w", t, assignee, err)
	}
	out := make([]OpenNode, len(rows))
	for i, r := range rows {
		out[i] = OpenNode{WorkflowID: r.WorkflowID, DemandID: r.DemandID, ChannelID: r.ChannelID, UserID: r.UserID,
			WorkflowTitle: r.Title}
		if err := json.Unmarshal(r.Node, &out[i].Node); err != nil {
			return nil, fmt.Errorf("open %s nodes of %q: node %q of %q: %w", t, assignee, r.NodeID, r.WorkflowID, err)
		}
	}
	return out, nil
}

// UserWorkflows returns one user's workflows (every user's when userID is
// empty), newest first, at most limit.
func UserWorkflows(ctx context.Context, db DB, userID string, limit int) ([]*workflow.Workflow, error) {
	rows, err := sqlcdb.New(db).ListUserWorkflows(ctx, sqlcdb.ListUserWorkflowsParams{UserID: userID, MaxCount: int32(limit)})
	if err != nil {
		return nil, fmt.Errorf("workflows of %q: %w", userID, err)
	}
	out := make([]*workflow.Workflow, len(rows))
	for i, r := range rows {
		out[i] = &workflow.Workflow{}
		if err := json.Unmarshal(r.State, out[i]); err != nil {
			return nil, fmt.Errorf("workflows of %q: row %d: %w", userID, i, err)
		}
	}
	return out, nil
}
