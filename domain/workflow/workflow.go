package workflow

import (
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
)

// WorkflowStream is the event stream of a workflow.
func WorkflowStream(workflowID string) string { return "workflow-" + workflowID }

// WorkflowIDFor derives the workflow of a root demand's agreement ("d-abc"
// → "wf-abc"): one per agreement, so a retried step cannot create two.
func WorkflowIDFor(demandID string) string { return "wf-" + strings.TrimPrefix(demandID, "d-") }

// NodeStatus is where a node is in its execution.
type NodeStatus string

// Node statuses.
const (
	NodeStatusPending   NodeStatus = "pending"
	NodeStatusRunning   NodeStatus = "running"
	NodeStatusCompleted NodeStatus = "completed"
	NodeStatusFailed    NodeStatus = "failed"
	NodeStatusSkipped   NodeStatus = "skipped"
)

// WorkflowStatus is where a workflow is.
type WorkflowStatus string

// Workflow statuses.
const (
	WorkflowStatusDraft     WorkflowStatus = "draft"
	WorkflowStatusRunning   WorkflowStatus = "running"
	WorkflowStatusCompleted WorkflowStatus = "completed"
	WorkflowStatusFailed    WorkflowStatus = "failed"
	WorkflowStatusCancelled WorkflowStatus = "cancelled"
)

// Finished reports whether the workflow ended.
func (s WorkflowStatus) Finished() bool {
	return s == WorkflowStatusCompleted || s == WorkflowStatusFailed || s == WorkflowStatusCancelled
}

// Position is a node's place on the canvas.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// WorkflowNode is one step of a workflow: what it is and how it runs (its
// execution state is in [Workflow.Runs]).
type WorkflowNode struct {
	// ID names the node in its workflow; a node created without one gets
	// one derived from its decision.
	ID    string   `json:"id" required:"false" maxLength:"80"`
	Type  NodeType `json:"type" enum:"task,approval,wait,http,milestone"`
	Title string   `json:"title" personal:"true"`
	// Description says what is to be done (a task's responsibility, a
	// milestone's deliverable).
	Description string `json:"description,omitempty" personal:"true"`
	// AssigneeID is a task's agent, a participant of the agreement; Role
	// its role there.
	AssigneeID string `json:"assignee_id,omitempty"`
	Role       string `json:"role,omitempty"`
	// Due is the date the plan gives (free text, as the timeline wrote it).
	Due string `json:"due,omitempty"`
	// WaitUntil is a wait node's time.
	WaitUntil time.Time `json:"wait_until,omitzero"`
	// URL, Method and Body are an http node's request: the method is
	// one of HTTPMethods (empty: POST); a POST, PUT or PATCH sends the
	// body as JSON, a GET or DELETE sends none.
	URL    string            `json:"url,omitempty" personal:"true"`
	Method string            `json:"method,omitempty" enum:"GET,POST,PUT,PATCH,DELETE"`
	Body   map[string]string `json:"body,omitempty" personal:"true"`
	// TimeoutSeconds bounds one attempt (0: the type's default);
	// MaxAttempts is how often an http node is tried (0: the default).
	TimeoutSeconds int `json:"timeout_seconds,omitempty"`
	MaxAttempts    int `json:"max_attempts,omitempty"`
	// Approver is who answers an approval node: a user id (empty: the
	// demand's owner). Anyone else asking gets ErrNotApprover.
	Approver string `json:"approver,omitempty" maxLength:"128"`
	// SubChannelID is set on a task that came from a sub-negotiation.
	SubChannelID string `json:"sub_channel_id,omitempty"`
	// Position is the node's place on the canvas; a new node without one
	// is placed right of the nodes it follows (or below the others).
	Position Position `json:"position" required:"false"`
}

// WorkflowEdge says To starts only after From completed.
type WorkflowEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// NodeRun is a node's execution state.
type NodeRun struct {
	Status   NodeStatus  `json:"status"`
	Attempt  int         `json:"attempt,omitempty"`
	Deadline time.Time   `json:"deadline,omitzero"`
	RetryAt  time.Time   `json:"retry_at,omitzero"`
	Result   *NodeResult `json:"result,omitempty"`
	Error    string      `json:"error,omitempty"`
	Reason   string      `json:"reason,omitempty"` // why it was skipped
}

// Workflow is a workflow folded from its stream.
type Workflow struct {
	ID, DemandID, ChannelID, UserID, Title string
	Participants                           []string
	Status                                 WorkflowStatus
	// Version counts the validated decisions (creation is version 1);
	// a layout move does not change it.
	Version int
	Nodes   []WorkflowNode // in creation order
	Edges   []WorkflowEdge
	Runs    map[string]*NodeRun // node id → execution state
	// FailedNode is the node whose failure failed the workflow.
	FailedNode string
	// Decisions are the decisions taken (validated or rejected) with their
	// times, for the rate limits and the conversation's context.
	Decisions []DecisionRecord
	CreatedAt time.Time
}

// DecisionRecord is one decision the validators ruled on.
type DecisionRecord struct {
	DecisionID string
	Type       DecisionType
	Actor      string
	At         time.Time
	Validated  bool
	Rule       string // the refusing rule
}

// Exists reports whether the workflow was created.
func (w *Workflow) Exists() bool { return w.ID != "" }

