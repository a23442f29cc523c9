package timeline

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/towow/towow/domain/erasure"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
)

// Describe renders an event's payload for a timeline: the round it belongs
// to (0: none), the id it is about (an agent, a channel, a demand, a
// workflow node) and a one-line summary. `towow demo`, `towow replay`, the
// MCP server's timeline resource and the console (the `summary` of every
// event the API sends) print with it. The summary is read by people, in
// Chinese, the console's language: it names no ids (the subject carries
// the id), no tool names and no log text, shows every code value as its
// word (see words) and a person by display name where the payload has
// it; every registered event type has one.
func Describe(p event.Payload) (round int, subject, summary string) {
	switch ev := p.(type) {
	case *negotiation.DemandSubmitted:
		s := negotiation.ClipText(ev.RawInput, 60)
		if ev.ParentChannelID != "" {
			s = fmt.Sprintf("为缺口「%s」的子需求：%s", ev.GapType, s)
		}
		return 0, ev.DemandID, s
	case *negotiation.DemandUnderstood:
		var needs []string
		for _, n := range ev.Needs {
			s := n.Role
			if n.Count > 1 {
				s += fmt.Sprintf(" ×%d", n.Count)
			}
			needs = append(needs, s)
		}
		s := negotiation.ClipText(ev.SurfaceDemand, 40)
		if len(needs) > 0 {
			s += "（需要：" + strings.Join(needs, "、") + "）"
		} else if len(ev.CapabilityTags) > 0 {
			s += "（能力：" + strings.Join(ev.CapabilityTags, "、") + "）"
		}
		return 0, ev.DemandID, s
	case *negotiation.FilterStarted:
		return 0, ev.DemandID, fmt.Sprintf("在 %d 个 Agent 中", ev.TotalAgents)
	case *negotiation.FilterCompleted:
		return 0, ev.DemandID, fmt.Sprintf("%d 位候选人", ev.CandidatesCount)
	case *negotiation.DemandAccepted:
		return 0, ev.DemandID, "已开启协商频道"
	case *negotiation.ChannelCreated:
		s := fmt.Sprintf("%d 位受邀，最多 %d 轮", len(ev.InvitedAgents), ev.MaxRounds)
		if ev.ParentChannel != "" {
			s += fmt.Sprintf("，子协商（第 %d 层）", ev.RecursionDepth)
		}
		return 0, ev.ChannelID, s
	case *negotiation.ChannelStatusChanged:
		return 0, ev.ChannelID, word(ev.OldStatus) + " → " + word(ev.NewStatus)
	case *negotiation.DemandBroadcast:
		return 0, ev.ChannelID, fmt.Sprintf("发给 %d 位%s", ev.RecipientsCount, urgencyNote[cmp.Or(ev.Urgency, negotiation.UrgencyNormal)])
	case *negotiation.ChannelInviteSent:
		s := ev.DisplayName + " 加入候选人"
		if ev.Broadcast {
			s = "已邀请 " + ev.DisplayName
		}
		s = strings.TrimSpace(s)
		if ev.Reason != "" {
			s += "（" + negotiation.ClipText(ev.Reason, 50) + "）"
		}
		return 0, ev.AgentID, s
	case *negotiation.ChannelClosed:
		s := word(ev.Status)
		if w, ok := words[ev.Reason]; ok && ev.Reason != string(ev.Status) { // a failure's reason
			s += "：" + w
		}
		return 0, ev.ChannelID, s
	case *negotiation.OfferRequested:
		return ev.Round, ev.AgentID, cmp.Or(negotiation.ClipText(ev.FilterReason, 60), "请求回应")
	case *negotiation.OfferSubmitted:
		s := word(ev.Decision) + "：" + negotiation.ClipText(ev.Contribution, 40)
		if ev.Decision == negotiation.OfferDecisionDecline {
			s = word(ev.Decision) + "：" + negotiation.ClipText(ev.DeclineReason, 40)
		}
		s = strings.TrimSuffix(s, "：")
		if len(ev.Conditions) > 0 {
			s += "；条件：" + strings.Join(ev.Conditions, "、")
		}
		return 0, ev.AgentID, strings.TrimSpace(ev.DisplayName + " " + s)
	case *negotiation.OfferTimeout:
		return 0, ev.ChannelID, fmt.Sprintf("收到 %d 份，%d 位未回应", ev.OffersCount, len(ev.MissingAgents))
	case *negotiation.AggregationStarted:
		return 0, ev.ChannelID, fmt.Sprintf("%d 份回应", ev.OffersCount)
	case *negotiation.NegotiationRoundStarted:
		return ev.Round, ev.ChannelID, fmt.Sprintf("第 %d / %d 轮", ev.Round, ev.MaxRounds)
	case *negotiation.ProposalDistributed:
		return ev.Round, ev.ChannelID, fmt.Sprintf("v%d：%s（%d 项分工）", ev.Proposal.Version, negotiation.ClipText(ev.Proposal.Summary, 50), len(ev.Proposal.Assignments))
	case *negotiation.ProposalFeedback:
		s := word(ev.FeedbackType)
		if t := cmp.Or(ev.AdjustmentRequest, ev.Reasoning); t != "" {
			s += "：" + negotiation.ClipText(t, 50)
		}
		return ev.Round, ev.AgentID, s
	case *negotiation.AgentWithdrawn:
		return 0, ev.AgentID, strings.TrimSuffix(withName(ev.DisplayName)+negotiation.ClipText(ev.Reason, 60), "：")
	case *negotiation.AgentOnline:
		if len(ev.Capabilities) == 0 {
			return 0, ev.AgentID, "已上线"
		}
		return 0, ev.AgentID, "能力：" + negotiation.ClipText(strings.Join(ev.Capabilities, "、"), 60)
	case *negotiation.AgentOffline:
		return 0, ev.AgentID, offlineReason(ev.Reason)
	case *negotiation.FeedbackEvaluated:
		return ev.Round, ev.ChannelID, fmt.Sprintf("第 %d 轮：接受 %d / 协商 %d / 反对 %d，接受率 %.0f%% → %s",
			ev.Round, ev.Accepts, ev.Negotiates, ev.Rejects, ev.AcceptRate*100, word(ev.Decision))
	case *negotiation.ProposalAdjusting:
		return ev.Round, ev.ChannelID, fmt.Sprintf("按反馈调整方案，准备第 %d 轮", ev.Round)
	case *negotiation.ProposalFinalized:
		return ev.RoundsTaken, ev.ChannelID, fmt.Sprintf("%d 轮达成一致，%d 位参与者", ev.RoundsTaken, ev.ParticipantsCount)
	case *negotiation.NegotiationForceFinalized:
		return ev.RoundsTaken, ev.ChannelID, fmt.Sprintf("确认 %d 位，仍在协商 %d 位（接受率 %.0f%%）",
			len(ev.ConfirmedParticipants), len(ev.OptionalParticipants), ev.AcceptRate*100)
	case *negotiation.NegotiationFailed:
		s := word(ev.Reason)
		if ev.Suggestion != "" {
			s += "（" + negotiation.ClipText(ev.Suggestion, 50) + "）"
		}
		return 0, cmp.Or(ev.ChannelID, ev.DemandID), s
	case *negotiation.DemandRejected:
		s := cmp.Or(ev.Message, word(ev.Reason))
		if len(ev.UnservedNeeds) > 0 {
			s += "（没有人能提供：" + strings.Join(ev.UnservedNeeds, "、") + "）"
		}
		return 0, ev.DemandID, negotiation.ClipText(s, 80)
	case *negotiation.GapIdentified:
		var g []string
		for _, gap := range ev.Gaps {
			g = append(g, gap.GapType)
		}
		if len(g) == 0 {
			return 0, ev.ChannelID, "没有缺口"
		}
		return 0, ev.ChannelID, "缺口：" + strings.Join(g, "、")
	case *negotiation.SubnetTriggered:
		return 0, ev.SubChannelID, fmt.Sprintf("为「%s」开启子协商", ev.GapType)
	case *negotiation.SubnetDeclined:
		if ev.Decision != nil && ev.Decision.Budget != nil {
			return 0, ev.ChannelID, "缺口不开子协商：本次协商的预算已不够"
		}
		return 0, ev.ChannelID, "缺口不开子协商：不值得另外找人"
	case *negotiation.SubnetCompleted:
		outcome := "未成功"
		if ev.Success {
			outcome = "成功"
		}
		if ev.Status != "" {
			outcome = word(ev.Status)
		}
		return 0, ev.SubChannelID, "子协商" + outcome
	case *negotiation.NegotiationCompleted:
		s := word(ev.Status)
		if n := len(ev.SubResults); n > 0 {
			s += fmt.Sprintf("，%d 个子协商", n)
		}
		return ev.RoundsTaken, ev.ChannelID, s
	case *negotiation.ErrorOccurred:
		s := negotiation.ClipText(ev.ErrorMessage, 60)
		if ev.Recoverable {
			s += "（可恢复）"
		}
		return 0, ev.Context["channel_id"], s
	case *negotiation.ChannelRulesChanged:
		s := fmt.Sprintf("最多 %d 轮", ev.Rules.MaxRounds)
		if ev.Rules.AcceptPercent > 0 {
			s += fmt.Sprintf("，接受率达 %d%% 定稿", ev.Rules.AcceptPercent)
		}
		if ev.Rules.FailPercent > 0 {
			s += fmt.Sprintf("，低于 %d%% 失败", ev.Rules.FailPercent)
		}
		return 0, ev.ChannelID, s
	case *negotiation.NegotiationForked:
		return 0, ev.ForkedFrom, fmt.Sprintf("在原协商第 %d 个事件后分叉（复制 %d 个事件），改变：%s",
			ev.At, ev.Copied, forkChange(ev.Change))
	}
	return describeOther(p)
}

