package workflow

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
)

// turnEvents is one done turn: a message, a step and the reply.
func turnEvents(id, text string) []event.Payload {
	return []event.Payload{
		&ConversationMessage{WorkflowID: "wf-x", MessageID: id, Text: text, UserID: "u"},
		&ConversationStep{WorkflowID: "wf-x", MessageID: id, Step: 1, Action: AgentStep{Tool: ToolGetNode, Args: DecisionPayload{NodeID: "task-1"}},
			Observation: "node task-1"},
		&ConversationReplied{WorkflowID: "wf-x", MessageID: id, Reply: "回复" + id, Steps: 1},
	}
}

func foldConversation(events ...event.Payload) *Conversation {
	c := &Conversation{}
	for _, e := range events {
		c.Apply(e)
	}
	return c
}

// TestConversationContext: given n done turns (and a summary recorded
// earlier), when a turn starts, then the agent reads the last
// HistoryTurns turns in full and the older ones in the summary, which is
// due to be recorded only when it grows; replayed with the summary
// recorded, the same context comes back and nothing more is due.
func TestConversationContext(t *testing.T) {
	var given []event.Payload
	for i := 1; i <= HistoryTurns+3; i++ {
		given = append(given, turnEvents(fmt.Sprintf("m%d", i), fmt.Sprintf("第%d条消息", i))...)
	}
	given = append(given, &ConversationMessage{WorkflowID: "wf-x", MessageID: "now", Text: "现在"})

	tests := []struct {
		name      string
		turns     int // done turns given
		due       bool
		through   string
		inSummary []string
	}{
		{"a short conversation is read in full", HistoryTurns, false, "", nil},
		{"older turns are summarised", HistoryTurns + 3, true, "m3", []string{"第1条消息", "第2条消息", "第3条消息", "get_node task-1", "回复m3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			events := append([]event.Payload{}, given[:3*tc.turns]...)
			events = append(events, given[len(given)-1])
			c := foldConversation(events...)
			summary, history, due := c.Context("wf-x", "now")
			if (due != nil) != tc.due {
				t.Fatalf("due %+v, want %v", due, tc.due)
			}
			if len(history) != min(tc.turns, HistoryTurns) || history[len(history)-1].MessageID != fmt.Sprintf("m%d", tc.turns) {
				t.Fatalf("history of %d turns, the last %s", len(history), history[len(history)-1].MessageID)
			}
			if !tc.due {
				if summary != "" {
					t.Fatalf("summary %q", summary)
				}
				return
			}
			if due.Through != tc.through || due.Turns != 3 || due.Summary != summary {
				t.Fatalf("due %+v", due)
			}
			for _, w := range tc.inSummary {
				if !strings.Contains(summary, w) {
					t.Errorf("the summary lacks %q: %s", w, summary)
				}
			}
			if strings.Contains(summary, "第4条消息") {
				t.Errorf("a turn read in full is also summarised: %s", summary)
			}
			// Recorded, it is the context again, and nothing more is due.
			c2 := foldConversation(append(append(events[:len(events)-1:len(events)-1], due), events[len(events)-1])...)
			s2, h2, due2 := c2.Context("wf-x", "now")
			if due2 != nil || s2 != summary || len(h2) != HistoryTurns {
				t.Fatalf("after recording: due %+v, summary %q, %d turns", due2, s2, len(h2))
			}
		})
	}
}

// TestSummaryBounded: however long the conversation, the summary stays
// within MaxSummaryRunes and keeps the newest turns.
func TestSummaryBounded(t *testing.T) {
	c := &Conversation{}
	for i := 1; i <= 200; i++ {
		id := fmt.Sprintf("m%d", i)
		for _, e := range turnEvents(id, strings.Repeat("很长的消息", 30)+id) {
			c.Apply(e)
		}
		c.Apply(&ConversationMessage{WorkflowID: "wf-x", MessageID: fmt.Sprintf("n%d", i), Text: "x"})
		if _, _, due := c.Context("wf-x", fmt.Sprintf("n%d", i)); due != nil {
			c.Apply(due)
		}
		c.Apply(&ConversationReplied{WorkflowID: "wf-x", MessageID: fmt.Sprintf("n%d", i), Reply: "好"})
	}
	if n := utf8.RuneCountInString(c.Summary); n > MaxSummaryRunes || n == 0 {
		t.Fatalf("summary of %d runes", n)
	}
	if !strings.HasPrefix(c.Summary, "（更早的对话从略）") || strings.Count(c.Summary, "更早的对话从略") != 1 {
		t.Fatalf("the cut is not marked once: %.80s", c.Summary)
	}
	if c.SummarizedTurns < 390 {
		t.Fatalf("%d turns summarised", c.SummarizedTurns)
	}
}

// TestTurnSince: given edits by a person, node results and the agent's
// own decisions, when the next message comes, then its turn carries what
// others did since the last message (not the agent's decisions, not
// moves, not a failure that is retried), at most MaxChanges of them.
func TestTurnSince(t *testing.T) {
	add := func(actor string, typ DecisionType, p DecisionPayload) *DecisionValidated {
		return &DecisionValidated{WorkflowID: "wf-x", Decision: Decision{DecisionID: "d", Type: typ, Actor: actor, Payload: p}}
	}
	events := append(turnEvents("m1", "加一个彩排"),
		add(event.ActorConversation, DecisionCreateNode, DecisionPayload{Node: &WorkflowNode{ID: "r", Title: "彩排"}}),
		add("user:alice", DecisionCreateNode, DecisionPayload{Node: &WorkflowNode{ID: "ok", Title: "预算审批"}}),
		add("user:alice", DecisionMoveNode, DecisionPayload{NodeID: "ok"}),
		add("user:alice", DecisionConnect, DecisionPayload{From: "r", To: "ok"}),
		&NodeFailed{WorkflowID: "wf-x", NodeID: "h", Error: "503", Retry: true},
		&NodeFailed{WorkflowID: "wf-x", NodeID: "h", Error: "500"},
		&NodeCompleted{WorkflowID: "wf-x", NodeID: "task-1", Result: NodeResult{Summary: "场地已确认", By: "user_agent_bob"}},
		&WorkflowFailed{WorkflowID: "wf-x", FailedNode: "h", Error: "500"},
		&ConversationMessage{WorkflowID: "wf-x", MessageID: "m2", Text: "怎么样了"},
	)
	c := foldConversation(events...)
	var got []string
	for _, ch := range c.Turn("m2").Since {
		got = append(got, ch.String())
	}
	want := []string{"create_node by user:alice on ok (预算审批)", "connect by user:alice on r → ok", "failed on h (500)",
		"completed by user_agent_bob on task-1 (场地已确认)", "workflow_failed on h (500)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("since:\n got %q\nwant %q", got, want)
	}
	if len(c.Turn("m1").Since) != 0 {
		t.Fatalf("the first turn saw %v", c.Turn("m1").Since)
	}
	for i := range MaxChanges + 5 {
		c.Apply(&NodeCompleted{WorkflowID: "wf-x", NodeID: fmt.Sprint("n", i)})
	}
	c.Apply(&ConversationMessage{WorkflowID: "wf-x", MessageID: "m3", Text: "?"})
	if s := c.Turn("m3").Since; len(s) != MaxChanges || s[len(s)-1].NodeID != fmt.Sprint("n", MaxChanges+4) {
		t.Fatalf("m3 saw %d changes", len(s))
	}
}
