package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/projections"
)

// Workflows: the agreed plan of a root negotiation as a DAG of nodes,
// changed only by decisions the Coordinator validates, executed node by
// node. Reads come from the workflows read model (the domain's fold of the
// stream, kept by the projection); only time travel (?at=) folds the
// stream here, through the same domain fold.

// workflowHandlers serve the workflows and their canvas: decisions,
// reports, approvals, the conversation, the reads and the workflow's
// stream.
type workflowHandlers struct {
	commands  Commands
	workflows *workflowReader
	streams   *streamer
	// metrics, when set, counts the canvas batches by outcome.
	metrics *metrics.Metrics
	guard   guard
}

// WorkflowNodeView is a node with its execution state.
type WorkflowNodeView struct {
	workflow.WorkflowNode
	// ID is the node's id, always there (a node being created may leave
	// it out; a node of a workflow has one).
	ID      string               `json:"id" doc:"the node's id in its workflow"`
	Status  workflow.NodeStatus  `json:"status" enum:"pending,running,completed,failed,skipped"`
	Attempt int                  `json:"attempt,omitempty"`
	Result  *workflow.NodeResult `json:"result,omitempty"`
	Error   string               `json:"error,omitempty" doc:"why the last attempt failed"`
	Reason  string               `json:"reason,omitempty" doc:"why it was skipped"`
	RetryAt time.Time            `json:"retry_at,omitzero" doc:"when the next attempt may start"`
}

// WorkflowView is a workflow as it is now.
type WorkflowView struct {
	WorkflowID   string                  `json:"workflow_id"`
	DemandID     string                  `json:"demand_id"`
	ChannelID    string                  `json:"channel_id"`
	UserID       string                  `json:"user_id,omitempty"`
	Title        string                  `json:"title"`
	Status       workflow.WorkflowStatus `json:"status" enum:"draft,running,completed,failed,cancelled"`
	Version      int                     `json:"version" doc:"the version decisions must be based on (base_version)"`
	Participants []string                `json:"participants" doc:"the agents a task may be assigned to"`
	Names        map[string]string       `json:"names" doc:"the participants' display names, by agent id (an agent without one is left out): show these, not the ids"`
	Nodes        []WorkflowNodeView      `json:"nodes"`
	Edges        []workflow.WorkflowEdge `json:"edges"`
	FailedNode   string                  `json:"failed_node,omitempty"`
	CreatedAt    time.Time               `json:"created_at"`
}

func workflowView(w *workflow.Workflow) WorkflowView {
	v := WorkflowView{WorkflowID: w.ID, DemandID: w.DemandID, ChannelID: w.ChannelID, UserID: w.UserID, Title: w.Title,
		Status: w.Status, Version: w.Version, Participants: w.Participants, Nodes: []WorkflowNodeView{}, Edges: w.Edges,
		FailedNode: w.FailedNode, CreatedAt: w.CreatedAt}
	if v.Edges == nil {
		v.Edges = []workflow.WorkflowEdge{}
	}
	for _, n := range w.Nodes {
		r := w.Run(n.ID)
		v.Nodes = append(v.Nodes, WorkflowNodeView{WorkflowNode: n, ID: n.ID, Status: r.Status, Attempt: r.Attempt, Result: r.Result,
			Error: r.Error, Reason: r.Reason, RetryAt: r.RetryAt})
	}
	return v
}

// WorkflowListInput selects workflows.
type WorkflowListInput struct {
	DemandID string `query:"demand_id" maxLength:"64" doc:"the root demand whose agreement the workflow carries out; without it, the caller's own workflows (the operator: everyone's), newest first"`
	MinCursor
}

// maxListedWorkflows bounds the caller's own workflows listed.
const maxListedWorkflows = 100

// NewWorkflowInput starts a workflow of the caller's own.
type NewWorkflowInput struct {
	Body struct {
		Title    string `json:"title,omitempty" maxLength:"200" doc:"default: the template's title"`
		Template string `json:"template,omitempty" enum:"blank,approval,event" doc:"what to start from (GET /api/v1/workflows/templates); default blank"`
	}
}

// NewWorkflowOutput is the workflow started, as its canvas.
type NewWorkflowOutput struct {
	Body CanvasView
}

// WorkflowTemplatesOutput lists the templates.
type WorkflowTemplatesOutput struct {
	Body struct {
		Templates []workflow.Template `json:"templates"`
	}
}

// WorkflowListOutput lists workflows.
type WorkflowListOutput struct {
	Body struct {
		Workflows []WorkflowView `json:"workflows"`
	}
}

