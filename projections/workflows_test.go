package projections_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/projections"
)

// workflowStreams builds, for suffix s, a few workflow streams of random
// events the domain's fold takes: creation, validated and rejected
// decisions, node and edge changes, moves, execution (started, completed,
// failed with and without retry, skipped), ends and conversation messages
// (which the fold ignores but which move the cursor), and one stream whose
// first event is a decision refused before the workflow existed. The
// events of the streams are interleaved.
func workflowStreams(rng *rand.Rand, s string) []scripted {
	at := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	nodeIDs := []string{"n1", "n2", "n3", "n4"}
	node := func(id string) workflow.WorkflowNode {
		n := workflow.WorkflowNode{ID: id, Type: []workflow.NodeType{workflow.NodeTask, workflow.NodeApproval, workflow.NodeMilestone}[rng.IntN(3)],
			Title: "step " + id, AssigneeID: []string{"a1", "a2", ""}[rng.IntN(3)], Position: workflow.Position{X: float64(rng.IntN(500)) / 3, Y: 40}}
		if rng.IntN(3) == 0 {
			n.Body = map[string]string{}
		}
		return n
	}
	var per [][]scripted
	for k := range 4 {
		id := fmt.Sprintf("wf-%s%d", s, k)
		stream := workflow.WorkflowStream(id)
		var evs []scripted
		add := func(p event.Payload) {
			body, err := json.Marshal(p)
			if err != nil {
				panic(err)
			}
			evs = append(evs, scripted{stream, eventstore.EventData{Type: p.EventType(), Payload: body,
				Metadata: event.Metadata{CorrelationID: "d-" + s}}})
		}
		at = at.Add(time.Minute)
		if k == 3 {
			add(&workflow.DecisionRejected{WorkflowID: id, Decision: workflow.Decision{DecisionID: "early", Type: workflow.DecisionConnect, Actor: "user:u1"},
				Rule: "workflow_state", Reason: "no workflow", DecidedAt: at})
		}
		var nodes []workflow.WorkflowNode
		for _, n := range nodeIDs[:2+rng.IntN(2)] {
			nodes = append(nodes, node(n))
		}
		add(&workflow.WorkflowCreated{WorkflowID: id, DemandID: "d-" + s, ChannelID: "collab-" + s, UserID: "u" + s, Title: "plan",
			Participants: []string{"a1", "a2"}, Nodes: nodes, Edges: []workflow.WorkflowEdge{{From: nodes[0].ID, To: nodes[1].ID}}, CreatedAt: at})
		version := 1
		for range 6 + rng.IntN(14) {
			at = at.Add(time.Second * time.Duration(1+rng.IntN(90)))
			n := nodeIDs[rng.IntN(len(nodeIDs))]
			change := func() workflow.WorkflowChange {
				version++
				add(&workflow.DecisionValidated{WorkflowID: id, Decision: workflow.Decision{DecisionID: fmt.Sprint("dec", version), Type: workflow.DecisionUpdateNode,
					Actor: "conversation_agent", Confidence: 0.8}, Version: version, DecidedAt: at})
				return workflow.WorkflowChange{WorkflowID: id, DecisionID: fmt.Sprint("dec", version), Version: version}
			}
			switch rng.IntN(14) {
			case 0:
				add(&workflow.WorkflowNodeAdded{WorkflowChange: change(), Node: node(fmt.Sprint("x", version))})
			case 1:
				add(&workflow.WorkflowNodeUpdated{WorkflowChange: change(), Node: node(n)})
			case 2:
				add(&workflow.WorkflowNodeDeleted{WorkflowChange: change(), NodeID: n})
			case 3:
				add(&workflow.WorkflowNodeMoved{WorkflowChange: workflow.WorkflowChange{WorkflowID: id, ClientID: "tab1", Version: version}, NodeID: n,
					Position: workflow.Position{X: rng.Float64() * 800, Y: -0.5}})
			case 4:
				add(&workflow.WorkflowEdgeAdded{WorkflowChange: change(), Edge: workflow.WorkflowEdge{From: n, To: nodeIDs[rng.IntN(len(nodeIDs))]}})
			case 5:
				add(&workflow.WorkflowEdgeDeleted{WorkflowChange: change(), Edge: workflow.WorkflowEdge{From: nodes[0].ID, To: nodes[1].ID}})
			case 6:
				add(&workflow.WorkflowStarted{WorkflowID: id, NodeCount: len(nodes)})
			case 7, 8:
				add(&workflow.NodeStarted{WorkflowID: id, NodeID: n, Attempt: 1 + rng.IntN(2), Deadline: at.Add(time.Hour)})
			case 9:
				add(&workflow.NodeCompleted{WorkflowID: id, NodeID: n, Attempt: 1, Result: workflow.NodeResult{Summary: "done", By: "a1"}})
			case 10:
				retry := rng.IntN(2) == 0
				f := &workflow.NodeFailed{WorkflowID: id, NodeID: n, Attempt: 1, Error: "timeout", Retry: retry}
				if retry {
					f.RetryAt = at.Add(time.Minute)
				}
				add(f)
			case 11:
				add(&workflow.NodeSkipped{WorkflowID: id, NodeID: n, Reason: "not needed"})
			case 12:
				add(&workflow.DecisionRejected{WorkflowID: id, Decision: workflow.Decision{DecisionID: fmt.Sprint("rej", version), Type: workflow.DecisionConnect,
					Actor: "user:u1"}, Rule: "acyclic", Reason: "cycle", Version: version, DecidedAt: at})
			default:
				add(&workflow.ConversationMessage{WorkflowID: id, MessageID: fmt.Sprint("m", version), Text: "move it", SentAt: at})
			}
		}
		switch rng.IntN(4) {
		case 0:
			add(&workflow.WorkflowCompleted{WorkflowID: id, Status: "completed"})
		case 1:
			add(&workflow.WorkflowFailed{WorkflowID: id, Status: "failed", FailedNode: "n1", Error: "timeout"})
		case 2:
			add(&workflow.WorkflowCancelled{WorkflowID: id, Reason: "changed plans"})
		}
		per = append(per, evs)
	}
	var out []scripted
	for len(per) > 0 {
		i := rng.IntN(len(per))
		out = append(out, per[i][0])
		if per[i] = per[i][1:]; len(per[i]) == 0 {
			per = append(per[:i], per[i+1:]...)
		}
	}
	return out
}

