package negotiation

import "github.com/towow/towow/domain/event"

// Demand phase (需求阶段).
const (
	// EventDemandSubmitted: a user submitted a demand (用户提交需求).
	EventDemandSubmitted event.EventType = "towow.demand.submitted"
	// EventDemandUnderstood: the demand was understood by prompt 1 (需求理解).
	EventDemandUnderstood event.EventType = "towow.demand.understood"
	// EventDemandBroadcast: the demand was broadcast to the candidates (需求广播).
	EventDemandBroadcast event.EventType = "towow.demand.broadcast"
	// EventDemandAccepted: the demand was accepted for processing and got a
	// channel (需求被接受处理).
	EventDemandAccepted event.EventType = "towow.demand.accepted"
	// EventDemandRejected: the demand was rejected, e.g. no suitable agents
	// (需求被拒绝).
	EventDemandRejected event.EventType = "towow.demand.rejected"
)

// Filter phase (筛选阶段).
const (
	// EventFilterStarted: smart filtering of agents started (开始筛选).
	EventFilterStarted event.EventType = "towow.filter.started"
	// EventFilterCompleted: smart filtering chose the candidates (筛选完成).
	EventFilterCompleted event.EventType = "towow.filter.completed"
)

// Channel phase (Channel阶段).
const (
	// EventChannelCreated: a negotiation channel was created (Channel创建).
	EventChannelCreated event.EventType = "towow.channel.created"
	// EventChannelInviteSent: an agent was invited to a channel (邀请已发送).
	EventChannelInviteSent event.EventType = "towow.channel.invite_sent"
	// EventChannelStatusChanged: the channel state machine moved from one
	// status to another.
	EventChannelStatusChanged event.EventType = "towow.channel.status_changed"
	// EventChannelClosed: the channel was closed (Channel关闭).
	EventChannelClosed event.EventType = "towow.channel.closed"
)

// Offer phase (Offer阶段).
const (
	// EventOfferRequested: an agent was asked for an offer (请求offer).
	EventOfferRequested event.EventType = "towow.offer.requested"
	// EventOfferSubmitted: an agent answered with an offer (offer已提交).
	EventOfferSubmitted event.EventType = "towow.offer.submitted"
	// EventOfferTimeout: the offer window closed before every agent answered
	// (offer超时).
	EventOfferTimeout event.EventType = "towow.offer.timeout"
)

// Proposal phase (方案阶段).
const (
	// EventAggregationStarted: aggregation of the offers into a proposal
	// started (方案聚合开始). Replaces the older towow.proposal.aggregating.
	EventAggregationStarted event.EventType = "towow.aggregation.started"
	// EventProposalDistributed: a proposal was sent to the participants
	// (方案已分发).
	EventProposalDistributed event.EventType = "towow.proposal.distributed"
	// EventProposalFeedback: a participant gave feedback on a proposal
	// (收到反馈).
	EventProposalFeedback event.EventType = "towow.proposal.feedback"
	// EventProposalAdjusting: the proposal is being adjusted to the feedback
	// by prompt 6 (正在调整).
	EventProposalAdjusting event.EventType = "towow.proposal.adjusting"
	// EventProposalFinalized: the negotiation reached consensus (方案确定).
	EventProposalFinalized event.EventType = "towow.proposal.finalized"
)

// Multi-round negotiation (多轮协商).
const (
	// EventFeedbackEvaluated: the feedback of one round was counted and a
	// decision taken (反馈评估完成).
	EventFeedbackEvaluated event.EventType = "towow.feedback.evaluated"
	// EventNegotiationRoundStarted: a new negotiation round started (新一轮协商).
	EventNegotiationRoundStarted event.EventType = "towow.negotiation.round_started"
	// EventNegotiationForceFinalized: the last round ended without consensus
	// and the proposal was force-finalized (强制终结).
	EventNegotiationForceFinalized event.EventType = "towow.negotiation.force_finalized"
	// EventNegotiationFailed: the negotiation failed (协商失败).
	EventNegotiationFailed event.EventType = "towow.negotiation.failed"
	// EventNegotiationCompleted: a channel and all its sub-negotiations
	// ended; the last event of a channel, with the tree's result.
	EventNegotiationCompleted event.EventType = "towow.negotiation.completed"
)

// Recursion (递归阶段).
const (
	// EventGapIdentified: gaps in the proposal were identified (识别到缺口).
	EventGapIdentified event.EventType = "towow.gap.identified"
	// EventSubnetTriggered: a sub-negotiation was started for a gap (触发子网).
	EventSubnetTriggered event.EventType = "towow.subnet.triggered"
	// EventSubnetDeclined: the recursion decision started no
	// sub-negotiation for the gaps found (不触发子网).
	EventSubnetDeclined event.EventType = "towow.subnet.declined"
	// EventSubnetCompleted: a sub-negotiation ended (子网完成).
	EventSubnetCompleted event.EventType = "towow.subnet.completed"
)

// Agents and system (系统事件).
const (
	// EventAgentOnline: an agent came online (Agent上线).
	EventAgentOnline event.EventType = "towow.agent.online"
	// EventAgentOffline: an agent went offline (Agent下线).
	EventAgentOffline event.EventType = "towow.agent.offline"
	// EventAgentWithdrawn: an agent withdrew from a channel (Agent 退出).
	EventAgentWithdrawn event.EventType = "towow.agent.withdrawn"
	// EventAgentRegistered: an agent profile was registered (its stream's
	// first event).
	EventAgentRegistered event.EventType = "towow.agent.registered"
	// EventAgentUpdated: an agent's profile was replaced.
	EventAgentUpdated event.EventType = "towow.agent.updated"
	// EventAgentDeactivated: an agent leaves the pool of candidates.
	EventAgentDeactivated event.EventType = "towow.agent.deactivated"
	// EventAgentReactivated: a deactivated agent rejoins the pool of
	// candidates.
	EventAgentReactivated event.EventType = "towow.agent.reactivated"
	// EventAgentTokenIssued: an external agent was given a new API token
	// (only its SHA-256 is stored); earlier tokens stop working.
	EventAgentTokenIssued event.EventType = "towow.agent.token_issued"
	// EventErrorOccurred: an error occurred (错误发生).
	EventErrorOccurred event.EventType = "towow.error.occurred"
)
