package mcpserver_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/mcpserver"
)

// TestMCPWorkflowTools: after alice's negotiation ends in an agreement,
// her session reads the workflow it became (by demand and by id), adds an
// approval step with a decision, sees a refused decision come back as a
// tool error naming TOWOW_DECISION_REJECTED and its rule, talks to the
// conversation agent and gets its reply, runs the workflow, finds her
// approval waiting and approves it. Bob sees none of it (404, and no
// approvals); carol, a viewer, reads it but may not change it (403) nor
// answer alice's approval (TOWOW_WORKFLOW_007), only her own.
func TestMCPWorkflowTools(t *testing.T) {
	tw := startTowow(t)
	var bulk struct{ Tokens map[string]string }
	profiles := []negotiation.AgentProfile{externalAgent("user_agent_ext1", "外部一号"), externalAgent("user_agent_ext2", "外部二号"),
		externalAgent("user_agent_ext3", "外部三号")}
	if st := tw.rest(t, "POST", "/api/v1/agents/bulk", adminToken, profiles, &bulk); st != 200 || len(bulk.Tokens) != 3 {
		t.Fatalf("bulk: %d %+v", st, bulk)
	}
	aliceToken := userToken(t, "alice")
	sessions := map[string]*mcp.ClientSession{}
	for who, token := range map[string]string{"alice": aliceToken, "bob": userToken(t, "bob"), "carol": userToken(t, "carol")} {
		cs, err := tw.connect(t, token)
		if err != nil {
			t.Fatal(err)
		}
		sessions[who] = cs
	}
	alice, bob, carol := sessions["alice"], sessions["bob"], sessions["carol"]

	// Before the agreement: no workflow yet.
	var sub mcpserver.SubmitDemandOutput
	call(t, alice, "submit_demand", map[string]any{"text": "我想在北京办一场AI主题聚会，需要3位活动策划"}, &sub)
	if msg := toolError(t, alice, "get_workflow", map[string]any{"demand_id": sub.DemandID}); !strings.Contains(msg, "no workflow (yet)") {
		t.Errorf("the workflow before the agreement: %q", msg)
	}
	if msg := toolError(t, alice, "get_workflow", map[string]any{}); !strings.Contains(msg, "give workflow_id") {
		t.Errorf("get_workflow without an id: %q", msg)
	}
	out, _, _ := drive(t, alice, bulk.Tokens, sub.DemandID)
	if out.Outcome != "finalized" {
		t.Fatalf("outcome: %+v", out)
	}

	// Alice reads her workflow, by her negotiation and by its id.
	var plan mcpserver.WorkflowPlan
	call(t, alice, "get_workflow", map[string]any{"demand_id": sub.DemandID}, &plan)
	if plan.WorkflowID == "" || plan.DemandID != sub.DemandID || plan.Status != "draft" || plan.Version < 1 || plan.Owner != "alice" ||
		len(plan.Participants) != 3 || len(plan.Steps) < 3 {
		t.Fatalf("alice's workflow: %+v", plan)
	}
	var byID mcpserver.WorkflowPlan
	call(t, alice, "get_workflow", map[string]any{"workflow_id": plan.WorkflowID}, &byID)
	if byID.Plan != plan.Plan || byID.Version != plan.Version {
		t.Fatalf("by id:\n%s\nby demand:\n%s", byID.Plan, plan.Plan)
	}
	tasks := 0
	for i, st := range plan.Steps {
		if st.NodeID == "" || st.Title == "" || st.Status != "pending" || !strings.Contains(plan.Plan, st.Title) {
			t.Errorf("step %d: %+v", i, st)
		}
		if st.Type == "task" {
			tasks++
			if !strings.HasPrefix(st.Who, "外部") || !strings.HasPrefix(st.AssigneeID, "user_agent_ext") {
				t.Errorf("task %d: who %q, assignee %q", i, st.Who, st.AssigneeID)
			}
		}
		for _, a := range st.After { // every step after the ones it waits for
			if j := slices.IndexFunc(plan.Steps, func(s mcpserver.PlanStep) bool { return s.NodeID == a }); j < 0 || j >= i {
				t.Errorf("step %d (%s) after %s, at %d", i, st.NodeID, a, j)
			}
		}
	}
	if tasks != 3 {
		t.Errorf("%d tasks, want one per participant", tasks)
	}
	// The prose names people and steps, not ids.
	for _, id := range []string{"user_agent_", "task-", "milestone-", plan.WorkflowID} {
		if strings.Contains(plan.Plan, id) {
			t.Errorf("the plan's text shows the id %s:\n%s", id, plan.Plan)
		}
	}
	t.Logf("alice's plan:\n%s", plan.Plan)

	// A decision: an approval step, answered by its owner (no approver
	// named), with nothing before it.
	var dec mcpserver.DecideOutput
	call(t, alice, "decide_workflow", map[string]any{"workflow_id": plan.WorkflowID, "decision_type": "create_node",
		"base_version": plan.Version, "payload": map[string]any{"node": map[string]any{"type": "approval", "title": "确认预算",
			"description": "预算不超过两万元"}}}, &dec)
	if dec.Version != plan.Version+1 || dec.NodeID == "" || dec.DecisionID == "" || dec.Repeated || dec.Cursor == 0 || dec.Workflow == nil ||
		dec.Workflow.Version != dec.Version {
		t.Fatalf("create_node: %+v", dec)
	}
	budget := dec.NodeID
	i := slices.IndexFunc(dec.Workflow.Steps, func(s mcpserver.PlanStep) bool { return s.NodeID == budget })
	if i < 0 || dec.Workflow.Steps[i].Type != "approval" || dec.Workflow.Steps[i].Approver != "alice" ||
		dec.Workflow.Steps[i].Who != "alice (the owner)" || !strings.Contains(dec.Workflow.Plan, "确认预算 [approval, pending] — alice") {
		t.Fatalf("the new step: %+v\n%s", dec.Workflow.Steps, dec.Workflow.Plan)
	}
	version := dec.Version

	// Refused decisions: the Coordinator's 422 as a tool error naming the
	// rule and the field; nothing changes.
	for _, tc := range []struct {
		name string
		args map[string]any
		want []string
	}{
		{"a stale base_version", map[string]any{"decision_type": "delete_node", "base_version": version - 1,
			"payload": map[string]any{"node_id": budget}}, []string{"TOWOW_DECISION_REJECTED (422)", "rule version", "base_version"}},
		{"an assignee outside the agreement", map[string]any{"decision_type": "create_node", "base_version": version,
			"payload": map[string]any{"node": map[string]any{"type": "task", "title": "拍照", "assignee_id": "user_agent_nobody"}}},
			[]string{"TOWOW_DECISION_REJECTED (422)", "rule assignee", "payload.node.assignee_id", "user_agent_nobody"}},
		{"a step after itself", map[string]any{"decision_type": "connect", "base_version": version,
			"payload": map[string]any{"from": budget, "to": budget}}, []string{"TOWOW_DECISION_REJECTED (422)", "rule references"}},
	} {
		args := tc.args
		args["workflow_id"] = plan.WorkflowID
		msg := toolError(t, alice, "decide_workflow", args)
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q does not say %q", tc.name, msg, w)
			}
		}
		t.Logf("%s: %s", tc.name, msg)
	}
	if msg := toolError(t, alice, "decide_workflow", map[string]any{"workflow_id": plan.WorkflowID, "decision_type": "rename_workflow",
		"base_version": version}); !strings.Contains(msg, "decision_type") {
		t.Errorf("an unknown decision type: %q", msg)
	}
	call(t, alice, "get_workflow", map[string]any{"workflow_id": plan.WorkflowID}, &plan)
	if plan.Version != version || len(plan.Steps) != len(dec.Workflow.Steps) {
		t.Fatalf("after the refusals: version %d, %d steps", plan.Version, len(plan.Steps))
	}

	// Bob: alice's workflow does not exist for him, and nothing waits for him.
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"get_workflow", map[string]any{"workflow_id": plan.WorkflowID}},
		{"get_workflow", map[string]any{"demand_id": sub.DemandID}},
		{"decide_workflow", map[string]any{"workflow_id": plan.WorkflowID, "decision_type": "execute_workflow", "base_version": version}},
		{"send_workflow_message", map[string]any{"workflow_id": plan.WorkflowID, "text": "进展如何？", "wait_seconds": 0}},
		{"get_workflow_messages", map[string]any{"workflow_id": plan.WorkflowID}},
		{"answer_approval", map[string]any{"workflow_id": plan.WorkflowID, "node_id": budget, "approved": true}},
	} {
		msg := toolError(t, bob, tc.tool, tc.args)
		if !strings.Contains(msg, "TOWOW_NOT_FOUND (404)") || strings.Contains(msg, "确认预算") {
			t.Errorf("bob's %s: %q", tc.tool, msg)
		}
	}

	// Carol, a viewer: she reads it, a change is the API's 403.
	if st := tw.rest(t, "PUT", "/api/v1/negotiations/"+sub.DemandID+"/collaborators/carol", aliceToken, map[string]string{"role": "viewer"}, nil); st != 200 {
		t.Fatalf("share with carol: %d", st)
	}
	var carols mcpserver.WorkflowPlan
	call(t, carol, "get_workflow", map[string]any{"demand_id": sub.DemandID}, &carols)
	if carols.WorkflowID != plan.WorkflowID || carols.Version != version {
		t.Fatalf("carol's view: %+v", carols)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"decide_workflow", map[string]any{"workflow_id": plan.WorkflowID, "decision_type": "delete_node", "base_version": version,
			"payload": map[string]any{"node_id": budget}}},
		{"send_workflow_message", map[string]any{"workflow_id": plan.WorkflowID, "text": "删掉预算审批"}},
	} {
		if msg := toolError(t, carol, tc.tool, tc.args); !strings.Contains(msg, "TOWOW_AUTH_002 (403)") {
			t.Errorf("carol's %s: %q", tc.tool, msg)
		}
	}

	// The conversation agent answers alice: it adds the step she asks
	// for (a decision through the Coordinator) and says so.
	const ask = "在活动当天之前加一个彩排"
	var reply mcpserver.MessageOutput
	call(t, alice, "send_workflow_message", map[string]any{"workflow_id": plan.WorkflowID, "text": ask, "wait_seconds": 90}, &reply)
	if reply.MessageID == "" || reply.Cursor == 0 || !reply.Done || !strings.Contains(reply.Reply, "彩排") || reply.Text != ask ||
		reply.UserID != "alice" || len(reply.Steps) == 0 || reply.Steps[0].Action != "create_node" || reply.Steps[0].Rejected {
		t.Fatalf("the reply: %+v", reply)
	}
	t.Logf("the agent: %s (%d steps: %+v)", reply.Reply, len(reply.Steps), reply.Steps)
	call(t, alice, "get_workflow", map[string]any{"workflow_id": plan.WorkflowID}, &plan)
	if plan.Version != version+1 || !strings.Contains(plan.Plan, "彩排 [milestone, pending]") || !strings.Contains(plan.Plan, "“彩排”") {
		t.Fatalf("after the agent's change, version %d:\n%s", plan.Version, plan.Plan)
	}
	var conv mcpserver.MessagesOutput
	call(t, alice, "get_workflow_messages", map[string]any{"workflow_id": plan.WorkflowID}, &conv)
	if conv.Total != 1 || len(conv.Turns) != 1 || conv.Turns[0].Reply != reply.Reply {
		t.Fatalf("the conversation: %+v", conv)
	}
	call(t, carol, "get_workflow_messages", map[string]any{"workflow_id": plan.WorkflowID, "message_id": reply.MessageID}, &conv)
	if len(conv.Turns) != 1 || !conv.Turns[0].Done || conv.Turns[0].Reply != reply.Reply {
		t.Fatalf("the turn, as carol reads it: %+v", conv)
	}
	// Without waiting: the message is taken, the reply comes later.
	var quick mcpserver.MessageOutput
	call(t, alice, "send_workflow_message", map[string]any{"workflow_id": plan.WorkflowID, "text": "有哪些步骤？", "wait_seconds": 0}, &quick)
	if quick.MessageID == "" || quick.Waited > 5 {
		t.Fatalf("a message without waiting: %+v", quick)
	}
	call(t, alice, "get_workflow_messages", map[string]any{"workflow_id": plan.WorkflowID, "message_id": quick.MessageID, "wait_seconds": 90}, &conv)
	if len(conv.Turns) != 1 || !conv.Turns[0].Done || conv.Turns[0].Reply == "" {
		t.Fatalf("the second reply: %+v", conv)
	}

	// A second approval, carol's; then alice runs the workflow.
	call(t, alice, "get_workflow", map[string]any{"workflow_id": plan.WorkflowID}, &plan)
	var guests mcpserver.DecideOutput
	call(t, alice, "decide_workflow", map[string]any{"workflow_id": plan.WorkflowID, "decision_type": "create_node",
		"base_version": plan.Version, "payload": map[string]any{"node": map[string]any{"id": "guests", "type": "approval",
			"title": "确认嘉宾名单", "approver": "carol"}}}, &guests)
	if guests.NodeID != "guests" || !strings.Contains(guests.Workflow.Plan, "确认嘉宾名单 [approval, pending] — carol\n") {
		t.Fatalf("carol's approval: %+v", guests)
	}
	var run mcpserver.DecideOutput
	call(t, alice, "decide_workflow", map[string]any{"workflow_id": plan.WorkflowID, "decision_type": "execute_workflow",
		"base_version": guests.Version}, &run)
	if run.Workflow == nil || run.Workflow.Status != "running" || run.NodeID != "" || run.Version != guests.Version+1 {
		t.Fatalf("execute: %+v", run)
	}
	if msg := toolError(t, alice, "decide_workflow", map[string]any{"workflow_id": plan.WorkflowID, "decision_type": "execute_workflow",
		"base_version": run.Version}); !strings.Contains(msg, "rule workflow_state") {
		t.Errorf("a second run: %q", msg)
	}

	// Each approver's list holds their own approval once it runs.
	pending := func(cs *mcp.ClientSession, node string) mcpserver.PendingApproval {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			var list mcpserver.ApprovalsOutput
			call(t, cs, "list_pending_approvals", map[string]any{}, &list)
			if len(list.Approvals) > 1 {
				t.Fatalf("more than one approval waits: %+v", list.Approvals)
			}
			if len(list.Approvals) == 1 && list.Approvals[0].NodeID == node {
				return list.Approvals[0]
			}
		}
		t.Fatalf("%s never waited", node)
		return mcpserver.PendingApproval{}
	}
	mine := pending(alice, budget)
	if mine.WorkflowID != plan.WorkflowID || mine.DemandID != sub.DemandID || mine.Title != "确认预算" || mine.Description != "预算不超过两万元" ||
		mine.WorkflowTitle != plan.Title {
		t.Fatalf("alice's approval: %+v", mine)
	}
	if theirs := pending(carol, "guests"); theirs.Title != "确认嘉宾名单" {
		t.Fatalf("carol's approval: %+v", theirs)
	}
	var none mcpserver.ApprovalsOutput
	call(t, bob, "list_pending_approvals", nil, &none)
	if none.Approvals == nil || len(none.Approvals) != 0 {
		t.Fatalf("bob's approvals: %+v", none)
	}
	call(t, alice, "get_workflow", map[string]any{"workflow_id": plan.WorkflowID}, &plan)
	if !strings.Contains(plan.Plan, "确认预算 [approval, running] — alice (the owner)") ||
		!strings.Contains(plan.Plan, "waiting for alice's approval") {
		t.Errorf("the running plan:\n%s", plan.Plan)
	}

	// Only its approver answers an approval.
	for _, tc := range []struct {
		who  *mcp.ClientSession
		node string
	}{{carol, budget}, {alice, "guests"}} {
		if msg := toolError(t, tc.who, "answer_approval", map[string]any{"workflow_id": plan.WorkflowID, "node_id": tc.node,
			"approved": true}); !strings.Contains(msg, "TOWOW_WORKFLOW_007 (403)") {
			t.Errorf("someone else answers %s: %q", tc.node, msg)
		}
	}
	var ans mcpserver.AnswerApprovalOutput
	call(t, alice, "answer_approval", map[string]any{"workflow_id": plan.WorkflowID, "node_id": budget, "approved": true,
		"comment": "预算可以"}, &ans)
	if ans.WorkflowID != plan.WorkflowID || ans.NodeID != budget || !ans.Approved || ans.Cursor == 0 {
		t.Fatalf("alice's answer: %+v", ans)
	}
	if msg := toolError(t, alice, "answer_approval", map[string]any{"workflow_id": plan.WorkflowID, "node_id": budget,
		"approved": true}); !strings.Contains(msg, "TOWOW_WORKFLOW_002 (409)") {
		t.Errorf("answered twice: %q", msg)
	}
	if msg := toolError(t, alice, "answer_approval", map[string]any{"workflow_id": plan.WorkflowID, "node_id": budget}); !strings.Contains(msg, "approved") {
		t.Errorf("an answer without approved: %q", msg)
	}
	call(t, alice, "get_workflow", map[string]any{"workflow_id": plan.WorkflowID}, &plan)
	i = slices.IndexFunc(plan.Steps, func(s mcpserver.PlanStep) bool { return s.NodeID == budget })
	if i < 0 || plan.Steps[i].Status != "completed" || plan.Steps[i].Outcome == "" {
		t.Fatalf("the approved step: %+v", plan.Steps)
	}
	call(t, alice, "list_pending_approvals", nil, &none)
	if len(none.Approvals) != 0 {
		t.Fatalf("alice's approvals after her answer: %+v", none)
	}
	t.Logf("the running plan:\n%s", plan.Plan)
}
