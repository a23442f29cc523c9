package builtin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
)

// salonPlan is an agreed plan in Chinese: Bob's venue and Alice's talk
// before 场地确认, then 活动当天.
func salonPlan() neg.Proposal {
	return neg.Proposal{DemandID: "d-salon", Summary: "AI 沙龙协作方案",
		Assignments: []neg.Assignment{
			{AgentID: "user_agent_bob", DisplayName: "Bob", Role: "场地提供者", Responsibility: "提供会议厅和投影"},
			{AgentID: "user_agent_alice", DisplayName: "Alice", Role: "演讲嘉宾", Responsibility: "下午做 30 分钟分享"},
		},
		Timeline: &neg.Timeline{Milestones: []neg.Milestone{
			{Name: "场地确认", Date: "2026-03-05", Deliverable: "场地预订单"},
			{Name: "活动当天", Date: "2026-03-14", Deliverable: "沙龙举办"},
		}}}
}

// meetupPlan is the same plan in English.
func meetupPlan() neg.Proposal {
	return neg.Proposal{DemandID: "d-meetup", Summary: "AI meetup plan",
		Assignments: []neg.Assignment{
			{AgentID: "user_agent_bob", DisplayName: "Bob", Role: "Venue host", Responsibility: "Provide the hall and a projector"},
			{AgentID: "user_agent_alice", DisplayName: "Alice", Role: "Speaker", Responsibility: "Give a 30 minute talk"},
		},
		Timeline: &neg.Timeline{Milestones: []neg.Milestone{
			{Name: "Venue confirmed", Date: "2026-03-05"},
			{Name: "Event day", Date: "2026-03-14"},
		}}}
}

// convLoop stands in for the engine: it asks the builtin brain through
// the llm client for one step at a time, runs each decision through the
// domain's Coordinator (workflow.Workflow.Decide), feeds the rejection or
// the new version back as the observation and stops at the reply.
type convLoop struct {
	t       *testing.T
	w       *workflow.Workflow
	c       *llm.Client
	history []workflow.Turn
	now     time.Time
	n       int
	speaker string // who sends the messages (the workflow's owner unless set)
}

func newConvLoop(t *testing.T, plan neg.Proposal) *convLoop {
	now := time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC)
	w := &workflow.Workflow{}
	w.Apply(workflow.PlanWorkflow(workflow.PlanInput{DemandID: plan.DemandID, ChannelID: "c-1", UserID: "requester", Plan: plan, Now: now}))
	return &convLoop{t: t, w: w, c: llm.NewClient(llm.Config{Provider: New()}), now: now, speaker: "requester"}
}

// fail marks a node failed for good.
func (l *convLoop) fail(id, msg string) {
	l.w.Apply(&workflow.NodeFailed{WorkflowID: l.w.ID, NodeID: id, Attempt: 1, Error: msg})
}

// say runs one turn and returns it; it fails the test when the brain does
// not reply within workflow.MaxAgentSteps steps or a call falls back.
func (l *convLoop) say(msg string) workflow.Turn {
	l.t.Helper()
	l.n++
	turn := workflow.Turn{MessageID: fmt.Sprintf("m-%d", l.n), Text: msg, Steps: []workflow.ConversationStep{}}
	for step := 1; step <= workflow.MaxAgentSteps && !turn.Done; step++ {
		in := llm.ConverseInput{Workflow: llm.StateOf(l.w), History: l.history, Message: msg, Steps: turn.Steps, Now: l.now}
		a, rec, err := llm.Call(context.Background(), l.c, llm.Converse, in)
		if err != nil || rec.FallbackUsed {
			l.t.Fatalf("%q step %d: %+v, %v", msg, step, rec, err)
		}
		if want := converse(&in); string(want.Tool) != a.Tool || string(want.Reply) != a.Reply {
			l.t.Fatalf("%q step %d: parsed %+v, the brain said %+v", msg, step, a, want)
		}
		switch a.Tool {
		case "":
			turn.Reply, turn.Done = a.Reply, true
			continue
		case workflow.ToolAskUser:
			turn.Reply, turn.Question, turn.Done = a.Args.Reason, true, true
		}
		s := workflow.ConversationStep{WorkflowID: l.w.ID, MessageID: turn.MessageID, Step: step, Action: a}
		if !turn.Done {
			s.Observation, s.DecisionID, s.Rejected = l.run(a, step)
		}
		turn.Steps = append(turn.Steps, s)
	}
	if !turn.Done {
		l.t.Fatalf("%q: no reply within %d steps: %+v", msg, workflow.MaxAgentSteps, turn.Steps)
	}
	l.history = append(l.history, turn)
	return turn
}

