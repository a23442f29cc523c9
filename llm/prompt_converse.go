package llm

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"text/template"
	"time"
	"unicode"

	"github.com/towow/towow/domain/workflow"
)

// PromptConverse is the key of prompt 11 对话.
const PromptConverse PromptKey = "conversation"

// Converse is prompt 11 (对话): the conversation agent's next step on a
// workflow, a tool call or the reply that ends the turn (the engine runs
// the tool, records the step and calls again with its observation). When
// the model fails the step is a reply saying the agent cannot work on the
// request now, never an action.
var Converse = define(Prompt[ConverseInput, ConverseReply, workflow.AgentStep]{
	key:         PromptConverse,
	system:      "你是 ToWow 的工作流对话助手。按 ReAct 方式一步一步地调用工具修改或查询工作流，每次只走一步，以有效 JSON 格式输出。",
	maxTokens:   1500,
	temperature: 0.2,
	funcs: template.FuncMap{"when": formatNow, "maxSteps": func() int { return workflow.MaxAgentSteps }, "nodeTypes": nodeTypeList,
		"minApproval": func() float64 { return workflow.MinApprovalConfidence }},
	replyKeys: []string{"thought", "tool", "args", "reply"},
	validate:  validateConverse,
	fallback:  fallbackConverse,
	template: `# 工作流对话

## 你的角色
你是 ToWow 的工作流对话助手。协商已经达成，协作方案变成了下面的工作流。用户正在和你讨论这个工作流：调整节点和顺序、修改负责人和时间、开始或取消执行、询问进展和失败原因。

你按 ReAct 方式工作：思考（thought）→ 行动（调用一个工具）→ 观察（工具的结果）→ 再思考……直到可以回复用户。
**每次回答只走一步**：先思考，然后要么调用**恰好一个**工具（tool + args），要么回复用户（reply）结束本轮。工具的结果会作为观察（observation）在下一次提供给你。本轮最多 {{maxSteps}} 步，已经走了 {{len .Steps}} 步。

当前时间：{{when .Now}}

## 工作流
- ID：{{.Workflow.WorkflowID}}
- 标题：{{if .Workflow.Title}}{{.Workflow.Title}}{{else}}未命名{{end}}
- 状态：{{if .Workflow.Status}}{{.Workflow.Status}}{{else}}未知{{end}}（draft 草稿可修改和执行；running 执行中；completed、failed、cancelled 已结束）
- 版本：{{.Workflow.Version}}
- 正在和你说话的用户：{{if .Speaker}}{{.Speaker}}{{else}}未知{{end}}
- 参与者（task 节点只能分配给他们）：{{if .Workflow.Participants}}{{range $i, $id := .Workflow.Participants}}{{if $i}}、{{end}}{{with index $.Workflow.Names $id}}{{.}}（{{$id}}）{{else}}{{$id}}{{end}}{{end}}{{else}}无{{end}}

### 节点
{{if .Workflow.Nodes}}{{range .Workflow.Nodes}}- id ` + "`" + `{{.ID}}` + "`" + `｜类型 {{.Type}}｜标题：{{.Title}}{{if .AssigneeID}}｜负责人：{{.AssigneeID}}{{end}}{{if .Role}}（{{.Role}}）{{end}}{{if .Approver}}｜审批人：{{.Approver}}{{end}}{{if .URL}}｜{{if .Method}}{{.Method}}{{else}}POST{{end}} {{.URL}}{{end}}｜截止：{{if .Due}}{{.Due}}{{else}}未定{{end}}｜状态：{{if .Status}}{{.Status}}{{else}}pending{{end}}{{if .Error}}｜错误：{{.Error}}{{end}}{{if .Result}}｜结果：{{.Result}}{{end}}
{{end}}{{else}}工作流还没有节点。
{{end}}
### 依赖（A → B：A 完成后 B 才开始）
{{if .Workflow.Edges}}{{range .Workflow.Edges}}- {{.From}} → {{.To}}
{{end}}{{else}}没有依赖。
{{end}}
## 可用工具
- **get_workflow**：查看整个工作流的最新状态。args：` + "`" + `{}` + "`" + `
- **get_node**：查看一个节点的详情（状态、错误、结果），比如用户问某个任务为什么失败。args：` + "`" + `{"node_id": "节点 id"}` + "`" + `
- **ask_user**：请求不清楚时向用户提问（不确定指哪个节点、缺少时间或负责人）；问题写在 reason 里，本轮随之结束。args：` + "`" + `{"reason": "要问用户的问题"}` + "`" + `
- **create_node**：新增节点。args：` + "`" + `{"node": {"type": "{{nodeTypes}}", "title": "标题", "description": "说明", "assignee_id": "负责人（仅 task，必须是参与者）", "role": "角色", "due": "截止时间", "approver": "审批人（仅 approval，默认是需求的发起人）", "url": "仅 http", "method": "仅 http：GET、POST、PUT、PATCH、DELETE", "body": {"键": "值（可引用前面节点的输出：{{"{{"}}nodes.节点id.output.字段{{"}}"}}）"}, "wait_until": "仅 wait，RFC 3339 时间"}, "after": ["在这些节点之后"], "before": ["在这些节点之前"]}` + "`" + `
- **update_node**：修改节点，只写要改的字段。args：` + "`" + `{"node_id": "节点 id", "changes": {"title": "…", "description": "…", "assignee_id": "…", "role": "…", "due": "…", "approver": "…", "url": "…", "method": "…", "body": {}, "wait_until": "…", "timeout_seconds": 30, "max_attempts": 3}}` + "`" + `
- **delete_node**：删除节点（连同它的依赖）。args：` + "`" + `{"node_id": "节点 id"}` + "`" + `
- **connect**：加一条依赖，from 完成后 to 才开始。args：` + "`" + `{"from": "节点 id", "to": "节点 id"}` + "`" + `
- **disconnect**：去掉一条依赖。args：` + "`" + `{"from": "节点 id", "to": "节点 id"}` + "`" + `
- **move_node**：只在画布上移动节点（不改变执行）。args：` + "`" + `{"node_id": "节点 id", "position": {"x": 0, "y": 0}}` + "`" + `
- **execute_workflow**：开始执行工作流（仅草稿状态）。args：` + "`" + `{}` + "`" + `
- **cancel_workflow**：取消工作流。args：` + "`" + `{"reason": "取消原因"}` + "`" + `
- **approve_node**：以用户本人的名义批准一个正在等待审批（running）的 approval 节点，节点随之完成。args：` + "`" + `{"node_id": "节点 id", "reason": "审批意见（可空）"}` + "`" + `
- **reject_node**：以用户本人的名义拒绝一个正在等待审批的 approval 节点，节点失败，工作流随之失败。args：` + "`" + `{"node_id": "节点 id", "reason": "拒绝理由"}` + "`" + `

## 规则
1. 只使用上面列出的节点 id，**不要编造 id**；用户按标题说节点时，找到对应的 id；对不上或有多个可能时，用 ask_user 问清楚。
2. 修改必须让依赖图保持无环：不要让一个节点直接或间接地依赖它自己。
3. task 节点必须有负责人，且负责人必须是参与者之一；其他类型的节点不设负责人。
4. 每个修改（create_node、update_node、delete_node、connect、disconnect、move_node、execute_workflow、cancel_workflow）都由协调器校验。被拒绝时，观察里会写明规则和原因：请认真阅读，能改正就改正后再试，否则回复用户解释原因；**不要重复同一个被拒绝的动作**。
5. 动作成功、用户的请求已经完成时，回复用户说明改了什么或查到了什么。
6. 不确定用户的意思时，宁可 ask_user，也不要猜着修改。
7. 只有用户在这条消息里**明确**要求批准或拒绝某个审批时，才调用 approve_node 或 reject_node（confidence 至少 {{minApproval}}）；审批只能由它的审批人本人给出，你是替正在说话的用户操作。
8. 用户要加什么类型的节点，就用那个类型：审批用 approval，等待到某个时间用 wait（wait_until 用 RFC 3339 时间），调用接口用 http（url、method、body），到期自动完成的节点用 milestone，由参与者完成的工作用 task。
9. 回复里不要出现节点 id、工具名、规则名或版本号：用节点的标题和参与者的名字。
10. 用用户的语言回复（用户说中文就用中文，说英文就用英文），简洁具体。

## 更早的对话（摘要）
{{if .Summary}}{{.Summary}}
{{else}}没有更早的对话。
{{end}}
## 之前的对话
{{if .History}}{{range .History}}{{if .Report}}- 助手主动汇报：{{.Reply}}
{{else}}- 用户：{{.Text}}
{{range .Steps}}  - 动作：{{if .Action.Tool}}{{.Action.Tool}} {{compact .Action.Args}}{{else}}回复{{end}}{{if .Rejected}}（被拒绝）{{end}}{{if .Observation}} → 观察：{{.Observation}}{{end}}
{{end}}{{if .Reply}}  - 助手：{{.Reply}}
{{end}}{{end}}{{end}}{{else}}这是本次对话的第一条消息。
{{end}}
## 自你上次回复以来工作流的变化（观察）
{{if .Since}}{{range .Since}}- {{.String}}
{{end}}{{else}}没有变化。
{{end}}
## 用户现在说
{{.Message}}

## 本轮已经走的步骤
{{if .Steps}}{{range .Steps}}### 第 {{.Step}} 步
- 思考：{{if .Action.Thought}}{{.Action.Thought}}{{else}}（无）{{end}}
- 动作：{{if .Action.Tool}}{{.Action.Tool}} {{compact .Action.Args}}{{else}}回复{{end}}
- 观察{{if .Rejected}}（被拒绝）{{end}}：{{if .Observation}}{{.Observation}}{{else}}（无）{{end}}
{{end}}{{else}}还没有步骤：这是本轮的第一步。
{{end}}
## 输出要求

只输出一个 JSON 对象，二选一。调用工具：

` + "```json" + `
{
  "thought": "你的思考：用户要什么，现在该做哪一步",
  "tool": "工具名",
  "args": {},
  "confidence": 0.8
}
` + "```" + `

或者回复用户、结束本轮：

` + "```json" + `
{
  "thought": "你的思考",
  "reply": "给用户的回复"
}
` + "```" + `

confidence 是你对这个动作的把握，0 到 1 之间。
`,
})

