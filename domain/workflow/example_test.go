package workflow_test

import (
	"fmt"
	"time"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// A workflow planned from an agreement takes decisions only through the
// the validators: a cycle is refused and recorded, a new step
// is let through with its effects.
func ExampleWorkflow_Decide() {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	plan := negotiation.Proposal{Summary: "AI聚会", Assignments: []negotiation.Assignment{
		{AgentID: "bob", Role: "场地提供者"}, {AgentID: "ann", Role: "演讲嘉宾", Dependencies: []string{"bob"}}}}
	w := &workflow.Workflow{}
	w.Apply(workflow.PlanWorkflow(workflow.PlanInput{DemandID: "d-1", Plan: plan, Now: now}))
	ctx := workflow.DecisionContext{Now: now}

	evs, _ := w.Decide(workflow.Decision{DecisionID: "d1", Type: workflow.DecisionConnect, Actor: "user:alice", Confidence: 1,
		BaseVersion: 1, Payload: workflow.DecisionPayload{From: "task-2", To: "task-1"}}, ctx)
	r := workflow.RejectionOf(evs)
	fmt.Println(r.Rule, "-", r.Reason)

	evs, _ = w.Decide(workflow.Decision{DecisionID: "d2", Type: workflow.DecisionCreateNode, Actor: "user:alice", Confidence: 1,
		BaseVersion: 1, Payload: workflow.DecisionPayload{Node: &workflow.WorkflowNode{ID: "rehearsal", Type: workflow.NodeTask,
			Title: "彩排", AssigneeID: "ann"}, After: []string{"task-1"}, Before: []string{"task-2"}}}, ctx)
	for _, e := range evs {
		fmt.Println(e.EventType())
	}
	// Output:
	// acyclic - the change would make a cycle: a step would wait for itself
	// towow.decision.validated
	// towow.workflow.node_added
	// towow.workflow.edge_added
	// towow.workflow.edge_added
}
