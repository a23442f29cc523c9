package workflow

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

var wfNow = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// agreedPlan: a venue (a1), a speaker (a2) who depends on the venue by
// agent id, a photographer (a3) who depends on it by role and on nobody
// by name, and a two-milestone timeline whose first names the venue.
func agreedPlan() negotiation.Proposal {
	return negotiation.Proposal{Summary: "AI聚会", Assignments: []negotiation.Assignment{
		{AgentID: "a1", DisplayName: "Bob", Role: "场地提供者", Need: "场地", Responsibility: "提供会议室"},
		{AgentID: "a2", DisplayName: "Ann", Role: "演讲嘉宾", Dependencies: []string{"a1"}},
		{AgentID: "a3", DisplayName: "Cai", Role: "摄影师", Dependencies: []string{"场地提供者", "nobody"}, SubChannelID: "collab-x-1"},
	}, Timeline: &negotiation.Timeline{Milestones: []negotiation.Milestone{{Name: "确定场地", Date: "第一周", Deliverable: "场地合同"}, {Name: "活动举行", Date: "第三周"}}}}
}

// planned is the given workflow: created from agreedPlan.
func planned() []event.Payload {
	return []event.Payload{PlanWorkflow(PlanInput{DemandID: "d-x", ChannelID: "collab-x", UserID: "u", Plan: agreedPlan(), Now: wfNow})}
}

func foldWorkflow(events ...event.Payload) *Workflow {
	w := &Workflow{}
	for _, e := range events {
		w.Apply(e)
	}
	return w
}

func edgeList(es []WorkflowEdge) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.From+">"+e.To)
	}
	return out
}

func shortTypes(events []event.Payload) []string {
	var out []string
	for _, e := range events {
		out = append(out, strings.TrimPrefix(string(e.EventType()), "towow."))
	}
	return out
}

func TestPlanWorkflow(t *testing.T) {
	wf := planned()[0].(*WorkflowCreated)
	var nodes []string
	for _, n := range wf.Nodes {
		nodes = append(nodes, n.ID+":"+string(n.Type)+":"+n.AssigneeID)
	}
	wantNodes := []string{"task-1:task:a1", "task-2:task:a2", "task-3:task:a3", "milestone-1:milestone:", "milestone-2:milestone:"}
	wantEdges := []string{"task-1>task-2", "task-1>task-3", "milestone-1>milestone-2", "task-1>milestone-1", "task-2>milestone-2",
		"task-3>milestone-2"}
	if !slices.Equal(nodes, wantNodes) || !slices.Equal(edgeList(wf.Edges), wantEdges) {
		t.Fatalf("nodes %v\nedges %v\nwant %v\n     %v", nodes, edgeList(wf.Edges), wantNodes, wantEdges)
	}
	if wf.WorkflowID != "wf-x" || !slices.Equal(wf.Participants, []string{"a1", "a2", "a3"}) || wf.Nodes[2].SubChannelID != "collab-x-1" ||
		wf.Nodes[0].Title != "场地提供者（Bob）" || wf.Nodes[3].Due != "第一周" {
		t.Fatalf("%+v", wf)
	}
	// Columns by depth: task-1 first, milestone-2 last.
	if wf.Nodes[0].Position.X >= wf.Nodes[1].Position.X || wf.Nodes[4].Position.X <= wf.Nodes[3].Position.X {
		t.Fatalf("layout %+v", wf.Nodes)
	}
	// Dependencies that would close a cycle are left out.
	p := agreedPlan()
	p.Assignments[0].Dependencies = []string{"a2"}
	p.Timeline = nil
	wf = PlanWorkflow(PlanInput{DemandID: "d-x", Plan: p, Now: wfNow})
	if _, ok := TopoOrder(wf.Nodes, wf.Edges); !ok || !slices.Equal(edgeList(wf.Edges), []string{"task-2>task-1", "task-1>task-3"}) {
		t.Fatalf("edges %v", edgeList(wf.Edges))
	}
}

func decision(id string, typ DecisionType, base int, p DecisionPayload) Decision {
	return Decision{DecisionID: id, Type: typ, Actor: "user:u", Confidence: 1, BaseVersion: base, Payload: p}
}