// nodeTypeList is the node types the create_node tool offers, from the
// domain's table: "task | approval | wait | http | milestone".
func nodeTypeList() string {
	s := make([]string, len(workflow.NodeTypes))
	for i, t := range workflow.NodeTypes {
		s[i] = string(t)
	}
	return strings.Join(s, " | ")
}

// NodeState is a workflow node as the conversation prompt sees it.
type NodeState struct {
	workflow.WorkflowNode
	Status workflow.NodeStatus `json:"status"`
	Error  string              `json:"error,omitempty"`
	Result string              `json:"result,omitempty"`
}

// WorkflowState is a workflow as the conversation prompt sees it.
type WorkflowState struct {
	WorkflowID   string                  `json:"workflow_id"`
	Title        string                  `json:"title"`
	Status       workflow.WorkflowStatus `json:"status"`
	Version      int                     `json:"version"`
	Participants []string                `json:"participants"`
	// Names are the participants' names for people, by agent id (the
	// reply says a name, never an id).
	Names map[string]string       `json:"names,omitempty"`
	Nodes []NodeState             `json:"nodes"`
	Edges []workflow.WorkflowEdge `json:"edges"`
}

// StateOf is w as the conversation prompt sees it: each node with its
// status, last error and result summary.
func StateOf(w *workflow.Workflow) WorkflowState {
	st := WorkflowState{WorkflowID: w.ID, Title: w.Title, Status: w.Status, Version: w.Version,
		Participants: w.Participants, Edges: w.Edges, Nodes: []NodeState{}}
	for _, n := range w.Nodes {
		r := w.Run(n.ID)
		ns := NodeState{WorkflowNode: n, Status: r.Status, Error: r.Error}
		if n.Type == workflow.NodeApproval {
			ns.Approver = w.ApproverOf(n) // who answers it, the owner when it names no one
		}
		if r.Result != nil {
			ns.Result = r.Result.Summary
		}
		st.Nodes = append(st.Nodes, ns)
	}
	return st
}