// describeOther renders the events of an agent's life and a workflow's
// conversation.
func describeOther(p event.Payload) (round int, subject, summary string) {
	switch ev := p.(type) {
	case *negotiation.AgentRegistered:
		return 0, ev.AgentID, negotiation.ClipText(ev.Profile.UserName, 40)
	case *negotiation.AgentUpdated:
		return 0, ev.AgentID, negotiation.ClipText(ev.Profile.UserName, 40)
	case *negotiation.AgentDeactivated:
		return 0, ev.AgentID, cmp.Or(negotiation.ClipText(ev.Reason, 60), "已停用")
	case *negotiation.AgentReactivated:
		return 0, ev.AgentID, "已恢复"
	case *negotiation.AgentTokenIssued:
		return 0, ev.AgentID, "发放新的 API 令牌，之前的令牌失效"
	case *negotiation.CollaboratorAdded:
		if ev.Role == negotiation.RoleEditor {
			return 0, ev.DemandID, "与 " + ev.UserID + " 共享（可查看、可编辑执行计划）"
		}
		return 0, ev.DemandID, "与 " + ev.UserID + " 共享（只读）"
	case *negotiation.CollaboratorRemoved:
		return 0, ev.DemandID, "不再与 " + ev.UserID + " 共享"
	case *workflow.ConversationReported:
		return 0, ev.WorkflowID, negotiation.ClipText(ev.Text, 70)
	case *workflow.ConversationSummarized:
		return 0, ev.WorkflowID, fmt.Sprintf("较早的 %d 轮对话已归入摘要", ev.Turns)
	case *notice.Posted:
		return 0, ev.Recipient, ev.Title
	case *notice.Subscribed:
		return 0, ev.Owner, "新的 Webhook 订阅：" + ev.URL
	case *notice.Unsubscribed:
		return 0, ev.SubscriptionID, "Webhook 订阅已取消"
	case *erasure.Erased:
		return 0, ev.ErasureID, fmt.Sprintf("个人数据已按要求删除（%d 组，销毁 %d 把密钥）", ev.Subjects, len(ev.KeyIDs))
	case *notice.Delivered:
		if ev.Error != "" {
			return 0, ev.SubscriptionID, fmt.Sprintf("第 %d 次投递失败：%s", ev.Attempt, negotiation.ClipText(ev.Error, 60))
		}
		return 0, ev.SubscriptionID, fmt.Sprintf("第 %d 次投递成功", ev.Attempt)
	case *workflow.ConversationMessage:
		return 0, ev.WorkflowID, negotiation.ClipText(ev.Text, 70)
	case *workflow.ConversationStep:
		s := fmt.Sprintf("第 %d 步：%s", ev.Step, negotiation.ClipText(ev.Action.Thought, 60))
		if ev.Rejected {
			s += "（被拒绝）"
		}
		return 0, ev.WorkflowID, s
	case *workflow.ConversationReplied:
		if ev.Question {
			return 0, ev.WorkflowID, "提问：" + negotiation.ClipText(ev.Reply, 70)
		}
		return 0, ev.WorkflowID, negotiation.ClipText(ev.Reply, 70)
	}
	return describeWorkflow(p)
}

