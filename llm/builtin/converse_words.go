package builtin

import (
	"regexp"
	"strings"

	"github.com/towow/towow/domain/workflow"
)

// What the conversation brain says of a refusal and of a workflow's
// state, in the person's words: a refusal's rule, the Coordinator's
// English reason, statuses and ids stay in the step's observation.

// refusedBy parses an observation of a refusal: "refused by rule <rule>:
// <reason>".
var refusedBy = regexp.MustCompile(`(?s)^refused by rule ([a-z_]+):\s*(.*)$`)

// refusalOf is the rule and the reason of a refused step's observation
// (no rule when it names none).
func refusalOf(obs string) (rule, reason string) {
	obs = strings.TrimSpace(obs)
	if m := refusedBy.FindStringSubmatch(obs); m != nil {
		return m[1], m[2]
	}
	return "", obs
}

// onlyApprover finds who answers an approval in its refusal: "only alice
// answers this approval".
var onlyApprover = regexp.MustCompile(`only (\S+) answers`)

// fieldWords say what a node lacks or has wrong, by a word of the
// Coordinator's reason (the first that matches).
var fieldWords = []struct{ word, zh, en string }{
	{"method", "请求方法只能是 GET、POST、PUT、PATCH 或 DELETE，而且 GET 和 DELETE 不带请求体。",
		"The method must be GET, POST, PUT, PATCH or DELETE, and a GET or DELETE carries no body."},
	{"url", "HTTP 调用需要一个完整的 http(s) 地址。", "A web call needs a full http(s) address."},
	{"wait", "等待步骤需要一个具体的时间。", "A wait step needs a time to wait for."},
	{"approver", "审批人需要是一个用户。", "The approver must be a user."},
	{"assignee", "任务需要一位负责人，而且只有任务才有负责人。", "A task needs someone to do it, and only a task has one."},
	{"changes nothing", "这次修改没有改变任何内容。", "The change changes nothing."},
	{"title", "步骤需要一个标题。", "A step needs a title."},
}

// refusal says why an action was refused.
func (a agent) refusal(rule, reason string, act workflow.AgentStep) string {
	lower := strings.ToLower(reason)
	switch rule {
	case "approver":
		who := a.say("它的审批人", "its approver")
		if m := onlyApprover.FindStringSubmatch(reason); m != nil {
			who = m[1]
		}
		return a.say("这一步只能由 "+who+" 本人审批。", "only "+who+" can answer this approval.")
	case "node_state":
		return a.say(a.title(act.Args.NodeID)+"现在不在等待审批。", a.title(act.Args.NodeID)+" is not waiting for an approval now.")
	case "confidence":
		return a.say("我不确定你是不是要答复这个审批。请直接说「批准……」或「驳回……」。",
			"I'm not sure you meant to answer that approval. Say “approve …” or “reject …”.")
	case "acyclic":
		return a.say("这样会让步骤互相等待，形成死循环。", "that would make steps wait for each other in a loop.")
	case "assignee":
		return a.say("这位不是协议的参与者。", "that person is not part of the agreement.")
	case "http_allow_list":
		return a.say("这个地址不在允许调用的名单上。", "that address is not on the list of hosts the workflow may call.")
	case "frozen_nodes":
		return a.say("这一步已经开始或结束，不能再改。", "that step has already started or ended, so it cannot change.")
	case "workflow_state":
		return a.say("工作流"+a.workflowWord()+"，现在不能这样做。", "the workflow is "+a.workflowWord()+", so that cannot be done now.")
	case "version":
		return a.say("工作流刚被别人改过。", "someone else changed the workflow just now.")
	case "rate_limit":
		return a.say("短时间内改动太多，请稍后再试。", "too many changes in a short time; try again in a minute.")
	case "references":
		if strings.Contains(lower, "already") {
			return a.say("这条依赖已经有了。", "that dependency is already there.")
		}
		return a.say("提到的步骤不存在。", "a step it names does not exist.")
	case "data_flow":
		return a.say("它引用了前面步骤没有提供的数据。", "it reads data no earlier step provides.")
	case "size":
		return a.say("工作流的步骤太多了。", "the workflow has too many steps.")
	case "executable":
		return a.say("工作流还不能执行：有步骤缺少必要的信息。", "the workflow cannot run yet: a step lacks what it needs.")
	}
	for _, f := range fieldWords {
		if strings.Contains(lower, f.word) {
			return a.say(f.zh, f.en)
		}
	}
	return a.say("协调器没有通过这个修改。", "the coordinator did not let the change through.")
}