// WorkflowInput names a workflow.
type WorkflowInput struct {
	WorkflowID string `path:"workflow_id" maxLength:"80" example:"wf-3f9a1c2b4d5e"`
}

// WorkflowAtInput names a workflow and, for time travel, a cursor.
type WorkflowAtInput struct {
	WorkflowID string `path:"workflow_id" maxLength:"80" example:"wf-3f9a1c2b4d5e"`
	At         int64  `query:"at" minimum:"0" doc:"time travel: the workflow as it was at this cursor (an SSE id); 0: now"`
}

// WorkflowOutput is one workflow.
type WorkflowOutput struct {
	Body WorkflowView
}

// DecisionInput is a decision sent directly (not through the conversation).
type DecisionInput struct {
	WorkflowID string `path:"workflow_id" maxLength:"80"`
	Body       struct {
		DecisionID  string                   `json:"decision_id,omitempty" maxLength:"80" doc:"idempotency key: the same id is ruled on once (one is drawn when absent)"`
		Type        workflow.DecisionType    `json:"decision_type" enum:"create_node,update_node,delete_node,connect,disconnect,move_node,execute_workflow,cancel_workflow"`
		Payload     workflow.DecisionPayload `json:"payload" required:"false"`
		BaseVersion int                      `json:"base_version" minimum:"0" doc:"the workflow version the decision was made on (move_node and cancel_workflow may be stale)"`
		ClientID    string                   `json:"client_id,omitempty" maxLength:"80" doc:"the client (canvas tab) that sent it"`
		UserID      string                   `json:"user_id,omitempty" maxLength:"128" doc:"leave it out: the signed-in user decides (another user's id is 422 TOWOW_AUTH_003)"`
		Confidence  *float64                 `json:"confidence,omitempty" minimum:"0" maximum:"1" doc:"default 1 (a person)"`
	}
}

// DecisionOutput is a validated decision.
type DecisionOutput struct {
	Body struct {
		DecisionID  string                `json:"decision_id"`
		Version     int                   `json:"version" doc:"the workflow's version after the decision"`
		Corrections []workflow.Correction `json:"corrections" doc:"what the Coordinator corrected before letting it through"`
		Repeated    bool                  `json:"repeated" doc:"the decision id was ruled on before; nothing was written now"`
		Cursor      int64                 `json:"cursor" doc:"global position of the last event written"`
	}
}

// TaskReportInput is an external agent's report on its running task.
type TaskReportInput struct {
	WorkflowID string `path:"workflow_id" maxLength:"80"`
	NodeID     string `path:"node_id" maxLength:"80"`
	Body       struct {
		workflow.TaskAnswer
	}
}

// ApprovalInput is the demand's user's answer to an approval node.
type ApprovalInput struct {
	WorkflowID string `path:"workflow_id" maxLength:"80"`
	NodeID     string `path:"node_id" maxLength:"80"`
	Body       struct {
		UserID   string `json:"user_id,omitempty" maxLength:"128" doc:"leave it out: the signed-in user approves (another user's id is 422 TOWOW_AUTH_003)"`
		Approved bool   `json:"approved"`
		Comment  string `json:"comment,omitempty" maxLength:"2000"`
	}
}

// WorkflowActOutput is the answer to a recorded report or approval.
type WorkflowActOutput struct {
	Body struct {
		WorkflowID string `json:"workflow_id"`
		NodeID     string `json:"node_id"`
		Cursor     int64  `json:"cursor" doc:"global position of the recorded answer"`
	}
}

// MessageInput is what a person says to the conversation agent.
type MessageInput struct {
	WorkflowID string `path:"workflow_id" maxLength:"80"`
	Body       struct {
		Text     string `json:"text" minLength:"1" maxLength:"2000" doc:"what the person says about the plan, e.g. 把场地确认提前到第一周"`
		ClientID string `json:"client_id,omitempty" maxLength:"80" doc:"the client (canvas tab) that sent it"`
		UserID   string `json:"user_id,omitempty" maxLength:"128" doc:"leave it out: the signed-in user speaks (another user's id is 422 TOWOW_AUTH_003)"`
	}
}

// MessageOutput is an accepted message: the agent's turn runs in the
// background; its steps and reply arrive on the workflow's stream and in
// GET …/messages.
type MessageOutput struct {
	Body struct {
		MessageID string `json:"message_id"`
		Cursor    int64  `json:"cursor" doc:"global position of the recorded message"`
	}
}

// ConversationOutput is a workflow's conversation so far.
type ConversationOutput struct {
	Body struct {
		WorkflowID string          `json:"workflow_id"`
		Turns      []workflow.Turn `json:"turns" doc:"each message with the agent's steps (thought, action, observation) and its reply"`
	}
}

