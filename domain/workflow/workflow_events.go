package workflow

import (
	"time"

	"github.com/towow/towow/domain/event"
)

// Workflow events: the agreed plan carried out. A workflow
// has a stream of its own (WorkflowStream); its events carry the root
// demand as correlation id, so the demand's audit and stream include them.
const (
	// EventWorkflowCreated: an agreed plan became a draft workflow.
	EventWorkflowCreated event.EventType = "towow.workflow.created"
	// EventWorkflowNodeAdded: a validated decision added a node.
	EventWorkflowNodeAdded event.EventType = "towow.workflow.node_added"
	// EventWorkflowNodeUpdated: a validated decision changed a node's fields.
	EventWorkflowNodeUpdated event.EventType = "towow.workflow.node_updated"
	// EventWorkflowNodeDeleted: a validated decision deleted a node and its
	// edges.
	EventWorkflowNodeDeleted event.EventType = "towow.workflow.node_deleted"
	// EventWorkflowNodeMoved: a node was moved on the canvas (layout only).
	EventWorkflowNodeMoved event.EventType = "towow.workflow.node_moved"
	// EventWorkflowEdgeAdded: a validated decision connected two nodes.
	EventWorkflowEdgeAdded event.EventType = "towow.workflow.edge_added"
	// EventWorkflowEdgeDeleted: a validated decision removed an edge.
	EventWorkflowEdgeDeleted event.EventType = "towow.workflow.edge_deleted"
	// EventWorkflowStarted: execution started.
	EventWorkflowStarted event.EventType = "towow.workflow.started"
	// EventWorkflowCompleted: every node completed.
	EventWorkflowCompleted event.EventType = "towow.workflow.completed"
	// EventWorkflowFailed: a node failed for good; the workflow ends failed.
	EventWorkflowFailed event.EventType = "towow.workflow.failed"
	// EventWorkflowCancelled: execution was cancelled.
	EventWorkflowCancelled event.EventType = "towow.workflow.cancelled"

	// EventNodeStarted: a node's attempt started (the node is running).
	EventNodeStarted event.EventType = "towow.node.started"
	// EventNodeCompleted: a node's attempt succeeded.
	EventNodeCompleted event.EventType = "towow.node.completed"
	// EventNodeFailed: a node's attempt failed (another may follow).
	EventNodeFailed event.EventType = "towow.node.failed"
	// EventNodeSkipped: a node will not run (a dependency failed, the
	// workflow failed or was cancelled).
	EventNodeSkipped event.EventType = "towow.node.skipped"

	// EventDecisionValidated: the validators let a decision through;
	// appended with the events it causes.
	EventDecisionValidated event.EventType = "towow.decision.validated"
	// EventDecisionRejected: the validators refused a decision; nothing
	// else changes.
	EventDecisionRejected event.EventType = "towow.decision.rejected"
)

// WorkflowCreated is the payload of [EventWorkflowCreated]: the draft
// built from an agreement (PlanWorkflow).
type WorkflowCreated struct {
	WorkflowID string `json:"workflow_id"`
	DemandID   string `json:"demand_id"`
	ChannelID  string `json:"channel_id"`
	UserID     string `json:"user_id,omitempty"`
	Title      string `json:"title" personal:"true"`
	// Participants are the agents of the agreement (merged plan): the
	// only agents a task may be assigned to.
	Participants []string       `json:"participants"`
	Nodes        []WorkflowNode `json:"nodes"`
	Edges        []WorkflowEdge `json:"edges"`
	CreatedAt    time.Time      `json:"created_at"`
}

// EventType implements [event.Payload].
func (*WorkflowCreated) EventType() event.EventType { return EventWorkflowCreated }

// WorkflowChange is what every structural or layout event of a workflow
// carries: the decision that caused it, the client that sent it (so a
// live stream can leave it out for that client: echo exclusion) and the
// workflow's version after it.
type WorkflowChange struct {
	WorkflowID string `json:"workflow_id"`
	DecisionID string `json:"decision_id"`
	ClientID   string `json:"client_id,omitempty"`
	Version    int    `json:"version"`
}

// WorkflowNodeAdded is the payload of [EventWorkflowNodeAdded].
type WorkflowNodeAdded struct {
	WorkflowChange
	Node WorkflowNode `json:"node"`
}

// EventType implements [event.Payload].
func (*WorkflowNodeAdded) EventType() event.EventType { return EventWorkflowNodeAdded }

// WorkflowNodeUpdated is the payload of [EventWorkflowNodeUpdated]: the
// node as it is now.
type WorkflowNodeUpdated struct {
	WorkflowChange
	Node WorkflowNode `json:"node"`
}

// EventType implements [event.Payload].
func (*WorkflowNodeUpdated) EventType() event.EventType { return EventWorkflowNodeUpdated }

