package workflow

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/towow/towow/domain/event"
)

// The canvas: a person edits the workflow on a
// canvas while the conversation agent edits it too. Every canvas change is
// a decision through the validators, on the same version sequence as the
// agent's; a batch of changes is all or nothing; a batch made on a stale
// version is refused whole (a conflict) unless it only moves nodes; while
// the workflow runs its structure is the server's.

// CanvasChangeType is the kind of one canvas change: a node added,
// updated, deleted or moved, an edge added or deleted.
type CanvasChangeType string

// Canvas change types.
const (
	CanvasNodeAdded   CanvasChangeType = "node_added"
	CanvasNodeUpdated CanvasChangeType = "node_updated"
	CanvasNodeDeleted CanvasChangeType = "node_deleted"
	CanvasNodeMoved   CanvasChangeType = "node_moved"
	CanvasEdgeAdded   CanvasChangeType = "edge_added"
	CanvasEdgeDeleted CanvasChangeType = "edge_deleted"
)

// CanvasChangeTypes lists the canvas change types.
var CanvasChangeTypes = []CanvasChangeType{CanvasNodeAdded, CanvasNodeUpdated, CanvasNodeDeleted, CanvasNodeMoved,
	CanvasEdgeAdded, CanvasEdgeDeleted}

// canvasDecisions is the decision each canvas change type is.
var canvasDecisions = map[CanvasChangeType]DecisionType{
	CanvasNodeAdded: DecisionCreateNode, CanvasNodeUpdated: DecisionUpdateNode, CanvasNodeDeleted: DecisionDeleteNode,
	CanvasNodeMoved: DecisionMoveNode, CanvasEdgeAdded: DecisionConnect, CanvasEdgeDeleted: DecisionDisconnect,
}

// CanvasChangeFields is each canvas change type's fields beside its type.
var CanvasChangeFields = map[CanvasChangeType]event.Fields{
	CanvasNodeAdded:   {Required: []string{"data"}, Optional: []string{"node_id"}},
	CanvasNodeUpdated: {Required: []string{"node_id", "data"}},
	CanvasNodeDeleted: {Required: []string{"node_id"}},
	CanvasNodeMoved:   {Required: []string{"node_id", "data"}},
	CanvasEdgeAdded:   {Required: []string{"edge"}},
	CanvasEdgeDeleted: {Required: []string{"edge"}},
}

// CanvasChange is one edit made on the canvas (CanvasChangeFields):
// node_added (NodeID, optional, and Data: the node's fields and position),
// node_updated (NodeID and Data: the fields to change), node_deleted
// (NodeID), node_moved (NodeID and Data.Position), edge_added and
// edge_deleted (Edge).
type CanvasChange struct {
	Type   CanvasChangeType `json:"type" enum:"node_added,node_updated,node_deleted,node_moved,edge_added,edge_deleted"`
	NodeID string           `json:"node_id,omitempty" maxLength:"80"`
	Edge   *WorkflowEdge    `json:"edge,omitempty"`
	Data   *CanvasNodeData  `json:"data,omitempty"`
}

// CanvasNodeData is a change's data: a node's fields (all of them for
// node_added, the ones to change for node_updated) or its position
// (node_moved; node_added may give one too).
type CanvasNodeData struct {
	// Type is a new node's type; a node's type does not change.
	Type NodeType `json:"type,omitempty" enum:"task,approval,wait,http,milestone"`
	NodeChanges
	Position *Position `json:"position,omitempty"`
}

// CanvasBatch is the changes one canvas client sends at once, made on
// BaseVersion. Change i is decision BatchID-i, so a batch sent again is
// ruled on once.
type CanvasBatch struct {
	BatchID     string
	ClientID    string
	Actor       string
	BaseVersion int
	Changes     []CanvasChange
}

// CanvasDecisionID is the decision id of change i of a batch.
func CanvasDecisionID(batchID string, i int) string { return batchID + "-" + strconv.Itoa(i) }

// structural reports whether the batch changes more than the layout.
func (b CanvasBatch) structural() bool {
	return slices.ContainsFunc(b.Changes, func(c CanvasChange) bool { return c.Type != CanvasNodeMoved })
}