// WorkflowStreamInput follows one workflow's events, as seen by one
// client.
type WorkflowStreamInput struct {
	WorkflowID string `path:"workflow_id" maxLength:"80"`
	ClientID   string `query:"client_id" maxLength:"80" doc:"this client (canvas tab): what it changed itself comes back as towow.canvas.ack, not as the change (echo exclusion)"`
	FollowInput
	StreamInput
}

func (h *workflowHandlers) registerWorkflows(api huma.API) {
	if h.workflows.reads != nil {
		h.registerWorkflowViews(api)
	}
	h.registerNewWorkflows(api)

	huma.Register(api, huma.Operation{
		OperationID:  "decide-workflow",
		Method:       http.MethodPost,
		Path:         "/api/v1/workflows/{workflow_id}/decisions",
		Summary:      "Send a decision on a workflow through the Coordinator",
		Description:  "The Coordinator's validators check it in order (well_formed, workflow_state, version, rate_limit, references, node_fields, assignee, http_allow_list, frozen_nodes, acyclic, data_flow, size, executable). Let through: 200 with the new version and any corrections, and its effects recorded with towow.decision.validated. Refused: 422 TOWOW_DECISION_REJECTED naming the rule, with one error per field; the rejection is recorded (towow.decision.rejected) and the workflow is unchanged.",
		Tags:         []string{"workflows"},
		MaxBodyBytes: 64 << 10,
	}, func(ctx context.Context, in *DecisionInput) (*DecisionOutput, error) {
		b := in.Body
		actor, err := userActor(ctx, b.UserID, "body.user_id")
		if err != nil {
			return nil, err
		}
		confidence := 1.0
		if b.Confidence != nil {
			confidence = *b.Confidence
		}
		res, err := h.commands.Decide(ctx, in.WorkflowID, workflow.Decision{DecisionID: b.DecisionID, Type: b.Type, Actor: actor,
			ClientID: b.ClientID, Confidence: confidence, BaseVersion: b.BaseVersion, Payload: b.Payload})
		if err != nil {
			return nil, decisionProblem(err, nil)
		}
		out := &DecisionOutput{}
		out.Body.DecisionID, out.Body.Version = res.Validated.Decision.DecisionID, res.Validated.Version
		out.Body.Corrections, out.Body.Repeated, out.Body.Cursor = res.Validated.Corrections, res.Repeated, res.Position
		if out.Body.Corrections == nil {
			out.Body.Corrections = []workflow.Correction{}
		}
		return out, nil
	})

	huma.Register(api, h.guard.externalAgent(api, huma.Operation{
		OperationID:  "report-task",
		Method:       http.MethodPost,
		Path:         "/api/v1/workflows/{workflow_id}/nodes/{node_id}/report",
		Summary:      "An external agent reports on its running task: done (with a summary) or a problem",
		Description:  "Done completes the node, a problem fails it (and so the workflow, once nothing else runs). Not its task: 422 TOWOW_WORKFLOW_003; not running: 409 TOWOW_WORKFLOW_002. Nothing is written then.",
		Tags:         []string{"workflows", "external agents"},
		MaxBodyBytes: 64 << 10,
	}), func(ctx context.Context, in *TaskReportInput) (*WorkflowActOutput, error) {
		pos, err := h.commands.ReportTask(ctx, in.WorkflowID, in.NodeID, agentOf(ctx), in.Body.TaskAnswer)
		if err != nil {
			return nil, problem(err)
		}
		return actOutput(in.WorkflowID, in.NodeID, pos), nil
	})

	huma.Register(api, huma.Operation{
		OperationID:  "approve-node",
		Method:       http.MethodPost,
		Path:         "/api/v1/workflows/{workflow_id}/nodes/{node_id}/approval",
		Summary:      "The demand's user approves or rejects a running approval node",
		Description:  "Approved completes the node; rejected fails it. Not its approver (the demand's owner unless the node names another user): 403 TOWOW_WORKFLOW_007; not running: 409 TOWOW_WORKFLOW_002. Nothing is written then.",
		Tags:         []string{"workflows"},
		MaxBodyBytes: 16 << 10,
	}, func(ctx context.Context, in *ApprovalInput) (*WorkflowActOutput, error) {
		userID, err := actingUser(ctx, in.Body.UserID, "body.user_id")
		if err != nil {
			return nil, err
		}
		pos, err := h.commands.Approve(ctx, in.WorkflowID, in.NodeID, userID, in.Body.Approved, in.Body.Comment)
		if err != nil {
			return nil, problem(err)
		}
		return actOutput(in.WorkflowID, in.NodeID, pos), nil
	})

	huma.Register(api, huma.Operation{
		OperationID:   "send-message",
		Method:        http.MethodPost,
		Path:          "/api/v1/workflows/{workflow_id}/messages",
		Summary:       "Talk to the conversation agent about a workflow",
		Description:   "The agent (ReAct) loops Thought → Action → Observation over get_workflow, get_node, ask_user, approve_node and reject_node (a waiting approval answered in the name of the message's author, who must be its approver) and the decisions (each through the Coordinator: a rejection is what it observes) for at most 6 steps, then replies. 202 at once; every step is an event on the workflow's stream (towow.conversation.step, .replied). An empty or over-long text: 422 TOWOW_WORKFLOW_005.",
		Tags:          []string{"workflows"},
		DefaultStatus: http.StatusAccepted,
		MaxBodyBytes:  16 << 10,
	}, func(ctx context.Context, in *MessageInput) (*MessageOutput, error) {
		userID, err := actingUser(ctx, in.Body.UserID, "body.user_id")
		if err != nil {
			return nil, err
		}
		if err := h.guard.limits.newWork(ctx, false); err != nil {
			return nil, err
		}
		id, pos, err := h.commands.SendMessage(ctx, in.WorkflowID, in.Body.Text, in.Body.ClientID, userID)
		if err != nil {
			return nil, problem(err)
		}
		out := &MessageOutput{}
		out.Body.MessageID, out.Body.Cursor = id, pos
		return out, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "list-messages",
		Method:      http.MethodGet,
		Path:        "/api/v1/workflows/{workflow_id}/messages",
		Summary:     "The conversation about a workflow so far",
		Tags:        []string{"workflows"},
	}, func(ctx context.Context, in *WorkflowInput) (*ConversationOutput, error) {
		turns, err := h.commands.Conversation(ctx, in.WorkflowID)
		if err != nil {
			return nil, problem(err)
		}
		out := &ConversationOutput{}
		out.Body.WorkflowID, out.Body.Turns = in.WorkflowID, turns
		return out, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "workflow-stream",
		Responses:   sseResponses(api, eventFrame, ackFrame, endFrame),
		Method:      http.MethodGet,
		Path:        "/api/v1/events/workflows/{workflow_id}/stream",
		Summary:     "Server-sent events of one workflow: decisions, changes, node execution, the conversation",
		Description: "As the negotiation stream: `id: <cursor>`, resume with Last-Event-ID. With `client_id`, an event that client caused itself (a change or decision it sent, a message it wrote) comes as `event: towow.canvas.ack` whose data is a CanvasAck (components/schemas/CanvasAck: the event's cursor, id, type, decision and the workflow's version after it), under the same `id:`, so resuming keeps its guarantees; every other event comes as it is. The conversation agent's changes carry no client id: every client gets them.\n\nThe stream ends with the workflow: once it completed, failed or was cancelled, the stream sends what the log holds up to then (the rest of that commit included), then one terminal message `id: <cursor>`, `event: towow.stream.end`, `data: <StreamEnd>` (`{workflow_id, status, cursor}`), and closes; a client that connects or resumes after the end gets the history after its resume point and the terminal message at once. With `follow=true` there is no terminal message and the stream stays open: what comes after the end (the conversation, refused decisions) keeps coming.",
		Tags:        []string{"events", "workflows"},
	}, h.workflowStream)
}

