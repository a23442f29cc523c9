package workflow

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
)

// The agent's context is bounded: it reads the last HistoryTurns turns in
// full, and the turns before them as a summary. When a turn starts with
// more earlier turns than that, the older ones are folded into the
// summary, which is recorded (towow.conversation.summarized) so that the
// context replays as it was. A turn also carries what happened to the
// workflow since the agent last replied (Turn.Since: edits by anyone but
// the agent, node results, the run's end); the agent is told it as an
// observation.

// HistoryTurns is how many earlier turns the agent reads in full.
const HistoryTurns = 6

// MaxSummaryRunes bounds the summary of older turns: past it, the
// oldest lines give way.
const MaxSummaryRunes = 1500

// MaxChanges bounds what a turn carries of the changes since the last
// reply: the newest are kept.
const MaxChanges = 20

// EventConversationSummarized: the agent's older turns were folded into
// a summary.
const EventConversationSummarized event.EventType = "towow.conversation.summarized"

// ConversationSummarized is the payload of [EventConversationSummarized]:
// the summary of every turn up to and including Through.
type ConversationSummarized struct {
	WorkflowID string `json:"workflow_id"`
	// Through is the message id of the last turn summarised.
	Through string `json:"through"`
	// Turns counts the turns summarised in all.
	Turns   int    `json:"turns"`
	Summary string `json:"summary" personal:"true"`
}

// EventType implements [event.Payload].
func (*ConversationSummarized) EventType() event.EventType { return EventConversationSummarized }

// Change is something that happened to a workflow outside the
// conversation agent's own steps.
type Change struct {
	// What is the decision type of an edit (create_node, update_node,
	// delete_node, connect, disconnect, execute_workflow,
	// cancel_workflow), or what a node or the run did: completed,
	// failed, workflow_completed, workflow_failed, workflow_cancelled.
	What string `json:"what"`
	// By is who made an edit ("user:alice"), or who did a node's work.
	By     string `json:"by,omitempty"`
	NodeID string `json:"node_id,omitempty"`
	// To is the second node of an edge.
	To string `json:"to,omitempty"`
	// Detail is a new node's title, a result's summary or an error.
	Detail string `json:"detail,omitempty"`
}

// observe records a change for the next message (the newest MaxChanges).
func (c *Conversation) observe(ch Change) {
	c.pending = append(c.pending, ch)
	if len(c.pending) > MaxChanges {
		c.pending = c.pending[len(c.pending)-MaxChanges:]
	}
}

// observeEvent records what an event of the workflow changed, if anything
// the agent did not do itself.
func (c *Conversation) observeEvent(p event.Payload) {
	switch e := p.(type) {
	case *DecisionValidated:
		d := e.Decision
		if d.Actor == event.ActorConversation || d.Type == DecisionMoveNode {
			return
		}
		ch := Change{What: string(d.Type), By: d.Actor, NodeID: d.Payload.NodeID}
		switch {
		case d.Payload.Node != nil:
			ch.NodeID, ch.Detail = d.Payload.Node.ID, d.Payload.Node.Title
		case d.Payload.From != "":
			ch.NodeID, ch.To = d.Payload.From, d.Payload.To
		}
		c.observe(ch)
	case *NodeCompleted:
		c.observe(Change{What: "completed", NodeID: e.NodeID, By: e.Result.By, Detail: e.Result.Summary})
	case *NodeFailed:
		if !e.Retry {
			c.observe(Change{What: "failed", NodeID: e.NodeID, Detail: e.Error})
		}
	case *WorkflowCompleted:
		c.observe(Change{What: "workflow_completed"})
	case *WorkflowFailed:
		c.observe(Change{What: "workflow_failed", NodeID: e.FailedNode, Detail: e.Error})
	case *WorkflowCancelled:
		c.observe(Change{What: "workflow_cancelled", Detail: e.Reason})
	}
}

// Context is what the agent reads for the turn of messageID: the summary
// of the older turns and the earlier turns in full (the last
// HistoryTurns done before it). Due is the summary to record first when
// the turn folds more turns into it (nil when none).
func (c *Conversation) Context(workflowID, messageID string) (summary string, history []Turn, due *ConversationSummarized) {
	start := 0
	if c.SummarizedThrough != "" {
		for i, t := range c.Turns {
			if t.MessageID == c.SummarizedThrough {
				start = i + 1
			}
		}
	}
	for _, t := range c.Turns[start:] {
		if t.Done && t.MessageID != messageID {
			history = append(history, t)
		}
	}
	if len(history) <= HistoryTurns {
		return c.Summary, history, nil
	}
	older, history := history[:len(history)-HistoryTurns], history[len(history)-HistoryTurns:]
	lines := []string{}
	if c.Summary != "" {
		lines = strings.Split(c.Summary, "\n")
	}
	for _, t := range older {
		lines = append(lines, summaryLine(t))
	}
	due = &ConversationSummarized{WorkflowID: workflowID, Through: older[len(older)-1].MessageID,
		Turns: c.SummarizedTurns + len(older), Summary: clipLines(lines, MaxSummaryRunes)}
	return due.Summary, history, due
}

// summaryLine is one turn in a line: what was said, what was done and
// the answer, each clipped.
func summaryLine(t Turn) string {
	if t.Report {
		return "- 助手主动汇报：" + clipRunes(t.Reply, 80)
	}
	var acts []string
	for _, s := range t.Steps {
		if s.Action.Tool == "" {
			continue
		}
		a := s.Action.Tool
		if id := s.Action.Args.NodeID; id != "" {
			a += " " + id
		} else if n := s.Action.Args.Node; n != nil {
			a += " " + n.Title
		}
		if s.Rejected {
			a += "（被拒绝）"
		}
		acts = append(acts, a)
	}
	line := "- 用户：" + clipRunes(t.Text, 80)
	if len(acts) > 0 {
		line += "；动作：" + strings.Join(acts, "，")
	}
	return line + "；回复：" + clipRunes(t.Reply, 80)
}

// clipLines joins the newest lines that fit in max runes, saying so when
// older ones were left out (now or in an earlier summary).
func clipLines(lines []string, max int) string {
	const gap = "（更早的对话从略）"
	cut := len(lines) > 0 && lines[0] == gap
	if cut {
		lines = lines[1:]
	}
	total, first := utf8.RuneCountInString(gap)+1, len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		n := utf8.RuneCountInString(lines[i]) + 1
		if total+n > max {
			break
		}
		total, first = total+n, i
	}
	kept := lines[first:]
	if cut || first > 0 {
		kept = append([]string{gap}, kept...)
	}
	return strings.Join(kept, "\n")
}

// clipRunes cuts s to n runes, marking the cut.
func clipRunes(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// String is the change as an observation line for the agent (English,
// as its other observations; titles are the agent's to look up).
func (ch Change) String() string {
	s := ch.What
	if ch.By != "" {
		s += " by " + ch.By
	}
	if ch.NodeID != "" {
		s += " on " + ch.NodeID
	}
	if ch.To != "" {
		s += " → " + ch.To
	}
	if ch.Detail != "" {
		s += fmt.Sprintf(" (%s)", clipRunes(ch.Detail, 120))
	}
	return s
}

// init registers this file's event type in the catalog.
func init() {
	event.Register(event.NewSpec[ConversationSummarized]("The conversation agent's older turns were folded into a summary, so its context stays bounded."))
}