// run runs one tool and returns its observation.
func (l *convLoop) run(a workflow.AgentStep, step int) (obs, decisionID string, rejected bool) {
	switch a.Tool {
	case workflow.ToolGetNode:
		n := l.w.Node(a.Args.NodeID)
		if n == nil {
			return fmt.Sprintf("no node %q", a.Args.NodeID), "", false
		}
		r := l.w.Run(n.ID)
		return fmt.Sprintf("%s %s: %s %s", n.ID, n.Title, r.Status, r.Error), "", false
	case workflow.ToolGetWorkflow:
		return fmt.Sprintf("%s, %d nodes", l.w.Status, len(l.w.Nodes)), "", false
	case workflow.ToolApprove, workflow.ToolReject: // as the engine answers it, in the speaker's name
		events, err := l.w.Approve(a.Args.NodeID, l.speaker, a.Tool == workflow.ToolApprove, a.Args.Reason, l.now)
		switch {
		case errors.Is(err, workflow.ErrNotApprover):
			return "refused by rule approver: only " + l.w.ApproverOf(*l.w.Node(a.Args.NodeID)) + " answers this approval", "", true
		case err != nil:
			return "refused by rule node_state: " + err.Error(), "", true
		}
		for _, e := range events {
			l.w.Apply(e)
		}
		return "approved", "", false
	}
	id := fmt.Sprintf("dec-%d-%d", l.n, step)
	d := workflow.Decision{DecisionID: id, Type: workflow.DecisionType(a.Tool), Actor: event.ActorConversation, Confidence: a.Confidence,
		BaseVersion: l.w.Version, Payload: a.Args}
	events, err := l.w.Decide(d, workflow.DecisionContext{Now: l.now, AllowedHosts: []string{"hooks.example.com"}})
	if err != nil {
		l.t.Fatal(err)
	}
	if r := workflow.RejectionOf(events); r != nil {
		return "refused by rule " + r.Rule + ": " + r.Reason, id, true
	}
	for _, e := range events {
		l.w.Apply(e)
	}
	return fmt.Sprintf("validated: version %d", l.w.Version), id, false
}

// steps names a turn's actions with their outcome: "update_node ok",
// "create_node refused".
func steps(turn workflow.Turn) []string {
	var out []string
	for _, s := range turn.Steps {
		switch {
		case s.Rejected:
			out = append(out, s.Action.Tool+" refused")
		case s.Action.Tool == workflow.ToolAskUser:
			out = append(out, s.Action.Tool)
		default:
			out = append(out, s.Action.Tool+" ok")
		}
	}
	return out
}

// checkTurn fails unless the turn took exactly the actions want and its
// reply contains every part of replyHas.
func checkTurn(t *testing.T, turn workflow.Turn, want []string, replyHas ...string) {
	t.Helper()
	if got := steps(turn); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%q: steps %v, want %v (reply %q)", turn.Text, got, want, turn.Reply)
	}
	for _, s := range replyHas {
		if !strings.Contains(turn.Reply, s) {
			t.Errorf("%q: reply %q lacks %q", turn.Text, turn.Reply, s)
		}
	}
	// What the person reads never names a tool, the Coordinator's "ok:"
	// or a version number.
	for _, tool := range append([]string{workflow.ToolGetNode, workflow.ToolGetWorkflow, "ask_user", workflow.ToolApprove, workflow.ToolReject,
		"ok:", "version", "user_agent", "refused", "rule "},
		func() (s []string) {
			for _, d := range workflow.DecisionTypes {
				s = append(s, string(d))
			}
			return s
		}()...) {
		if strings.Contains(turn.Reply, tool) {
			t.Errorf("%q: reply %q names %q", turn.Text, turn.Reply, tool)
		}
	}
}

