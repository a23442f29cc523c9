// The negotiation timeline: events rendered as one human-readable line
// each (time, type, round, agent, short summary) and a negotiation's result
// as a short report. `towow demo` and `towow replay` print with it.
package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
)

// Line renders one event. start is the time of the negotiation's first
// event (the offset column).
func timelineLine(e eventstore.RecordedEvent, start time.Time) string {
	round, agent, summary := describeEvent(e)
	r := ""
	if round > 0 {
		r = fmt.Sprintf("r%d", round)
	}
	return fmt.Sprintf("%s %+8.2fs  %-34s %-3s %-24s %s", e.RecordedAt.Local().Format("15:04:05.000"),
		e.RecordedAt.Sub(start).Seconds(), e.Type, r, clip(agent, 24), summary)
}

func describeEvent(e eventstore.RecordedEvent) (round int, agent, summary string) {
	p, err := e.Decode()
	if err != nil {
		return 0, "", "(undecodable: " + err.Error() + ")"
	}
	if c := e.Metadata.LLMCall; c != nil && c.FallbackUsed {
		defer func() { summary += fmt.Sprintf("  [fallback: %s]", c.Outcome) }()
	}
	switch ev := p.(type) {
	case *domain.DemandSubmitted:
		s := clip(ev.RawInput, 60)
		if ev.ParentChannelID != "" {
			s = fmt.Sprintf("sub-demand for gap %q: %s", ev.GapType, s)
		}
		return 0, ev.DemandID, s
	case *domain.DemandUnderstood:
		return 0, ev.DemandID, fmt.Sprintf("%s | tags %s", clip(ev.SurfaceDemand, 40), strings.Join(ev.CapabilityTags, ","))
	case *domain.FilterStarted:
		return 0, ev.DemandID, fmt.Sprintf("filtering %d agents", ev.TotalAgents)
	case *domain.FilterCompleted:
		return 0, ev.DemandID, fmt.Sprintf("%d candidates", ev.CandidatesCount)
	case *domain.DemandAccepted:
		return 0, ev.DemandID, "channel " + ev.ChannelID
	case *domain.ChannelCreated:
		s := fmt.Sprintf("%d invited, max %d rounds", len(ev.InvitedAgents), ev.MaxRounds)
		if ev.ParentChannel != "" {
			s += fmt.Sprintf(", sub-negotiation of %s (depth %d)", ev.ParentChannel, ev.RecursionDepth)
		}
		return 0, ev.ChannelID, s
	case *domain.ChannelStatusChanged:
		return 0, ev.ChannelID, fmt.Sprintf("%s → %s (%s)", ev.OldStatus, ev.NewStatus, ev.Reason)
	case *domain.DemandBroadcast:
		return 0, ev.ChannelID, fmt.Sprintf("to %d agents, urgency %s", ev.RecipientsCount, cmp.Or(ev.Urgency, domain.UrgencyNormal))
	case *domain.ChannelInviteSent:
		if ev.Broadcast {
			return 0, ev.AgentID, "invited: " + clip(ev.Reason, 60)
		}
		return 0, ev.AgentID, "added to the candidates: " + clip(ev.Reason, 50)
	case *domain.ChannelClosed:
		return 0, ev.ChannelID, fmt.Sprintf("closed %s (%s)", ev.Status, ev.Reason)
	case *domain.OfferRequested:
		return ev.Round, ev.AgentID, ev.FilterReason
	case *domain.OfferSubmitted:
		s := string(ev.Decision) + ": " + clip(ev.Contribution, 40)
		if ev.Decision == domain.OfferDecisionDecline {
			s = "decline: " + clip(ev.DeclineReason, 40)
		}
		if len(ev.Conditions) > 0 {
			s += " | conditions: " + strings.Join(ev.Conditions, "; ")
		}
		return 0, ev.AgentID, s
	case *domain.OfferTimeout:
		return 0, ev.ChannelID, fmt.Sprintf("%d offers in time, missing %s", ev.OffersCount, strings.Join(ev.MissingAgents, ","))
	case *domain.AggregationStarted:
		return 0, ev.ChannelID, fmt.Sprintf("%d participants", ev.OffersCount)
	case *domain.NegotiationRoundStarted:
		return ev.Round, ev.ChannelID, fmt.Sprintf("round %d of %d", ev.Round, ev.MaxRounds)
	case *domain.ProposalDistributed:
		return ev.Round, ev.ChannelID, fmt.Sprintf("v%d: %s (%d assignments)", ev.Proposal.Version, clip(ev.Proposal.Summary, 50), len(ev.Proposal.Assignments))
	case *domain.ProposalFeedback:
		s := string(ev.FeedbackType)
		if ev.AdjustmentRequest != "" {
			s += ": " + clip(ev.AdjustmentRequest, 50)
		} else if ev.Reasoning != "" {
			s += ": " + clip(ev.Reasoning, 50)
		}
		return ev.Round, ev.AgentID, s
	case *domain.AgentWithdrawn:
		return 0, ev.AgentID, clip(ev.Reason, 60)
	case *domain.FeedbackEvaluated:
		return ev.Round, ev.ChannelID, fmt.Sprintf("accept %d / negotiate %d / against %d = %.0f%% → %s",
			ev.Accepts, ev.Negotiates, ev.Rejects, ev.AcceptRate*100, ev.Decision)
	case *domain.ProposalAdjusting:
		return ev.Round, ev.ChannelID, "adjusting the proposal to the feedback"
	case *domain.ProposalFinalized:
		return ev.RoundsTaken, ev.ChannelID, fmt.Sprintf("consensus after %d rounds, %d participants", ev.RoundsTaken, ev.ParticipantsCount)
	case *domain.NegotiationForceFinalized:
		return ev.RoundsTaken, ev.ChannelID, fmt.Sprintf("confirmed %s; optional %s",
			strings.Join(ev.ConfirmedParticipants, ","), strings.Join(ev.OptionalParticipants, ","))
	case *domain.NegotiationFailed:
		s := string(ev.Reason)
		if ev.ErrorCode != "" {
			s += " (" + ev.ErrorCode + ")"
		}
		if ev.Suggestion != "" {
			s += ": " + clip(ev.Suggestion, 50)
		}
		return 0, firstNonEmpty(ev.ChannelID, ev.DemandID), s
	case *domain.DemandRejected:
		s := ev.Reason + ": " + ev.Message
		if len(ev.UnservedNeeds) > 0 {
			s += " (nobody for " + strings.Join(ev.UnservedNeeds, ", ") + ")"
		}
		return 0, ev.DemandID, clip(s, 80)
	case *domain.GapIdentified:
		var g []string
		for _, gap := range ev.Gaps {
			g = append(g, fmt.Sprintf("%s(%d)", gap.GapType, gap.Importance))
		}
		if len(g) == 0 {
			return 0, ev.ChannelID, "no gaps"
		}
		return 0, ev.ChannelID, "gaps: " + strings.Join(g, ", ")
	case *domain.SubnetTriggered:
		return 0, ev.ParentChannelID, fmt.Sprintf("sub-negotiation %s for %q", ev.SubChannelID, ev.GapType)
	case *domain.SubnetCompleted:
		return 0, ev.ParentChannelID, fmt.Sprintf("sub-negotiation %s ended %s", ev.SubChannelID, ev.Status)
	case *domain.NegotiationCompleted:
		return ev.RoundsTaken, ev.ChannelID, fmt.Sprintf("%s, %d sub-negotiations", ev.Status, len(ev.SubResults))
	case *domain.ErrorOccurred:
		return 0, ev.Context["channel_id"], ev.ErrorCode + ": " + clip(ev.ErrorMessage, 60)
	}
	return describeWorkflowEvent(p)
}

