package workflow

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/towow/towow/domain/event"
)

// DecisionType is the kind of change a decision makes to a workflow.
type DecisionType string

// Decision types.
const (
	DecisionCreateNode      DecisionType = "create_node"
	DecisionUpdateNode      DecisionType = "update_node"
	DecisionDeleteNode      DecisionType = "delete_node"
	DecisionConnect         DecisionType = "connect"
	DecisionDisconnect      DecisionType = "disconnect"
	DecisionMoveNode        DecisionType = "move_node"
	DecisionExecuteWorkflow DecisionType = "execute_workflow"
	DecisionCancelWorkflow  DecisionType = "cancel_workflow"
)

// DecisionTypes lists the decision types.
var DecisionTypes = []DecisionType{DecisionCreateNode, DecisionUpdateNode, DecisionDeleteNode, DecisionConnect,
	DecisionDisconnect, DecisionMoveNode, DecisionExecuteWorkflow, DecisionCancelWorkflow}

// structural reports whether the decision changes the graph or a node's
// fields (not layout, not execution).
func (t DecisionType) structural() bool {
	switch t {
	case DecisionCreateNode, DecisionUpdateNode, DecisionDeleteNode, DecisionConnect, DecisionDisconnect:
		return true
	}
	return false
}

// Decision is a proposed change to a workflow, from the conversation
// agent, the canvas or the system. Nothing takes
// effect before the validators let it through
// ([Workflow.Decide]).
type Decision struct {
	DecisionID string       `json:"decision_id"`
	Type       DecisionType `json:"decision_type" enum:"create_node,update_node,delete_node,connect,disconnect,move_node,execute_workflow,cancel_workflow"`
	// Actor is who decided: "user:<id>", "conversation_agent", "system".
	Actor string `json:"actor"`
	// ClientID names the client (a canvas tab) that made the change and
	// shows it already: its live stream gets an acknowledgement instead of
	// the change (echo exclusion). The conversation agent's decisions
	// carry none: they are news to every client.
	ClientID string `json:"client_id,omitempty"`
	// Confidence is the decider's confidence, 0-1 (1 for a person).
	Confidence float64 `json:"confidence"`
	// BaseVersion is the workflow version the decision was made on.
	BaseVersion int             `json:"base_version"`
	Payload     DecisionPayload `json:"payload"`
}

// DecisionPayloads is each decision type's payload. The well_formed rule
// refuses a decision without its required fields, and the API's and the
// MCP tools' schemas describe each decision type's payload from it.
var DecisionPayloads = map[DecisionType]event.Fields{
	DecisionCreateNode:      {Required: []string{"node"}, Optional: []string{"after", "before"}},
	DecisionUpdateNode:      {Required: []string{"node_id", "changes"}},
	DecisionDeleteNode:      {Required: []string{"node_id"}},
	DecisionConnect:         {Required: []string{"from", "to"}},
	DecisionDisconnect:      {Required: []string{"from", "to"}},
	DecisionMoveNode:        {Required: []string{"node_id", "position"}},
	DecisionExecuteWorkflow: {},
	DecisionCancelWorkflow:  {Optional: []string{"reason"}},
}

// has reports whether the payload gives the field named by its JSON name.
func (p DecisionPayload) has(field string) bool {
	switch field {
	case "node_id":
		return p.NodeID != ""
	case "node":
		return p.Node != nil
	case "after":
		return len(p.After) > 0
	case "before":
		return len(p.Before) > 0
	case "changes":
		return p.Changes != nil
	case "from":
		return p.From != ""
	case "to":
		return p.To != ""
	case "position":
		return p.Position != nil
	case "reason":
		return p.Reason != ""
	}
	return false
}

// DecisionPayload holds a decision's details; which fields count depends
// on its type (DecisionPayloads):
//   - create_node: Node (its ID optional: one is derived), and optionally
//     After / Before: node ids to connect it behind and ahead of;
//   - update_node: NodeID and Changes;
//   - delete_node: NodeID;
//   - connect, disconnect: From and To;
//   - move_node: NodeID and Position;
//   - execute_workflow: nothing;
//   - cancel_workflow: optionally Reason.
type DecisionPayload struct {
	NodeID   string        `json:"node_id,omitempty"`
	Node     *WorkflowNode `json:"node,omitempty"`
	After    []string      `json:"after,omitempty" personal:"true"`
	Before   []string      `json:"before,omitempty" personal:"true"`
	Changes  *NodeChanges  `json:"changes,omitempty"`
	From     string        `json:"from,omitempty"`
	To       string        `json:"to,omitempty"`
	Position *Position     `json:"position,omitempty"`
	Reason   string        `json:"reason,omitempty" personal:"true"`
}

