package timeline

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// Describe renders an event's payload for a timeline: the round it belongs
// to (0: none), the id it is about (an agent, a channel, a demand, a
// workflow node) and a one-line summary. `towow demo`, `towow replay`, the
// MCP server's timeline resource and the console (the `summary` of every
// event the API sends) print with it. The summary is read by people: it
// names no ids (the subject carries the id), no tool names and no log
// text; every registered event type has one.
func Describe(p event.Payload) (round int, subject, summary string) {
	switch ev := p.(type) {
	case *negotiation.DemandSubmitted:
		s := ClipText(ev.RawInput, 60)
		if ev.ParentChannelID != "" {
			s = fmt.Sprintf("sub-demand for gap %q: %s", ev.GapType, s)
		}
		return 0, ev.DemandID, s
	case *negotiation.DemandUnderstood:
		return 0, ev.DemandID, fmt.Sprintf("%s | tags %s", ClipText(ev.SurfaceDemand, 40), strings.Join(ev.CapabilityTags, ","))
	case *negotiation.FilterStarted:
		return 0, ev.DemandID, fmt.Sprintf("filtering %d agents", ev.TotalAgents)
	case *negotiation.FilterCompleted:
		return 0, ev.DemandID, fmt.Sprintf("%d candidates", ev.CandidatesCount)
	case *negotiation.DemandAccepted:
		return 0, ev.DemandID, "accepted: a negotiation channel is open"
	case *negotiation.ChannelCreated:
		s := fmt.Sprintf("%d invited, max %d rounds", len(ev.InvitedAgents), ev.MaxRounds)
		if ev.ParentChannel != "" {
			s += fmt.Sprintf(", a sub-negotiation (depth %d)", ev.RecursionDepth)
		}
		return 0, ev.ChannelID, s
	case *negotiation.ChannelStatusChanged:
		return 0, ev.ChannelID, fmt.Sprintf("%s → %s (%s)", ev.OldStatus, ev.NewStatus, ev.Reason)
	case *negotiation.DemandBroadcast:
		return 0, ev.ChannelID, fmt.Sprintf("to %d agents, urgency %s", ev.RecipientsCount, cmp.Or(ev.Urgency, negotiation.UrgencyNormal))
	case *negotiation.ChannelInviteSent:
		who := withName(ev.DisplayName)
		if ev.Broadcast {
			return 0, ev.AgentID, who + "invited: " + ClipText(ev.Reason, 60)
		}
		return 0, ev.AgentID, who + "added to the candidates: " + ClipText(ev.Reason, 50)
	case *negotiation.ChannelClosed:
		return 0, ev.ChannelID, fmt.Sprintf("closed %s (%s)", ev.Status, ev.Reason)
	case *negotiation.OfferRequested:
		return ev.Round, ev.AgentID, ev.FilterReason
	case *negotiation.OfferSubmitted:
		s := string(ev.Decision) + ": " + ClipText(ev.Contribution, 40)
		if ev.Decision == negotiation.OfferDecisionDecline {
			s = "decline: " + ClipText(ev.DeclineReason, 40)
		}
		if len(ev.Conditions) > 0 {
			s += " | conditions: " + strings.Join(ev.Conditions, "; ")
		}
		return 0, ev.AgentID, withName(ev.DisplayName) + s
	case *negotiation.OfferTimeout:
		return 0, ev.ChannelID, fmt.Sprintf("%d offers in time, %d missing", ev.OffersCount, len(ev.MissingAgents))
	case *negotiation.AggregationStarted:
		return 0, ev.ChannelID, fmt.Sprintf("%d participants", ev.OffersCount)
	case *negotiation.NegotiationRoundStarted:
		return ev.Round, ev.ChannelID, fmt.Sprintf("round %d of %d", ev.Round, ev.MaxRounds)
	case *negotiation.ProposalDistributed:
		return ev.Round, ev.ChannelID, fmt.Sprintf("v%d: %s (%d assignments)", ev.Proposal.Version, ClipText(ev.Proposal.Summary, 50), len(ev.Proposal.Assignments))
	case *negotiation.ProposalFeedback:
		s := string(ev.FeedbackType)
		if ev.AdjustmentRequest != "" {
			s += ": " + ClipText(ev.AdjustmentRequest, 50)
		} else if ev.Reasoning != "" {
			s += ": " + ClipText(ev.Reasoning, 50)
		}
		return ev.Round, ev.AgentID, s
	case *negotiation.AgentWithdrawn:
		return 0, ev.AgentID, ClipText(ev.Reason, 60)
	case *negotiation.AgentOnline:
		return 0, ev.AgentID, "online: " + ClipText(strings.Join(ev.Capabilities, ", "), 60)
	case *negotiation.AgentOffline:
		return 0, ev.AgentID, "offline: " + ClipText(ev.Reason, 60)
	case *negotiation.FeedbackEvaluated:
		return ev.Round, ev.ChannelID, fmt.Sprintf("accept %d / negotiate %d / against %d = %.0f%% → %s",
			ev.Accepts, ev.Negotiates, ev.Rejects, ev.AcceptRate*100, ev.Decision)
	case *negotiation.ProposalAdjusting:
		return ev.Round, ev.ChannelID, "adjusting the proposal to the feedback"
	case *negotiation.ProposalFinalized:
		return ev.RoundsTaken, ev.ChannelID, fmt.Sprintf("consensus after %d rounds, %d participants", ev.RoundsTaken, ev.ParticipantsCount)
	case *negotiation.NegotiationForceFinalized:
		return ev.RoundsTaken, ev.ChannelID, fmt.Sprintf("%d confirmed, %d still negotiating (accept rate %.0f%%)",
			len(ev.ConfirmedParticipants), len(ev.OptionalParticipants), ev.AcceptRate*100)
	case *negotiation.NegotiationFailed:
		s := string(ev.Reason)
		if ev.ErrorCode != "" {
			s += " (" + ev.ErrorCode + ")"
		}
		if ev.Suggestion != "" {
			s += ": " + ClipText(ev.Suggestion, 50)
		}
		return 0, cmp.Or(ev.ChannelID, ev.DemandID), s
	case *negotiation.DemandRejected:
		s := ev.Reason + ": " + ev.Message
		if len(ev.UnservedNeeds) > 0 {
			s += " (nobody for " + strings.Join(ev.UnservedNeeds, ", ") + ")"
		}
		return 0, ev.DemandID, ClipText(s, 80)
	case *negotiation.GapIdentified:
		var g []string
		for _, gap := range ev.Gaps {
			g = append(g, fmt.Sprintf("%s(%d)", gap.GapType, gap.Importance))
		}
		if len(g) == 0 {
			return 0, ev.ChannelID, "no gaps"
		}
		return 0, ev.ChannelID, "gaps: " + strings.Join(g, ", ")
	case *negotiation.SubnetTriggered:
		return 0, ev.SubChannelID, fmt.Sprintf("sub-negotiation for %q", ev.GapType)
	case *negotiation.SubnetCompleted:
		outcome := "without success"
		if ev.Success {
			outcome = "successfully"
		}
		return 0, ev.SubChannelID, "sub-negotiation ended " + cmp.Or(string(ev.Status), outcome)
	case *negotiation.NegotiationCompleted:
		return ev.RoundsTaken, ev.ChannelID, fmt.Sprintf("%s, %d sub-negotiations", ev.Status, len(ev.SubResults))
	case *negotiation.ErrorOccurred:
		return 0, ev.Context["channel_id"], ev.ErrorCode + ": " + ClipText(ev.ErrorMessage, 60)
	case *negotiation.ChannelRulesChanged:
		s := fmt.Sprintf("at most %d rounds", ev.Rules.MaxRounds)
		if ev.Rules.AcceptPercent > 0 {
			s += fmt.Sprintf(", finalized at %d%% accepted", ev.Rules.AcceptPercent)
		}
		if ev.Rules.FailPercent > 0 {
			s += fmt.Sprintf(", failed below %d%%", ev.Rules.FailPercent)
		}
		return 0, ev.ChannelID, s
	case *negotiation.NegotiationForked:
		return 0, ev.ForkedFrom, fmt.Sprintf("forked after event %d of the original (%d events copied), change: %s",
			ev.At, ev.Copied, spaced(string(cmp.Or(ev.Change.Type, negotiation.ForkNoChange))))
	}
	return describeOther(p)
}

