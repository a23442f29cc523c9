package builtin

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Converse, converse) }

// Conversation (prompt 11): the agent a person talks to about a workflow,
// one ReAct step per call. The brain takes at most one action per turn, so
// the engine's loop always ends: it reads the turn's steps so far first.
//
//  1. The last action was refused (Rejected, or an observation starting
//     with "refused"): reply explaining it in plain words (the rule and
//     the Coordinator's English stay in the observation); never the same
//     action again. A task given to someone outside the agreement: name
//     the participants.
//  2. Any other last step (a decision that went through, get_node,
//     get_workflow): reply with what changed or what it found ("场地确认
//     失败：<error>").
//  3. No step yet: read the message (readMessage), in this order: approve
//     or reject an approval step (not while adding one) → approve_node /
//     reject_node; how is it going → a reply with what changed since the
//     person's last message (others' edits, results) and where it stands;
//     why … failed → get_node; add X before/after Y →
//     create_node (of the type the message names: a web address → http,
//     wait until a time → wait, an approval → approval, someone to do it →
//     task, else milestone); remove X →
//     delete_node; earlier/later (to a due) → update_node; A before B / 先A
//     再B → connect; cancel/stop → cancel_workflow; run/start →
//     execute_workflow; anything else → ask_user.
//
// Nodes are found by id, else by the title words a text shares with them
// (matchNodes); when that names no node or several, the step is ask_user.
// Replies and questions are in the person's language: English when the
// message has no Chinese character, else Chinese.

// converse answers prompt 11.
func converse(in *llm.ConverseInput) llm.ConverseReply {
	a := agent{wf: &in.Workflow, zh: !isEnglishMessage(in.Message), now: in.Now, since: in.Since}
	if n := len(in.Steps); n > 0 {
		last := in.Steps[n-1]
		if last.Rejected || strings.HasPrefix(strings.ToLower(strings.TrimSpace(last.Observation)), "refused") {
			return a.explainRejection(last)
		}
		return a.summarise(last)
	}
	return a.readMessage(simplified(strings.TrimSpace(in.Message)))
}

// agent is the brain's view of one call: the workflow and the language.
type agent struct {
	wf  *llm.WorkflowState
	zh  bool
	now time.Time // the time the message is read at (its location reads a wait's time)
	// since is what happened since the person's last message.
	since []workflow.Change
}

// say picks the Chinese or the English text.
func (a agent) say(zh, en string) string {
	if a.zh {
		return zh
	}
	return en
}

// reply ends the turn.
func reply(thought, text string) llm.ConverseReply {
	return llm.ConverseReply{Thought: llm.Text(thought), Reply: llm.Text(text)}
}

// act calls a tool.
func act(thought, tool string, args workflow.DecisionPayload, confidence float64) llm.ConverseReply {
	return llm.ConverseReply{Thought: llm.Text(thought), Tool: llm.Text(tool), Args: llm.ArgsOf(args),
		Confidence: llm.NumberScalar(confidence)}
}

// ask asks the person (ask_user).
func (a agent) ask(thought, question string) llm.ConverseReply {
	return act(thought, workflow.ToolAskUser, workflow.DecisionPayload{Reason: question}, 0.6)
}

// isEnglishMessage reports whether the person writes English: a message
// with letters and no Chinese character.
func isEnglishMessage(s string) bool {
	han, latin := false, false
	for _, r := range s {
		han = han || unicode.Is(unicode.Han, r)
		latin = latin || (r < 128 && unicode.IsLetter(r))
	}
	return latin && !han
}

// ---- Rules 1 and 2: after an action.

// explainRejection replies to a refused action with the reason, in the
// person's words (refusal): never the rule's name or the observation's
// own text.
func (a agent) explainRejection(last workflow.ConversationStep) llm.ConverseReply {
	rule, reason := refusalOf(last.Observation)
	text := a.say("这一步没有做成：", "That was not done: ") + a.refusal(rule, reason, last.Action)
	switch {
	case rule == "assignee":
		text += a.say("任务只能交给协议的参与者："+a.participants()+"。要交给其中哪一位？",
			" Tasks can only go to the people in the agreement: "+a.participants()+". Which of them should take it?")
	case rule == "approver" || rule == "node_state" || rule == "confidence":
	default:
		text += a.say("工作流没有改动。要换一种改法吗？", " Nothing in the workflow changed. Shall I try it another way?")
	}
	return reply(a.say("上一步被拒绝，不再重复，向用户说明原因", "the last step was refused: explain it, do not retry"), text)
}