// registerWorkflowViews registers the reads of the workflows read model:
// the list (by root demand) and one workflow, now or (?at=) as it was.
func (h *workflowHandlers) registerWorkflowViews(api huma.API) {
	h.registerApprovals(api)
	huma.Register(api, huma.Operation{
		OperationID: "list-workflows",
		Method:      http.MethodGet,
		Path:        "/api/v1/workflows",
		Summary:     "The workflow a root demand's agreement became (an empty list before the agreement, or without one); without demand_id, the caller's own workflows",
		Tags:        []string{"workflows"},
	}, func(ctx context.Context, in *WorkflowListInput) (*WorkflowListOutput, error) {
		out := &WorkflowListOutput{}
		out.Body.Workflows = []WorkflowView{}
		if in.DemandID == "" {
			return h.ownWorkflows(ctx, in.MinCursor)
		}
		st, err := h.workflows.freshWorkflow(ctx, workflow.WorkflowIDFor(in.DemandID))
		if err != nil {
			return nil, err
		}
		if st.Workflow.Exists() {
			v, err := h.workflows.view(ctx, st.Workflow)
			if err != nil {
				return nil, err
			}
			out.Body.Workflows = append(out.Body.Workflows, v)
		}
		return out, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "get-workflow",
		Method:      http.MethodGet,
		Path:        "/api/v1/workflows/{workflow_id}",
		Summary:     "A workflow: nodes with their execution state, edges, status and version (?at=<cursor>: as it was then)",
		Tags:        []string{"workflows"},
	}, func(ctx context.Context, in *WorkflowAtInput) (*WorkflowOutput, error) {
		w, _, err := h.workflows.read(ctx, in.WorkflowID, in.At)
		if err != nil {
			return nil, err
		}
		v, err := h.workflows.view(ctx, w)
		if err != nil {
			return nil, err
		}
		return &WorkflowOutput{Body: v}, nil
	})
}