// decision is change i as the decision it is, made on version.
func (b CanvasBatch) decision(i, version int) Decision {
	c := b.Changes[i]
	d := Decision{DecisionID: CanvasDecisionID(b.BatchID, i), Type: canvasDecisions[c.Type], Actor: b.Actor,
		ClientID: b.ClientID, Confidence: 1, BaseVersion: version}
	if d.Type == "" {
		d.Type = DecisionType(c.Type) // unknown: refused by well_formed, naming it
	}
	p := &d.Payload
	switch c.Type {
	case CanvasNodeAdded:
		if c.Data != nil {
			n := c.Data.NodeChanges.apply(WorkflowNode{ID: c.NodeID, Type: c.Data.Type})
			if c.Data.Position != nil {
				n.Position = *c.Data.Position
			}
			p.Node = &n
		}
	case CanvasNodeUpdated:
		p.NodeID = c.NodeID
		if c.Data != nil {
			ch := c.Data.NodeChanges
			p.Changes = &ch
		}
	case CanvasNodeDeleted:
		p.NodeID = c.NodeID
	case CanvasNodeMoved:
		p.NodeID = c.NodeID
		if c.Data != nil {
			p.Position = c.Data.Position
		}
	case CanvasEdgeAdded, CanvasEdgeDeleted:
		if c.Edge != nil {
			p.From, p.To = c.Edge.From, c.Edge.To
		}
	}
	return d
}

// CanvasOutcome is what batch BatchID came to. Let through: Events (each
// change's validation and effects, in order), Version after them and the
// decision ids. Refused: Rejected (the one refused change, at Index; its
// rejection is the only event). Repeated: the batch was ruled on before,
// nothing is written (Rejected is set when it was refused then).
type CanvasOutcome struct {
	BatchID     string
	Events      []event.Payload
	Version     int
	DecisionIDs []string
	Corrections []Correction
	Rejected    *DecisionRejected
	Index       int
	Repeated    bool
}

// Canvas errors.
var (
	// ErrCanvasConflict: the batch was made on a version the workflow has
	// moved past (TOWOW_CANVAS_CONFLICT); nothing is written, the client
	// reloads and reapplies.
	ErrCanvasConflict = &event.Error{Code: "TOWOW_CANVAS_CONFLICT", Message: "the canvas changed since this version"}
	// ErrCanvasLocked: a structural change while the workflow runs or
	// after it ended (TOWOW_CANVAS_LOCKED): the server owns its structure
	// then; moves are still taken while it runs.
	ErrCanvasLocked = &event.Error{Code: "TOWOW_CANVAS_LOCKED", Message: "the workflow's structure cannot change now"}
)

// CanvasConflictError is ErrCanvasConflict with the versions.
type CanvasConflictError struct {
	BaseVersion, Version int
}

func (e *CanvasConflictError) Error() string {
	return fmt.Sprintf("%s: the changes were made on version %d, the workflow is at version %d: reload and reapply them",
		ErrCanvasConflict.Code, e.BaseVersion, e.Version)
}

// Is matches ErrCanvasConflict.
func (e *CanvasConflictError) Is(target error) bool { return target == ErrCanvasConflict }

