package mcpserver

import (
	"context"
	"net/http"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// The external agent's tools: each takes the agent's own API token and
// sends it as the bearer token, so the API checks who acts.

// AgentTokenInput is agent_inbox's input.
type AgentTokenInput struct {
	AgentToken string `json:"agent_token" jsonschema:"the external agent's API token (issued when it was registered)"`
}

// InboxOutput is what an external agent is asked for now.
type InboxOutput struct {
	AgentID string `json:"agent_id"`
	Tasks   []Task `json:"tasks"`
}

// Task is one thing an external agent should answer.
type Task struct {
	Kind      string `json:"kind" jsonschema:"offer: submit_offer; feedback: submit_feedback on this round's proposal; task: complete_workflow_task"`
	ChannelID string `json:"channel_id"`
	DemandID  string `json:"demand_id"`
	Demand    string `json:"demand,omitempty" jsonschema:"the demand's text"`
	Reason    string `json:"reason,omitempty" jsonschema:"offer: why the agent was chosen"`
	Round     int    `json:"round,omitempty" jsonschema:"feedback: the round to name in submit_feedback"`
	// Proposal and Node are the API's own values (the domain's types).
	Proposal   *negotiation.Proposal  `json:"proposal,omitempty" jsonschema:"feedback: the proposal under review"`
	WorkflowID string                 `json:"workflow_id,omitempty" jsonschema:"task: the workflow"`
	NodeID     string                 `json:"node_id,omitempty" jsonschema:"task: the node to report on"`
	Node       *workflow.WorkflowNode `json:"node,omitempty" jsonschema:"task: the workflow node (title, role, description, due)"`
}

// OfferInput is submit_offer's input: the agent's token, the channel and
// the offer itself, the API's own body (negotiation.OfferAnswer).
type OfferInput struct {
	AgentToken string `json:"agent_token" jsonschema:"the external agent's API token"`
	ChannelID  string `json:"channel_id" jsonschema:"the channel of the offer task in the inbox"`
	negotiation.OfferAnswer
}

// FeedbackInput is submit_feedback's input: the agent's token, the
// channel, the round and the feedback itself, the API's own body
// (negotiation.FeedbackAnswer, proposed changes included).
type FeedbackInput struct {
	AgentToken string `json:"agent_token" jsonschema:"the external agent's API token"`
	ChannelID  string `json:"channel_id" jsonschema:"the channel of the feedback task in the inbox"`
	Round      int    `json:"round" jsonschema:"the round whose proposal this answers (the inbox task's round)"`
	negotiation.FeedbackAnswer
}

// AnswerOutput is a recorded offer or feedback.
type AnswerOutput struct {
	AgentID   string `json:"agent_id"`
	ChannelID string `json:"channel_id"`
	Cursor    int64  `json:"cursor" jsonschema:"position of the recorded answer in the event log"`
}

// TaskReportInput is complete_workflow_task's input: the agent's token,
// the node and the report itself, the API's own body (workflow.TaskAnswer;
// status done when absent).
type TaskReportInput struct {
	AgentToken string `json:"agent_token" jsonschema:"the external agent's API token"`
	WorkflowID string `json:"workflow_id" jsonschema:"the inbox task's workflow_id"`
	NodeID     string `json:"node_id" jsonschema:"the inbox task's node_id"`
	workflow.TaskAnswer
}

// TaskReportOutput is a recorded task report.
type TaskReportOutput struct {
	WorkflowID string `json:"workflow_id"`
	NodeID     string `json:"node_id"`
	Cursor     int64  `json:"cursor"`
}

func addExternalTools(s *mcp.Server, c *client) {
	addTool(s, &mcp.Tool{Name: "agent_inbox", Title: "An external agent's inbox",
		Description: "What an external agent is asked for now: offers to submit (submit_offer), proposals to " +
			"answer (submit_feedback) and running workflow tasks to report on (complete_workflow_task).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in AgentTokenInput) (*mcp.CallToolResult, InboxOutput, error) {
			var out InboxOutput
			err := c.call(ctx, http.MethodGet, "/api/v1/agent/inbox", nil, in.AgentToken, nil, &out)
			for i, t := range out.Tasks {
				if t.Node != nil {
					out.Tasks[i].NodeID = t.Node.ID
				}
			}
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "submit_offer", Title: "Submit an external agent's offer",
		Description: "An external agent answers its invitation to a channel: participate (with its contribution), " +
			"decline (with a reason) or conditional (with conditions)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in OfferInput) (*mcp.CallToolResult, AnswerOutput, error) {
			var out AnswerOutput
			if err := checkID("channel_id", in.ChannelID); err != nil {
				return nil, out, err
			}
			err := c.call(ctx, http.MethodPost, "/api/v1/channels/"+url.PathEscape(in.ChannelID)+"/offers", nil, in.AgentToken, in.OfferAnswer, &out)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "submit_feedback", Title: "Submit an external agent's feedback",
		Description: "An external agent answers the proposal of a round: accept, negotiate (with what should " +
			"change, and optionally proposed_changes: field, value, reason) or withdraw."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in FeedbackInput) (*mcp.CallToolResult, AnswerOutput, error) {
			var out AnswerOutput
			if err := checkID("channel_id", in.ChannelID); err != nil {
				return nil, out, err
			}
			body := struct {
				Round int `json:"round"`
				negotiation.FeedbackAnswer
			}{in.Round, in.FeedbackAnswer}
			err := c.call(ctx, http.MethodPost, "/api/v1/channels/"+url.PathEscape(in.ChannelID)+"/feedback", nil, in.AgentToken, body, &out)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "complete_workflow_task", Title: "Report on a workflow task",
		Description: "An external agent reports on its running workflow task (from its inbox): done with a " +
			"summary of what was done, or a problem with why it could not be done.",
		InputSchema: taskReportSchema()},
		func(ctx context.Context, _ *mcp.CallToolRequest, in TaskReportInput) (*mcp.CallToolResult, TaskReportOutput, error) {
			var out TaskReportOutput
			if err := checkID("workflow_id", in.WorkflowID); err != nil {
				return nil, out, err
			}
			if err := checkID("node_id", in.NodeID); err != nil {
				return nil, out, err
			}
			body := in.TaskAnswer
			if body.Status == "" {
				body.Status = workflow.TaskDone
			}
			path := "/api/v1/workflows/" + url.PathEscape(in.WorkflowID) + "/nodes/" + url.PathEscape(in.NodeID) + "/report"
			err := c.call(ctx, http.MethodPost, path, nil, in.AgentToken, body, &out)
			return nil, out, err
		})
}

// taskReportSchema is complete_workflow_task's input schema: its status
// may be left out (done).
func taskReportSchema() *jsonschema.Schema {
	s := schemaFor[TaskReportInput]()
	optional(s, "status")
	s.Properties["status"].Description = "done (the default) or problem"
	return s
}