// ConverseInput is prompt 11's input: the conversation agent deciding its
// next step (a tool call or the reply) on the workflow as it is now.
type ConverseInput struct {
	Workflow WorkflowState
	// Summary sums up the turns older than History ("" when there are
	// none).
	Summary string
	History []workflow.Turn // the latest earlier turns (done), at most workflow.HistoryTurns
	// Since is what happened to the workflow since the person's last
	// message (others' edits, node results, the run's end).
	Since   []workflow.Change
	Message string                      // what the person said now
	Steps   []workflow.ConversationStep // this turn's steps so far
	Now     time.Time
	// Speaker is the user who sent the message: the agent answers an
	// approval in their name.
	Speaker string
}

// ConverseReply is prompt 11's reply (对话): one ReAct step of the
// conversation agent, a thought and either a tool with its arguments or
// the reply that ends the turn. The builtin brain writes one of the two
// shapes ({"thought", "tool", "args", "confidence"} or {"thought",
// "reply"}); the parser accepts both and decides (validateConverse).
type ConverseReply struct {
	Thought    Text      `json:"thought"`
	Tool       Text      `json:"tool,omitempty"`
	Args       ReplyArgs `json:"args,omitzero"`
	Confidence Scalar    `json:"confidence,omitzero"` // 0-1
	Reply      Text      `json:"reply,omitempty"`
}