// participants lists the agreement's participants by name with the
// roles of their tasks: "Bob（场地提供者）".
func (a agent) participants() string {
	var out []string
	for _, id := range a.wf.Participants {
		var about []string
		for _, n := range a.wf.Nodes {
			if n.AssigneeID != id {
				continue
			}
			for _, s := range []string{n.Role, nameInTitle(n.Title)} {
				if s != "" && !slices.Contains(about, s) {
					about = append(about, s)
				}
			}
		}
		name := a.who(id)
		about = slices.DeleteFunc(about, func(s string) bool { return s == name })
		if len(about) > 0 {
			name += a.say("（"+strings.Join(about, "，")+"）", " ("+strings.Join(about, ", ")+")")
		}
		out = append(out, name)
	}
	if len(out) == 0 {
		return a.say("（没有参与者）", "(none)")
	}
	return strings.Join(out, a.say("、", ", "))
}

// nameInTitle is the name a planned task's title gives in parentheses
// ("场地提供者（Bob）" → "Bob"), or "".
func nameInTitle(title string) string {
	i := strings.LastIndex(title, "（")
	if i < 0 || !strings.HasSuffix(title, "）") {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(title[i+len("（"):], "）"))
}

// title is how a reply names a node: its title in 「」 or quotes, else its
// id.
func (a agent) title(id string) string {
	name := id
	if n := a.node(id); n != nil && n.Title != "" {
		name = n.Title
	}
	return a.say("「"+name+"」", "“"+name+"”")
}

// who is an agent's name for people: the workflow's name for it, else
// the name or the role its task's title gives, else the id as written (a
// person the agreement does not know).
func (a agent) who(id string) string {
	if name := a.wf.Names[id]; name != "" {
		return name
	}
	for _, n := range a.wf.Nodes {
		if n.AssigneeID == id {
			if name := nameInTitle(n.Title); name != "" {
				return name
			}
			if n.Role != "" {
				return n.Role
			}
		}
	}
	return id
}

// statusWord is a node's status in the person's words.
func (a agent) statusWord(s workflow.NodeStatus) string {
	zh, en := map[workflow.NodeStatus]string{workflow.NodeStatusRunning: "进行中", workflow.NodeStatusCompleted: "已完成",
		workflow.NodeStatusFailed: "失败了", workflow.NodeStatusSkipped: "已跳过"}, map[workflow.NodeStatus]string{
		workflow.NodeStatusRunning: "running", workflow.NodeStatusCompleted: "done", workflow.NodeStatusFailed: "failed",
		workflow.NodeStatusSkipped: "skipped"}
	return a.say(orDefault(zh[s], "还没开始"), orDefault(en[s], "not started"))
}

// node returns the node with id, or nil.
func (a agent) node(id string) *llm.NodeState {
	for i := range a.wf.Nodes {
		if a.wf.Nodes[i].ID == id {
			return &a.wf.Nodes[i]
		}
	}
	return nil
}