// NodeChanges are the fields an update_node sets (nil: unchanged).
type NodeChanges struct {
	Title          *string            `json:"title,omitempty" personal:"true"`
	Description    *string            `json:"description,omitempty" personal:"true"`
	AssigneeID     *string            `json:"assignee_id,omitempty"`
	Role           *string            `json:"role,omitempty"`
	Due            *string            `json:"due,omitempty"`
	WaitUntil      *time.Time         `json:"wait_until,omitempty"`
	URL            *string            `json:"url,omitempty" personal:"true"`
	Method         *string            `json:"method,omitempty" enum:"GET,POST,PUT,PATCH,DELETE"`
	Body           *map[string]string `json:"body,omitempty" personal:"true"`
	TimeoutSeconds *int               `json:"timeout_seconds,omitempty"`
	MaxAttempts    *int               `json:"max_attempts,omitempty"`
	// Approver is who answers an approval node ("": the demand's owner).
	Approver *string `json:"approver,omitempty" maxLength:"128"`
}

// clone copies what a validator may change (the node, the changes).
func (d Decision) clone() Decision {
	if n := d.Payload.Node; n != nil {
		c := *n
		c.Body = maps.Clone(n.Body)
		d.Payload.Node = &c
	}
	if ch := d.Payload.Changes; ch != nil {
		c := *ch
		for _, p := range []**int{&c.TimeoutSeconds, &c.MaxAttempts} {
			if *p != nil {
				v := **p
				*p = &v
			}
		}
		if c.WaitUntil != nil {
			t := *c.WaitUntil
			c.WaitUntil = &t
		}
		d.Payload.Changes = &c
	}
	d.Payload.After, d.Payload.Before = slices.Clone(d.Payload.After), slices.Clone(d.Payload.Before)
	return d
}

// apply returns n with the changes set.
func (c NodeChanges) apply(n WorkflowNode) WorkflowNode {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&n.Title, c.Title)
	set(&n.Description, c.Description)
	set(&n.AssigneeID, c.AssigneeID)
	set(&n.Role, c.Role)
	set(&n.Due, c.Due)
	set(&n.URL, c.URL)
	set(&n.Method, c.Method)
	set(&n.Approver, c.Approver)
	if c.WaitUntil != nil {
		n.WaitUntil = *c.WaitUntil
	}
	if c.Body != nil {
		n.Body = *c.Body
	}
	if c.TimeoutSeconds != nil {
		n.TimeoutSeconds = *c.TimeoutSeconds
	}
	if c.MaxAttempts != nil {
		n.MaxAttempts = *c.MaxAttempts
	}
	return n
}

// FieldError is one reason a decision was refused.
type FieldError struct {
	// Field is the decision's field at fault ("payload.node.assignee_id").
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Correction is a change a validator made to a decision before letting it
// through (a timeout clamped, a past wait moved to now).
type Correction struct {
	Rule    string `json:"rule"`
	Field   string `json:"field"`
	From    string `json:"from" personal:"true"`
	To      string `json:"to" personal:"true"`
	Message string `json:"message" personal:"true"`
}

// DecisionContext is what the validators know beyond the workflow: the
// time, the configuration.
type DecisionContext struct {
	Now time.Time
	// AllowedHosts are the hosts an http node may POST to (host or
	// host:port; "*.example.com" matches its subdomains).
	AllowedHosts []string
	// RateLimit is how many decisions one actor may make per RateWindow
	// (0: no limit).
	RateLimit  int
	RateWindow time.Duration
	// MaxNodes bounds a workflow's size (0: DefaultMaxWorkflowNodes).
	MaxNodes int
	// laterEdges are the edges a canvas batch adds after the change being
	// decided: data_flow counts them upstream of a node the change adds or
	// updates (a canvas adds a node, then its edges). The batch is all or
	// nothing, so they exist if it is let through.
	laterEdges []WorkflowEdge
}

// Workflow limits and defaults.
const (
	DefaultMaxWorkflowNodes = 200
	// DefaultDecisionRateLimit decisions per DefaultDecisionRateWindow and
	// actor.
	DefaultDecisionRateLimit  = 60
	DefaultDecisionRateWindow = time.Minute
	// MaxNodeTimeoutSeconds bounds a node's attempt (a week: an approval
	// or a person's task may take days).
	MaxNodeTimeoutSeconds = 7 * 24 * 3600
	// MinNodeTimeoutSeconds is the shortest attempt.
	MinNodeTimeoutSeconds = 1
	// MaxHTTPAttempts bounds an http node's attempts.
	MaxHTTPAttempts = 10
)

// ErrDecisionRejected: the validators refused a decision
// (TOWOW_DECISION_REJECTED); the rejection is recorded, the workflow is
// unchanged.
var ErrDecisionRejected = &event.Error{Code: "TOWOW_DECISION_REJECTED", Message: "decision rejected"}

// ErrWorkflowNotFound: no such workflow (TOWOW_WORKFLOW_001).
var ErrWorkflowNotFound = &event.Error{Code: "TOWOW_WORKFLOW_001", Message: "workflow not found"}

// RejectionError carries a rejected decision's record: the API answers
// 422 with its rule and field errors.
type RejectionError struct {
	Rejected DecisionRejected
}

func (e *RejectionError) Error() string {
	return fmt.Sprintf("%s: %s (rule %s)", ErrDecisionRejected.Code, e.Rejected.Reason, e.Rejected.Rule)
}

// Is matches ErrDecisionRejected.
func (e *RejectionError) Is(target error) bool { return target == ErrDecisionRejected }