// ReplyArgs are a tool's arguments in prompt 11's reply: a JSON object
// decoded into a workflow.DecisionPayload (for get_node its node_id, for
// ask_user the question in reason). Decoding never fails: Present says the
// field was there and not null, OK that it was an object that decoded (a
// single id where after or before expect a list is taken as that list),
// Err why it did not. Make one to encode with ArgsOf.
type ReplyArgs struct {
	V       workflow.DecisionPayload
	Present bool
	OK      bool
	Err     string
}

// ArgsOf returns the arguments p (encoded as an object, {} when empty).
func ArgsOf(p workflow.DecisionPayload) ReplyArgs { return ReplyArgs{V: p, Present: true, OK: true} }

// UnmarshalJSON implements json.Unmarshaler.
func (a *ReplyArgs) UnmarshalJSON(b []byte) error {
	*a = ReplyArgs{}
	switch firstByte(b) {
	case 'n', 0:
		return nil
	case '{':
	default:
		a.Present, a.Err = true, "args is not an object"
		return nil
	}
	a.Present = true
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		a.Err = err.Error()
		return nil
	}
	for k, v := range fields { // "after": "task-1" → ["task-1"]
		if (strings.EqualFold(k, "after") || strings.EqualFold(k, "before")) && firstByte(v) == '"' {
			fields[k] = append(append([]byte{'['}, v...), ']')
		}
	}
	fixed, err := json.Marshal(fields)
	if err == nil {
		err = json.Unmarshal(fixed, &a.V)
	}
	if err != nil {
		a.V, a.Err = workflow.DecisionPayload{}, err.Error()
		return nil
	}
	a.OK = true
	return nil
}

// MarshalJSON implements json.Marshaler: the payload, or null when not OK.
func (a ReplyArgs) MarshalJSON() ([]byte, error) {
	if !a.OK {
		return []byte("null"), nil
	}
	return marshalRaw(a.V)
}

// formatNow is the time a prompt states ("未提供" when zero).
func formatNow(t time.Time) string {
	if t.IsZero() {
		return "未提供"
	}
	days := [...]string{"日", "一", "二", "三", "四", "五", "六"}
	return t.Format("2006-01-02 15:04 MST") + "（星期" + days[t.Weekday()] + "）"
}