// summarise replies after an action that went through: what changed, or
// what it found.
func (a agent) summarise(last workflow.ConversationStep) llm.ConverseReply {
	p, obs := last.Action.Args, strings.TrimSpace(last.Observation)
	var text string
	switch last.Action.Tool {
	case workflow.ToolGetNode:
		text = a.nodeReport(p.NodeID, obs)
	case workflow.ToolGetWorkflow:
		text = a.workflowReport()
	case string(workflow.DecisionCreateNode):
		title := ""
		if p.Node != nil {
			title = p.Node.Title
		}
		text = a.say("已新增「"+title+"」", "Added “"+title+"”")
		for _, id := range p.After {
			text += a.say("，排在"+a.title(id)+"之后", ", after "+a.title(id))
		}
		for _, id := range p.Before {
			text += a.say("，排在"+a.title(id)+"之前", ", before "+a.title(id))
		}
		if p.Node != nil && p.Node.AssigneeID != "" {
			text += a.say("，由 "+a.who(p.Node.AssigneeID)+" 负责", ", assigned to "+a.who(p.Node.AssigneeID))
		}
		text += a.say("。", ".")
	case string(workflow.DecisionUpdateNode):
		if p.Changes != nil && p.Changes.Due != nil {
			text = a.say("已把"+a.title(p.NodeID)+"的截止时间改为"+*p.Changes.Due+"。",
				"Moved the due date of "+a.title(p.NodeID)+" to "+*p.Changes.Due+".")
		} else {
			text = a.say("已修改"+a.title(p.NodeID)+"。", "Updated "+a.title(p.NodeID)+".")
		}
	case string(workflow.DecisionDeleteNode):
		text = a.say("已删除这一步。", "Removed that step.") // gone from the workflow now, with its title
	case string(workflow.DecisionConnect):
		text = a.say("已设置："+a.title(p.From)+"完成后再开始"+a.title(p.To)+"。",
			"Done: "+a.title(p.To)+" now starts after "+a.title(p.From)+" is completed.")
	case string(workflow.DecisionDisconnect):
		text = a.say("已去掉"+a.title(p.From)+"到"+a.title(p.To)+"的依赖。",
			"Removed the dependency of "+a.title(p.To)+" on "+a.title(p.From)+".")
	case string(workflow.DecisionMoveNode):
		text = a.say("已移动"+a.title(p.NodeID)+"。", "Moved "+a.title(p.NodeID)+".")
	case string(workflow.DecisionExecuteWorkflow):
		text = a.say("工作流已开始执行。", "The workflow has started.")
	case string(workflow.DecisionCancelWorkflow):
		text = a.say("工作流已取消。", "The workflow was cancelled.")
	case workflow.ToolApprove:
		text = a.say("已批准"+a.title(p.NodeID)+"，执行继续。", "Approved "+a.title(p.NodeID)+"; the run goes on.")
	case workflow.ToolReject:
		text = a.say("已拒绝"+a.title(p.NodeID)+"：这一步失败，执行随之停止。",
			"Rejected "+a.title(p.NodeID)+": the step failed, and the run stopped with it.")
	default: // a tool the brain does not know
		text = a.say("好了。", "Done.")
	}
	// The Coordinator's own words ("ok: … applied, workflow version n")
	// stay in the step's observation: the person reads what changed.
	return reply(a.say("上一步已完成，向用户汇报", "the last step went through: report it"), text)
}

// nodeReport says what get_node found: a failed node's error, else its
// status and result.
func (a agent) nodeReport(id, obs string) string {
	n := a.node(id)
	if n == nil {
		return orDefault(obs, a.say("没有找到节点 "+id+"。", "There is no node "+id+"."))
	}
	name := a.title(id)
	switch {
	case n.Status == workflow.NodeStatusFailed && n.Error != "":
		return a.say(name+"失败："+n.Error+"。可以改负责人或时间后重新执行。",
			name+" failed: "+n.Error+". You can change its assignee or due date and run it again.")
	case n.Status == workflow.NodeStatusFailed:
		return a.say(name+"失败了，没有记录错误原因。", name+" failed; no error was recorded.")
	case n.Result != "":
		return a.say(name+a.statusWord(n.Status)+"，结果："+n.Result+"。", name+" is "+a.statusWord(n.Status)+": "+n.Result+".")
	}
	return a.say(name+a.statusWord(n.Status)+"，没有失败。", name+" is "+a.statusWord(n.Status)+"; it has not failed.")
}

// workflowReport sums up the workflow: its status and how many nodes are
// in each status.
func (a agent) workflowReport() string {
	count := map[workflow.NodeStatus]int{}
	for _, n := range a.wf.Nodes {
		count[n.Status]++
	}
	var parts []string
	for _, s := range []workflow.NodeStatus{workflow.NodeStatusCompleted, workflow.NodeStatusRunning, workflow.NodeStatusPending,
		workflow.NodeStatusFailed, workflow.NodeStatusSkipped} {
		if count[s] > 0 {
			parts = append(parts, a.say(a.statusWord(s)+" "+strconv.Itoa(count[s])+" 步", strconv.Itoa(count[s])+" "+a.statusWord(s)))
		}
	}
	return a.say("「"+a.wf.Title+"」"+a.workflowWord()+"，共 "+strconv.Itoa(len(a.wf.Nodes))+" 步（"+strings.Join(parts, "，")+"）。",
		"“"+a.wf.Title+"” is "+a.workflowWord()+", with "+strconv.Itoa(len(a.wf.Nodes))+" steps ("+strings.Join(parts, ", ")+").")
}

// ---- Rule 3: the message.

