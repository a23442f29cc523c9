package workflow

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestDecideCanvas: given a planned workflow (version 1), when a canvas
// batch comes, then it is let through whole, refused whole with one
// recorded rejection, or refused before any rule (conflict, locked) with
// nothing to write.
func TestDecideCanvas(t *testing.T) {
	started := append(planned(), &DecisionValidated{WorkflowID: "wf-x", Decision: decision("go", DecisionExecuteWorkflow, 1, DecisionPayload{}),
		Version: 2, DecidedAt: wfNow}, &WorkflowStarted{WorkflowID: "wf-x"})
	edited := append(planned(), &DecisionValidated{WorkflowID: "wf-x", Decision: decision("other", DecisionDeleteNode, 1, DecisionPayload{NodeID: "task-3"}),
		Version: 2, DecidedAt: wfNow}, &WorkflowNodeDeleted{WorkflowChange: WorkflowChange{WorkflowID: "wf-x", Version: 2}, NodeID: "task-3"})
	title := "彩排"
	rehearsal := CanvasChange{Type: CanvasNodeAdded, NodeID: "rehearsal", Data: &CanvasNodeData{Type: NodeTask,
		NodeChanges: NodeChanges{Title: &title, AssigneeID: new("a2")}, Position: &Position{X: 300, Y: 400}}}
	move := CanvasChange{Type: CanvasNodeMoved, NodeID: "task-1", Data: &CanvasNodeData{Position: &Position{X: 5, Y: 6}}}
	edge := func(typ CanvasChangeType, from, to string) CanvasChange {
		return CanvasChange{Type: typ, Edge: &WorkflowEdge{From: from, To: to}}
	}
	tests := []struct {
		name    string
		given   []event.Payload
		base    int
		changes []CanvasChange
		err     error    // refused before any rule
		rule    string   // the refusing rule
		index   int      // of the refused change
		events  []string // let through
		version int
	}{
		{name: "a node and its edges, all through", given: planned(), base: 1,
			changes: []CanvasChange{rehearsal, edge(CanvasEdgeAdded, "task-1", "rehearsal"), edge(CanvasEdgeAdded, "rehearsal", "milestone-2")},
			events: []string{"decision.validated", "workflow.node_added", "decision.validated", "workflow.edge_added",
				"decision.validated", "workflow.edge_added"}, version: 4},
		{name: "the second change closes a cycle: none goes through", given: planned(), base: 1,
			changes: []CanvasChange{rehearsal, edge(CanvasEdgeAdded, "milestone-2", "task-1")}, rule: "acyclic", index: 1},
		{name: "a task for someone outside the agreement", given: planned(), base: 1,
			changes: []CanvasChange{move, {Type: CanvasNodeUpdated, NodeID: "task-2", Data: &CanvasNodeData{NodeChanges: NodeChanges{AssigneeID: new("zz")}}}},
			rule:    "assignee", index: 1},
		{name: "a node's type does not change", given: planned(), base: 1,
			changes: []CanvasChange{{Type: CanvasNodeUpdated, NodeID: "task-2", Data: &CanvasNodeData{Type: NodeWait}}}, rule: "well_formed"},
		{name: "an edge without ends", given: planned(), base: 1, changes: []CanvasChange{{Type: CanvasEdgeAdded}}, rule: "well_formed"},
		{name: "an unknown change type", given: planned(), base: 1, changes: []CanvasChange{{Type: "node_renamed", NodeID: "task-1"}}, rule: "well_formed"},
		{name: "a stale structural batch conflicts", given: edited, base: 1,
			changes: []CanvasChange{move, edge(CanvasEdgeDeleted, "task-1", "task-2")}, err: ErrCanvasConflict},
		{name: "moves alone never conflict", given: edited, base: 1, changes: []CanvasChange{move},
			events: []string{"decision.validated", "workflow.node_moved"}, version: 2},
		{name: "structure is the server's while it runs", given: started, base: 2, changes: []CanvasChange{rehearsal}, err: ErrCanvasLocked},
		{name: "moves are taken while it runs", given: started, base: 1, changes: []CanvasChange{move},
			events: []string{"decision.validated", "workflow.node_moved"}, version: 2},
		{name: "a node moved after it was deleted", given: edited, base: 2,
			changes: []CanvasChange{{Type: CanvasNodeMoved, NodeID: "task-3", Data: &CanvasNodeData{Position: &Position{}}}}, rule: "references"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := foldWorkflow(tt.given...)
			b := CanvasBatch{BatchID: "cv-1", ClientID: "tab-a", Actor: "user:u", BaseVersion: tt.base, Changes: tt.changes}
			out, err := w.DecideCanvas(b, allowed)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || out.Events != nil {
					t.Fatalf("err %v, events %v; want %v and none", err, shortTypes(out.Events), tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.rule != "" {
				if out.Rejected == nil || out.Rejected.Rule != tt.rule || out.Index != tt.index || len(out.Events) != 1 ||
					out.Events[0] != out.Rejected || out.Rejected.Version != w.Version {
					t.Fatalf("outcome %+v (events %v); want rule %s at change %d, the rejection alone", out, shortTypes(out.Events), tt.rule, tt.index)
				}
				if want := CanvasDecisionID("cv-1", tt.index); out.Rejected.Decision.DecisionID != want {
					t.Fatalf("rejected decision %s, want %s", out.Rejected.Decision.DecisionID, want)
				}
				return
			}
			if out.Rejected != nil || !slices.Equal(shortTypes(out.Events), tt.events) || out.Version != tt.version {
				t.Fatalf("events %v version %d rejected %+v; want %v version %d", shortTypes(out.Events), out.Version, out.Rejected, tt.events, tt.version)
			}
			for _, ev := range out.Events {
				if v, ok := ev.(*DecisionValidated); ok && v.Decision.ClientID != "tab-a" {
					t.Fatalf("decision %+v lost the client id", v.Decision)
				}
			}
		})
	}
}

// TestDecideCanvasOnce: a batch sent again is ruled on once: let through,
// it is repeated with nothing written; refused, it is refused again.
func TestDecideCanvasOnce(t *testing.T) {
	title := "新标题"
	ok := CanvasBatch{BatchID: "cv-ok", ClientID: "tab-a", Actor: "user:u", BaseVersion: 1, Changes: []CanvasChange{
		{Type: CanvasNodeUpdated, NodeID: "task-2", Data: &CanvasNodeData{NodeChanges: NodeChanges{Title: &title}}},
		{Type: CanvasEdgeDeleted, Edge: &WorkflowEdge{From: "task-1", To: "task-3"}}}}
	given := planned()
	out, err := foldWorkflow(given...).DecideCanvas(ok, allowed)
	if err != nil || out.Version != 3 || !slices.Equal(out.DecisionIDs, []string{"cv-ok-0", "cv-ok-1"}) {
		t.Fatalf("first: %+v %v", out, err)
	}
	given = append(given, out.Events...)
	w := foldWorkflow(given...)
	if w.Node("task-2").Title != title || w.HasEdge("task-1", "task-3") {
		t.Fatalf("the batch did not take effect: %+v %v", w.Node("task-2"), edgeList(w.Edges))
	}
	again, err := w.DecideCanvas(ok, allowed) // base 1 is stale now: a repeat is recognised first
	if err != nil || !again.Repeated || again.Events != nil || again.Version != 3 || again.Rejected != nil {
		t.Fatalf("repeat: %+v %v", again, err)
	}
	bad := CanvasBatch{BatchID: "cv-bad", ClientID: "tab-a", Actor: "user:u", BaseVersion: 3, Changes: []CanvasChange{
		{Type: CanvasEdgeAdded, Edge: &WorkflowEdge{From: "milestone-2", To: "task-1"}}}}
	out, err = w.DecideCanvas(bad, allowed)
	if err != nil || out.Rejected == nil {
		t.Fatalf("refused: %+v %v", out, err)
	}
	w = foldWorkflow(append(given, out.Events...)...)
	again, err = w.DecideCanvas(bad, allowed)
	if err != nil || !again.Repeated || again.Rejected == nil || again.Rejected.Rule != "acyclic" || again.Events != nil {
		t.Fatalf("repeat of a refusal: %+v %v", again, err)
	}
}

// TestPlaceNew: a node created without a position goes right of what it
// follows, else left of what it precedes, else below everything; where
// that spot is taken, on the first free row below it, never over another
// node.
func TestPlaceNew(t *testing.T) {
	w := foldWorkflow(planned()...)
	t1, m2 := w.Node("task-1").Position, w.Node("milestone-2").Position
	lowest := 0.0
	for _, n := range w.Nodes {
		lowest = max(lowest, n.Position.Y)
	}
	free := func(p Position) bool {
		for _, n := range w.Nodes {
			if math.Abs(n.Position.X-p.X) < nodeWidth && math.Abs(n.Position.Y-p.Y) < nodeHeight {
				return false
			}
		}
		return true
	}
	for _, tt := range []struct {
		name          string
		after, before []string
		want          Position // X, and Y when the spot is free
	}{
		{"after", []string{"task-1"}, []string{"milestone-2"}, Position{X: t1.X + 260, Y: t1.Y}},
		{"before", nil, []string{"milestone-2"}, Position{X: m2.X - 260, Y: m2.Y}},
		{"neither", nil, nil, Position{X: 40, Y: lowest + 120}},
	} {
		got := w.placeNew(tt.after, tt.before)
		if got.X != tt.want.X || got.Y < tt.want.Y || !free(got) || (free(tt.want) && got != tt.want) {
			t.Errorf("%s: %+v, want %+v or the first free row below it", tt.name, got, tt.want)
		}
	}
	// Twice after the same node: the second goes below the first.
	evs, err := w.Decide(decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeMilestone, Title: "a"},
		After: []string{"task-1"}}), allowed)
	if err != nil || RejectionOf(evs) != nil {
		t.Fatal(err, evs)
	}
	for _, e := range evs {
		w.Apply(e)
	}
	first := w.Nodes[len(w.Nodes)-1].Position
	if second := w.placeNew([]string{"task-1"}, nil); second.X != first.X || second.Y < first.Y+nodeHeight || !free(second) {
		t.Fatalf("the second node at %+v, the first at %+v", second, first)
	}
}
