package timeline

import (
	"cmp"
	"fmt"
	"time"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// words are the code values a timeline summary shows (offer decisions,
// feedback types, channel statuses, round outcomes, failure and rejection
// reasons, fork changes, workflow decisions) as the console's words. A
// value it lacks shows as itself.
var words = map[string]string{
	// Offer decisions.
	string(negotiation.OfferDecisionParticipate): "参与",
	string(negotiation.OfferDecisionConditional): "有条件参与",
	string(negotiation.OfferDecisionDecline):     "拒绝",
	string(negotiation.OfferDecisionNoAnswer):    "未能回答",
	// Feedback types.
	string(negotiation.FeedbackAccept):    "接受",
	string(negotiation.FeedbackNegotiate): "协商",
	string(negotiation.FeedbackWithdraw):  "退出",
	string(negotiation.FeedbackReject):    "反对",
	// Channel statuses.
	string(negotiation.ChannelStatusCreated):        "已创建",
	string(negotiation.ChannelStatusBroadcasting):   "广播中",
	string(negotiation.ChannelStatusCollecting):     "收集回应",
	string(negotiation.ChannelStatusAggregating):    "汇总方案",
	string(negotiation.ChannelStatusProposalSent):   "方案已发出",
	string(negotiation.ChannelStatusNegotiating):    "协商中",
	string(negotiation.ChannelStatusFinalized):      "已达成",
	string(negotiation.ChannelStatusForceFinalized): "强制定稿",
	string(negotiation.ChannelStatusFailed):         "失败",
	// Round outcomes.
	string(negotiation.RoundFinalize):      "定稿",
	string(negotiation.RoundNext):          "进入下一轮",
	string(negotiation.RoundFail):          "失败",
	string(negotiation.RoundForceFinalize): "强制定稿",
	// Failure reasons.
	string(negotiation.FailureLowAcceptance):      "接受率过低",
	string(negotiation.FailureNoFeedback):         "最后一轮没有反馈",
	string(negotiation.FailureNoResponsesTimeout): "超时未收到回应",
	string(negotiation.FailureNegotiateTimeout):   "超时未收到反馈",
	string(negotiation.FailureStuckTimeout):       "长时间没有进展",
	string(negotiation.FailureNoCandidates):       "没有合适的候选人",
	string(negotiation.FailureNoParticipants):     "受邀者都拒绝了",
	string(negotiation.FailureModelUnavailable):   "语言模型暂时无法回答，请稍后再试",
	string(negotiation.FailureDemandRejected):     "需求未受理",
	// Rejection reasons.
	negotiation.RejectUnclear: "需求不清楚",
	negotiation.RejectNoMatch: "没有人能满足",
	// Fork changes.
	string(negotiation.ForkNoChange):        "无",
	string(negotiation.ForkRemoveAgent):     "去掉一位 Agent",
	string(negotiation.ForkAddAgent):        "加入一位 Agent",
	string(negotiation.ForkReplaceOffer):    "改写一份回应",
	string(negotiation.ForkReplaceFeedback): "改写一份反馈",
	string(negotiation.ForkChangeRule):      "改变规则",
	string(negotiation.ForkChangeDemand):    "改写需求",
	// Workflow decisions.
	string(workflow.DecisionCreateNode):      "新增步骤",
	string(workflow.DecisionUpdateNode):      "修改步骤",
	string(workflow.DecisionDeleteNode):      "删除步骤",
	string(workflow.DecisionConnect):         "新增依赖",
	string(workflow.DecisionDisconnect):      "删除依赖",
	string(workflow.DecisionMoveNode):        "移动步骤",
	string(workflow.DecisionExecuteWorkflow): "开始执行",
	string(workflow.DecisionCancelWorkflow):  "取消执行",
}

// word is code value v as the console says it.
func word[S ~string](v S) string {
	if w, ok := words[string(v)]; ok {
		return w
	}
	return string(v)
}

// urgencyNote follows a broadcast's recipients: nothing for a normal one.
var urgencyNote = map[negotiation.Urgency]string{
	negotiation.UrgencyHigh: "（紧急）",
	negotiation.UrgencyLow:  "（不急）",
}

// nodeType is a workflow node type's label ("任务", "审批" …).
func nodeType(t workflow.NodeType) string {
	if s, ok := workflow.SpecOf(t); ok {
		return s.Label
	}
	return string(t)
}

// forkChange says a fork's change: its kind, and for an offer or a
// feedback replaced, the answer it becomes.
func forkChange(c negotiation.ForkChange) string {
	s := word(c.Type)
	switch {
	case c.Type == negotiation.ForkReplaceOffer && c.Offer != nil:
		s += "，改为「" + word(c.Offer.Decision) + "」"
	case c.Type == negotiation.ForkReplaceFeedback && c.Feedback != nil:
		s += "，改为「" + word(c.Feedback.FeedbackType) + "」"
	case c.Type == negotiation.ForkChangeDemand && c.Text != "":
		s += "「" + negotiation.ClipText(c.Text, 30) + "」"
	}
	return s
}

// offlineReason says why an agent went offline: silence, as the presence
// check records it (negotiation.SilenceReason), or the reason as written.
func offlineReason(reason string) string {
	if d, ok := negotiation.SilentFor(reason); ok {
		switch {
		case d >= time.Minute && d%time.Minute == 0:
			return fmt.Sprintf("%d 分钟没有联系", d/time.Minute)
		case d%time.Second == 0:
			return fmt.Sprintf("%d 秒没有联系", d/time.Second)
		}
	}
	return cmp.Or(negotiation.ClipText(reason, 60), "已下线")
}

// skipReason says why a workflow node was skipped, without the ids the
// recorded reason names: the workflow was cancelled, a node it depends on
// failed, or another node failed.
func skipReason(reason string) string {
	switch workflow.SkipCauseOf(reason) {
	case workflow.SkipCancelled:
		return "执行已取消"
	case workflow.SkipDependencyFailed:
		return "所依赖的步骤失败"
	case workflow.SkipOtherNodeFailed:
		return "其他步骤失败，执行终止"
	}
	return negotiation.ClipText(reason, 60)
}