// TestWorkflowsModel folds workflow streams live and checks each row
// against the domain's fold of its stream: the same workflow, the cursor
// of the stream's last event, its running tasks in their assignees'
// inboxes and its running approvals for the demand's user; and a row
// behind its stream is reported stale.
func TestWorkflowsModel(t *testing.T) {
	pool := dbtest.New(t)
	s := eventstore.New(pool, eventstore.Options{})
	ctx := context.Background()
	evs := workflowStreams(rand.New(rand.NewPCG(5, 6)), "1")
	appendScripted(t, s, evs)
	r := projections.NewRunner(pool, s, nil, nil)
	if _, err := r.CatchUp(ctx, projections.Workflows{}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, e := range evs {
		ids[e.stream] = true
	}
	tasks, approvals := map[string][]string{}, map[string][]string{}
	for stream := range ids {
		id := stream[len(workflow.WorkflowStream("")):]
		want := &workflow.Workflow{}
		if _, err := s.Fold(ctx, stream, want.Apply); err != nil {
			t.Fatal(err)
		}
		last, err := eventstore.ReadEvery(ctx, s, 0, eventstore.Filter{StreamID: stream})
		if err != nil {
			t.Fatal(err)
		}
		got, err := projections.GetWorkflow(ctx, pool, id)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Fresh() || got.Cursor != last[len(last)-1].Position {
			t.Errorf("%s: cursor %d, stream head %d, want both %d", id, got.Cursor, got.StreamHead, last[len(last)-1].Position)
		}
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got.Workflow)
		if string(wj) != string(gj) {
			t.Errorf("%s: read model\n%s\nfold\n%s", id, gj, wj)
		}
		for _, n := range want.Nodes {
			if want.Run(n.ID).Status != workflow.NodeStatusRunning {
				continue
			}
			switch n.Type {
			case workflow.NodeTask:
				tasks[n.AssigneeID] = append(tasks[n.AssigneeID], id+"/"+n.ID)
			case workflow.NodeApproval:
				approvals[want.UserID] = append(approvals[want.UserID], id+"/"+n.ID)
			}
		}
	}
	if len(tasks)+len(approvals) == 0 {
		t.Fatal("the streams left no task or approval running: nothing to check the open nodes against")
	}
	open := func(f func(context.Context, projections.DB, string) ([]projections.OpenNode, error), who string) []string {
		rows, err := f(ctx, pool, who)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range rows {
			out = append(out, o.WorkflowID+"/"+o.Node.ID)
		}
		return out
	}
	for _, who := range []string{"a1", "a2", ""} {
		if got := open(projections.WorkflowTasks, who); !sameSet(got, tasks[who]) {
			t.Errorf("tasks of %q: %v, want %v", who, got, tasks[who])
		}
	}
	if got := open(projections.PendingApprovals, "u1"); !sameSet(got, approvals["u1"]) {
		t.Errorf("approvals of u1: %v, want %v", got, approvals["u1"])
	}
	if got, err := projections.GetWorkflow(ctx, pool, "wf-none"); err != nil || got.Workflow.Exists() || !got.Fresh() {
		t.Errorf("no workflow: %+v, %v", got, err)
	}
	// An event the model has not folded yet: the row is stale.
	body, _ := json.Marshal(&workflow.WorkflowCancelled{WorkflowID: "wf-10"})
	if _, err := s.Append(ctx, workflow.WorkflowStream("wf-10"), eventstore.AnyVersion,
		eventstore.EventData{Type: workflow.EventWorkflowCancelled, Payload: body}); err != nil {
		t.Fatal(err)
	}
	if got, err := projections.GetWorkflow(ctx, pool, "wf-10"); err != nil || got.Fresh() {
		t.Errorf("a row behind its stream: %+v, %v (want stale)", got, err)
	}
}

// sameSet reports whether a and b hold the same strings in some order.
func sameSet(a, b []string) bool {
	count := map[string]int{}
	for _, x := range a {
		count[x]++
	}
	for _, x := range b {
		count[x]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return len(a) == len(b)
}
