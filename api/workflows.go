package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/projections"
)

// Workflows: the agreed plan of a root negotiation as a DAG of nodes,
// changed only by decisions the Coordinator validates, executed node by
// node. Reads come from the workflows read model (the domain's fold of the
// stream, kept by the projection); only time travel (?at=) folds the
// stream here, through the same domain fold.

// WorkflowNodeView is a node with its execution state.
type WorkflowNodeView struct {
	workflow.WorkflowNode
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
		v.Nodes = append(v.Nodes, WorkflowNodeView{WorkflowNode: n, Status: r.Status, Attempt: r.Attempt, Result: r.Result,
			Error: r.Error, Reason: r.Reason, RetryAt: r.RetryAt})
	}
	return v
}

// workflowNow returns a workflow as the workflows read model holds it
// (see freshWorkflow), and the cursor of its stream's last event; 404
// when there is none.
func (s *Server) workflowNow(ctx context.Context, id string) (*workflow.Workflow, int64, error) {
	st, err := s.freshWorkflow(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	if !st.Workflow.Exists() {
		return nil, 0, notFound(fmt.Sprintf("no workflow %s", id))
	}
	return st.Workflow, st.Cursor, nil
}

// freshWorkflow reads a workflow's row from the workflows read model,
// reading your writes: when the row is behind its stream's last event in
// the log, it waits (at most readWait) for the model to fold it, so a GET
// after a decision's answer sees the decision.
func (s *Server) freshWorkflow(ctx context.Context, id string) (projections.WorkflowState, error) {
	st, err := s.ReadModels.Workflow(ctx, id)
	if err != nil {
		return st, problem(err)
	}
	if st.Fresh() {
		return st, nil
	}
	if err := s.waitFor(ctx, MinCursor{MinCursor: st.StreamHead}, projections.Workflows{}.Name()); err != nil {
		return st, err
	}
	if st, err = s.ReadModels.Workflow(ctx, id); err != nil {
		return st, problem(err)
	}
	return st, nil
}

// workflowExists answers 404 unless the workflow was created: from the
// read model when the server has one, else from the log (its
// towow.workflow.created), without folding the stream either way.
func (s *Server) workflowExists(ctx context.Context, id string) error {
	if s.ReadModels != nil {
		_, _, err := s.workflowNow(ctx, id)
		return err
	}
	created, err := s.Events.ReadAll(ctx, 0, eventstore.Filter{StreamID: workflow.WorkflowStream(id),
		Types: []event.EventType{workflow.EventWorkflowCreated}}, 1)
	if err != nil {
		return problem(err)
	}
	if len(created) == 0 {
		return notFound(fmt.Sprintf("no workflow %s", id))
	}
	return nil
}

// workflowAt folds a workflow's events up to cursor at through the
// domain's fold: time travel, and the state a write's answer carries when
// the server has no read models (0: all of them). It returns the workflow
// and the position of the last event folded, and 404 when the workflow
// did not exist yet.
func (s *Server) workflowAt(ctx context.Context, id string, at int64) (*workflow.Workflow, int64, error) {
	evs, err := eventstore.ReadEvery(ctx, s.Events, 0, eventstore.Filter{StreamID: workflow.WorkflowStream(id), UntilPosition: at})
	if err != nil {
		return nil, 0, problem(err)
	}
	w := &workflow.Workflow{}
	var last int64
	for _, e := range evs {
		p, err := e.Decode()
		if err != nil {
			return nil, 0, problem(err)
		}
		w.Apply(p)
		last = e.Position
	}
	if !w.Exists() {
		if at > 0 {
			return nil, 0, notFound(fmt.Sprintf("no workflow %s at cursor %d", id, at))
		}
		return nil, 0, notFound(fmt.Sprintf("no workflow %s", id))
	}
	return w, last, nil
}

// openTasks returns the running tasks assigned to agentID, by workflow,
// from the workflows read model once it has folded the log as it was at
// the call (the inbox lists a task exactly while the engine would take
// its report).
func (s *Server) openTasks(ctx context.Context, agentID string) (map[string][]projections.OpenNode, error) {
	head, err := s.Events.HeadPosition(ctx)
	if err != nil {
		return nil, problem(err)
	}
	if err := s.waitFor(ctx, MinCursor{MinCursor: head}, projections.Workflows{}.Name()); err != nil {
		return nil, err
	}
	nodes, err := s.ReadModels.WorkflowTasks(ctx, agentID)
	if err != nil {
		return nil, problem(err)
	}
	out := map[string][]projections.OpenNode{}
	for _, n := range nodes {
		out[n.WorkflowID] = append(out[n.WorkflowID], n)
	}
	return out, nil
}

// WorkflowListInput selects workflows.
type WorkflowListInput struct {
	DemandID string `query:"demand_id" required:"true" maxLength:"64" doc:"the root demand whose agreement the workflow carries out"`
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
		UserID      string                   `json:"user_id,omitempty" maxLength:"128" doc:"who decides (the actor is user:<user_id>)"`
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
		UserID   string `json:"user_id" minLength:"1" maxLength:"128" doc:"the demand's user"`
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
		UserID   string `json:"user_id,omitempty" maxLength:"128"`
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
	StreamInput
}

func (s *Server) registerWorkflows(api huma.API) {
	if s.ReadModels != nil {
		s.registerWorkflowViews(api)
	}

	huma.Register(api, huma.Operation{
		OperationID:  "decide-workflow",
		Method:       http.MethodPost,
		Path:         "/api/v1/workflows/{workflow_id}/decisions",
		Summary:      "Send a decision on a workflow through the Coordinator",
		Description:  "The Coordinator's validators check it in order (well_formed, workflow_state, version, rate_limit, references, node_fields, assignee, http_allow_list, frozen_nodes, acyclic, size, executable). Let through: 200 with the new version and any corrections, and its effects recorded with towow.decision.validated. Refused: 422 TOWOW_DECISION_REJECTED naming the rule, with one error per field; the rejection is recorded (towow.decision.rejected) and the workflow is unchanged.",
		Tags:         []string{"workflows"},
		MaxBodyBytes: 64 << 10,
	}, func(ctx context.Context, in *DecisionInput) (*DecisionOutput, error) {
		b := in.Body
		actor := "user"
		if b.UserID != "" {
			actor = "user:" + b.UserID
		}
		confidence := 1.0
		if b.Confidence != nil {
			confidence = *b.Confidence
		}
		res, err := s.Commands.Decide(ctx, in.WorkflowID, workflow.Decision{DecisionID: b.DecisionID, Type: b.Type, Actor: actor,
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

	huma.Register(api, s.externalAgent(api, huma.Operation{
		OperationID:  "report-task",
		Method:       http.MethodPost,
		Path:         "/api/v1/workflows/{workflow_id}/nodes/{node_id}/report",
		Summary:      "An external agent reports on its running task: done (with a summary) or a problem",
		Description:  "Done completes the node, a problem fails it (and so the workflow, once nothing else runs). Not its task: 422 TOWOW_WORKFLOW_003; not running: 409 TOWOW_WORKFLOW_002. Nothing is written then.",
		Tags:         []string{"workflows", "external agents"},
		MaxBodyBytes: 64 << 10,
	}), func(ctx context.Context, in *TaskReportInput) (*WorkflowActOutput, error) {
		pos, err := s.Commands.ReportTask(ctx, in.WorkflowID, in.NodeID, agentOf(ctx), in.Body.TaskAnswer)
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
		Description:  "Approved completes the node; rejected fails it. Not the demand's user: 422 TOWOW_WORKFLOW_004; not running: 409 TOWOW_WORKFLOW_002. Nothing is written then.",
		Tags:         []string{"workflows"},
		MaxBodyBytes: 16 << 10,
	}, func(ctx context.Context, in *ApprovalInput) (*WorkflowActOutput, error) {
		pos, err := s.Commands.Approve(ctx, in.WorkflowID, in.NodeID, in.Body.UserID, in.Body.Approved, in.Body.Comment)
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
		Description:   "The agent (ReAct) loops Thought → Action → Observation over get_workflow, get_node, ask_user and the decisions (each through the Coordinator: a rejection is what it observes) for at most 6 steps, then replies. 202 at once; every step is an event on the workflow's stream (towow.conversation.step, .replied). An empty or over-long text: 422 TOWOW_WORKFLOW_005.",
		Tags:          []string{"workflows"},
		DefaultStatus: http.StatusAccepted,
		MaxBodyBytes:  16 << 10,
	}, func(ctx context.Context, in *MessageInput) (*MessageOutput, error) {
		id, pos, err := s.Commands.SendMessage(ctx, in.WorkflowID, in.Body.Text, in.Body.ClientID, in.Body.UserID)
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
		turns, err := s.Commands.Conversation(ctx, in.WorkflowID)
		if err != nil {
			return nil, problem(err)
		}
		out := &ConversationOutput{}
		out.Body.WorkflowID, out.Body.Turns = in.WorkflowID, turns
		return out, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "workflow-stream",
		Responses:   sseResponses(),
		Method:      http.MethodGet,
		Path:        "/api/v1/events/workflows/{workflow_id}/stream",
		Summary:     "Server-sent events of one workflow: decisions, changes, node execution, the conversation",
		Description: "As the negotiation stream: `id: <cursor>`, resume with Last-Event-ID. With `client_id`, an event that client caused itself (a change or decision it sent, a message it wrote) comes as `event: towow.canvas.ack` whose data is a CanvasAck (components/schemas/CanvasAck: the event's cursor, id, type, decision and the workflow's version after it), under the same `id:`, so resuming keeps its guarantees; every other event comes as it is. The conversation agent's changes carry no client id: every client gets them.",
		Tags:        []string{"events", "workflows"},
	}, func(ctx context.Context, in *WorkflowStreamInput) (*huma.StreamResponse, error) {
		after, err := in.after()
		if err != nil {
			return nil, err
		}
		if err := s.workflowExists(ctx, in.WorkflowID); err != nil {
			return nil, err
		}
		return s.streamFor(after, eventstore.Filter{StreamID: workflow.WorkflowStream(in.WorkflowID)}, in.ClientID), nil
	})
}

// registerWorkflowViews registers the reads of the workflows read model:
// the list (by root demand) and one workflow, now or (?at=) as it was.
func (s *Server) registerWorkflowViews(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "list-workflows",
		Method:      http.MethodGet,
		Path:        "/api/v1/workflows",
		Summary:     "The workflow a root demand's agreement became (an empty list before the agreement, or without one)",
		Tags:        []string{"workflows"},
	}, func(ctx context.Context, in *WorkflowListInput) (*WorkflowListOutput, error) {
		out := &WorkflowListOutput{}
		out.Body.Workflows = []WorkflowView{}
		st, err := s.freshWorkflow(ctx, workflow.WorkflowIDFor(in.DemandID))
		if err != nil {
			return nil, err
		}
		if st.Workflow.Exists() {
			out.Body.Workflows = append(out.Body.Workflows, workflowView(st.Workflow))
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
		get := s.workflowNow
		if in.At > 0 {
			get = func(ctx context.Context, id string) (*workflow.Workflow, int64, error) {
				return s.workflowAt(ctx, id, in.At)
			}
		}
		w, _, err := get(ctx, in.WorkflowID)
		if err != nil {
			return nil, err
		}
		return &WorkflowOutput{Body: workflowView(w)}, nil
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