var allowed = DecisionContext{Now: wfNow, AllowedHosts: []string{"127.0.0.1", "*.example.com"}, RateLimit: 3, RateWindow: time.Minute}

// TestDecide: given a planned workflow (and more), when a decision
// comes, then the validators refuse it with a rule, or lets it through
// with the events it causes.
func TestDecide(t *testing.T) {
	started := append(planned(), &DecisionValidated{WorkflowID: "wf-x", Decision: decision("go", DecisionExecuteWorkflow, 1, DecisionPayload{}),
		Version: 2, DecidedAt: wfNow}, &WorkflowStarted{WorkflowID: "wf-x"}, &NodeStarted{WorkflowID: "wf-x", NodeID: "task-1", Attempt: 1})
	busy := planned()
	for i := range 3 {
		busy = append(busy, &DecisionRejected{WorkflowID: "wf-x", Decision: decision(fmt.Sprint("r", i), DecisionConnect, 0, DecisionPayload{}),
			Rule: "version", DecidedAt: wfNow.Add(-time.Duration(i*10) * time.Second)})
	}
	old := append(planned(), &DecisionRejected{WorkflowID: "wf-x", Decision: decision("r0", DecisionConnect, 0, DecisionPayload{}),
		Rule: "version", DecidedAt: wfNow.Add(-2 * time.Minute)})
	withApproval := planned()
	withApproval[0].(*WorkflowCreated).Nodes = append(slices.Clone(withApproval[0].(*WorkflowCreated).Nodes),
		WorkflowNode{ID: "ok-1", Type: NodeApproval, Title: "预算审批"})
	task := func(assignee string) *WorkflowNode {
		return &WorkflowNode{Type: NodeTask, Title: "彩排", AssigneeID: assignee}
	}
	tests := []struct {
		name     string
		given    []event.Payload
		decision Decision
		rule     string   // the refusing rule, or "" when let through
		events   []string // when let through
	}{
		{"a cycle", planned(), decision("d1", DecisionConnect, 1, DecisionPayload{From: "task-2", To: "task-1"}), "acyclic", nil},
		{"a longer cycle", planned(), decision("d1", DecisionConnect, 1, DecisionPayload{From: "milestone-2", To: "task-1"}), "acyclic", nil},
		{"connect", planned(), decision("d1", DecisionConnect, 1, DecisionPayload{From: "task-2", To: "task-3"}), "",
			[]string{"decision.validated", "workflow.edge_added"}},
		{"an edge twice", planned(), decision("d1", DecisionConnect, 1, DecisionPayload{From: "task-1", To: "task-2"}), "references", nil},
		{"a self loop", planned(), decision("d1", DecisionConnect, 1, DecisionPayload{From: "task-1", To: "task-1"}), "references", nil},
		{"disconnect what is not there", planned(), decision("d1", DecisionDisconnect, 1, DecisionPayload{From: "task-2", To: "task-3"}), "references", nil},
		{"disconnect", planned(), decision("d1", DecisionDisconnect, 1, DecisionPayload{From: "task-1", To: "task-2"}), "",
			[]string{"decision.validated", "workflow.edge_deleted"}},
		{"an unknown node", planned(), decision("d1", DecisionDeleteNode, 1, DecisionPayload{NodeID: "nope"}), "references", nil},
		{"a stale version", planned(), decision("d1", DecisionDeleteNode, 0, DecisionPayload{NodeID: "task-3"}), "version", nil},
		{"a stale move still moves", planned(), decision("d1", DecisionMoveNode, 0, DecisionPayload{NodeID: "task-3", Position: &Position{X: 5}}), "",
			[]string{"decision.validated", "workflow.node_moved"}},
		{"an unknown type", planned(), decision("d1", "explode", 1, DecisionPayload{}), "well_formed", nil},
		{"no id", planned(), decision("", DecisionExecuteWorkflow, 1, DecisionPayload{}), "well_formed", nil},
		{"confidence over 1", planned(), Decision{DecisionID: "d", Type: DecisionExecuteWorkflow, Actor: "x", Confidence: 2, BaseVersion: 1}, "well_formed", nil},
		{"create without a node", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{}), "well_formed", nil},
		{"an assignee outside the agreement", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: task("zz")}), "assignee", nil},
		{"a task without an assignee", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: task("")}), "node_fields", nil},
		{"an unknown node type", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: "robot", Title: "x"}}), "node_fields", nil},
		{"create a rehearsal before the event", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: task("a2"),
			After: []string{"task-1"}, Before: []string{"milestone-2"}}), "",
			[]string{"decision.validated", "workflow.node_added", "workflow.edge_added", "workflow.edge_added"}},
		{"a create that closes a cycle", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: task("a2"),
			After: []string{"milestone-2"}, Before: []string{"task-1"}}), "acyclic", nil},
		{"http to a host not allowed", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeHTTP,
			Title: "通知", URL: "http://10.0.0.1/x"}}), "http_allow_list", nil},
		{"http that is no URL", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeHTTP,
			Title: "通知", URL: "ftp://127.0.0.1/x"}}), "node_fields", nil},
		{"http to an allowed subdomain", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeHTTP,
			Title: "通知", URL: "https://hooks.example.com/x"}}), "", []string{"decision.validated", "workflow.node_added"}},
		{"http with a method", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeHTTP,
			Title: "更新", URL: "https://hooks.example.com/x", Method: "PUT", Body: map[string]string{"a": "b"}}}), "",
			[]string{"decision.validated", "workflow.node_added"}},
		{"http with an unknown method", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeHTTP,
			Title: "更新", URL: "https://hooks.example.com/x", Method: "TRACE"}}), "node_fields", nil},
		{"a GET with a body", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeHTTP,
			Title: "查询", URL: "https://hooks.example.com/x", Method: "GET", Body: map[string]string{"a": "b"}}}), "node_fields", nil},
		{"a method on a milestone", planned(), decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeMilestone,
			Title: "完成", Method: "GET"}}), "node_fields", nil},
		{"update that changes nothing", planned(), decision("d1", DecisionUpdateNode, 1, DecisionPayload{NodeID: "task-1", Changes: &NodeChanges{}}), "node_fields", nil},
		{"update the due date", planned(), decision("d1", DecisionUpdateNode, 1, DecisionPayload{NodeID: "milestone-1",
			Changes: &NodeChanges{Due: new("第一周周三")}}), "", []string{"decision.validated", "workflow.node_updated"}},
		{"name a task's approver", planned(), decision("d1", DecisionUpdateNode, 1, DecisionPayload{NodeID: "task-1",
			Changes: &NodeChanges{Approver: new("bob")}}), "node_fields", nil},
		{"name an approval's approver", withApproval, decision("d1", DecisionUpdateNode, 1, DecisionPayload{NodeID: "ok-1",
			Changes: &NodeChanges{Approver: new("bob")}}), "", []string{"decision.validated", "workflow.node_updated"}},
		{"an approver that is no user id", withApproval, decision("d1", DecisionUpdateNode, 1, DecisionPayload{NodeID: "ok-1",
			Changes: &NodeChanges{Approver: new("bob smith")}}), "node_fields", nil},
		{"update a running node", started, decision("d1", DecisionUpdateNode, 2, DecisionPayload{NodeID: "task-1",
			Changes: &NodeChanges{Title: new("x")}}), "frozen_nodes", nil},
		{"an edge into a running node", started, decision("d1", DecisionConnect, 2, DecisionPayload{From: "task-3", To: "task-1"}), "frozen_nodes", nil},
		{"update a pending node while running", started, decision("d1", DecisionUpdateNode, 2, DecisionPayload{NodeID: "task-3",
			Changes: &NodeChanges{Title: new("x")}}), "", []string{"decision.validated", "workflow.node_updated"}},
		{"execute a draft", planned(), decision("d1", DecisionExecuteWorkflow, 1, DecisionPayload{}), "",
			[]string{"decision.validated", "workflow.started"}},
		{"execute twice", started, decision("d1", DecisionExecuteWorkflow, 2, DecisionPayload{}), "workflow_state", nil},
		{"cancel a draft", planned(), decision("d1", DecisionCancelWorkflow, 1, DecisionPayload{Reason: "取消"}), "",
			[]string{"decision.validated", "node.skipped", "node.skipped", "node.skipped", "node.skipped", "node.skipped", "workflow.cancelled"}},
		{"cancel while a node runs", started, decision("d1", DecisionCancelWorkflow, 0, DecisionPayload{}), "",
			[]string{"decision.validated", "node.skipped", "node.skipped", "node.skipped", "node.skipped", "workflow.cancelled"}},
		{"over the rate limit", busy, decision("d1", DecisionExecuteWorkflow, 1, DecisionPayload{}), "rate_limit", nil},
		{"decisions outside the window do not count", old, decision("d1", DecisionExecuteWorkflow, 1, DecisionPayload{}), "",
			[]string{"decision.validated", "workflow.started"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := foldWorkflow(tc.given...)
			before := w.Version
			evs, err := w.Decide(tc.decision, allowed)
			if err != nil {
				t.Fatal(err)
			}
			rej := RejectionOf(evs)
			if tc.rule != "" {
				if rej == nil || rej.Rule != tc.rule || len(evs) != 1 || len(rej.Errors) == 0 || rej.Version != before {
					t.Fatalf("want a rejection by %s, got %s %+v", tc.rule, shortTypes(evs), rej)
				}
				return
			}
			if rej != nil || !slices.Equal(shortTypes(evs), tc.events) {
				t.Fatalf("got %v %+v, want %v", shortTypes(evs), rej, tc.events)
			}
			w2 := foldWorkflow(append(tc.given, evs...)...)
			want := before + 1
			if tc.decision.Type == DecisionMoveNode {
				want = before
			}
			if w2.Version != want || evs[0].(*DecisionValidated).Version != want {
				t.Fatalf("version %d, want %d", w2.Version, want)
			}
			if _, ok := TopoOrder(w2.Nodes, w2.Edges); !ok {
				t.Fatal("the workflow has a cycle")
			}
		})
	}
}

