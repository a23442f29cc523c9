package workflow

import (
	"strings"
	"time"
	"unicode"

	"github.com/towow/towow/domain/event"
)

// The conversation agent (ReAct): a
// person talks about a workflow; the agent loops Thought → Action →
// Observation over tools for at most MaxAgentSteps steps and ends the
// turn with a reply. Every decision it takes goes through the
// validators like any other; a rejection comes back as the observation.
// Every step is an event on the workflow's stream, so the conversation is
// streamed live and replays without the LLM; its context (history, goals,
// decisions) is folded from those events.

// Conversation tools: the decisions, three that change nothing, and the
// two answers to a running approval, given in the name of the person who
// sent the message (only their approver may give them).
const (
	ToolGetWorkflow = "get_workflow"
	ToolGetNode     = "get_node"
	ToolAskUser     = "ask_user"
	ToolApprove     = "approve_node"
	ToolReject      = "reject_node"
)

// MinApprovalConfidence is the least confidence with which the agent may
// answer an approval for the person: below it the step is refused and the
// agent asks instead.
const MinApprovalConfidence = 0.7

// ConversationTools lists every tool the agent may call: get_workflow,
// get_node, ask_user, approve_node, reject_node and one per decision type.
func ConversationTools() []string {
	out := []string{ToolGetWorkflow, ToolGetNode, ToolAskUser, ToolApprove, ToolReject}
	for _, t := range DecisionTypes {
		out = append(out, string(t))
	}
	return out
}

// MaxMessageRunes bounds a message to the conversation agent.
const MaxMessageRunes = 2000

// ErrMessageInvalid: a message to the conversation agent is empty or too
// long (TOWOW_WORKFLOW_005).
var ErrMessageInvalid = &event.Error{Code: "TOWOW_WORKFLOW_005", Message: "the message is empty or too long"}

// MaxAgentSteps bounds one turn's Thought → Action → Observation steps.
const MaxAgentSteps = 6

// AgentStep is one step the conversation agent decides (the conversation
// prompt's answer): a thought and either an action (a tool with its
// arguments) or the reply that ends the turn.
type AgentStep struct {
	Thought string `json:"thought" personal:"true"`
	// Tool is one of ConversationTools; empty when the step replies.
	Tool string `json:"tool,omitempty"`
	// Args are the tool's arguments: a decision's payload, or for
	// get_node the node id, for ask_user the question (Reason), for
	// approve_node and reject_node the node id and the comment (Reason).
	Args DecisionPayload `json:"args"`
	// Confidence is the agent's confidence in the action, 0-1.
	Confidence float64 `json:"confidence,omitempty"`
	// Reply ends the turn.
	Reply string `json:"reply,omitempty" personal:"true"`
}

// Conversation events, on the workflow's stream.
const (
	// EventConversationMessage: a person said something about a workflow.
	EventConversationMessage event.EventType = "towow.conversation.message"
	// EventConversationStep: the agent thought and acted (or replied), and
	// what it observed.
	EventConversationStep event.EventType = "towow.conversation.step"
	// EventConversationReplied: the agent ended its turn with a reply.
	EventConversationReplied event.EventType = "towow.conversation.replied"
	// EventConversationReported: the agent told the person, unasked, what
	// happened to the workflow (an approval waiting, the run ended).
	EventConversationReported event.EventType = "towow.conversation.reported"
)

// ConversationMessage is the payload of [EventConversationMessage].
type ConversationMessage struct {
	WorkflowID string    `json:"workflow_id"`
	MessageID  string    `json:"message_id"`
	Text       string    `json:"text" personal:"true"`
	ClientID   string    `json:"client_id,omitempty"`
	UserID     string    `json:"user_id,omitempty"`
	SentAt     time.Time `json:"sent_at"`
}

// EventType implements [event.Payload].
func (*ConversationMessage) EventType() event.EventType { return EventConversationMessage }

// ConversationStep is the payload of [EventConversationStep]: step N of a
// turn, what the agent decided (its thought and action) and what it
// observed; DecisionID names the decision when the action was one (its
// ruling is in the same commit).
type ConversationStep struct {
	WorkflowID  string    `json:"workflow_id"`
	MessageID   string    `json:"message_id"`
	Step        int       `json:"step"` // 1, 2, ...
	Action      AgentStep `json:"action"`
	Observation string    `json:"observation" personal:"true"`
	DecisionID  string    `json:"decision_id,omitempty"`
	// Rejected says the action's decision was refused (the observation
	// says why).
	Rejected bool `json:"rejected,omitempty"`
}

// EventType implements [event.Payload].
func (*ConversationStep) EventType() event.EventType { return EventConversationStep }