// describeWorkflow renders a workflow's events: its plan, decisions and
// execution.
func describeWorkflow(p event.Payload) (round int, subject, summary string) {
	switch ev := p.(type) {
	case *workflow.WorkflowCreated:
		return 0, ev.WorkflowID, fmt.Sprintf("%d 个步骤、%d 条依赖（草稿）", len(ev.Nodes), len(ev.Edges))
	case *workflow.DecisionValidated:
		s := fmt.Sprintf("%s → v%d", word(ev.Decision.Type), ev.Version)
		if len(ev.Corrections) > 0 {
			s += "（已修正）"
		}
		return 0, ev.Decision.Actor, s
	case *workflow.DecisionRejected:
		return 0, ev.Decision.Actor, word(ev.Decision.Type) + "：" + negotiation.ClipText(ev.Reason, 60)
	case *workflow.WorkflowNodeAdded:
		return 0, ev.Node.ID, fmt.Sprintf("%s「%s」", nodeType(ev.Node.Type), negotiation.ClipText(ev.Node.Title, 40))
	case *workflow.WorkflowNodeUpdated:
		return 0, ev.Node.ID, fmt.Sprintf("%s「%s」", nodeType(ev.Node.Type), negotiation.ClipText(ev.Node.Title, 40))
	case *workflow.WorkflowNodeDeleted:
		return 0, ev.NodeID, fmt.Sprintf("连同 %d 条依赖", len(ev.Edges))
	case *workflow.WorkflowNodeMoved:
		return 0, ev.NodeID, "调整了在画布上的位置"
	case *workflow.WorkflowEdgeAdded:
		return 0, ev.Edge.From + "→" + ev.Edge.To, "后一步等前一步完成"
	case *workflow.WorkflowEdgeDeleted:
		return 0, ev.Edge.From + "→" + ev.Edge.To, "后一步不再等前一步"
	case *workflow.WorkflowStarted:
		return 0, ev.WorkflowID, fmt.Sprintf("%d 个步骤", ev.NodeCount)
	case *workflow.NodeStarted:
		return 0, ev.NodeID, fmt.Sprintf("%s，第 %d 次尝试", nodeType(ev.NodeType), ev.Attempt)
	case *workflow.NodeCompleted:
		return 0, ev.NodeID, negotiation.ClipText(ev.Result.Summary, 70)
	case *workflow.NodeFailed:
		s := fmt.Sprintf("第 %d 次尝试：%s", ev.Attempt, negotiation.ClipText(ev.Error, 60))
		if ev.Retry {
			s += "，" + ev.RetryAt.Local().Format("15:04:05") + " 重试"
		}
		return 0, ev.NodeID, s
	case *workflow.NodeSkipped:
		return 0, ev.NodeID, skipReason(ev.Reason)
	case *workflow.WorkflowCompleted:
		return 0, ev.WorkflowID, fmt.Sprintf("%d 个结果", len(ev.Results))
	case *workflow.WorkflowFailed:
		return 0, ev.FailedNode, negotiation.ClipText(ev.Error, 60)
	case *workflow.WorkflowCancelled:
		return 0, ev.WorkflowID, cmp.Or(negotiation.ClipText(ev.Reason, 60), "已取消")
	}
	return 0, "", ""
}