func TestDecideCorrectsAndIsIdempotent(t *testing.T) {
	w := foldWorkflow(planned()...)
	node := &WorkflowNode{Type: NodeWait, Title: "等待回复", WaitUntil: wfNow.Add(-time.Hour), TimeoutSeconds: 1 << 30}
	d := decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: node})
	evs, err := w.Decide(d, allowed)
	if err != nil || RejectionOf(evs) != nil {
		t.Fatalf("%v %s", err, shortTypes(evs))
	}
	v := evs[0].(*DecisionValidated)
	added := evs[1].(*WorkflowNodeAdded).Node
	if len(v.Corrections) != 2 || added.TimeoutSeconds != MaxNodeTimeoutSeconds || !added.WaitUntil.Equal(wfNow) || added.ID != "node-d1" {
		t.Fatalf("corrections %+v node %+v", v.Corrections, added)
	}
	if node.TimeoutSeconds != 1<<30 || node.ID != "" {
		t.Fatalf("the caller's node changed: %+v", node)
	}
	w = foldWorkflow(append(planned(), evs...)...)
	if again, err := w.Decide(d, allowed); err != nil || again != nil {
		t.Fatalf("a repeated decision: %v %v", again, err)
	}
	// An update's clamped timeout is corrected too.
	evs, _ = w.Decide(decision("d2", DecisionUpdateNode, 2, DecisionPayload{NodeID: "task-1", Changes: &NodeChanges{TimeoutSeconds: new(-5)}}), allowed)
	if u, ok := evs[1].(*WorkflowNodeUpdated); !ok || u.Node.TimeoutSeconds != MinNodeTimeoutSeconds {
		t.Fatalf("%s", shortTypes(evs))
	}
	if _, err := (&Workflow{}).Decide(d, allowed); err == nil {
		t.Fatal("a missing workflow decided")
	}
}