// describeWorkflowEvent renders a workflow's events (issue 13).
func describeWorkflowEvent(p domain.Payload) (round int, agent, summary string) {
	switch ev := p.(type) {
	case *domain.WorkflowCreated:
		return 0, ev.WorkflowID, fmt.Sprintf("draft: %d nodes, %d edges, from %s", len(ev.Nodes), len(ev.Edges), ev.ChannelID)
	case *domain.DecisionValidated:
		s := fmt.Sprintf("%s by %s → v%d", ev.Decision.Type, ev.Decision.Actor, ev.Version)
		for _, c := range ev.Corrections {
			s += fmt.Sprintf(" (corrected %s: %s)", c.Field, c.Message)
		}
		return 0, ev.WorkflowID, s
	case *domain.DecisionRejected:
		return 0, ev.WorkflowID, fmt.Sprintf("%s by %s refused (%s): %s", ev.Decision.Type, ev.Decision.Actor, ev.Rule, clip(ev.Reason, 60))
	case *domain.WorkflowNodeAdded:
		return 0, ev.Node.ID, fmt.Sprintf("%s %q", ev.Node.Type, clip(ev.Node.Title, 40))
	case *domain.WorkflowNodeUpdated:
		return 0, ev.Node.ID, fmt.Sprintf("%s %q", ev.Node.Type, clip(ev.Node.Title, 40))
	case *domain.WorkflowNodeDeleted:
		return 0, ev.NodeID, fmt.Sprintf("deleted with %d edges", len(ev.Edges))
	case *domain.WorkflowNodeMoved:
		return 0, ev.NodeID, fmt.Sprintf("to (%.0f, %.0f)", ev.Position.X, ev.Position.Y)
	case *domain.WorkflowEdgeAdded:
		return 0, ev.WorkflowID, ev.Edge.From + " → " + ev.Edge.To
	case *domain.WorkflowEdgeDeleted:
		return 0, ev.WorkflowID, ev.Edge.From + " ↛ " + ev.Edge.To
	case *domain.WorkflowStarted:
		return 0, ev.WorkflowID, fmt.Sprintf("%d nodes: %s", ev.NodeCount, clip(strings.Join(ev.Order, ", "), 80))
	case *domain.NodeStarted:
		return 0, ev.NodeID, fmt.Sprintf("%s attempt %d", ev.NodeType, ev.Attempt)
	case *domain.NodeCompleted:
		return 0, ev.NodeID, clip(ev.Result.Summary, 70)
	case *domain.NodeFailed:
		s := fmt.Sprintf("attempt %d: %s", ev.Attempt, clip(ev.Error, 60))
		if ev.Retry {
			s += ", tried again at " + ev.RetryAt.Local().Format("15:04:05")
		}
		return 0, ev.NodeID, s
	case *domain.NodeSkipped:
		return 0, ev.NodeID, ev.Reason
	case *domain.WorkflowCompleted:
		return 0, ev.WorkflowID, fmt.Sprintf("completed: %d results", len(ev.Results))
	case *domain.WorkflowFailed:
		return 0, ev.WorkflowID, fmt.Sprintf("failed at %s: %s", ev.FailedNode, clip(ev.Error, 60))
	case *domain.WorkflowCancelled:
		return 0, ev.WorkflowID, "cancelled: " + ev.Reason
	}
	return 0, "", ""
}