// ownWorkflows lists the caller's workflows (the operator's: everyone's),
// newest first.
func (h *workflowHandlers) ownWorkflows(ctx context.Context, m MinCursor) (*WorkflowListOutput, error) {
	if err := waitFor(ctx, h.workflows.reads, m, projections.Workflows{}.Name()); err != nil {
		return nil, err
	}
	p := principalOf(ctx)
	user := p.ID
	if p.IsAdmin() {
		user = ""
	}
	ws, err := h.workflows.reads.UserWorkflows(ctx, user, maxListedWorkflows)
	if err != nil {
		return nil, problem(err)
	}
	out := &WorkflowListOutput{}
	out.Body.Workflows = []WorkflowView{}
	known := map[string]string{}
	for _, w := range ws {
		v, err := h.workflows.viewNamed(ctx, w, known)
		if err != nil {
			return nil, err
		}
		out.Body.Workflows = append(out.Body.Workflows, v)
	}
	return out, nil
}

// registerNewWorkflows registers starting a workflow of one's own and its
// templates.
func (h *workflowHandlers) registerNewWorkflows(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "workflow-templates", Method: http.MethodGet, Path: "/api/v1/workflows/templates",
		Summary: "The templates a workflow of one's own may start from", Tags: []string{"workflows"},
	}, func(ctx context.Context, _ *struct{}) (*WorkflowTemplatesOutput, error) {
		out := &WorkflowTemplatesOutput{}
		out.Body.Templates = workflow.Templates
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "create-workflow", Method: http.MethodPost, Path: "/api/v1/workflows", DefaultStatus: http.StatusCreated,
		Summary:     "Start a workflow of one's own, empty or from a template, then build it on its canvas or in its conversation",
		Description: "The caller owns it and answers its approvals. It has no negotiation behind it, so no participants and no task steps; its other steps (approval, wait, http, milestone) are added by decisions, the canvas or the conversation as on any workflow.",
		Tags:        []string{"workflows"}, MaxBodyBytes: 4 << 10,
	}, func(ctx context.Context, in *NewWorkflowInput) (*NewWorkflowOutput, error) {
		p := principalOf(ctx)
		if !p.IsUser() {
			return nil, newProblem(http.StatusForbidden, CodeForbidden, "a workflow belongs to a person: sign in as a user")
		}
		w, pos, err := h.commands.CreateWorkflow(ctx, p.ID, in.Body.Title, in.Body.Template)
		if err != nil {
			return nil, problem(err)
		}
		v, err := h.workflows.canvasView(ctx, w, pos)
		if err != nil {
			return nil, err
		}
		return &NewWorkflowOutput{Body: v}, nil
	})
}

func actOutput(workflowID, nodeID string, pos int64) *WorkflowActOutput {
	out := &WorkflowActOutput{}
	out.Body.WorkflowID, out.Body.NodeID, out.Body.Cursor = workflowID, nodeID, pos
	return out
}

// decisionProblem is a rejected decision's 422, naming the rule with one
// error per field (located by locate, when given); any other error as
// usual.
func decisionProblem(err error, locate func(field string) string) error {
	var re *workflow.RejectionError
	if !errors.As(err, &re) {
		return problem(err)
	}
	r := re.Rejected
	p := newProblem(http.StatusUnprocessableEntity, workflow.ErrDecisionRejected.Code,
		fmt.Sprintf("the Coordinator refused the decision (rule %s): %s", r.Rule, r.Reason))
	p.Rule = r.Rule
	for _, fe := range r.Errors {
		loc := fe.Field
		if locate != nil {
			loc = locate(loc)
		}
		p.Errors = append(p.Errors, &huma.ErrorDetail{Message: fe.Message, Location: loc})
	}
	return p
}