// run folds the given events and the scheduler's answers, step by step.
type run struct {
	t      *testing.T
	events []event.Payload
}

func (r *run) w() *Workflow { return foldWorkflow(r.events...) }

func (r *run) do(evs []event.Payload, err error) []string {
	r.t.Helper()
	if err != nil {
		r.t.Fatal(err)
	}
	r.events = append(r.events, evs...)
	return shortTypes(evs)
}

// diamond: a → b, a → c, b → d, c → d, started.
func diamond(t *testing.T, types ...NodeType) *run {
	nodes := []WorkflowNode{{ID: "a", Type: NodeMilestone, Title: "a"}, {ID: "b", Type: NodeApproval, Title: "b"},
		{ID: "c", Type: NodeHTTP, Title: "c", URL: "http://127.0.0.1/x"}, {ID: "d", Type: NodeApproval, Title: "d"}}
	for i, ty := range types {
		nodes[i].Type = ty
	}
	r := &run{t: t, events: []event.Payload{&WorkflowCreated{WorkflowID: "wf", Nodes: nodes,
		Edges: []WorkflowEdge{{From: "a", To: "b"}, {From: "a", To: "c"}, {From: "b", To: "d"}, {From: "c", To: "d"}}}}}
	r.do(r.w().Decide(decision("go", DecisionExecuteWorkflow, 1, DecisionPayload{}), allowed))
	return r
}