// withName is "name：" when the name is known, else "".
func withName(name string) string {
	if name == "" {
		return ""
	}
	return name + "："
}

// EventContext names the part of ToWow an event type belongs to: a
// negotiation, an agent's life, a workflow, or the system.
type EventContext string

// The contexts of the event catalog.
const (
	// ContextNegotiation: demands, channels, offers, proposals, rounds,
	// gaps and sub-negotiations.
	ContextNegotiation EventContext = "negotiation"
	// ContextAgent: an agent's registration, presence and tokens.
	ContextAgent EventContext = "agent"
	// ContextWorkflow: a workflow's plan, its decisions, its run and its
	// conversation.
	ContextWorkflow EventContext = "workflow"
	// ContextNotice: notices to people and agents, and their webhooks.
	ContextNotice EventContext = "notice"
	// ContextSystem: errors, and erasures of personal data.
	ContextSystem EventContext = "system"
)

// EventLabel is how an event type is named for people: a short label in
// Chinese, the console's language, and the context it belongs to.
type EventLabel struct {
	Label   string
	Context EventContext
}

// LabelOf returns t's label for people; ok is false for a type the
// catalog does not register. Every registered type has one (a test keeps
// the two lists equal), so the console, which takes its event list and
// labels from the server's catalog, never meets a type without a name.
func LabelOf(t event.EventType) (EventLabel, bool) {
	l, ok := eventLabels[t]
	if _, registered := event.Spec(t); !registered {
		return EventLabel{}, false
	}
	return l, ok
}