// Result writes the final report of a negotiation tree from its root
// channel's completion (nil when the demand failed before a channel), the
// demand's failure (nil unless it failed) and its rejection (nil unless it
// was rejected).
func timelineResult(w io.Writer, done *domain.NegotiationCompleted, demandFailure *domain.NegotiationFailed, rejection *domain.DemandRejected) {
	if done == nil {
		if demandFailure != nil {
			fmt.Fprintf(w, "\nNo negotiation: %s (%s)\n", demandFailure.Reason, demandFailure.ErrorCode)
			if rejection != nil {
				fmt.Fprintf(w, "rejected (%s): %s\n", rejection.Reason, rejection.Message)
				if len(rejection.UnservedNeeds) > 0 {
					fmt.Fprintf(w, "nobody in the network for: %s\n", strings.Join(rejection.UnservedNeeds, ", "))
				}
				for _, q := range rejection.Questions {
					fmt.Fprintf(w, "to clarify: %s\n", q)
				}
			}
			fmt.Fprintln(w, demandFailure.Suggestion)
		}
		return
	}
	fmt.Fprintf(w, "\nResult: %s after %d rounds\n", done.Status, done.RoundsTaken)
	if p := done.FinalProposal; p != nil {
		printProposal(w, p, "  ")
	}
	for _, s := range done.SubResults {
		fmt.Fprintf(w, "  sub-negotiation %s: %s\n", s.SubChannelID, s.Status)
		if s.Result != nil && s.Success {
			printProposal(w, s.Result, "    ")
		}
	}
	if m := done.MergedPlan; m != nil {
		fmt.Fprintf(w, "  merged plan: %d assignments\n", len(m.Assignments))
		for _, a := range m.Assignments {
			from := "this negotiation"
			if a.SubChannelID != "" {
				from = a.SubChannelID
			}
			fmt.Fprintf(w, "    - %s (%s) from %s\n", a.Role, firstNonEmpty(a.DisplayName, a.AgentID), from)
		}
		if len(m.Gaps) > 0 {
			fmt.Fprintf(w, "    still missing: %s\n", strings.Join(m.Gaps, ", "))
		}
	}
}

func printProposal(w io.Writer, p *domain.Proposal, indent string) {
	fmt.Fprintf(w, "%sproposal v%d (%s): %s\n", indent, p.Version, p.Type, p.Summary)
	for _, a := range p.Assignments {
		fmt.Fprintf(w, "%s  - %s (%s): %s\n", indent, a.Role, firstNonEmpty(a.DisplayName, a.AgentID), clip(a.Responsibility, 60))
	}
	for _, a := range p.Alternates {
		fmt.Fprintf(w, "%s  alternate for %s: %s\n", indent, firstNonEmpty(a.Need, a.Role), firstNonEmpty(a.DisplayName, a.AgentID))
	}
	if len(p.Gaps) > 0 {
		fmt.Fprintf(w, "%s  gaps: %s\n", indent, strings.Join(p.Gaps, ", "))
	}
	if p.Timeline != nil && len(p.Timeline.Milestones) > 0 {
		fmt.Fprintf(w, "%s  timeline from %s: %d milestones\n", indent, p.Timeline.StartDate, len(p.Timeline.Milestones))
	}
	for _, c := range p.Compromises {
		fmt.Fprintf(w, "%s  compromise on %s: %s\n", indent, c.Issue, c.Resolution)
	}
	for _, s := range p.Suggestions {
		fmt.Fprintf(w, "%s  suggestion: %s\n", indent, s)
	}
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
