package domain_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/towow/towow/domain"
)

func ExampleEncodePayload() {
	typ, version, data, err := domain.EncodePayload(&domain.FeedbackEvaluated{
		ChannelID:  "collab-abc12345",
		Accepts:    4,
		Rejects:    0,
		Negotiates: 1,
		AcceptRate: 0.8,
		Round:      2,
		Decision:   domain.DecisionFinalize,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	meta := domain.Metadata{
		CorrelationID: "d-abc12345",
		Actor:         domain.ActorChannelAdmin,
		SchemaVersion: version,
	}
	fmt.Println(typ, meta.SchemaVersion)
	fmt.Println(string(data))
	// Output:
	// towow.feedback.evaluated 1
	// {"channel_id":"collab-abc12345","accepts":4,"rejects":0,"negotiates":1,"accept_rate":0.8,"round":2,"decision":"finalize"}
}

func ExampleDecodePayload() {
	data := []byte(`{"channel_id":"collab-abc12345","demand_id":"d-abc12345","round":2,"max_rounds":5}`)
	p, err := domain.DecodePayload(domain.EventNegotiationRoundStarted, 1, data)
	if err != nil {
		fmt.Println(err)
		return
	}
	switch p := p.(type) {
	case *domain.NegotiationRoundStarted:
		fmt.Printf("round %d of %d in %s\n", p.Round, p.MaxRounds, p.ChannelID)
	}

	_, err = domain.DecodePayload(domain.EventNegotiationRoundStarted, 1, []byte(`{"round":2,"colour":"red"}`))
	fmt.Println(errors.Is(err, domain.ErrInvalidPayload))

	_, err = domain.DecodePayload(domain.EventNegotiationRoundStarted, 7, data)
	fmt.Println(err)
	// Output:
	// round 2 of 5 in collab-abc12345
	// true
	// domain: decode towow.negotiation.round_started payload: unknown schema version 7 (known versions: 1)
}

func ExampleCanonical() {
	for _, name := range []string{"plan.distributed", "channel.created", "towow.agent.withdrawn"} {
		t, _ := domain.Canonical(name)
		fmt.Println(name, "→", t)
	}
	// Output:
	// plan.distributed → towow.proposal.distributed
	// channel.created → towow.channel.created
	// towow.agent.withdrawn → towow.agent.withdrawn
}

func ExampleCatalog() {
	for _, s := range domain.Catalog()[:3] {
		fmt.Printf("%s v%d: %s\n", s.Type, s.SchemaVersion, s.Summary)
	}
	// Output:
	// towow.agent.deactivated v1: An agent was deactivated and is no longer invited.
	// towow.agent.offline v1: An agent went offline.
	// towow.agent.online v1: An agent came online.
}

// A workflow planned from an agreement takes decisions only through the
// Coordinator's validators: a cycle is refused and recorded, a new step
// is let through with its effects.
func ExampleWorkflow_Decide() {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	plan := domain.Proposal{Summary: "AI聚会", Assignments: []domain.Assignment{
		{AgentID: "bob", Role: "场地提供者"}, {AgentID: "ann", Role: "演讲嘉宾", Dependencies: []string{"bob"}}}}
	w := &domain.Workflow{}
	w.Apply(domain.PlanWorkflow(domain.PlanInput{DemandID: "d-1", Plan: plan, Now: now}))
	ctx := domain.DecisionContext{Now: now}

	evs, _ := w.Decide(domain.Decision{DecisionID: "d1", Type: domain.DecisionConnect, Actor: "user:alice", Confidence: 1,
		BaseVersion: 1, Payload: domain.DecisionPayload{From: "task-2", To: "task-1"}}, ctx)
	r := domain.RejectionOf(evs)
	fmt.Println(r.Rule, "-", r.Reason)

	evs, _ = w.Decide(domain.Decision{DecisionID: "d2", Type: domain.DecisionCreateNode, Actor: "user:alice", Confidence: 1,
		BaseVersion: 1, Payload: domain.DecisionPayload{Node: &domain.WorkflowNode{ID: "rehearsal", Type: domain.NodeTask,
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