// DecideCanvas rules on a batch of canvas changes: each change is a
// decision through the validators, on the workflow as the
// changes before it in the batch left it. All are let through or none:
// the first refused change's rejection is then the only event (recorded,
// as every refusal is). Before any validator: a structural batch on a
// stale BaseVersion is a *CanvasConflictError, and one on a workflow that
// is no longer a draft ErrCanvasLocked; neither writes anything. A batch
// ruled on before is Repeated. The error is also ErrWorkflowNotFound.
func (w *Workflow) DecideCanvas(b CanvasBatch, c DecisionContext) (CanvasOutcome, error) {
	if !w.Exists() {
		return CanvasOutcome{}, event.Errorf(ErrWorkflowNotFound, "no workflow")
	}
	if out, ok := w.canvasRepeat(b); ok {
		return out, nil
	}
	if b.structural() {
		if w.Status != WorkflowStatusDraft {
			return CanvasOutcome{}, event.Errorf(ErrCanvasLocked, "the workflow is %s: its structure is the server's until it ends, and fixed after; only moves are taken while it runs", w.Status)
		}
		if b.BaseVersion != w.Version {
			return CanvasOutcome{}, &CanvasConflictError{BaseVersion: b.BaseVersion, Version: w.Version}
		}
	}
	next := w.clone()
	var out CanvasOutcome
	for i := range b.Changes {
		d := b.decision(i, next.Version)
		if errs := next.checkCanvasChange(b.Changes[i]); errs != nil {
			r := &DecisionRejected{WorkflowID: w.ID, Decision: d, Rule: "well_formed", Reason: errs[0].Message, Errors: errs,
				Version: w.Version, DecidedAt: c.Now}
			return CanvasOutcome{Events: []event.Payload{r}, Version: w.Version, Rejected: r, Index: i}, nil
		}
		later := c
		for _, lc := range b.Changes[i+1:] {
			if lc.Type == CanvasEdgeAdded && lc.Edge != nil {
				later.laterEdges = append(later.laterEdges, *lc.Edge)
			}
		}
		evs, err := next.Decide(d, later)
		if err != nil {
			return CanvasOutcome{}, err
		}
		if r := RejectionOf(evs); r != nil {
			r.Version = w.Version // the workflow stays as it was
			return CanvasOutcome{Events: evs, Version: w.Version, Rejected: r, Index: i}, nil
		}
		for _, ev := range evs {
			next.Apply(ev)
			if v, ok := ev.(*DecisionValidated); ok {
				out.DecisionIDs = append(out.DecisionIDs, v.Decision.DecisionID)
				out.Corrections = append(out.Corrections, v.Corrections...)
			}
		}
		out.Events = append(out.Events, evs...)
	}
	out.Version = next.Version
	return out, nil
}

// checkCanvasChange refuses what a change says that no decision carries:
// a new type for an existing node.
func (w *Workflow) checkCanvasChange(c CanvasChange) []FieldError {
	if c.Type != CanvasNodeUpdated || c.Data == nil || c.Data.Type == "" {
		return nil
	}
	if n := w.Node(c.NodeID); n != nil && n.Type != c.Data.Type {
		return refuse("data.type", "node %s is a %s node: a node's type does not change (delete it and add a %s node)",
			c.NodeID, n.Type, c.Data.Type)
	}
	return nil
}

// canvasRepeat is the outcome of a batch whose decisions were ruled on
// before: the batch is all or nothing, so either all were let through or
// one was refused.
func (w *Workflow) canvasRepeat(b CanvasBatch) (CanvasOutcome, bool) {
	out := CanvasOutcome{Repeated: true, Version: w.Version}
	found := false
	for i := range b.Changes {
		id := CanvasDecisionID(b.BatchID, i)
		j := slices.IndexFunc(w.Decisions, func(r DecisionRecord) bool { return r.DecisionID == id })
		if j < 0 {
			continue
		}
		found = true
		if r := w.Decisions[j]; !r.Validated {
			out.Rejected = &DecisionRejected{WorkflowID: w.ID, Decision: b.decision(i, w.Version), Rule: r.Rule,
				Reason: fmt.Sprintf("batch %s was refused before (rule %s)", b.BatchID, r.Rule), Version: w.Version, DecidedAt: r.At}
			out.Index = i
		} else {
			out.DecisionIDs = append(out.DecisionIDs, id)
		}
	}
	return out, found
}

// clone copies the workflow deep enough to apply events to the copy
// (Apply replaces nodes and runs, it never writes into them).
func (w *Workflow) clone() *Workflow {
	c := *w
	c.Participants = slices.Clone(w.Participants)
	c.Nodes, c.Edges = slices.Clone(w.Nodes), slices.Clone(w.Edges)
	c.Runs = maps.Clone(w.Runs)
	c.Decisions = slices.Clone(w.Decisions)
	return &c
}
