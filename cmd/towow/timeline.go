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

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/timeline"
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
		e.RecordedAt.Sub(start).Seconds(), e.Type, r, negotiation.ClipText(agent, 24), summary)
}

func describeEvent(e eventstore.RecordedEvent) (round int, agent, summary string) {
	p, err := e.Decode()
	if err != nil {
		return 0, "", "(undecodable: " + err.Error() + ")"
	}
	round, agent, summary = timeline.Describe(p)
	if c := e.Metadata.LLMCall; c != nil && c.FallbackUsed {
		summary += fmt.Sprintf("  [fallback: %s]", c.Outcome)
	}
	return round, agent, summary
}

// Result writes the final report of a negotiation tree from its root
// channel's completion (nil when the demand failed before a channel), the
// demand's failure (nil unless it failed) and its rejection (nil unless it
// was rejected).
func timelineResult(w io.Writer, done *negotiation.NegotiationCompleted, demandFailure *negotiation.NegotiationFailed, rejection *negotiation.DemandRejected) {
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
			fmt.Fprintf(w, "    - %s (%s) from %s\n", a.Role, cmp.Or(a.DisplayName, a.AgentID), from)
		}
		if len(m.Gaps) > 0 {
			fmt.Fprintf(w, "    still missing: %s\n", strings.Join(m.Gaps, ", "))
		}
	}
}

func printProposal(w io.Writer, p *negotiation.Proposal, indent string) {
	fmt.Fprintf(w, "%sproposal v%d (%s): %s\n", indent, p.Version, p.Type, p.Summary)
	for _, a := range p.Assignments {
		fmt.Fprintf(w, "%s  - %s (%s): %s\n", indent, a.Role, cmp.Or(a.DisplayName, a.AgentID), negotiation.ClipText(a.Responsibility, 60))
	}
	for _, a := range p.Alternates {
		fmt.Fprintf(w, "%s  alternate for %s: %s\n", indent, cmp.Or(a.Need, a.Role), cmp.Or(a.DisplayName, a.AgentID))
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
