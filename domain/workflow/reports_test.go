package workflow

import (
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestReportsFor: given a workflow and the person's conversation, when
// events happen, then the agent's reports: an approval waiting (with its
// title and approver), the run completed, the run failed at a step; in
// the person's language; nothing for events that need no one.
func TestReportsFor(t *testing.T) {
	w := &Workflow{ID: "wf-1", UserID: "alice", Title: "AI 聚会", Status: WorkflowStatusRunning,
		Nodes: []WorkflowNode{{ID: "ok", Type: NodeApproval, Title: "确认预算"}, {ID: "t", Type: NodeTask, Title: "订场地", AssigneeID: "a1"}},
		Runs:  map[string]*NodeRun{"ok": {Status: NodeStatusRunning, Attempt: 1}}}
	zh := &Conversation{Turns: []Turn{{MessageID: "m1", Text: "加一个审批", Done: true}}}
	en := &Conversation{Turns: []Turn{{MessageID: "m1", Text: "add an approval", Done: true}}}
	for _, tc := range []struct {
		name   string
		conv   *Conversation
		events []event.Payload
		want   []string // each report's text holds this
	}{
		{"an approval waits", zh, []event.Payload{&NodeStarted{WorkflowID: "wf-1", NodeID: "ok", NodeType: NodeApproval}},
			[]string{"「确认预算」等待 alice 审批"}},
		{"in English", en, []event.Payload{&NodeStarted{WorkflowID: "wf-1", NodeID: "ok", NodeType: NodeApproval}},
			[]string{"“确认预算” waits for alice’s approval"}},
		{"a task starts: nothing", zh, []event.Payload{&NodeStarted{WorkflowID: "wf-1", NodeID: "t", NodeType: NodeTask}}, nil},
		{"completed", zh, []event.Payload{&WorkflowCompleted{WorkflowID: "wf-1", Results: make([]NodeOutcome, 2)}},
			[]string{"执行计划「AI 聚会」已完成：2 步都已完成。"}},
		{"completed, partly simulated", zh, []event.Payload{&WorkflowCompleted{WorkflowID: "wf-1", Results: []NodeOutcome{
			{NodeID: "t", Result: NodeResult{Summary: "订好了", Simulated: true}}, {NodeID: "ok"}}}},
			[]string{"已完成：2 步都已完成。其中 1 步是数字分身模拟完成的，还没有真人确认。"}},
		{"failed at a step", en, []event.Payload{&WorkflowFailed{WorkflowID: "wf-1", FailedNode: "t", Error: "the venue is booked"}},
			[]string{"“订场地” failed (the venue is booked)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ReportsFor(w, tc.conv, tc.events, 7)
			if len(got) != len(tc.want) {
				t.Fatalf("%d reports, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, p := range got {
				r := p.(*ConversationReported)
				if !strings.Contains(r.Text, tc.want[i]) || r.WorkflowID != "wf-1" || r.ReportID == "" || strings.Contains(r.Text, "ok:") {
					t.Errorf("report %+v, want it to say %q", r, tc.want[i])
				}
			}
		})
	}
	// A report folds into the conversation once, as the agent's own turn.
	c := &Conversation{}
	r := ReportsFor(w, c, []event.Payload{&NodeStarted{WorkflowID: "wf-1", NodeID: "ok", NodeType: NodeApproval}}, 9)[0]
	c.Apply(r)
	c.Apply(r)
	if len(c.Turns) != 1 || !c.Turns[0].Report || c.Turns[0].Text != "" || c.Turns[0].Reply == "" || !c.Turns[0].Done {
		t.Fatalf("turns %+v", c.Turns)
	}
}

// TestCompletedSummary: a milestone reached says its steps are done and
// does not claim a date that is not fixed.
func TestCompletedSummary(t *testing.T) {
	spec := NodeMilestone.Spec()
	for _, tc := range []struct {
		due     string
		pending bool // the summary says the date is not fixed yet
	}{{"", false}, {"第一周", false}, {"待定", true}, {"TBD", true}, {"日期未定", true}} {
		got := completedSummary(spec, WorkflowNode{Title: "活动当天", Due: tc.due})
		if !strings.HasPrefix(got, "里程碑达成：活动当天") || strings.Contains(got, "尚未发生") != tc.pending {
			t.Errorf("due %q: %q", tc.due, got)
		}
	}
}
