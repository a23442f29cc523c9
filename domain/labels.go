package domain

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
func LabelOf(t EventType) (EventLabel, bool) {
	l, ok := eventLabels[t]
	if _, registered := registry[t]; !registered {
		return EventLabel{}, false
	}
	return l, ok
}

var eventLabels = map[EventType]EventLabel{
	// Negotiation.
	EventDemandSubmitted:           {"需求提交", ContextNegotiation},
	EventDemandUnderstood:          {"理解需求", ContextNegotiation},
	EventDemandBroadcast:           {"广播需求", ContextNegotiation},
	EventDemandAccepted:            {"需求受理", ContextNegotiation},
	EventDemandRejected:            {"需求未受理", ContextNegotiation},
	EventFilterStarted:             {"开始筛选", ContextNegotiation},
	EventFilterCompleted:           {"筛选完成", ContextNegotiation},
	EventChannelCreated:            {"频道已创建", ContextNegotiation},
	EventChannelInviteSent:         {"邀请", ContextNegotiation},
	EventChannelStatusChanged:      {"状态", ContextNegotiation},
	EventChannelClosed:             {"频道关闭", ContextNegotiation},
	EventChannelRulesChanged:       {"规则改变", ContextNegotiation},
	EventOfferRequested:            {"请求回应", ContextNegotiation},
	EventOfferSubmitted:            {"回应", ContextNegotiation},
	EventOfferTimeout:              {"回应超时", ContextNegotiation},
	EventAggregationStarted:        {"汇总方案", ContextNegotiation},
	EventProposalDistributed:       {"方案分发", ContextNegotiation},
	EventProposalFeedback:          {"反馈", ContextNegotiation},
	EventProposalAdjusting:         {"调整方案", ContextNegotiation},
	EventProposalFinalized:         {"方案定稿", ContextNegotiation},
	EventFeedbackEvaluated:         {"评估", ContextNegotiation},
	EventNegotiationRoundStarted:   {"新一轮", ContextNegotiation},
	EventNegotiationForceFinalized: {"强制定稿", ContextNegotiation},
	EventNegotiationFailed:         {"协商失败", ContextNegotiation},
	EventNegotiationCompleted:      {"协商结束", ContextNegotiation},
	EventNegotiationForked:         {"分叉", ContextNegotiation},
	EventGapIdentified:             {"发现缺口", ContextNegotiation},
	EventSubnetTriggered:           {"子协商", ContextNegotiation},
	EventSubnetCompleted:           {"子协商结束", ContextNegotiation},
	EventAgentWithdrawn:            {"退出", ContextNegotiation},

	// Agents.
	EventAgentOnline:      {"上线", ContextAgent},
	EventAgentOffline:     {"下线", ContextAgent},
	EventAgentRegistered:  {"Agent 注册", ContextAgent},
	EventAgentUpdated:     {"资料更新", ContextAgent},
	EventAgentDeactivated: {"Agent 停用", ContextAgent},
	EventAgentReactivated: {"Agent 恢复", ContextAgent},
	EventAgentTokenIssued: {"发放令牌", ContextAgent},

	// Workflows.
	EventWorkflowCreated:     {"执行计划", ContextWorkflow},
	EventWorkflowNodeAdded:   {"新增步骤", ContextWorkflow},
	EventWorkflowNodeUpdated: {"修改步骤", ContextWorkflow},
	EventWorkflowNodeDeleted: {"删除步骤", ContextWorkflow},
	EventWorkflowNodeMoved:   {"移动步骤", ContextWorkflow},
	EventWorkflowEdgeAdded:   {"新增依赖", ContextWorkflow},
	EventWorkflowEdgeDeleted: {"删除依赖", ContextWorkflow},
	EventWorkflowStarted:     {"开始执行", ContextWorkflow},
	EventWorkflowCompleted:   {"执行完成", ContextWorkflow},
	EventWorkflowFailed:      {"执行失败", ContextWorkflow},
	EventWorkflowCancelled:   {"取消执行", ContextWorkflow},
	EventNodeStarted:         {"步骤开始", ContextWorkflow},
	EventNodeCompleted:       {"步骤完成", ContextWorkflow},
	EventNodeFailed:          {"步骤失败", ContextWorkflow},
	EventNodeSkipped:         {"步骤跳过", ContextWorkflow},
	EventDecisionValidated:   {"决策通过", ContextWorkflow},
	EventDecisionRejected:    {"决策被拒", ContextWorkflow},
	EventConversationMessage: {"对话消息", ContextWorkflow},
	EventConversationStep:    {"助手", ContextWorkflow},
	EventConversationReplied: {"助手回复", ContextWorkflow},

	// System.
	EventErrorOccurred: {"错误", ContextSystem},
}