func TestScheduleDiamond(t *testing.T) {
	r := diamond(t)
	if got := r.w().Ready(wfNow); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("ready %v", got)
	}
	if got := r.do(r.w().StartNode("a", wfNow)); !slices.Equal(got, []string{"node.started", "node.completed"}) {
		t.Fatalf("a milestone: %v", got)
	}
	if got := r.w().Ready(wfNow); !slices.Equal(got, []string{"b", "c"}) {
		t.Fatalf("ready %v", got)
	}
	r.do(r.w().StartNode("b", wfNow))
	r.do(r.w().StartNode("c", wfNow))
	if got := r.do(r.w().StartNode("c", wfNow)); got != nil {
		t.Fatalf("started twice: %v", got)
	}
	r.do(r.w().CompleteNode("b", 1, NodeResult{Summary: "ok"}))
	if got := r.w().Ready(wfNow); got != nil {
		t.Fatalf("d ran before c: %v", got)
	}
	if got := r.do(r.w().CompleteNode("c", 2, NodeResult{})); got != nil {
		t.Fatalf("a late attempt counted: %v", got)
	}
	r.do(r.w().CompleteNode("c", 1, NodeResult{Summary: "200"}))
	r.do(r.w().StartNode("d", wfNow))
	got := r.do(r.w().CompleteNode("d", 1, NodeResult{Summary: "ok"}))
	if !slices.Equal(got, []string{"node.completed", "workflow.completed"}) || r.w().Status != WorkflowStatusCompleted {
		t.Fatalf("%v %s", got, r.w().Status)
	}
	done := r.events[len(r.events)-1].(*WorkflowCompleted)
	if len(done.Results) != 4 || done.Results[2].NodeID != "c" || done.Results[2].Result.Summary != "200" {
		t.Fatalf("%+v", done.Results)
	}
}

func TestScheduleFailure(t *testing.T) {
	r := diamond(t, NodeApproval)
	r.do(r.w().StartNode("a", wfNow))
	r.do(r.w().CompleteNode("a", 1, NodeResult{}))
	r.do(r.w().StartNode("b", wfNow))
	r.do(r.w().StartNode("c", wfNow))
	// b fails for good while c still runs: d is skipped and the workflow
	// fails at once; c's outcome is still recorded when it ends.
	got := r.do(r.w().FailNode("b", 1, "用户拒绝", false, wfNow))
	if !slices.Equal(got, []string{"node.failed", "node.skipped", "workflow.failed"}) || r.w().Run("d").Reason != "depends on b, which failed" {
		t.Fatalf("%v %+v", got, r.w().Run("d"))
	}
	f := r.events[len(r.events)-1].(*WorkflowFailed)
	if f.FailedNode != "b" || f.Error != "用户拒绝" || len(f.Results) != 1 || r.w().Status != WorkflowStatusFailed {
		t.Fatalf("%+v", f)
	}
	if r.w().Ready(wfNow) != nil {
		t.Fatal("nodes ready after a failure")
	}
	if got = r.do(r.w().CompleteNode("c", 1, NodeResult{})); !slices.Equal(got, []string{"node.completed"}) {
		t.Fatalf("%v", got)
	}
	if got = r.do(r.w().FailNode("c", 1, "x", true, wfNow)); got != nil {
		t.Fatalf("%v", got)
	}
}