// ConversationReplied is the payload of [EventConversationReplied].
type ConversationReplied struct {
	WorkflowID string `json:"workflow_id"`
	MessageID  string `json:"message_id"`
	Reply      string `json:"reply" personal:"true"`
	Steps      int    `json:"steps"`
	// Question says the reply asks the person something (ask_user).
	Question bool `json:"question,omitempty"`
}

// EventType implements [event.Payload].
func (*ConversationReplied) EventType() event.EventType { return EventConversationReplied }

// ConversationReported is the payload of [EventConversationReported]: a
// report of the agent's own, in the person's language.
type ConversationReported struct {
	WorkflowID string `json:"workflow_id"`
	ReportID   string `json:"report_id"`
	// About is what happened: approval.waiting, workflow.completed,
	// workflow.failed.
	About string `json:"about"`
	Text  string `json:"text" personal:"true"`
	// NodeID is the step it is about, if one.
	NodeID string `json:"node_id,omitempty"`
}

// EventType implements [event.Payload].
func (*ConversationReported) EventType() event.EventType { return EventConversationReported }

// Turn is one message and what the agent did about it, or a report of
// the agent's own (Report: no message, the reply is the report).
type Turn struct {
	MessageID string             `json:"message_id"`
	Text      string             `json:"text"`
	ClientID  string             `json:"client_id,omitempty"`
	UserID    string             `json:"user_id,omitempty"`
	SentAt    time.Time          `json:"sent_at"`
	Steps     []ConversationStep `json:"steps"`
	Reply     string             `json:"reply,omitempty"`
	Question  bool               `json:"question,omitempty"`
	Done      bool               `json:"done"`
	// Report: the agent spoke unasked (Text is empty, Reply the report).
	Report bool `json:"report,omitempty"`
	// Since is what happened to the workflow between the message before
	// and this one, by anyone but the agent (the agent is told it).
	Since []Change `json:"since,omitempty"`
}

// Conversation is the session context folded from a workflow's
// conversation events: the history of turns and the decisions taken.
type Conversation struct {
	Turns []Turn
	// Summary sums up the turns up to SummarizedThrough (a message id),
	// SummarizedTurns of them.
	Summary           string
	SummarizedThrough string
	SummarizedTurns   int
	// pending are the changes since the last message, for the next one.
	pending []Change
}

// Apply folds one event (any other is ignored).
func (c *Conversation) Apply(p event.Payload) {
	c.observeEvent(p)
	switch e := p.(type) {
	case *ConversationMessage:
		c.Turns = append(c.Turns, Turn{MessageID: e.MessageID, Text: e.Text, ClientID: e.ClientID, UserID: e.UserID,
			SentAt: e.SentAt, Steps: []ConversationStep{}, Since: c.pending})
		c.pending = nil
	case *ConversationSummarized:
		c.Summary, c.SummarizedThrough, c.SummarizedTurns = e.Summary, e.Through, e.Turns
	case *ConversationStep:
		if t := c.turn(e.MessageID); t != nil {
			t.Steps = append(t.Steps, *e)
		}
	case *ConversationReplied:
		if t := c.turn(e.MessageID); t != nil {
			t.Reply, t.Question, t.Done = e.Reply, e.Question, true
		}
	case *ConversationReported:
		if c.turn(e.ReportID) == nil { // a report is told once
			c.Turns = append(c.Turns, Turn{MessageID: e.ReportID, Steps: []ConversationStep{}, Reply: e.Text, Done: true, Report: true})
		}
	}
}

// English reports whether the person writes English: their last message
// has no Chinese characters (no message yet: Chinese, the console's).
func (c *Conversation) English() bool {
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if t := c.Turns[i]; !t.Report && t.Text != "" {
			return !strings.ContainsFunc(t.Text, func(r rune) bool { return unicode.Is(unicode.Han, r) })
		}
	}
	return false
}

func (c *Conversation) turn(id string) *Turn {
	for i := range c.Turns {
		if c.Turns[i].MessageID == id {
			return &c.Turns[i]
		}
	}
	return nil
}

// Turn returns the turn of a message, or nil.
func (c *Conversation) Turn(messageID string) *Turn { return c.turn(messageID) }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[ConversationMessage]("A person said something to the conversation agent about a workflow."),
		event.NewSpec[ConversationStep]("The conversation agent took a step: its thought, its action (a tool or a decision) and what it observed."),
		event.NewSpec[ConversationReplied]("The conversation agent ended its turn with a reply (or a question for the person)."),
		event.NewSpec[ConversationReported]("The conversation agent told the person, unasked, what happened to the workflow."),
	)
}