// conversationTools maps the enumKey of each conversation tool to its name,
// so that "Get-Node", "get node" and "GET_NODE" are get_node.
var conversationTools = func() map[string]string {
	m := map[string]string{}
	for _, t := range workflow.ConversationTools() {
		m[enumKey(t)] = t
	}
	return m
}()

// replyTools are words a model may write as its tool when it replies
// instead of acting; with a reply they mean no tool.
var replyTools = map[string]bool{"reply": true, "finalanswer": true, "final": true, "answer": true, "respond": true,
	"none": true, "finish": true, "回复": true}

// defaultStepConfidence is an action's confidence when the reply gives none.
const defaultStepConfidence = 0.5

// validateConverse validates prompt 11's reply into a workflow.AgentStep. The
// tool must be one of workflow.ConversationTools (case, spaces, dashes and
// underscores do not matter); a step needs a tool or a non-empty reply. When
// both are given the tool wins and the reply is dropped (the turn goes on
// with the tool's observation), except that ask_user without a question
// takes the reply as its question. args must be an object when present (a
// single id for after or before is taken as a list); node ids are trimmed
// and resolved against the workflow (exactly, else case-insensitively or by
// a node's exact title when that names one node), and ids that name no node
// are kept as written: the Coordinator refuses them, and the agent reads
// why. What the person reads (a reply, ask_user's question) keeps no
// engine words (plainReply). The confidence is clamped to 0-1 (percentages scaled; absent: 0.5). A
// reply step has no arguments.
func validateConverse(raw *ConverseReply, in *ConverseInput) (workflow.AgentStep, error) {
	out := workflow.AgentStep{
		Thought:    clip(string(raw.Thought), maxTextRunes),
		Reply:      plainReply(clip(string(raw.Reply), maxTextRunes), !hasHan(in.Message) && strings.TrimSpace(in.Message) != ""),
		Confidence: confidenceFraction(raw.Confidence, defaultStepConfidence),
	}
	if tool := strings.TrimSpace(string(raw.Tool)); tool != "" {
		name, ok := lookupEnum(conversationTools, tool)
		switch {
		case ok:
			out.Tool = name
		case replyTools[enumKey(tool)] && out.Reply != "":
		default:
			return workflow.AgentStep{}, invalid("unknown tool %q (one of %s)", clip(tool, maxShortRunes),
				strings.Join(workflow.ConversationTools(), ", "))
		}
	}
	if raw.Args.Present && !raw.Args.OK {
		return workflow.AgentStep{}, invalid("args must be an object of the tool's arguments: %s", raw.Args.Err)
	}
	if out.Tool == "" {
		if out.Reply == "" {
			return workflow.AgentStep{}, invalid("the step has neither a tool nor a reply")
		}
		return out, nil
	}
	out.Args = cleanArgs(raw.Args.V, in)
	if out.Tool == workflow.ToolAskUser && out.Args.Reason == "" {
		out.Args.Reason = out.Reply
	}
	if out.Tool == workflow.ToolAskUser {
		out.Args.Reason = plainReply(out.Args.Reason, !hasHan(in.Message) && strings.TrimSpace(in.Message) != "")
	}
	if out.Tool == workflow.ToolAskUser && out.Args.Reason == "" {
		return workflow.AgentStep{}, invalid("ask_user without a question (args.reason)")
	}
	out.Reply = ""
	return out, nil
}