func TestScheduleRetries(t *testing.T) {
	r := diamond(t)
	r.do(r.w().StartNode("a", wfNow))
	now := wfNow
	for attempt := 1; attempt <= DefaultHTTPAttempts; attempt++ {
		if got := r.do(r.w().StartNode("c", now)); len(got) != 1 || r.w().Run("c").Attempt != attempt {
			t.Fatalf("attempt %d: %v", attempt, got)
		}
		got := r.do(r.w().FailNode("c", attempt, "503", true, now))
		f := r.events[len(r.events)-len(got)].(*NodeFailed)
		if attempt < DefaultHTTPAttempts {
			if !f.Retry || !f.RetryAt.Equal(now.Add(RetryDelay(attempt))) || slices.Contains(r.w().Ready(now), "c") {
				t.Fatalf("attempt %d: %+v", attempt, f)
			}
			now = f.RetryAt
			continue
		}
		if f.Retry || !slices.Contains(got, "node.skipped") {
			t.Fatalf("last attempt: %v %+v", got, f)
		}
	}
	// b was never started: it and d are skipped, and nothing runs, so
	// the workflow failed at once.
	if r.w().Status != WorkflowStatusFailed || r.w().Run("b").Status != NodeStatusSkipped {
		t.Fatalf("%s %+v", r.w().Status, r.w().Run("b"))
	}
	if RetryDelay(1) != time.Second || RetryDelay(3) != 4*time.Second || RetryDelay(30) != time.Minute {
		t.Fatal("retry delays")
	}
}

func TestScheduleTimeoutAndCancel(t *testing.T) {
	r := diamond(t)
	r.do(r.w().StartNode("a", wfNow))
	r.do(r.w().StartNode("c", wfNow))
	deadline := r.w().Run("c").Deadline
	if !deadline.Equal(wfNow.Add(30 * time.Second)) {
		t.Fatalf("deadline %v", deadline)
	}
	if got := r.do(r.w().TimeOut("c", 1, deadline.Add(-time.Second))); got != nil {
		t.Fatalf("timed out early: %v", got)
	}
	if got := r.do(r.w().TimeOut("c", 1, deadline)); !slices.Equal(got, []string{"node.failed"}) || r.w().Run("c").RetryAt.IsZero() {
		t.Fatalf("%v %+v", got, r.w().Run("c"))
	}
	r.do(r.w().StartNode("b", wfNow))
	// Cancel while b runs: c and d are skipped, the workflow ends; b's
	// outcome is still recorded.
	got := r.do(r.w().Decide(decision("stop", DecisionCancelWorkflow, 0, DecisionPayload{Reason: "活动取消"}), allowed))
	if !slices.Equal(got, []string{"decision.validated", "node.skipped", "node.skipped", "workflow.cancelled"}) ||
		r.w().Ready(wfNow.Add(time.Hour)) != nil || r.w().Status != WorkflowStatusCancelled {
		t.Fatalf("%v", got)
	}
	if got = r.do(r.w().CompleteNode("b", 1, NodeResult{})); !slices.Equal(got, []string{"node.completed"}) {
		t.Fatalf("%v %s", got, r.w().Status)
	}
	if got := r.do(r.w().Decide(decision("again", DecisionExecuteWorkflow, 3, DecisionPayload{}), allowed)); got[0] != "decision.rejected" {
		t.Fatalf("%v", got)
	}
}

