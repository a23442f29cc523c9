package builtin

import (
	"regexp"
	"strings"

	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
)

// Approvals in the conversation: a person answers a running approval
// step by saying so ("批准「预算审批」", "驳回预算审批：超支了", "approve the
// budget"). The brain answers only when the message says approve or
// reject and names, or can only mean, one approval node; the engine then
// answers it in the speaker's name (only its approver may).

// Words of approving and rejecting (lower case). Rejecting is read first:
// 不批准 and 不同意 hold 批准 and 同意.
var (
	rejectWords  = []string{"驳回", "拒绝", "不批准", "不同意", "否决", "不通过", "reject", "decline", "deny"}
	approveWords = []string{"批准", "同意", "通过", "准了", "approve", "sign off", "accept"}
)

// commentAfter is the comment a message gives after its first
// punctuation: "批准预算审批，预算在范围内" → "预算在范围内".
var commentAfter = regexp.MustCompile(`^[^，,：:。;；]+[，,：:。;；]\s*(.+)$`)

// approval reads an answer to an approval step; ok is false when the
// message is not one (no approve or reject word, or no approval node it
// could be about).
func (a agent) approval(msg string) (llm.ConverseReply, bool) {
	lower := strings.ToLower(msg)
	reject := hasAny(lower, rejectWords...)
	if !reject && !hasAny(lower, approveWords...) {
		return llm.ConverseReply{}, false
	}
	var approvals, waiting []llm.NodeState
	for _, n := range a.wf.Nodes {
		if n.Type == workflow.NodeApproval {
			approvals = append(approvals, n)
			if n.Status == workflow.NodeStatusRunning {
				waiting = append(waiting, n)
			}
		}
	}
	named := titledIn(approvals, msg)
	if len(named) != 1 {
		named = matchNodes(approvals, msg)
	}
	var id string
	switch {
	case len(named) == 1:
		id = named[0]
	case len(waiting) == 1 && len(named) == 0:
		id = waiting[0].ID
	case len(waiting) > 1:
		var ids []string
		for _, n := range waiting {
			ids = append(ids, n.ID)
		}
		return a.ask(a.say("有几个审批在等，问是哪一个", "several approvals wait: ask which"),
			a.say("有几个步骤在等审批："+a.nodeList(ids)+"。你要答复哪一个？", "Several steps wait for approval: "+a.nodeList(ids)+". Which one do you mean?")), true
	case len(approvals) == 0:
		return llm.ConverseReply{}, false // approve or reject something else: not an approval step
	default:
		return reply(a.say("没有在等审批的步骤", "no approval is waiting"),
			a.say("现在没有步骤在等你审批。", "No step is waiting for an approval now.")), true
	}
	n := a.node(id)
	if n.Status != workflow.NodeStatusRunning {
		return reply(a.say("这个审批现在不在等待", "that approval is not waiting"),
			a.say(a.title(id)+"现在"+a.statusWord(n.Status)+"，不在等待审批，不能答复。",
				a.title(id)+" is "+a.statusWord(n.Status)+", not waiting for an approval, so it cannot be answered now.")), true
	}
	comment := ""
	if m := commentAfter.FindStringSubmatch(strings.TrimSpace(msg)); m != nil {
		comment = strings.TrimSpace(m[1])
	}
	if reject {
		return act(a.say("用户拒绝"+a.title(id), "the person rejects "+a.title(id)), workflow.ToolReject,
			workflow.DecisionPayload{NodeID: id, Reason: comment}, 0.9), true
	}
	return act(a.say("用户批准"+a.title(id), "the person approves "+a.title(id)), workflow.ToolApprove,
		workflow.DecisionPayload{NodeID: id, Reason: comment}, 0.9), true
}

// titledIn returns the nodes whose whole title the text holds, the
// longest titles only ("批准审批" names 审批, not 法务审批; "批准法务审批"
// names 法务审批, whose title holds 审批's).
func titledIn(nodes []llm.NodeState, text string) []string {
	lower := strings.ToLower(text)
	var out []string
	longest := 0
	for _, n := range nodes {
		t := strings.ToLower(strings.TrimSpace(n.Title))
		if t == "" || !strings.Contains(lower, t) {
			continue
		}
		switch l := len(t); {
		case l > longest:
			out, longest = []string{n.ID}, l
		case l == longest:
			out = append(out, n.ID)
		}
	}
	return out
}