// TestConverseLoopChinese runs a conversation in Chinese through the real
// Coordinator: every rule of the brain, each turn ending in a reply.
func TestConverseLoopChinese(t *testing.T) {
	l := newConvLoop(t, salonPlan())

	// earlier + a due → update_node; then a reply with what changed.
	turn := l.say("把场地确认提前到第一周")
	checkTurn(t, turn, []string{"update_node ok"}, "已把「场地确认」的截止时间改为第一周")
	if n := l.w.Node("milestone-1"); n.Due != "第一周" {
		t.Errorf("due = %q", n.Due)
	}
	checkTurn(t, l.say("把活动当天推迟到第3周"), []string{"update_node ok"}, "「活动当天」的截止时间改为第3周")

	// A task for someone outside the agreement: refused, explained with
	// the participants, not retried.
	turn = l.say("在场地确认之后加一个彩排，由 Zoe 负责")
	checkTurn(t, turn, []string{"create_node refused"}, "这位不是协议的参与者", "Bob（场地提供者）", "Alice（演讲嘉宾）")
	if len(l.w.Nodes) != 4 {
		t.Errorf("a refused node was added: %d nodes", len(l.w.Nodes))
	}

	// The same for a participant (by name): a task after 场地确认.
	checkTurn(t, l.say("在场地确认之后加一个彩排，由 Alice 负责"), []string{"create_node ok"}, "已新增「彩排」", "排在「场地确认」之后",
		"由 Alice 负责")
	var rehearsal *workflow.WorkflowNode
	for i := range l.w.Nodes {
		if l.w.Nodes[i].Title == "彩排" {
			rehearsal = &l.w.Nodes[i]
		}
	}
	if rehearsal == nil || rehearsal.Type != workflow.NodeTask || rehearsal.AssigneeID != "user_agent_alice" ||
		!l.w.HasEdge("milestone-1", rehearsal.ID) {
		t.Fatalf("rehearsal = %+v, edges %v", rehearsal, l.w.Edges)
	}

	// No one named: a milestone, before the anchor.
	checkTurn(t, l.say("加一个预算审批，放在场地确认之前"), []string{"create_node ok"}, "已新增「预算审批」", "排在「场地确认」之前")

	// 先A再B → connect.
	checkTurn(t, l.say("场地提供者完成后再开始演讲嘉宾"), []string{"connect ok"}, "「场地提供者（Bob）」完成后再开始「演讲嘉宾（Alice）」")
	if !l.w.HasEdge("task-1", "task-2") {
		t.Errorf("edges %v", l.w.Edges)
	}
	// A cycle is refused and explained.
	checkTurn(t, l.say("先活动当天再场地提供者"), []string{"connect refused"}, "形成死循环", "工作流没有改动")

	// Ambiguous: ask which node; nothing changed.
	turn = l.say("删除场地")
	checkTurn(t, turn, []string{"ask_user"}, "「场地提供者（Bob）」", "「场地确认」")
	if !turn.Question {
		t.Error("not a question")
	}
	checkTurn(t, l.say("删除预算审批"), []string{"delete_node ok"}, "已删除这一步")

	// Run it; running it again is refused and explained.
	checkTurn(t, l.say("开始执行吧"), []string{"execute_workflow ok"}, "工作流已开始执行")
	if l.w.Status != workflow.WorkflowStatusRunning {
		t.Fatalf("status %s", l.w.Status)
	}
	checkTurn(t, l.say("执行"), []string{"execute_workflow refused"}, "工作流正在执行，现在不能这样做")

	// Why did it fail → get_node on the failed node → its error.
	l.fail("task-1", "会议厅 3 月 5 日已被预订")
	checkTurn(t, l.say("为什么场地确认失败了？"), []string{"get_node ok"}, "「场地提供者（Bob）」失败：会议厅 3 月 5 日已被预订")

	// Anything else: ask.
	checkTurn(t, l.say("今天天气怎么样"), []string{"ask_user"}, "可以说得具体一些吗")

	// Cancel, with the reason.
	turn = l.say("取消吧，场地没了")
	checkTurn(t, turn, []string{"cancel_workflow ok"}, "工作流已取消")
	if turn.Steps[0].Action.Args.Reason != "取消吧，场地没了" || l.w.Status != workflow.WorkflowStatusCancelled {
		t.Errorf("cancel: %+v, %s", turn.Steps[0].Action.Args, l.w.Status)
	}
}