// describeOther renders the events of an agent's life, a workflow and its
// conversation.
func describeOther(p event.Payload) (round int, subject, summary string) {
	switch ev := p.(type) {
	case *negotiation.AgentRegistered:
		return 0, ev.AgentID, "registered: " + ClipText(ev.Profile.UserName, 40)
	case *negotiation.AgentUpdated:
		return 0, ev.AgentID, "profile updated: " + ClipText(ev.Profile.UserName, 40)
	case *negotiation.AgentDeactivated:
		return 0, ev.AgentID, strings.TrimSuffix("deactivated: "+ClipText(ev.Reason, 60), ": ")
	case *negotiation.AgentReactivated:
		return 0, ev.AgentID, "reactivated"
	case *negotiation.AgentTokenIssued:
		return 0, ev.AgentID, "issued a new API token; earlier ones stop working"
	case *workflow.ConversationMessage:
		return 0, ev.WorkflowID, ClipText(ev.Text, 70)
	case *workflow.ConversationStep:
		s := fmt.Sprintf("step %d: %s", ev.Step, ClipText(ev.Action.Thought, 60))
		if ev.Rejected {
			s += " (refused)"
		}
		return 0, ev.WorkflowID, s
	case *workflow.ConversationReplied:
		if ev.Question {
			return 0, ev.WorkflowID, "asks: " + ClipText(ev.Reply, 70)
		}
		return 0, ev.WorkflowID, ClipText(ev.Reply, 70)
	}
	return describeWorkflow(p)
}