// Words of each intent (lower case; ASCII words match whole).
var (
	whyWords     = []string{"为什么", "为啥", "怎么", "原因", "why", "what went wrong", "how come"}
	failWords    = []string{"失败", "出错", "报错", "没成功", "不成功", "挂了", "fail", "failed", "fails", "error", "wrong"}
	addWords     = []string{"增加", "新增", "添加", "插入", "加上", "加入", "加一个", "加个", "再加", "创建", "新建", "add", "insert", "create"}
	removeWords  = []string{"删除", "删掉", "删了", "去掉", "移除", "拿掉", "remove", "delete", "drop"}
	earlierWords = []string{"提前", "提早", "早一点", "早点", "earlier", "sooner", "move up", "bring forward"}
	laterWords   = []string{"推迟", "延后", "延期", "推后", "往后", "晚一点", "晚点", "later", "postpone", "delay", "push back"}
	cancelWords  = []string{"取消", "停止", "终止", "停掉", "别执行", "cancel", "stop", "abort", "halt"}
	runWords     = []string{"执行", "开始", "启动", "运行", "跑起来", "开跑", "run", "execute", "start", "go ahead", "kick off", "launch"}
)

// readMessage decides the first step of a turn from the message.
func (a agent) readMessage(msg string) llm.ConverseReply {
	lower := strings.ToLower(msg)
	adds := hasAny(lower, addWords...) || addsInChinese(msg)
	if !adds {
		if r, ok := a.approval(msg); ok {
			return r
		}
	}
	switch {
	case hasAny(lower, progressWords...) && !adds:
		return reply(a.say("用户问进展：说说上次之后的变化和现状", "the person asks how it goes: what changed, where it stands"),
			a.progress(a.since))
	case hasAny(lower, whyWords...) && hasAny(lower, failWords...):
		return a.whyFailed(msg)
	case adds:
		return a.add(msg)
	case hasAny(lower, removeWords...):
		return a.remove(msg)
	case hasAny(lower, earlierWords...):
		return a.reschedule(msg, false)
	case hasAny(lower, laterWords...):
		return a.reschedule(msg, true)
	}
	if r, ok := a.connect(msg); ok {
		return r
	}
	switch {
	case hasAny(lower, cancelWords...):
		return act(a.say("用户要取消工作流", "the person wants the workflow cancelled"), string(workflow.DecisionCancelWorkflow),
			workflow.DecisionPayload{Reason: msg}, 0.8)
	case hasAny(lower, runWords...):
		return act(a.say("用户要开始执行工作流", "the person wants the workflow run"), string(workflow.DecisionExecuteWorkflow),
			workflow.DecisionPayload{}, 0.9)
	}
	return a.ask(a.say("没看懂用户要做什么，先问清楚", "unclear what the person wants: ask"),
		a.say("我没太明白你想怎么处理这个工作流。可以说得具体一些吗？比如「把场地确认提前到第一周」「在场地确认之后加一个彩排」「开始执行」或「为什么某个任务失败了？」",
			"I'm not sure what you want to do with the workflow. Could you say it more specifically? For example "+
				"“move the venue check to week 1”, “add a rehearsal after the venue check”, “run it” or “why did the venue task fail?”"))
}

// addsInChinese reports whether a Chinese message says 加 on its own (加彩排),
// not inside 参加, 更加 and the like.
func addsInChinese(msg string) bool {
	for _, w := range []string{"参加", "更加", "加快", "加急", "加班", "加油", "增加", "附加"} {
		msg = strings.ReplaceAll(msg, w, "")
	}
	return strings.Contains(msg, "加")
}

// pick resolves the one node a text names, or asks which: the reply is
// set when it did not find exactly one.
func (a agent) pick(text, what string) (string, *llm.ConverseReply) {
	found := matchNodes(a.wf.Nodes, text)
	if len(found) == 1 {
		return found[0], nil
	}
	var q string
	if len(found) == 0 {
		q = a.say("你说的"+what+"是哪个节点？现有节点："+a.nodeList(nil)+"。",
			"Which node do you mean by "+what+"? The nodes are: "+a.nodeList(nil)+".")
	} else {
		q = a.say("你说的"+what+"是哪一个："+a.nodeList(found)+"？", "Which one do you mean by "+what+": "+a.nodeList(found)+"?")
	}
	r := a.ask(a.say("找不到唯一对应的节点，不能猜", "no single node matches: do not guess"), q)
	return "", &r
}

// nodeList names nodes by title (all of them when ids is nil).
func (a agent) nodeList(ids []string) string {
	var out []string
	for _, n := range a.wf.Nodes {
		if ids == nil || slices.Contains(ids, n.ID) {
			out = append(out, a.title(n.ID))
		}
	}
	if len(out) == 0 {
		return a.say("（没有节点）", "(none)")
	}
	return strings.Join(out, a.say("、", ", "))
}