// WorkflowNodeDeleted is the payload of [EventWorkflowNodeDeleted].
type WorkflowNodeDeleted struct {
	WorkflowChange
	NodeID string `json:"node_id"`
	// Edges are the edges removed with the node.
	Edges []WorkflowEdge `json:"edges,omitempty"`
}

// EventType implements [event.Payload].
func (*WorkflowNodeDeleted) EventType() event.EventType { return EventWorkflowNodeDeleted }

// WorkflowNodeMoved is the payload of [EventWorkflowNodeMoved].
type WorkflowNodeMoved struct {
	WorkflowChange
	NodeID   string   `json:"node_id"`
	Position Position `json:"position"`
}

// EventType implements [event.Payload].
func (*WorkflowNodeMoved) EventType() event.EventType { return EventWorkflowNodeMoved }

// WorkflowEdgeAdded is the payload of [EventWorkflowEdgeAdded].
type WorkflowEdgeAdded struct {
	WorkflowChange
	Edge WorkflowEdge `json:"edge"`
}

// EventType implements [event.Payload].
func (*WorkflowEdgeAdded) EventType() event.EventType { return EventWorkflowEdgeAdded }

// WorkflowEdgeDeleted is the payload of [EventWorkflowEdgeDeleted].
type WorkflowEdgeDeleted struct {
	WorkflowChange
	Edge WorkflowEdge `json:"edge"`
}

// EventType implements [event.Payload].
func (*WorkflowEdgeDeleted) EventType() event.EventType { return EventWorkflowEdgeDeleted }

// WorkflowStarted is the payload of [EventWorkflowStarted].
type WorkflowStarted struct {
	WorkflowID string `json:"workflow_id"`
	DecisionID string `json:"decision_id"`
	NodeCount  int    `json:"node_count"`
	// Order is a topological order of the nodes (ties by id).
	Order []string `json:"order"`
}

// EventType implements [event.Payload].
func (*WorkflowStarted) EventType() event.EventType { return EventWorkflowStarted }

// WorkflowCompleted is the payload of [EventWorkflowCompleted].
type WorkflowCompleted struct {
	WorkflowID string `json:"workflow_id"`
	Status     string `json:"status" enum:"completed"`
	// Results are the nodes' results, in node order.
	Results []NodeOutcome `json:"results"`
}

// EventType implements [event.Payload].
func (*WorkflowCompleted) EventType() event.EventType { return EventWorkflowCompleted }

// WorkflowFailed is the payload of [EventWorkflowFailed].
type WorkflowFailed struct {
	WorkflowID string `json:"workflow_id"`
	Status     string `json:"status" enum:"failed"`
	FailedNode string `json:"failed_node"`
	Error      string `json:"error"`
	// Results are the results of the nodes that completed.
	Results []NodeOutcome `json:"results,omitempty"`
}

// EventType implements [event.Payload].
func (*WorkflowFailed) EventType() event.EventType { return EventWorkflowFailed }

// WorkflowCancelled is the payload of [EventWorkflowCancelled].
type WorkflowCancelled struct {
	WorkflowID string `json:"workflow_id"`
	DecisionID string `json:"decision_id,omitempty"`
	Reason     string `json:"reason,omitempty" personal:"true"`
}

// EventType implements [event.Payload].
func (*WorkflowCancelled) EventType() event.EventType { return EventWorkflowCancelled }

// NodeStarted is the payload of [EventNodeStarted].
type NodeStarted struct {
	WorkflowID string   `json:"workflow_id"`
	NodeID     string   `json:"node_id"`
	NodeType   NodeType `json:"node_type" enum:"task,approval,wait,http,milestone"`
	Attempt    int      `json:"attempt"` // 1, 2, ...
	// Deadline is when the attempt times out.
	Deadline time.Time `json:"deadline"`
}

// EventType implements [event.Payload].
func (*NodeStarted) EventType() event.EventType { return EventNodeStarted }

// NodeResult is what a node produced.
type NodeResult struct {
	// Summary says in a line what was done.
	Summary string `json:"summary" personal:"true"`
	// By is who did it: an agent id, the user, or "system".
	By string `json:"by,omitempty"`
	// Simulated says no one did it: a twin answered the task prompt in
	// its person's place (TOWOW_TASKS=simulate), so the result is a
	// rehearsal, not a fact.
	Simulated bool `json:"simulated,omitempty"`
	// Output holds a node's data, the fields a later node reads as
	// {{nodes.<id>.output.<key>}}: an http node's status, body and the
	// fields of its JSON answer (HTTPOutput).
	Output map[string]string `json:"output,omitempty" personal:"true"`
}

// NodeOutcome is one node's result in a workflow's end.
type NodeOutcome struct {
	NodeID string     `json:"node_id"`
	Result NodeResult `json:"result"`
}

// NodeCompleted is the payload of [EventNodeCompleted].
type NodeCompleted struct {
	WorkflowID string     `json:"workflow_id"`
	NodeID     string     `json:"node_id"`
	NodeType   NodeType   `json:"node_type" enum:"task,approval,wait,http,milestone"`
	Attempt    int        `json:"attempt"`
	Result     NodeResult `json:"result"`
}

