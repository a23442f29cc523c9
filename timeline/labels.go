package timeline

import (
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

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
	// ContextSystem: errors.
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
	negotiation.EventSubnetCompleted:           {"子协商结束", ContextNegotiation},
	negotiation.EventAgentWithdrawn:            {"退出", ContextNegotiation},

	// Agents.
	negotiation.EventAgentOnline:      {"上线", ContextAgent},
	negotiation.EventAgentOffline:     {"下线", ContextAgent},
	negotiation.EventAgentRegistered:  {"Agent 注册", ContextAgent},
	negotiation.EventAgentUpdated:     {"资料更新", ContextAgent},
	negotiation.EventAgentDeactivated: {"Agent 停用", ContextAgent},
	negotiation.EventAgentReactivated: {"Agent 恢复", ContextAgent},
	negotiation.EventAgentTokenIssued: {"发放令牌", ContextAgent},

	// Workflows.
	workflow.EventWorkflowCreated:     {"执行计划", ContextWorkflow},
	workflow.EventWorkflowNodeAdded:   {"新增步骤", ContextWorkflow},
	workflow.EventWorkflowNodeUpdated: {"修改步骤", ContextWorkflow},
	workflow.EventWorkflowNodeDeleted: {"删除步骤", ContextWorkflow},
	workflow.EventWorkflowNodeMoved:   {"移动步骤", ContextWorkflow},
	workflow.EventWorkflowEdgeAdded:   {"新增依赖", ContextWorkflow},
	workflow.EventWorkflowEdgeDeleted: {"删除依赖", ContextWorkflow},
	workflow.EventWorkflowStarted:     {"开始执行", ContextWorkflow},
	workflow.EventWorkflowCompleted:   {"执行完成", ContextWorkflow},
	workflow.EventWorkflowFailed:      {"执行失败", ContextWorkflow},
	workflow.EventWorkflowCancelled:   {"取消执行", ContextWorkflow},
	workflow.EventNodeStarted:         {"步骤开始", ContextWorkflow},
	workflow.EventNodeCompleted:       {"步骤完成", ContextWorkflow},
	workflow.EventNodeFailed:          {"步骤失败", ContextWorkflow},
	workflow.EventNodeSkipped:         {"步骤跳过", ContextWorkflow},
	workflow.EventDecisionValidated:   {"决策通过", ContextWorkflow},
	workflow.EventDecisionRejected:    {"决策被拒", ContextWorkflow},
	workflow.EventConversationMessage: {"对话消息", ContextWorkflow},
	workflow.EventConversationStep:    {"助手", ContextWorkflow},
	workflow.EventConversationReplied: {"助手回复", ContextWorkflow},

	// System.
	negotiation.EventErrorOccurred: {"错误", ContextSystem},
}