// TestConverseLoopEnglish: the same in English, replies in English.
func TestConverseLoopEnglish(t *testing.T) {
	l := newConvLoop(t, meetupPlan())
	checkTurn(t, l.say("Move Venue confirmed earlier to week 1"), []string{"update_node ok"},
		"Moved the due date of “Venue confirmed” to week 1")
	checkTurn(t, l.say("Add a rehearsal before the event day"), []string{"create_node ok"}, "Added “rehearsal”, before “Event day”")
	checkTurn(t, l.say("Add a sound check after venue confirmed, assigned to Zoe"), []string{"create_node refused"},
		"that person is not part of the agreement", "Bob (Venue host)")
	checkTurn(t, l.say("Add a sound check after venue confirmed, assigned to Bob"), []string{"create_node ok"}, "assigned to Bob")
	checkTurn(t, l.say("remove the rehearsal"), []string{"delete_node ok"}, "Removed that step")
	checkTurn(t, l.say("Speaker before Venue confirmed"), []string{"connect ok"}, "“Venue confirmed” now starts after “Speaker（Alice）”")
	checkTurn(t, l.say("Speaker before Event day"), []string{"connect refused"}, "that dependency is already there",
		"Nothing in the workflow changed")
	checkTurn(t, l.say("run it"), []string{"execute_workflow ok"}, "The workflow has started.")
	l.fail("task-1", "the hall is booked")
	checkTurn(t, l.say("why did the venue task fail?"), []string{"get_node ok"}, "“Venue host（Bob）” failed: the hall is booked")
	checkTurn(t, l.say("hello there"), []string{"ask_user"}, "Could you say it more specifically?")
	checkTurn(t, l.say("stop everything"), []string{"cancel_workflow ok"}, "The workflow was cancelled.")
}

// salonInput is a conversation input on the salon workflow.
func salonInput(msg string, steps ...workflow.ConversationStep) *llm.ConverseInput {
	l := newConvLoop(nil, salonPlan())
	return &llm.ConverseInput{Workflow: llm.StateOf(l.w), Message: msg, Steps: steps}
}

// TestConverseRepliesAfterAnAction: rules 1 and 2, whatever the message
// says, the step after an action is a reply, so a turn cannot loop.
func TestConverseRepliesAfterAnAction(t *testing.T) {
	refused := workflow.ConversationStep{Step: 1, Rejected: true,
		Action:      workflow.AgentStep{Tool: "create_node", Args: workflow.DecisionPayload{Node: &workflow.WorkflowNode{Type: "task", Title: "彩排", AssigneeID: "zz"}}},
		Observation: "refused by rule assignee: zz is not a participant of the agreement (user_agent_bob, user_agent_alice)"}
	r := converse(salonInput("在场地确认之后加一个彩排，由 zz 负责", refused))
	if r.Tool != "" || !strings.Contains(string(r.Reply), "这位不是协议的参与者") ||
		!strings.Contains(string(r.Reply), "任务只能交给协议的参与者：Bob（场地提供者）") {
		t.Errorf("after a rejection: %+v", r)
	}
	// Rejected without the flag, told by the observation; in English.
	quiet := workflow.ConversationStep{Step: 1, Action: workflow.AgentStep{Tool: "execute_workflow"},
		Observation: "refused by rule workflow_state: only a draft can be executed; the workflow is running"}
	if r := converse(salonInput("run it", quiet)); r.Tool != "" || !strings.HasPrefix(string(r.Reply), "That was not done") {
		t.Errorf("after an English rejection: %+v", r)
	}
	due := "第一周"
	ok := workflow.ConversationStep{Step: 1, Action: workflow.AgentStep{Tool: "update_node",
		Args: workflow.DecisionPayload{NodeID: "milestone-1", Changes: &workflow.NodeChanges{Due: &due}}}, Observation: "validated: version 2"}
	if r := converse(salonInput("把场地确认提前到第一周", ok)); r.Tool != "" || r.Reply != "已把「场地确认」的截止时间改为第一周。" {
		t.Errorf("after a decision: %+v", r)
	}
	in := salonInput("为什么失败了", workflow.ConversationStep{Step: 1, Action: workflow.AgentStep{Tool: "get_node",
		Args: workflow.DecisionPayload{NodeID: "task-1"}}, Observation: "task-1 failed"})
	in.Workflow.Nodes[0].Status, in.Workflow.Nodes[0].Error = workflow.NodeStatusFailed, "会议厅已被预订"
	if r := converse(in); r.Tool != "" || r.Reply != "「场地提供者（Bob）」失败：会议厅已被预订。可以改负责人或时间后重新执行。" {
		t.Errorf("after get_node: %+v", r)
	}
	for _, msg := range []string{"开始执行", "把场地确认提前到第一周", "删除场地确认", "hello", "取消"} {
		for _, last := range []workflow.ConversationStep{refused, quiet, ok} {
			if r := converse(salonInput(msg, last)); r.Tool != "" || r.Reply == "" {
				t.Errorf("%q after %s: %+v", msg, last.Action.Tool, r)
			}
		}
	}
}