// describeWorkflow renders a workflow's events: its plan, decisions,
// execution and conversation.
func describeWorkflow(p event.Payload) (round int, subject, summary string) {
	switch ev := p.(type) {
	case *workflow.WorkflowCreated:
		return 0, ev.WorkflowID, fmt.Sprintf("draft: %d nodes, %d edges", len(ev.Nodes), len(ev.Edges))
	case *workflow.DecisionValidated:
		s := fmt.Sprintf("%s → v%d", spaced(string(ev.Decision.Type)), ev.Version)
		for _, c := range ev.Corrections {
			s += fmt.Sprintf(" (corrected %s: %s)", c.Field, c.Message)
		}
		return 0, ev.Decision.Actor, s
	case *workflow.DecisionRejected:
		return 0, ev.Decision.Actor, fmt.Sprintf("%s refused (%s): %s", spaced(string(ev.Decision.Type)), ev.Rule, ClipText(ev.Reason, 60))
	case *workflow.WorkflowNodeAdded:
		return 0, ev.Node.ID, fmt.Sprintf("%s %q", ev.Node.Type, ClipText(ev.Node.Title, 40))
	case *workflow.WorkflowNodeUpdated:
		return 0, ev.Node.ID, fmt.Sprintf("%s %q", ev.Node.Type, ClipText(ev.Node.Title, 40))
	case *workflow.WorkflowNodeDeleted:
		return 0, ev.NodeID, fmt.Sprintf("deleted with %d edges", len(ev.Edges))
	case *workflow.WorkflowNodeMoved:
		return 0, ev.NodeID, fmt.Sprintf("to (%.0f, %.0f)", ev.Position.X, ev.Position.Y)
	case *workflow.WorkflowEdgeAdded:
		return 0, ev.Edge.From + "→" + ev.Edge.To, "a dependency added"
	case *workflow.WorkflowEdgeDeleted:
		return 0, ev.Edge.From + "→" + ev.Edge.To, "a dependency removed"
	case *workflow.WorkflowStarted:
		return 0, ev.WorkflowID, fmt.Sprintf("%d nodes to run", ev.NodeCount)
	case *workflow.NodeStarted:
		return 0, ev.NodeID, fmt.Sprintf("%s attempt %d", ev.NodeType, ev.Attempt)
	case *workflow.NodeCompleted:
		return 0, ev.NodeID, ClipText(ev.Result.Summary, 70)
	case *workflow.NodeFailed:
		s := fmt.Sprintf("attempt %d: %s", ev.Attempt, ClipText(ev.Error, 60))
		if ev.Retry {
			s += ", tried again at " + ev.RetryAt.Local().Format("15:04:05")
		}
		return 0, ev.NodeID, s
	case *workflow.NodeSkipped:
		return 0, ev.NodeID, ev.Reason
	case *workflow.WorkflowCompleted:
		return 0, ev.WorkflowID, fmt.Sprintf("completed: %d results", len(ev.Results))
	case *workflow.WorkflowFailed:
		return 0, ev.FailedNode, "failed: " + ClipText(ev.Error, 60)
	case *workflow.WorkflowCancelled:
		return 0, ev.WorkflowID, "cancelled: " + ev.Reason
	}
	return 0, "", ""
}

// withName is "name: " when the name is known, else "".
func withName(name string) string {
	if name == "" {
		return ""
	}
	return name + ": "
}

// spaced writes a code word for people: "update_node" reads "update node".
func spaced(code string) string { return strings.ReplaceAll(code, "_", " ") }

// ClipText flattens s's white space and cuts it to n runes, with an
// ellipsis when cut: a text as a one-line summary shows it (the timeline,
// prompt 1's user history).
func ClipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
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