func TestHostAllowed(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"http://127.0.0.1:8080/x", true}, {"https://a.example.com/x", true}, {"https://example.com.evil.io/", false},
		{"https://evilexample.com/", false}, {"http://10.0.0.1/", false}, {"::", false},
	} {
		if got := HostAllowed(tc.url, []string{"127.0.0.1", "*.example.com"}); got != tc.want {
			t.Errorf("HostAllowed(%q) = %v", tc.url, got)
		}
	}
}

func TestReportAndApprove(t *testing.T) {
	r := &run{t: t, events: []event.Payload{&WorkflowCreated{WorkflowID: "wf", UserID: "u", Participants: []string{"a1"},
		Nodes: []WorkflowNode{{ID: "t", Type: NodeTask, Title: "t", AssigneeID: "a1"}, {ID: "ok", Type: NodeApproval, Title: "ok"}},
		Edges: []WorkflowEdge{{From: "t", To: "ok"}}}}}
	r.do(r.w().Decide(decision("go", DecisionExecuteWorkflow, 1, DecisionPayload{}), allowed))
	done := TaskAnswer{Status: TaskDone, Summary: "场地已订"}
	for _, tc := range []struct {
		name string
		do   func() ([]event.Payload, error)
		want *event.Error
	}{
		{"before it runs", func() ([]event.Payload, error) { return r.w().ReportTask("t", "a1", done, wfNow) }, ErrNodeNotOpen},
		{"no such node", func() ([]event.Payload, error) { return r.w().ReportTask("x", "a1", done, wfNow) }, negotiation.ErrNotFound},
	} {
		if _, err := tc.do(); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	r.do(r.w().StartNode("t", wfNow))
	for _, tc := range []struct {
		name  string
		agent string
		a     TaskAnswer
		want  *event.Error
	}{
		{"someone else", "a2", done, ErrNotAssignee},
		{"done without a summary", "a1", TaskAnswer{Status: TaskDone}, negotiation.ErrInvalidAnswer},
		{"an unknown status", "a1", TaskAnswer{Status: "maybe", Summary: "x"}, negotiation.ErrInvalidAnswer},
	} {
		if _, err := r.w().ReportTask("t", tc.agent, tc.a, wfNow); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if got := r.do(r.w().ReportTask("t", "a1", done, wfNow)); !slices.Equal(got, []string{"node.completed"}) {
		t.Fatalf("%v", got)
	}
	if _, err := r.w().Approve("ok", "u", true, "", wfNow); !errors.Is(err, ErrNodeNotOpen) {
		t.Fatalf("approved before it ran: %v", err)
	}
	r.do(r.w().StartNode("ok", wfNow))
	if _, err := r.w().Approve("ok", "mallory", true, "", wfNow); !errors.Is(err, ErrNotApprover) {
		t.Fatalf("%v", err)
	}
	got := r.do(r.w().Approve("ok", "u", false, "预算超了", wfNow))
	if !slices.Equal(got, []string{"node.failed", "workflow.failed"}) || r.w().Run("ok").Error != "被 u 拒绝：预算超了" {
		t.Fatalf("%v %+v", got, r.w().Run("ok"))
	}
}

// TestDecideSizeAndExecutable: the size rule bounds the nodes; the
// executable rule refuses to run an empty workflow.
func TestDecideSizeAndExecutable(t *testing.T) {
	w := foldWorkflow(planned()...)
	small := allowed
	small.MaxNodes = len(w.Nodes)
	evs, err := w.Decide(decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: &WorkflowNode{Type: NodeMilestone, Title: "x"}}), small)
	if r := RejectionOf(evs); err != nil || r == nil || r.Rule != "size" {
		t.Fatalf("over the size: %v %+v", err, r)
	}
	empty := foldWorkflow(&WorkflowCreated{WorkflowID: "wf-e"})
	evs, err = empty.Decide(decision("d1", DecisionExecuteWorkflow, 1, DecisionPayload{}), allowed)
	if r := RejectionOf(evs); err != nil || r == nil || r.Rule != "executable" {
		t.Fatalf("an empty workflow ran: %v %+v", err, r)
	}
	if got := ValidatorRules(); len(got) != len(Validators) || got[0] != "well_formed" || got[len(got)-1] != "executable" {
		t.Fatalf("%v", got)
	}
}