// workflowWord is the workflow's status in the person's words.
func (a agent) workflowWord() string {
	zh := map[workflow.WorkflowStatus]string{workflow.WorkflowStatusDraft: "还是草稿", workflow.WorkflowStatusRunning: "正在执行",
		workflow.WorkflowStatusCompleted: "已完成", workflow.WorkflowStatusFailed: "已失败", workflow.WorkflowStatusCancelled: "已取消"}
	en := map[workflow.WorkflowStatus]string{workflow.WorkflowStatusDraft: "a draft", workflow.WorkflowStatusRunning: "running",
		workflow.WorkflowStatusCompleted: "completed", workflow.WorkflowStatusFailed: "failed", workflow.WorkflowStatusCancelled: "cancelled"}
	return a.say(orDefault(zh[a.wf.Status], "状态未知"), orDefault(en[a.wf.Status], "in an unknown state"))
}

// progressWords ask what happened since (lower case).
var progressWords = []string{"怎么样了", "进展", "进度", "有什么变化", "什么变化", "最新情况", "现在情况", "what changed", "progress",
	"how is it going", "how's it going", "what's new", "any news", "status"}

// progress replies with what happened since the person's last message,
// then where the workflow stands.
func (a agent) progress(since []workflow.Change) string {
	var lines []string
	for _, ch := range since {
		if s := a.change(ch); s != "" {
			lines = append(lines, s)
		}
	}
	now := a.workflowReport()
	if len(lines) == 0 {
		return a.say("上次之后没有新的变化。", "Nothing changed since your last message. ") + now
	}
	return a.say("上次之后："+strings.Join(lines, "；")+"。", "Since your last message: "+strings.Join(lines, "; ")+". ") + now
}

// change says one change in the person's words ("" for one not worth
// saying).
func (a agent) change(ch workflow.Change) string {
	who := strings.TrimPrefix(ch.By, "user:")
	if who != ch.By || who == "" {
		who = orDefault(who, a.say("有人", "someone"))
	} else {
		who = a.who(who)
	}
	step := func(id string) string {
		if a.node(id) == nil {
			if ch.Detail != "" && ch.What == string(workflow.DecisionCreateNode) {
				return a.say("「"+ch.Detail+"」", "“"+ch.Detail+"”")
			}
			return a.say("一步（已删除）", "a step (since removed)")
		}
		return a.title(id)
	}
	switch ch.What {
	case string(workflow.DecisionCreateNode):
		return a.say(who+" 新增了"+step(ch.NodeID), who+" added "+step(ch.NodeID))
	case string(workflow.DecisionUpdateNode):
		return a.say(who+" 修改了"+step(ch.NodeID), who+" changed "+step(ch.NodeID))
	case string(workflow.DecisionDeleteNode):
		return a.say(who+" 删除了一步", who+" removed a step")
	case string(workflow.DecisionConnect):
		return a.say(who+" 让"+step(ch.To)+"在"+step(ch.NodeID)+"完成后开始", who+" made "+step(ch.To)+" wait for "+step(ch.NodeID))
	case string(workflow.DecisionDisconnect):
		return a.say(who+" 去掉了"+step(ch.NodeID)+"到"+step(ch.To)+"的依赖", who+" removed the dependency of "+step(ch.To)+" on "+step(ch.NodeID))
	case string(workflow.DecisionExecuteWorkflow):
		return a.say(who+" 开始执行了工作流", who+" started the workflow")
	case string(workflow.DecisionCancelWorkflow):
		return a.say(who+" 取消了工作流", who+" cancelled the workflow")
	case "completed":
		return a.say(step(ch.NodeID)+"已完成", step(ch.NodeID)+" is done")
	case "failed":
		return a.say(step(ch.NodeID)+"失败了："+ch.Detail, step(ch.NodeID)+" failed: "+ch.Detail)
	case "workflow_completed":
		return a.say("整个工作流已完成", "the whole workflow is done")
	case "workflow_failed":
		return a.say("工作流失败了", "the workflow failed")
	case "workflow_cancelled":
		return a.say("工作流已取消", "the workflow was cancelled")
	}
	return ""
}