// cleanArgs trims a tool's arguments and resolves the node ids they name
// (nodeRef); it drops nothing but empty and repeated ids of after/before.
func cleanArgs(p workflow.DecisionPayload, in *ConverseInput) workflow.DecisionPayload {
	ref := func(s string) string { return nodeRef(in.Workflow.Nodes, s) }
	p.NodeID, p.From, p.To = ref(p.NodeID), ref(p.From), ref(p.To)
	p.Reason = clip(p.Reason, maxTextRunes)
	ids := func(list []string) []string {
		var out []string
		for _, s := range list {
			if s = ref(s); s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	p.After, p.Before = ids(p.After), ids(p.Before)
	if p.Node != nil {
		n := *p.Node
		n.ID, n.Title, n.AssigneeID = strings.TrimSpace(n.ID), strings.TrimSpace(n.Title), strings.TrimSpace(n.AssigneeID)
		p.Node = &n
	}
	return p
}

// nodeRef resolves a node reference of a reply: the id of the node it
// names exactly, else case-insensitively, else by its exact title
// (case-insensitively) when that names one node; otherwise s as written
// (trimmed).
func nodeRef(nodes []NodeState, s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	for _, match := range []func(NodeState) bool{
		func(n NodeState) bool { return n.ID == s },
		func(n NodeState) bool { return strings.EqualFold(n.ID, s) },
		func(n NodeState) bool { return strings.EqualFold(strings.TrimSpace(n.Title), s) },
	} {
		var found []string
		for _, n := range nodes {
			if match(n) && !slices.Contains(found, n.ID) {
				found = append(found, n.ID)
			}
		}
		if len(found) == 1 {
			return found[0]
		}
	}
	return s
}

// toolWords are the conversation tools in the person's words (Chinese,
// English), for a reply that names one.
var toolWords = map[string][2]string{
	workflow.ToolGetWorkflow: {"查看工作流", "looking at the workflow"}, workflow.ToolGetNode: {"查看步骤", "looking at the step"},
	workflow.ToolAskUser: {"提问", "asking"}, workflow.ToolApprove: {"批准", "approving"}, workflow.ToolReject: {"拒绝", "rejecting"},
	string(workflow.DecisionCreateNode): {"新增步骤", "adding a step"}, string(workflow.DecisionUpdateNode): {"修改步骤", "changing a step"},
	string(workflow.DecisionDeleteNode): {"删除步骤", "removing a step"}, string(workflow.DecisionConnect): {"添加依赖", "adding a dependency"},
	string(workflow.DecisionDisconnect): {"去掉依赖", "removing a dependency"}, string(workflow.DecisionMoveNode): {"移动步骤", "moving a step"},
	string(workflow.DecisionExecuteWorkflow): {"开始执行", "starting the run"}, string(workflow.DecisionCancelWorkflow): {"取消执行", "cancelling the run"},
}

// engineEcho is the Coordinator's own words a model may copy from an
// observation ("ok: create_node applied, workflow version 3").
var engineEcho = regexp.MustCompile(`(?i)\bok:\s*[a-z_]+ applied(?:, workflow version \d+)?[.;,]?\s*`)

// plainReply keeps the engine's words out of what the person reads: the
// Coordinator's "ok: … applied, workflow version n" is dropped and a tool
// named in the reply becomes what it does, in the person's language.
func plainReply(reply string, english bool) string {
	reply = engineEcho.ReplaceAllString(reply, "")
	for tool, w := range toolWords {
		if strings.Contains(reply, tool) {
			word := w[0]
			if english {
				word = w[1]
			}
			reply = strings.ReplaceAll(reply, tool, word)
		}
	}
	return strings.TrimSpace(reply)
}

// hasHan reports whether s has a Chinese character (the person writes
// Chinese).
func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}

// fallbackConverse: a reply saying the agent cannot work on the request
// now (the model is unavailable) and nothing was changed, in the person's
// language (Chinese unless the message has no Chinese character). It is
// never an action: no decision is taken without a working model.
func fallbackConverse(in *ConverseInput) workflow.AgentStep {
	thought := "对话模型不可用，不采取任何行动（fallback: " + fallbackReason + "）"
	reply := "抱歉，我现在无法处理这个请求（对话模型暂时不可用），工作流没有任何改动，请稍后再试。"
	if m := strings.TrimSpace(in.Message); m != "" && !hasHan(m) {
		reply = "Sorry, I can't work on this request right now (the conversation model is unavailable); " +
			"nothing in the workflow was changed. Please try again later."
	}
	return workflow.AgentStep{Thought: thought, Reply: reply}
}