// Node returns the node with id, or nil.
func (w *Workflow) Node(id string) *WorkflowNode {
	i := slices.IndexFunc(w.Nodes, func(n WorkflowNode) bool { return n.ID == id })
	if i < 0 {
		return nil
	}
	return &w.Nodes[i]
}

// Run returns a node's execution state (pending for an unknown node).
func (w *Workflow) Run(id string) NodeRun {
	if r := w.Runs[id]; r != nil {
		return *r
	}
	return NodeRun{Status: NodeStatusPending}
}

// HasEdge reports whether from → to exists.
func (w *Workflow) HasEdge(from, to string) bool {
	return slices.Contains(w.Edges, WorkflowEdge{From: from, To: to})
}

// Before returns the nodes with an edge into id.
func (w *Workflow) Before(id string) []string {
	var out []string
	for _, e := range w.Edges {
		if e.To == id {
			out = append(out, e.From)
		}
	}
	return out
}

// After returns the nodes id has an edge to.
func (w *Workflow) After(id string) []string {
	var out []string
	for _, e := range w.Edges {
		if e.From == id {
			out = append(out, e.To)
		}
	}
	return out
}

// Apply evolves the workflow by one event of its stream.
func (w *Workflow) Apply(p event.Payload) {
	switch e := p.(type) {
	case *WorkflowCreated:
		w.ID, w.DemandID, w.ChannelID, w.UserID, w.Title = e.WorkflowID, e.DemandID, e.ChannelID, e.UserID, e.Title
		w.Participants = slices.Clone(e.Participants)
		w.Nodes, w.Edges = slices.Clone(e.Nodes), slices.Clone(e.Edges)
		w.Status, w.Version, w.CreatedAt = WorkflowStatusDraft, 1, e.CreatedAt
		w.Runs = map[string]*NodeRun{}
		for _, n := range w.Nodes {
			w.Runs[n.ID] = &NodeRun{Status: NodeStatusPending}
		}
	case *DecisionValidated:
		w.Version = e.Version
		w.Decisions = append(w.Decisions, DecisionRecord{DecisionID: e.Decision.DecisionID, Type: e.Decision.Type,
			Actor: e.Decision.Actor, At: e.DecidedAt, Validated: true})
	case *DecisionRejected:
		w.Decisions = append(w.Decisions, DecisionRecord{DecisionID: e.Decision.DecisionID, Type: e.Decision.Type,
			Actor: e.Decision.Actor, At: e.DecidedAt, Rule: e.Rule})
	case *WorkflowNodeAdded:
		w.Nodes = append(w.Nodes, e.Node)
		w.Runs[e.Node.ID] = &NodeRun{Status: NodeStatusPending}
	case *WorkflowNodeUpdated:
		if n := w.Node(e.Node.ID); n != nil {
			*n = e.Node
		}
	case *WorkflowNodeDeleted:
		w.Nodes = slices.DeleteFunc(w.Nodes, func(n WorkflowNode) bool { return n.ID == e.NodeID })
		w.Edges = slices.DeleteFunc(w.Edges, func(x WorkflowEdge) bool { return x.From == e.NodeID || x.To == e.NodeID })
		delete(w.Runs, e.NodeID)
	case *WorkflowNodeMoved:
		if n := w.Node(e.NodeID); n != nil {
			n.Position = e.Position
		}
	case *WorkflowEdgeAdded:
		w.Edges = append(w.Edges, e.Edge)
	case *WorkflowEdgeDeleted:
		w.Edges = slices.DeleteFunc(w.Edges, func(x WorkflowEdge) bool { return x == e.Edge })
	case *WorkflowStarted:
		w.Status = WorkflowStatusRunning
	case *NodeStarted:
		w.Runs[e.NodeID] = &NodeRun{Status: NodeStatusRunning, Attempt: e.Attempt, Deadline: e.Deadline}
	case *NodeCompleted:
		res := e.Result
		w.Runs[e.NodeID] = &NodeRun{Status: NodeStatusCompleted, Attempt: e.Attempt, Result: &res}
	case *NodeFailed:
		r := &NodeRun{Status: NodeStatusFailed, Attempt: e.Attempt, Error: e.Error}
		if e.Retry {
			r.Status, r.RetryAt = NodeStatusPending, e.RetryAt
		}
		w.Runs[e.NodeID] = r
	case *NodeSkipped:
		w.Runs[e.NodeID] = &NodeRun{Status: NodeStatusSkipped, Reason: e.Reason}
	case *WorkflowCompleted:
		w.Status = WorkflowStatusCompleted
	case *WorkflowFailed:
		w.Status, w.FailedNode = WorkflowStatusFailed, e.FailedNode
	case *WorkflowCancelled:
		w.Status = WorkflowStatusCancelled
	}
}

// TopoOrder returns the nodes in an order where every edge points
// forward (ties broken by creation order), and whether the graph is
// acyclic (false: the order holds only the nodes outside cycles).
func TopoOrder(nodes []WorkflowNode, edges []WorkflowEdge) ([]string, bool) {
	in := map[string]int{}
	for _, e := range edges {
		in[e.To]++
	}
	done := map[string]bool{}
	var order []string
	for len(order) < len(nodes) {
		progressed := false
		for _, n := range nodes {
			if done[n.ID] || in[n.ID] > 0 {
				continue
			}
			done[n.ID], progressed = true, true
			order = append(order, n.ID)
			for _, e := range edges {
				if e.From == n.ID {
					in[e.To]--
				}
			}
		}
		if !progressed {
			return order, false
		}
	}
	return order, true
}