// TestConverseFirstSteps: rule 3, the first step from the message.
func TestConverseFirstSteps(t *testing.T) {
	tests := []struct {
		msg, tool string
		check     func(workflow.DecisionPayload) bool
	}{
		{"把场地确认提前到第一周", "update_node", func(p workflow.DecisionPayload) bool {
			return p.NodeID == "milestone-1" && *p.Changes.Due == "第一周"
		}},
		{"活动当天延后到 2026-03-21", "update_node", func(p workflow.DecisionPayload) bool {
			return p.NodeID == "milestone-2" && *p.Changes.Due == "2026-03-21"
		}},
		{"把场地确认提前", "ask_user", func(p workflow.DecisionPayload) bool { return strings.Contains(p.Reason, "提前到什么时候") }},
		{"milestone-2 postpone to week 3", "update_node", func(p workflow.DecisionPayload) bool {
			return p.NodeID == "milestone-2" && *p.Changes.Due == "week 3"
		}},
		{"在活动当天之前加一个彩排", "create_node", func(p workflow.DecisionPayload) bool {
			return p.Node.Type == workflow.NodeMilestone && p.Node.Title == "彩排" && p.Before[0] == "milestone-2" && p.After == nil
		}},
		{"加一个彩排，由场地提供者负责", "create_node", func(p workflow.DecisionPayload) bool {
			return p.Node.Type == workflow.NodeTask && p.Node.AssigneeID == "user_agent_bob" && p.Node.Role == "场地提供者"
		}},
		{"在场地确认之后加一个 Alice 的彩排", "create_node", func(p workflow.DecisionPayload) bool {
			return p.Node.AssigneeID == "user_agent_alice" && p.After[0] == "milestone-1"
		}},
		{"加一个自由讨论", "create_node", func(p workflow.DecisionPayload) bool {
			return p.Node.Type == workflow.NodeMilestone && p.Node.Title == "自由讨论"
		}},
		{"在不存在的节点之后加一个彩排", "ask_user", func(p workflow.DecisionPayload) bool { return strings.Contains(p.Reason, "哪个节点") }},
		{"去掉活动当天", "delete_node", func(p workflow.DecisionPayload) bool { return p.NodeID == "milestone-2" }},
		{"delete task-2", "delete_node", func(p workflow.DecisionPayload) bool { return p.NodeID == "task-2" }},
		{"先演讲嘉宾再场地提供者", "connect", func(p workflow.DecisionPayload) bool { return p.From == "task-2" && p.To == "task-1" }},
		{"活动当天之前要完成演讲嘉宾", "connect", func(p workflow.DecisionPayload) bool { return p.From == "task-2" && p.To == "milestone-2" }},
		{"停止执行，预算没批下来", "cancel_workflow", func(p workflow.DecisionPayload) bool { return p.Reason == "停止执行，预算没批下来" }},
		{"启动", "execute_workflow", func(p workflow.DecisionPayload) bool { return p.NodeID == "" }},
		{"为什么失败", "", nil}, // nothing failed: a reply
		{"随便聊聊", "ask_user", func(p workflow.DecisionPayload) bool { return p.Reason != "" }},
	}
	for _, tt := range tests {
		r := converse(salonInput(tt.msg))
		if string(r.Tool) != tt.tool || (tt.check != nil && !tt.check(r.Args.V)) || (tt.tool == "" && r.Reply == "") {
			t.Errorf("%q: %s %+v (reply %q), want %s", tt.msg, r.Tool, r.Args.V, r.Reply, tt.tool)
		}
		if tt.tool != "" && (r.Reply != "" || !r.Args.OK || r.Thought == "") {
			t.Errorf("%q: an action with a reply or without args: %+v", tt.msg, r)
		}
	}
}