var eventLabels = map[event.EventType]EventLabel{
	// Negotiation.
	negotiation.EventDemandSubmitted:           {"需求提交", ContextNegotiation},
	negotiation.EventDemandUnderstood:          {"理解需求", ContextNegotiation},
	negotiation.EventDemandBroadcast:           {"广播需求", ContextNegotiation},
	negotiation.EventDemandAccepted:            {"需求受理", ContextNegotiation},
	negotiation.EventDemandRejected:            {"需求未受理", ContextNegotiation},
	negotiation.EventFilterStarted:             {"开始筛选", ContextNegotiation},
	negotiation.EventFilterCompleted:           {"筛选完成", ContextNegotiation},
	negotiation.EventChannelCreated:            {"频道已创建", ContextNegotiation},
	negotiation.EventChannelInviteSent:         {"邀请", ContextNegotiation},
	negotiation.EventChannelStatusChanged:      {"状态", ContextNegotiation},
	negotiation.EventChannelClosed:             {"频道关闭", ContextNegotiation},
	negotiation.EventChannelRulesChanged:       {"规则改变", ContextNegotiation},
	negotiation.EventOfferRequested:            {"请求回应", ContextNegotiation},
	negotiation.EventOfferSubmitted:            {"回应", ContextNegotiation},
	negotiation.EventOfferTimeout:              {"回应超时", ContextNegotiation},
	negotiation.EventAggregationStarted:        {"汇总方案", ContextNegotiation},
	negotiation.EventProposalDistributed:       {"方案分发", ContextNegotiation},
	negotiation.EventProposalFeedback:          {"反馈", ContextNegotiation},
	negotiation.EventProposalAdjusting:         {"调整方案", ContextNegotiation},
	negotiation.EventProposalFinalized:         {"方案定稿", ContextNegotiation},
	negotiation.EventFeedbackEvaluated:         {"评估", ContextNegotiation},
	negotiation.EventNegotiationRoundStarted:   {"新一轮", ContextNegotiation},
	negotiation.EventNegotiationForceFinalized: {"强制定稿", ContextNegotiation},
	negotiation.EventNegotiationFailed:         {"协商失败", ContextNegotiation},
	negotiation.EventNegotiationCompleted:      {"协商结束", ContextNegotiation},
	negotiation.EventNegotiationForked:         {"分叉", ContextNegotiation},
	negotiation.EventGapIdentified:             {"发现缺口", ContextNegotiation},
	negotiation.EventSubnetTriggered:           {"子协商", ContextNegotiation},
	negotiation.EventSubnetDeclined:            {"不开子协商", ContextNegotiation},
	negotiation.EventSubnetCompleted:           {"子协商结束", ContextNegotiation},
	negotiation.EventAgentWithdrawn:            {"退出", ContextNegotiation},
	negotiation.EventCollaboratorAdded:         {"共享", ContextNegotiation},
	negotiation.EventCollaboratorRemoved:       {"取消共享", ContextNegotiation},

	// Notices.
	notice.EventNoticePosted:        {"通知", ContextNotice},
	notice.EventWebhookSubscribed:   {"订阅 Webhook", ContextNotice},
	notice.EventWebhookUnsubscribed: {"取消 Webhook", ContextNotice},
	notice.EventWebhookDelivered:    {"Webhook 投递", ContextNotice},
	erasure.EventErased:             {"删除个人数据", ContextSystem},

	// Agents.
	negotiation.EventAgentOnline:      {"上线", ContextAgent},
	negotiation.EventAgentOffline:     {"下线", ContextAgent},
	negotiation.EventAgentRegistered:  {"Agent 注册", ContextAgent},
	negotiation.EventAgentUpdated:     {"资料更新", ContextAgent},
	negotiation.EventAgentDeactivated: {"Agent 停用", ContextAgent},
	negotiation.EventAgentReactivated: {"Agent 恢复", ContextAgent},
	negotiation.EventAgentTokenIssued: {"发放令牌", ContextAgent},

	// Workflows.
	workflow.EventWorkflowCreated:        {"执行计划", ContextWorkflow},
	workflow.EventWorkflowNodeAdded:      {"新增步骤", ContextWorkflow},
	workflow.EventWorkflowNodeUpdated:    {"修改步骤", ContextWorkflow},
	workflow.EventWorkflowNodeDeleted:    {"删除步骤", ContextWorkflow},
	workflow.EventWorkflowNodeMoved:      {"移动步骤", ContextWorkflow},
	workflow.EventWorkflowEdgeAdded:      {"新增依赖", ContextWorkflow},
	workflow.EventWorkflowEdgeDeleted:    {"删除依赖", ContextWorkflow},
	workflow.EventWorkflowStarted:        {"开始执行", ContextWorkflow},
	workflow.EventWorkflowCompleted:      {"执行完成", ContextWorkflow},
	workflow.EventWorkflowFailed:         {"执行失败", ContextWorkflow},
	workflow.EventWorkflowCancelled:      {"取消执行", ContextWorkflow},
	workflow.EventNodeStarted:            {"步骤开始", ContextWorkflow},
	workflow.EventNodeCompleted:          {"步骤完成", ContextWorkflow},
	workflow.EventNodeFailed:             {"步骤失败", ContextWorkflow},
	workflow.EventNodeSkipped:            {"步骤跳过", ContextWorkflow},
	workflow.EventDecisionValidated:      {"决策通过", ContextWorkflow},
	workflow.EventDecisionRejected:       {"决策被拒", ContextWorkflow},
	workflow.EventConversationMessage:    {"对话消息", ContextWorkflow},
	workflow.EventConversationStep:       {"助手", ContextWorkflow},
	workflow.EventConversationReplied:    {"助手回复", ContextWorkflow},
	workflow.EventConversationReported:   {"汇报", ContextWorkflow},
	workflow.EventConversationSummarized: {"对话摘要", ContextWorkflow},

	// System.
	negotiation.EventErrorOccurred: {"错误", ContextSystem},
}