// EventType implements [event.Payload].
func (*NodeCompleted) EventType() event.EventType { return EventNodeCompleted }

// NodeFailed is the payload of [EventNodeFailed].
type NodeFailed struct {
	WorkflowID string   `json:"workflow_id"`
	NodeID     string   `json:"node_id"`
	NodeType   NodeType `json:"node_type" enum:"task,approval,wait,http,milestone"`
	Attempt    int      `json:"attempt"`
	Error      string   `json:"error"`
	// Retry says another attempt follows (after RetryAt); false: the node
	// failed for good.
	Retry   bool      `json:"retry"`
	RetryAt time.Time `json:"retry_at,omitzero"`
}

// EventType implements [event.Payload].
func (*NodeFailed) EventType() event.EventType { return EventNodeFailed }

// NodeSkipped is the payload of [EventNodeSkipped].
type NodeSkipped struct {
	WorkflowID string   `json:"workflow_id"`
	NodeID     string   `json:"node_id"`
	NodeType   NodeType `json:"node_type" enum:"task,approval,wait,http,milestone"`
	Reason     string   `json:"reason"`
}

// EventType implements [event.Payload].
func (*NodeSkipped) EventType() event.EventType { return EventNodeSkipped }

// DecisionValidated is the payload of [EventDecisionValidated]: the
// decision as it takes effect (after any correction), the corrections the
// validators made, and the workflow's version after it.
type DecisionValidated struct {
	WorkflowID  string       `json:"workflow_id"`
	Decision    Decision     `json:"decision"`
	Corrections []Correction `json:"corrections,omitempty"`
	Version     int          `json:"version"`
	DecidedAt   time.Time    `json:"decided_at"`
}

// EventType implements [event.Payload].
func (*DecisionValidated) EventType() event.EventType { return EventDecisionValidated }

// DecisionRejected is the payload of [EventDecisionRejected].
type DecisionRejected struct {
	WorkflowID string   `json:"workflow_id"`
	Decision   Decision `json:"decision"`
	// Rule names the validator that refused it.
	Rule   string       `json:"rule"`
	Reason string       `json:"reason" personal:"true"`
	Errors []FieldError `json:"errors"`
	// Version is the workflow's current version (unchanged).
	Version   int       `json:"version"`
	DecidedAt time.Time `json:"decided_at"`
}

// EventType implements [event.Payload].
func (*DecisionRejected) EventType() event.EventType { return EventDecisionRejected }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[WorkflowCreated]("An agreed plan became a draft workflow: a task per assignment, a milestone per timeline milestone."),
		event.NewSpec[WorkflowNodeAdded]("A validated decision added a node to a workflow."),
		event.NewSpec[WorkflowNodeUpdated]("A validated decision changed a workflow node's fields."),
		event.NewSpec[WorkflowNodeDeleted]("A validated decision deleted a workflow node and its edges."),
		event.NewSpec[WorkflowNodeMoved]("A workflow node was moved on the canvas (layout only)."),
		event.NewSpec[WorkflowEdgeAdded]("A validated decision made one workflow node run after another."),
		event.NewSpec[WorkflowEdgeDeleted]("A validated decision removed an edge of a workflow."),
		event.NewSpec[WorkflowStarted]("A workflow's execution started."),
		event.NewSpec[WorkflowCompleted]("Every node of a workflow completed."),
		event.NewSpec[WorkflowFailed]("A workflow failed: one of its nodes failed for good."),
		event.NewSpec[WorkflowCancelled]("A workflow was cancelled; nodes not started were skipped."),
		event.NewSpec[NodeStarted]("An attempt of a workflow node started."),
		event.NewSpec[NodeCompleted]("A workflow node completed with its result."),
		event.NewSpec[NodeFailed]("An attempt of a workflow node failed; another follows or the node failed for good."),
		event.NewSpec[NodeSkipped]("A workflow node will not run: a dependency failed, or the workflow failed or was cancelled."),
		event.NewSpec[DecisionValidated]("The validators let a decision on a workflow through (with any corrections); its effects follow in the same commit."),
		event.NewSpec[DecisionRejected]("The validators refused a decision on a workflow, naming the rule and the field errors."),
	)
}

// EndedStreams: a completed workflow's stream takes no more decisions.
func (e *WorkflowCompleted) EndedStreams() []string { return []string{WorkflowStream(e.WorkflowID)} }

// EndedStreams: a failed workflow's stream takes no more decisions.
func (e *WorkflowFailed) EndedStreams() []string { return []string{WorkflowStream(e.WorkflowID)} }

// EndedStreams: a cancelled workflow's stream takes no more decisions.
func (e *WorkflowCancelled) EndedStreams() []string { return []string{WorkflowStream(e.WorkflowID)} }