// TestMatchNodes: by id, else the most shared title words; ties are
// ambiguous.
func TestMatchNodes(t *testing.T) {
	nodes := salonInput("").Workflow.Nodes
	for text, want := range map[string]string{
		"把场地确认提前":     "milestone-1",
		"场地":          "task-1,milestone-1",
		"task-2 的状态":  "task-2",
		"task-22":     "",
		"演讲":          "task-2",
		"the speaker": "task-2",      // an English word finds its Chinese gloss
		"the event":   "milestone-2", // 活动当天
		"the moon":    "",
	} {
		if got := strings.Join(matchNodes(nodes, text), ","); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
	en := llm.StateOf(newConvLoop(nil, meetupPlan()).w).Nodes
	if got := matchNodes(en, "the VENUE confirmed date"); len(got) != 1 || got[0] != "milestone-1" {
		t.Errorf("English: %v", got)
	}
	// The English request on a Chinese plan (the console's browser test
	// asks it on the sample plan): a rehearsal before 活动当天.
	r := converse(salonInput("add a rehearsal before the event"))
	if args := r.Args.V; r.Tool != "create_node" || args.Node == nil || !slices.Equal(args.Before, []string{"milestone-2"}) {
		t.Errorf("add a rehearsal before the event: %s %+v (reply %q)", r.Tool, r.Args.V, r.Reply)
	}
}

// converseRequests are the conversation requests of the golden and shape
// tests: first steps on the salon workflow, and the replies after a
// refused and a validated action.
func converseRequests() []llm.Request {
	var reqs []llm.Request
	for _, msg := range []string{"把场地确认提前到第一周", "在场地确认之后加一个彩排，由 Zoe 负责", "加一个彩排，由 Alice 负责",
		"删除活动当天", "先演讲嘉宾再场地提供者", "开始执行", "取消", "为什么失败", "删除场地", "随便聊聊",
		"Move Venue confirmed earlier to week 1", "run it", "hello"} {
		in := salonInput(msg)
		reqs = append(reqs, llm.Request{Key: llm.PromptConverse, Input: in})
		first := converse(in)
		if first.Tool == "" || first.Tool == workflow.ToolAskUser {
			continue
		}
		for _, rejected := range []bool{true, false} {
			obs := "validated: version 2"
			if rejected {
				obs = "refused by rule assignee: Zoe is not a participant of the agreement (user_agent_bob, user_agent_alice)"
			}
			step := workflow.ConversationStep{Step: 1, Action: workflow.AgentStep{Thought: string(first.Thought), Tool: string(first.Tool),
				Args: first.Args.V}, Observation: obs, Rejected: rejected}
			reqs = append(reqs, llm.Request{Key: llm.PromptConverse, Input: salonInput(msg, step)})
		}
	}
	return reqs
}

// TestAddsTheTypeAsked: a person who asks for an approval step gets an
// approval node (not a milestone titled 审批), in either language.
func TestAddsTheTypeAsked(t *testing.T) {
	for _, msg := range []string{"在场地确认之前加一个审批步骤", "add a budget approval"} {
		r := converse(salonInput(msg))
		if string(r.Tool) != string(workflow.DecisionCreateNode) || !r.Args.OK || r.Args.V.Node == nil || r.Args.V.Node.Type != workflow.NodeApproval ||
			r.Args.V.Node.AssigneeID != "" {
			t.Errorf("%q: %+v", msg, r)
		}
	}
	if r := converse(salonInput("加一个彩排")); r.Args.V.Node == nil || r.Args.V.Node.Type == workflow.NodeApproval {
		t.Errorf("a rehearsal: %+v", r)
	}
}

// TestConverseApprovals: the person asks for an approval step and gets a
// real approval node; once it runs, they answer it in words (approve with
// a comment, reject), only as its approver; an approve word with no
// approval waiting changes nothing.
func TestConverseApprovals(t *testing.T) {
	l := newConvLoop(t, salonPlan())
	checkTurn(t, l.say("在活动当天之前加一个审批步骤"), []string{"create_node ok"}, "已新增「审批」", "排在「活动当天」之前")
	var ok *workflow.WorkflowNode
	for i := range l.w.Nodes {
		if l.w.Nodes[i].Type == workflow.NodeApproval {
			ok = &l.w.Nodes[i]
		}
	}
	if ok == nil || !l.w.HasEdge(ok.ID, "milestone-2") {
		t.Fatalf("no approval node before 活动当天: %+v", l.w.Nodes)
	}
	checkTurn(t, l.say("批准审批"), nil, "「审批」现在还没开始，不在等待审批")
	l.w.Apply(&workflow.NodeStarted{WorkflowID: l.w.ID, NodeID: ok.ID, NodeType: workflow.NodeApproval, Attempt: 1, Deadline: l.now.Add(time.Hour)})

	l.speaker = "mallory"
	checkTurn(t, l.say("批准「审批」这一步"), []string{"approve_node refused"}, "这一步只能由 requester 本人审批")
	if r := l.w.Run(ok.ID); r.Status != workflow.NodeStatusRunning {
		t.Fatalf("someone else's word answered it: %+v", r)
	}
	l.speaker = "requester"
	checkTurn(t, l.say("批准「审批」这一步，预算在范围内"), []string{"approve_node ok"}, "已批准「审批」，执行继续")
	if r := l.w.Run(ok.ID); r.Status != workflow.NodeStatusCompleted || r.Result == nil || !strings.Contains(r.Result.Summary, "预算在范围内") ||
		r.Result.By != "user:requester" {
		t.Fatalf("the approval: %+v", r)
	}
	checkTurn(t, l.say("批准审批"), nil, "「审批」现在已完成，不在等待审批")

	// Reject, in English, on a second approval.
	l2 := newConvLoop(t, meetupPlan())
	checkTurn(t, l2.say("Add a budget approval before the event day"), []string{"create_node ok"}, "Added “budget approval”")
	var id string
	for _, n := range l2.w.Nodes {
		if n.Type == workflow.NodeApproval {
			id = n.ID
		}
	}
	l2.w.Apply(&workflow.NodeStarted{WorkflowID: l2.w.ID, NodeID: id, NodeType: workflow.NodeApproval, Attempt: 1, Deadline: l2.now.Add(time.Hour)})
	checkTurn(t, l2.say("Reject the budget approval: too expensive"), []string{"reject_node ok"}, "Rejected “budget approval”")
	if r := l2.w.Run(id); r.Status != workflow.NodeStatusFailed || !strings.Contains(r.Error, "too expensive") {
		t.Fatalf("the rejection: %+v", r)
	}
}

// TestConverseTypedNodes: the person names the type of the step they
// add, and gets it: a web call with its method, title and body (whose
// references the Coordinator checks), a wait until a time.
func TestConverseTypedNodes(t *testing.T) {
	l := newConvLoop(t, salonPlan())
	checkTurn(t, l.say("在活动当天之前创建一个 HTTP 节点，叫通知嘉宾，PUT 到 https://hooks.example.com/notify，内容是 plan={{vars.title}} seats=40"),
		[]string{"create_node ok"}, "已新增「通知嘉宾」", "排在「活动当天」之前")
	n := l.w.Nodes[len(l.w.Nodes)-1]
	if n.Type != workflow.NodeHTTP || n.Title != "通知嘉宾" || n.Method != "PUT" || n.URL != "https://hooks.example.com/notify" ||
		n.Body["plan"] != "{{vars.title}}" || n.Body["seats"] != "40" || !l.w.HasEdge(n.ID, "milestone-2") {
		t.Fatalf("the http node: %+v", n)
	}
	checkTurn(t, l.say("在活动当天之前加一个等待，等到 2026-03-10 18:00"), []string{"create_node ok"}, "已新增「等到 2026-03-10 18:00」")
	n = l.w.Nodes[len(l.w.Nodes)-1]
	if n.Type != workflow.NodeWait || !n.WaitUntil.Equal(time.Date(2026, 3, 10, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("the wait node: %+v", n)
	}
	// A reference to nothing: refused, and said in plain words.
	checkTurn(t, l.say("创建一个 HTTP 节点，POST 到 https://hooks.example.com/x，内容是 a={{nodes.nope.output.x}}"),
		[]string{"create_node refused"}, "它引用了前面步骤没有提供的数据")
	// Off the allow list.
	checkTurn(t, l.say("创建一个 HTTP 节点，POST 到 https://evil.example.org/x"), []string{"create_node refused"}, "不在允许调用的名单上")

	e := newConvLoop(t, meetupPlan())
	checkTurn(t, e.say("Add a web call after venue confirmed: GET https://hooks.example.com/status"), []string{"create_node ok"},
		"Added “Call hooks.example.com”, after “Venue confirmed”")
	if n := e.w.Nodes[len(e.w.Nodes)-1]; n.Type != workflow.NodeHTTP || n.Method != "GET" || len(n.Body) != 0 {
		t.Fatalf("the English http node: %+v", n)
	}
}

// TestConverseProgress: asked how it goes, the agent says what happened
// since the person's last message (a colleague's edit, a result, a
// failure), by name and title, then where the workflow stands; with
// nothing new it says so.
func TestConverseProgress(t *testing.T) {
	in := salonInput("现在怎么样了？")
	in.Workflow.Names = map[string]string{"user_agent_bob": "Bob"}
	in.Since = []workflow.Change{
		{What: "create_node", By: "user:carol", NodeID: "gone", Detail: "预算审批"},
		{What: "completed", By: "user_agent_bob", NodeID: "task-1", Detail: "场地已确认"},
		{What: "failed", NodeID: "milestone-1", Detail: "场地被占用"},
	}
	r := converse(in)
	want := "上次之后：carol 新增了「预算审批」；「场地提供者（Bob）」已完成；「场地确认」失败了：场地被占用。"
	if r.Tool != "" || !strings.HasPrefix(string(r.Reply), want) || !strings.Contains(string(r.Reply), "共 4 步") {
		t.Fatalf("reply %q, want it to start %q", r.Reply, want)
	}
	in.Since = nil
	if r := converse(in); !strings.HasPrefix(string(r.Reply), "上次之后没有新的变化。") {
		t.Fatalf("with nothing new: %q", r.Reply)
	}
	en := salonInput("what changed?")
	en.Since = []workflow.Change{{What: "workflow_completed"}}
	if r := converse(en); !strings.HasPrefix(string(r.Reply), "Since your last message: the whole workflow is done.") {
		t.Fatalf("in English: %q", r.Reply)
	}
}

// TestConverseApprovalByTitle: with two approvals waiting, one titled
// inside the other's title, the whole title the message names picks one;
// a word both share asks which.
func TestConverseApprovalByTitle(t *testing.T) {
	in := salonInput("")
	in.Workflow.Nodes = append(in.Workflow.Nodes,
		llm.NodeState{WorkflowNode: workflow.WorkflowNode{ID: "a1", Type: workflow.NodeApproval, Title: "审批"}, Status: workflow.NodeStatusRunning},
		llm.NodeState{WorkflowNode: workflow.WorkflowNode{ID: "a2", Type: workflow.NodeApproval, Title: "法务审批"}, Status: workflow.NodeStatusRunning})
	for _, tc := range []struct{ msg, tool, node string }{
		{"批准审批，材料齐全", workflow.ToolApprove, "a1"},
		{"批准法务审批", workflow.ToolApprove, "a2"},
		{"驳回「法务审批」：条款有问题", workflow.ToolReject, "a2"},
		{"批准", workflow.ToolAskUser, ""},
	} {
		in.Message = tc.msg
		r := converse(in)
		if string(r.Tool) != tc.tool || r.Args.V.NodeID != tc.node {
			t.Errorf("%q: %s %q, want %s %q", tc.msg, r.Tool, r.Args.V.NodeID, tc.tool, tc.node)
		}
	}
}

// TestConverseReadsTraditional: a message in traditional characters is
// read as the same message in simplified ones.
func TestConverseReadsTraditional(t *testing.T) {
	l := newConvLoop(t, salonPlan())
	checkTurn(t, l.say("在活動當天之前加一個審批步驟"), []string{"create_node ok"}, "已新增「审批」", "排在「活动当天」之前")
}
