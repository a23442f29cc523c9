package domain

import "strings"

// EventType names one kind of event, e.g. "towow.demand.submitted".
//
// Every event type has the shape "towow.<noun>.<verb>" (see [EventType.Valid])
// and is registered in the catalog (see [Spec]).
type EventType string

// EventTypePrefix starts every ToWow event type. It keeps ToWow events apart
// from other systems' events.
const EventTypePrefix = "towow."

// Demand phase (需求阶段).
const (
	// EventDemandSubmitted: a user submitted a demand (用户提交需求).
	EventDemandSubmitted EventType = "towow.demand.submitted"
	// EventDemandUnderstood: the demand was understood by prompt 1 (需求理解).
	EventDemandUnderstood EventType = "towow.demand.understood"
	// EventDemandBroadcast: the demand was broadcast to the candidates (需求广播).
	EventDemandBroadcast EventType = "towow.demand.broadcast"
	// EventDemandAccepted: the demand was accepted for processing and got a
	// channel (需求被接受处理).
	EventDemandAccepted EventType = "towow.demand.accepted"
	// EventDemandRejected: the demand was rejected, e.g. no suitable agents
	// (需求被拒绝).
	EventDemandRejected EventType = "towow.demand.rejected"
)

// Filter phase (筛选阶段).
const (
	// EventFilterStarted: smart filtering of agents started (开始筛选).
	EventFilterStarted EventType = "towow.filter.started"
	// EventFilterCompleted: smart filtering chose the candidates (筛选完成).
	EventFilterCompleted EventType = "towow.filter.completed"
)

// Channel phase (Channel阶段).
const (
	// EventChannelCreated: a negotiation channel was created (Channel创建).
	EventChannelCreated EventType = "towow.channel.created"
	// EventChannelInviteSent: an agent was invited to a channel (邀请已发送).
	EventChannelInviteSent EventType = "towow.channel.invite_sent"
	// EventChannelStatusChanged: the channel state machine moved from one
	// status to another.
	EventChannelStatusChanged EventType = "towow.channel.status_changed"
	// EventChannelClosed: the channel was closed (Channel关闭).
	EventChannelClosed EventType = "towow.channel.closed"
)

// Offer phase (Offer阶段).
const (
	// EventOfferRequested: an agent was asked for an offer (请求offer).
	EventOfferRequested EventType = "towow.offer.requested"
	// EventOfferSubmitted: an agent answered with an offer (offer已提交).
	EventOfferSubmitted EventType = "towow.offer.submitted"
	// EventOfferTimeout: the offer window closed before every agent answered
	// (offer超时).
	EventOfferTimeout EventType = "towow.offer.timeout"
)

// Proposal phase (方案阶段).
const (
	// EventAggregationStarted: aggregation of the offers into a proposal
	// started (方案聚合开始). Replaces the older towow.proposal.aggregating.
	EventAggregationStarted EventType = "towow.aggregation.started"
	// EventProposalDistributed: a proposal was sent to the participants
	// (方案已分发).
	EventProposalDistributed EventType = "towow.proposal.distributed"
	// EventProposalFeedback: a participant gave feedback on a proposal
	// (收到反馈).
	EventProposalFeedback EventType = "towow.proposal.feedback"
	// EventProposalAdjusting: the proposal is being adjusted to the feedback
	// by prompt 6 (正在调整).
	EventProposalAdjusting EventType = "towow.proposal.adjusting"
	// EventProposalFinalized: the negotiation reached consensus (方案确定).
	EventProposalFinalized EventType = "towow.proposal.finalized"
)

// Multi-round negotiation (多轮协商).
const (
	// EventFeedbackEvaluated: the feedback of one round was counted and a
	// decision taken (反馈评估完成).
	EventFeedbackEvaluated EventType = "towow.feedback.evaluated"
	// EventNegotiationRoundStarted: a new negotiation round started (新一轮协商).
	EventNegotiationRoundStarted EventType = "towow.negotiation.round_started"
	// EventNegotiationForceFinalized: the last round ended without consensus
	// and the proposal was force-finalized (强制终结).
	EventNegotiationForceFinalized EventType = "towow.negotiation.force_finalized"
	// EventNegotiationFailed: the negotiation failed (协商失败).
	EventNegotiationFailed EventType = "towow.negotiation.failed"
	// EventNegotiationCompleted: a channel and all its sub-negotiations
	// ended; the last event of a channel, with the tree's result.
	EventNegotiationCompleted EventType = "towow.negotiation.completed"
)

// Recursion (递归阶段).
const (
	// EventGapIdentified: gaps in the proposal were identified (识别到缺口).
	EventGapIdentified EventType = "towow.gap.identified"
	// EventSubnetTriggered: a sub-negotiation was started for a gap (触发子网).
	EventSubnetTriggered EventType = "towow.subnet.triggered"
	// EventSubnetCompleted: a sub-negotiation ended (子网完成).
	EventSubnetCompleted EventType = "towow.subnet.completed"
)

// Agents and system (系统事件).
const (
	// EventAgentOnline: an agent came online (Agent上线).
	EventAgentOnline EventType = "towow.agent.online"
	// EventAgentOffline: an agent went offline (Agent下线).
	EventAgentOffline EventType = "towow.agent.offline"
	// EventAgentWithdrawn: an agent withdrew from a channel (Agent 退出).
	EventAgentWithdrawn EventType = "towow.agent.withdrawn"
	// EventAgentRegistered: an agent profile was registered (its stream's
	// first event).
	EventAgentRegistered EventType = "towow.agent.registered"
	// EventAgentUpdated: an agent's profile was replaced.
	EventAgentUpdated EventType = "towow.agent.updated"
	// EventAgentDeactivated: an agent leaves the pool of candidates.
	EventAgentDeactivated EventType = "towow.agent.deactivated"
	// EventAgentReactivated: a deactivated agent rejoins the pool of
	// candidates.
	EventAgentReactivated EventType = "towow.agent.reactivated"
	// EventAgentTokenIssued: an external agent was given a new API token
	// (only its SHA-256 is stored); earlier tokens stop working.
	EventAgentTokenIssued EventType = "towow.agent.token_issued"
	// EventErrorOccurred: an error occurred (错误发生).
	EventErrorOccurred EventType = "towow.error.occurred"
)

// String returns the event type name.
func (t EventType) String() string { return string(t) }

// Valid reports whether t has the shape of a ToWow event type:
// [EventTypePrefix] followed by exactly two dot-separated segments, each a
// lowercase letter followed by lowercase letters, digits or underscores
// ("towow.channel.invite_sent"). It does not consult the catalog; use [Spec]
// to know whether t is a registered type.
func (t EventType) Valid() bool {
	rest, ok := strings.CutPrefix(string(t), EventTypePrefix)
	if !ok {
		return false
	}
	segments := strings.Split(rest, ".")
	if len(segments) != 2 {
		return false
	}
	for _, s := range segments {
		if !validSegment(s) {
			return false
		}
	}
	return true
}

func validSegment(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
