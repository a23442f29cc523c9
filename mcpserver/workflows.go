package mcpserver

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/domain/workflow"
)

// The workflow tools: the plan an agreement became, read as a person
// reads it; decisions through the Coordinator; the conversation agent;
// the approvals waiting for the caller. Each calls the REST API as the
// session's caller, so ownership (404 for anyone else's workflow), a
// collaborator's role (a viewer's write is 403), the Coordinator's
// validation (422 TOWOW_DECISION_REJECTED naming the rule) and who
// approves (403 TOWOW_WORKFLOW_007) are the API's.

// GetWorkflowInput is get_workflow's input: a workflow, or the
// negotiation whose agreement it carries out.
type GetWorkflowInput struct {
	WorkflowID string `json:"workflow_id,omitempty" jsonschema:"the workflow's id (wf-…), or leave it out and give demand_id"`
	DemandID   string `json:"demand_id,omitempty" jsonschema:"the root demand of a negotiation that ended in an agreement: its workflow"`
}

// WorkflowPlan is a workflow as a person reads it: its steps in the order
// they can run, each with its type, status and who does it, and the plan
// as text.
type WorkflowPlan struct {
	WorkflowID   string        `json:"workflow_id" jsonschema:"pass it to decide_workflow, send_workflow_message and answer_approval"`
	DemandID     string        `json:"demand_id" jsonschema:"the negotiation whose agreement it carries out"`
	Title        string        `json:"title"`
	Status       string        `json:"status" jsonschema:"draft (editable; execute_workflow runs it), running, completed, failed or cancelled"`
	Version      int           `json:"version" jsonschema:"the version decisions are based on: decide_workflow's base_version"`
	Owner        string        `json:"owner" jsonschema:"the user whose negotiation it is (who approves an approval step that names no approver)"`
	Participants []Participant `json:"participants" jsonschema:"the agents of the agreement: a task's assignee_id is one of them"`
	Steps        []PlanStep    `json:"steps" jsonschema:"in the order they can run (each after the steps it waits for)"`
	Plan         string        `json:"plan" jsonschema:"the plan as text: one line per step with its title, type, status and who, then what it waits for and what happened"`
}

// Participant is an agent of the agreement.
type Participant struct {
	AgentID string `json:"agent_id" jsonschema:"what a task's assignee_id takes"`
	Name    string `json:"name"`
}

// PlanStep is one step (node) of a workflow.
type PlanStep struct {
	NodeID      string   `json:"node_id" jsonschema:"the step's id: what decide_workflow's payload (node_id, from, to, after, before) and answer_approval take"`
	Title       string   `json:"title"`
	Type        string   `json:"type" jsonschema:"task, approval, wait, http or milestone"`
	Status      string   `json:"status" jsonschema:"pending, running, completed, failed or skipped"`
	Who         string   `json:"who,omitempty" jsonschema:"who does or answers it: a task's agent and role, an approval's approver"`
	AssigneeID  string   `json:"assignee_id,omitempty" jsonschema:"a task's agent (one of participants)"`
	Approver    string   `json:"approver,omitempty" jsonschema:"an approval's approver (the owner when the step names none)"`
	Description string   `json:"description,omitempty"`
	Due         string   `json:"due,omitempty"`
	After       []string `json:"after" jsonschema:"node_ids of the steps it waits for"`
	Outcome     string   `json:"outcome,omitempty" jsonschema:"what happened: the result, why it failed or was skipped, or what a running step waits for"`
}

// DecideInput is decide_workflow's input: the API's own decision body
// (workflow.DecisionPayload).
type DecideInput struct {
	WorkflowID   string                    `json:"workflow_id" jsonschema:"the workflow (get_workflow's workflow_id)"`
	DecisionType workflow.DecisionType     `json:"decision_type" jsonschema:"what the decision does; the payload fields it needs are described with each field"`
	BaseVersion  int                       `json:"base_version" jsonschema:"the version the decision was made on: get_workflow's version (the Coordinator refuses a stale one, rule version; move_node and cancel_workflow may be stale)"`
	Payload      *workflow.DecisionPayload `json:"payload,omitempty" jsonschema:"the decision's details (none for execute_workflow)"`
	DecisionID   string                    `json:"decision_id,omitempty" jsonschema:"idempotency key: a retry with the same id is ruled on once (one is drawn when absent)"`
}

// DecideOutput is a decision the Coordinator let through, with the
// workflow as it is after it.
type DecideOutput struct {
	DecisionID  string                `json:"decision_id"`
	Version     int                   `json:"version" jsonschema:"the workflow's version now: the next decision's base_version"`
	NodeID      string                `json:"node_id,omitempty" jsonschema:"create_node: the new step's node_id"`
	Corrections []workflow.Correction `json:"corrections" jsonschema:"what the Coordinator corrected before letting the decision through (a timeout clamped, a past wait moved to now)"`
	Repeated    bool                  `json:"repeated" jsonschema:"the decision_id was ruled on before: nothing was written now"`
	Cursor      int64                 `json:"cursor" jsonschema:"position of the last event written"`
	Workflow    *WorkflowPlan         `json:"workflow,omitempty" jsonschema:"the workflow after the decision"`
}

// MessageInput is send_workflow_message's input.
type MessageInput struct {
	WorkflowID  string `json:"workflow_id" jsonschema:"the workflow to talk about"`
	Text        string `json:"text" jsonschema:"what you say about the plan, e.g. 把场地确认提前到第一周, 进展如何？ or 运行它"`
	WaitSeconds *int   `json:"wait_seconds,omitempty" jsonschema:"how long to wait for the agent's reply, 0 to 120 seconds (default 30; 0: do not wait)"`
}

// MessageOutput is a message sent and, when it came in time, the agent's
// reply.
type MessageOutput struct {
	WorkflowID string `json:"workflow_id"`
	MessageID  string `json:"message_id" jsonschema:"get_workflow_messages takes it to wait for the reply later"`
	Cursor     int64  `json:"cursor" jsonschema:"position of the recorded message"`
	ChatTurn
	Waited float64 `json:"waited_seconds"`
}

// MessagesInput is get_workflow_messages's input.
type MessagesInput struct {
	WorkflowID  string `json:"workflow_id" jsonschema:"the workflow"`
	MessageID   string `json:"message_id,omitempty" jsonschema:"only this message's turn (send_workflow_message's message_id)"`
	WaitSeconds int    `json:"wait_seconds,omitempty" jsonschema:"with message_id: wait at most this long for its reply, 0 to 120 seconds (default 0)"`
	Limit       int    `json:"limit,omitempty" jsonschema:"without message_id: the last this many turns, 1 to 200 (default 20)"`
}

// MessagesOutput is a workflow's conversation.
type MessagesOutput struct {
	WorkflowID string     `json:"workflow_id"`
	Turns      []ChatTurn `json:"turns" jsonschema:"oldest first"`
	Total      int        `json:"total" jsonschema:"how many turns the conversation has"`
}

// ChatTurn is one message to the conversation agent and what it did.
type ChatTurn struct {
	Text     string     `json:"text" jsonschema:"what was said"`
	UserID   string     `json:"user_id,omitempty" jsonschema:"who said it"`
	SentAt   time.Time  `json:"sent_at,omitzero"`
	Done     bool       `json:"done" jsonschema:"the agent ended its turn; false: it is still working (wait with get_workflow_messages)"`
	Reply    string     `json:"reply,omitempty" jsonschema:"the agent's reply"`
	Question bool       `json:"question,omitempty" jsonschema:"the reply asks you something: answer with send_workflow_message"`
	Steps    []ChatStep `json:"steps" jsonschema:"the agent's steps: what it looked at and the decisions it took (each through the Coordinator)"`
}

// ChatStep is one step of the conversation agent.
type ChatStep struct {
	Thought     string `json:"thought,omitempty"`
	Action      string `json:"action,omitempty" jsonschema:"the tool or decision it took (get_workflow, create_node, …); empty when it replied"`
	Observation string `json:"observation,omitempty" jsonschema:"what it observed: the tool's answer or the Coordinator's ruling"`
	Rejected    bool   `json:"rejected,omitempty" jsonschema:"the Coordinator refused the decision (the observation says why)"`
}

// NoInput is the input of a tool that takes none.
type NoInput struct{}

// ApprovalsOutput is list_pending_approvals's result.
type ApprovalsOutput struct {
	Approvals []PendingApproval `json:"approvals" jsonschema:"the approval steps waiting for you, by workflow"`
}

// PendingApproval is an approval step waiting for the caller.
type PendingApproval struct {
	WorkflowID    string `json:"workflow_id" jsonschema:"answer_approval's workflow_id"`
	NodeID        string `json:"node_id" jsonschema:"answer_approval's node_id"`
	DemandID      string `json:"demand_id" jsonschema:"the negotiation whose agreement the workflow runs"`
	Title         string `json:"title" jsonschema:"what is to be approved"`
	Description   string `json:"description,omitempty"`
	Due           string `json:"due,omitempty"`
	WorkflowTitle string `json:"workflow_title,omitempty" jsonschema:"the plan it is a step of"`
}

// AnswerApprovalInput is answer_approval's input.
type AnswerApprovalInput struct {
	WorkflowID string `json:"workflow_id" jsonschema:"the approval's workflow_id (list_pending_approvals)"`
	NodeID     string `json:"node_id" jsonschema:"the approval's node_id (list_pending_approvals)"`
	Approved   bool   `json:"approved" jsonschema:"true approves (the step completes), false rejects (the step fails, and with it the workflow)"`
	Comment    string `json:"comment,omitempty" jsonschema:"why (recorded with the answer; at most 2000 characters)"`
}

// AnswerApprovalOutput is a recorded answer.
type AnswerApprovalOutput struct {
	WorkflowID string `json:"workflow_id"`
	NodeID     string `json:"node_id"`
	Approved   bool   `json:"approved"`
	Cursor     int64  `json:"cursor" jsonschema:"position of the recorded answer in the event log"`
}

// Waits of the conversation tools.
const (
	defaultReplyWait = 30 * time.Second
	maxReplyWait     = 120 * time.Second
	defaultTurns     = 20
	maxTurns         = 200
)

func addWorkflowTools(s *mcp.Server, c *client) {
	addTool(s, &mcp.Tool{Name: "get_workflow", Title: "Get a workflow (the plan to carry out)",
		Description: "The workflow a negotiation's agreement became, by workflow_id or by the negotiation's demand_id: " +
			"its status and version, and its steps in the order they can run, each with title, type (task, approval, " +
			"wait, http, milestone), status (pending, running, completed, failed, skipped), who does it, what it waits " +
			"for and what happened; plan is the same as text. Change it with decide_workflow or send_workflow_message.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in GetWorkflowInput) (*mcp.CallToolResult, WorkflowPlan, error) {
			w, err := c.workflowOf(ctx, in)
			if err != nil {
				return nil, WorkflowPlan{}, err
			}
			return nil, c.plan(ctx, w), nil
		})

	addTool(s, &mcp.Tool{Name: "decide_workflow", Title: "Decide on a workflow",
		Description: "Send a decision on a workflow through the Coordinator, based on its current version " +
			"(get_workflow's version): create_node (payload.node: type, title, …; after/before: node_ids), update_node " +
			"(node_id, changes), delete_node (node_id), connect and disconnect (from, to), move_node (node_id, position), " +
			"execute_workflow (runs a draft), cancel_workflow (reason). Let through: the new version and the workflow " +
			"after it. Refused: a tool error TOWOW_DECISION_REJECTED naming the rule (well_formed, workflow_state, " +
			"version, references, node_fields, assignee, frozen_nodes, acyclic, …) and the field at fault; nothing changed.",
		InputSchema: decideSchema()},
		func(ctx context.Context, _ *mcp.CallToolRequest, in DecideInput) (*mcp.CallToolResult, DecideOutput, error) {
			out, err := c.decide(ctx, in)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "send_workflow_message", Title: "Talk to the workflow's conversation agent",
		Description: "Say something about a workflow to its conversation agent (\"add a rehearsal before the event\", " +
			"\"why did the venue task fail?\", \"run it\"): it looks at the plan and may change it with decisions (each " +
			"through the Coordinator, as decide_workflow's), then replies. Waits up to wait_seconds (default 30) for the " +
			"reply; done=false: still working, get_workflow_messages with the message_id waits again. Read the plan " +
			"again with get_workflow after changes."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in MessageInput) (*mcp.CallToolResult, MessageOutput, error) {
			out, err := c.sendMessage(ctx, in)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "get_workflow_messages", Title: "Read a workflow's conversation",
		Description: "The conversation about a workflow: each message, the conversation agent's steps and its reply " +
			"(the last limit turns, default 20). With message_id: that turn only, waiting up to wait_seconds for its reply.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in MessagesInput) (*mcp.CallToolResult, MessagesOutput, error) {
			out, err := c.messages(ctx, in)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "list_pending_approvals", Title: "List the approvals waiting for you",
		Description: "The approval steps of running workflows that wait for your answer (you are their approver: the " +
			"one a step names, else the negotiation's owner). An approval step is listed once it runs, after the steps " +
			"before it. Answer each with answer_approval.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ NoInput) (*mcp.CallToolResult, ApprovalsOutput, error) {
			out, err := c.pendingApprovals(ctx)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "answer_approval", Title: "Approve or reject an approval step",
		Description: "Answer a running approval step (list_pending_approvals): approved=true completes it and the " +
			"workflow goes on; approved=false rejects it, which fails the step and the workflow. Only its approver may " +
			"answer (anyone else: TOWOW_WORKFLOW_007); a step that is not running: TOWOW_WORKFLOW_002."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in AnswerApprovalInput) (*mcp.CallToolResult, AnswerApprovalOutput, error) {
			out := AnswerApprovalOutput{WorkflowID: in.WorkflowID, NodeID: in.NodeID, Approved: in.Approved}
			if err := checkID("workflow_id", in.WorkflowID); err != nil {
				return nil, out, err
			}
			if err := checkID("node_id", in.NodeID); err != nil {
				return nil, out, err
			}
			var ans struct {
				Cursor int64 `json:"cursor"`
			}
			body := map[string]any{"approved": in.Approved}
			if in.Comment != "" {
				body["comment"] = in.Comment
			}
			path := workflowPath(in.WorkflowID) + "/nodes/" + url.PathEscape(in.NodeID) + "/approval"
			err := c.call(ctx, http.MethodPost, path, nil, "", body, &ans)
			out.Cursor = ans.Cursor
			return nil, out, err
		})
}

// apiWorkflow is a workflow as GET /api/v1/workflows/{id} answers it.
type apiWorkflow struct {
	WorkflowID   string                  `json:"workflow_id"`
	DemandID     string                  `json:"demand_id"`
	UserID       string                  `json:"user_id"`
	Title        string                  `json:"title"`
	Status       string                  `json:"status"`
	Version      int                     `json:"version"`
	Participants []string                `json:"participants"`
	Nodes        []apiNode               `json:"nodes"`
	Edges        []workflow.WorkflowEdge `json:"edges"`
	FailedNode   string                  `json:"failed_node"`
}

// apiNode is a node with its execution state.
type apiNode struct {
	workflow.WorkflowNode
	Status  string               `json:"status"`
	Attempt int                  `json:"attempt"`
	Result  *workflow.NodeResult `json:"result"`
	Error   string               `json:"error"`
	Reason  string               `json:"reason"`
	RetryAt time.Time            `json:"retry_at"`
}

func workflowPath(id string) string { return "/api/v1/workflows/" + url.PathEscape(id) }

// workflowOf reads the workflow named by its id, or by its negotiation.
func (c *client) workflowOf(ctx context.Context, in GetWorkflowInput) (apiWorkflow, error) {
	switch {
	case in.WorkflowID != "":
		return c.workflow(ctx, in.WorkflowID)
	case in.DemandID != "":
		if err := checkID("demand_id", in.DemandID); err != nil {
			return apiWorkflow{}, err
		}
		var list struct {
			Workflows []apiWorkflow `json:"workflows"`
		}
		if err := c.call(ctx, http.MethodGet, "/api/v1/workflows", url.Values{"demand_id": {in.DemandID}}, "", nil, &list); err != nil {
			return apiWorkflow{}, err
		}
		if len(list.Workflows) == 0 {
			return apiWorkflow{}, fmt.Errorf("the negotiation %s has no workflow (yet): a workflow exists once a root negotiation "+
				"ends in an agreement (wait_for_outcome)", in.DemandID)
		}
		return list.Workflows[0], nil
	}
	return apiWorkflow{}, errors.New("give workflow_id, or the demand_id of its negotiation")
}

// workflow reads a workflow by id.
func (c *client) workflow(ctx context.Context, id string) (apiWorkflow, error) {
	var w apiWorkflow
	if err := checkID("workflow_id", id); err != nil {
		return w, err
	}
	err := c.call(ctx, http.MethodGet, workflowPath(id), nil, "", nil, &w)
	return w, err
}

// agentNames looks up the participants' names in the directory (an agent
// it cannot read keeps its id as its name).
func (c *client) agentNames(ctx context.Context, ids []string) map[string]string {
	names := map[string]string{}
	for _, id := range ids {
		var a Agent
		if checkID("agent_id", id) == nil &&
			c.call(ctx, http.MethodGet, "/api/v1/agents/"+url.PathEscape(id), nil, "", nil, &a) == nil && a.Profile.UserName != "" {
			names[id] = a.Profile.UserName
		}
	}
	return names
}

// plan renders a workflow as a person reads it.
func (c *client) plan(ctx context.Context, w apiWorkflow) WorkflowPlan {
	names := c.agentNames(ctx, w.Participants)
	name := func(agentID string) string { return cmp.Or(names[agentID], agentID) }
	p := WorkflowPlan{WorkflowID: w.WorkflowID, DemandID: w.DemandID, Title: w.Title, Status: w.Status, Version: w.Version,
		Owner: w.UserID}
	for _, id := range w.Participants {
		p.Participants = append(p.Participants, Participant{AgentID: id, Name: name(id)})
	}
	nodes := make([]workflow.WorkflowNode, len(w.Nodes))
	byID := map[string]apiNode{}
	for i, n := range w.Nodes {
		nodes[i] = n.WorkflowNode
		byID[n.ID] = n
	}
	order, _ := workflow.TopoOrder(nodes, w.Edges)
	for _, n := range w.Nodes { // nodes in a cycle (a workflow never has one): last, in creation order
		if !slices.Contains(order, n.ID) {
			order = append(order, n.ID)
		}
	}
	title := func(id string) string {
		if n, ok := byID[id]; ok && n.Title != "" {
			return n.Title
		}
		return id
	}
	for _, id := range order {
		n := byID[id]
		st := PlanStep{NodeID: n.ID, Title: n.Title, Type: string(n.Type), Status: n.Status, Description: n.Description,
			Due: n.Due}
		for _, e := range w.Edges {
			if e.To == n.ID {
				st.After = append(st.After, e.From)
			}
		}
		switch n.Type {
		case workflow.NodeTask:
			st.AssigneeID = n.AssigneeID
			st.Who = name(n.AssigneeID)
			if n.Role != "" {
				st.Who += "（" + n.Role + "）"
			}
		case workflow.NodeApproval:
			st.Approver = cmp.Or(n.Approver, w.UserID)
			st.Who = st.Approver
			if n.Approver == "" || n.Approver == w.UserID {
				st.Who += " (the owner)"
			}
		case workflow.NodeWait:
			if !n.WaitUntil.IsZero() {
				st.Who = "a timer until " + n.WaitUntil.UTC().Format(time.RFC3339)
			}
		case workflow.NodeHTTP:
			if u, err := url.Parse(n.URL); err == nil && u.Host != "" {
				st.Who = "POST to " + u.Host
			}
		}
		st.Outcome = outcome(n, st)
		p.Steps = append(p.Steps, st)
	}
	p.Plan = planText(w, p, title)
	return p
}

// outcome says what happened to a step, or what it waits for.
func outcome(n apiNode, st PlanStep) string {
	switch n.Status {
	case string(workflow.NodeStatusCompleted):
		if n.Result != nil {
			return n.Result.Summary
		}
		return "done"
	case string(workflow.NodeStatusFailed):
		return cmp.Or(n.Error, "failed")
	case string(workflow.NodeStatusSkipped):
		return n.Reason
	case string(workflow.NodeStatusRunning):
		switch n.Type {
		case workflow.NodeTask:
			return "waiting for " + st.Who + " to report"
		case workflow.NodeApproval:
			return "waiting for " + st.Approver + "'s approval (answer_approval)"
		}
		return "running"
	case string(workflow.NodeStatusPending):
		if n.Error != "" { // a failed attempt that is retried
			s := "attempt " + strconv.Itoa(n.Attempt) + " failed: " + n.Error
			if !n.RetryAt.IsZero() {
				s += "; retried at " + n.RetryAt.UTC().Format(time.RFC3339)
			}
			return s
		}
	}
	return ""
}

// planText is the plan as text: a heading, then a line per step and its
// details, titles for ids.
func planText(w apiWorkflow, p WorkflowPlan, title func(string) string) string {
	var b strings.Builder
	done := 0
	for _, s := range p.Steps {
		if s.Status == string(workflow.NodeStatusCompleted) {
			done++
		}
	}
	fmt.Fprintf(&b, "%s — %s, version %d, %d of %d steps completed", cmp.Or(p.Title, "workflow"), p.Status, p.Version, done, len(p.Steps))
	switch p.Status {
	case string(workflow.WorkflowStatusDraft):
		b.WriteString(" (a draft: change it with decisions, run it with execute_workflow)")
	case string(workflow.WorkflowStatusFailed):
		if w.FailedNode != "" {
			b.WriteString(" (failed at “" + title(w.FailedNode) + "”)")
		}
	}
	b.WriteString("\n")
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "%d. %s [%s, %s]", i+1, s.Title, s.Type, s.Status)
		if s.Who != "" {
			b.WriteString(" — " + s.Who)
		}
		if s.Due != "" {
			b.WriteString("; due " + s.Due)
		}
		b.WriteString("\n")
		if len(s.After) > 0 {
			var after []string
			for _, id := range s.After {
				after = append(after, "“"+title(id)+"”")
			}
			b.WriteString("   after " + strings.Join(after, ", ") + "\n")
		}
		if s.Description != "" {
			b.WriteString("   " + oneLine(s.Description) + "\n")
		}
		if s.Outcome != "" {
			b.WriteString("   → " + oneLine(s.Outcome) + "\n")
		}
	}
	return b.String()
}

// oneLine folds a text's lines into one.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// decide sends a decision and reads the workflow after it.
func (c *client) decide(ctx context.Context, in DecideInput) (DecideOutput, error) {
	var out DecideOutput
	if err := checkID("workflow_id", in.WorkflowID); err != nil {
		return out, err
	}
	body := map[string]any{"decision_type": in.DecisionType, "base_version": in.BaseVersion}
	if in.DecisionID != "" {
		body["decision_id"] = in.DecisionID
	}
	if p := in.Payload; p != nil {
		if in.DecisionType == workflow.DecisionCreateNode && p.Node != nil {
			// Name the new step here, so the answer can say which it is (the
			// API derives an id from the decision's when none is given and
			// does not return it).
			node := *p.Node
			if node.ID == "" {
				node.ID = "node-" + randomHex(6)
			}
			pc := *p
			pc.Node = &node
			p = &pc
			out.NodeID = node.ID
		}
		body["payload"] = p
	}
	var ans struct {
		DecisionID  string                `json:"decision_id"`
		Version     int                   `json:"version"`
		Corrections []workflow.Correction `json:"corrections"`
		Repeated    bool                  `json:"repeated"`
		Cursor      int64                 `json:"cursor"`
	}
	if err := c.call(ctx, http.MethodPost, workflowPath(in.WorkflowID)+"/decisions", nil, "", body, &ans); err != nil {
		return DecideOutput{}, err
	}
	out.DecisionID, out.Version, out.Corrections, out.Repeated, out.Cursor = ans.DecisionID, ans.Version, ans.Corrections, ans.Repeated, ans.Cursor
	// The workflow after it (the API reads its own writes); the decision
	// stands even when this read fails.
	if w, err := c.workflow(ctx, in.WorkflowID); err == nil {
		p := c.plan(ctx, w)
		out.Workflow = &p
	}
	return out, nil
}

// randomHex is n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// sendMessage sends a message and waits for the agent's reply.
func (c *client) sendMessage(ctx context.Context, in MessageInput) (MessageOutput, error) {
	out := MessageOutput{WorkflowID: in.WorkflowID}
	wait := defaultReplyWait
	if in.WaitSeconds != nil {
		if *in.WaitSeconds < 0 || time.Duration(*in.WaitSeconds)*time.Second > maxReplyWait {
			return out, fmt.Errorf("wait_seconds must be between 0 and %d (got %d)", int(maxReplyWait.Seconds()), *in.WaitSeconds)
		}
		wait = time.Duration(*in.WaitSeconds) * time.Second
	}
	if err := checkID("workflow_id", in.WorkflowID); err != nil {
		return out, err
	}
	var sent struct {
		MessageID string `json:"message_id"`
		Cursor    int64  `json:"cursor"`
	}
	if err := c.call(ctx, http.MethodPost, workflowPath(in.WorkflowID)+"/messages", nil, "", map[string]string{"text": in.Text}, &sent); err != nil {
		return out, err
	}
	out.MessageID, out.Cursor = sent.MessageID, sent.Cursor
	start := time.Now()
	t, err := c.awaitTurn(ctx, in.WorkflowID, sent.MessageID, wait)
	if err != nil {
		return out, err
	}
	out.ChatTurn = t
	if out.Text == "" { // not read back yet: the message as sent
		out.Text = in.Text
	}
	out.Waited = secondsSince(start)
	return out, nil
}

// messages reads a workflow's conversation, or one turn of it.
func (c *client) messages(ctx context.Context, in MessagesInput) (MessagesOutput, error) {
	out := MessagesOutput{WorkflowID: in.WorkflowID}
	if in.WaitSeconds < 0 || time.Duration(in.WaitSeconds)*time.Second > maxReplyWait {
		return out, fmt.Errorf("wait_seconds must be between 0 and %d (got %d)", int(maxReplyWait.Seconds()), in.WaitSeconds)
	}
	if in.Limit < 0 || in.Limit > maxTurns {
		return out, fmt.Errorf("limit must be between 1 and %d (got %d)", maxTurns, in.Limit)
	}
	if err := checkID("workflow_id", in.WorkflowID); err != nil {
		return out, err
	}
	if in.MessageID != "" {
		turns, err := c.turns(ctx, in.WorkflowID)
		if err != nil {
			return out, err
		}
		out.Total = len(turns)
		i := slices.IndexFunc(turns, func(t apiTurn) bool { return t.MessageID == in.MessageID })
		if i < 0 {
			return out, fmt.Errorf("the workflow %s has no message %s", in.WorkflowID, in.MessageID)
		}
		t := chatTurn(turns[i])
		if !t.Done && in.WaitSeconds > 0 {
			if t, err = c.awaitTurn(ctx, in.WorkflowID, in.MessageID, time.Duration(in.WaitSeconds)*time.Second); err != nil {
				return out, err
			}
		}
		out.Turns = append(out.Turns, t)
		return out, nil
	}
	turns, err := c.turns(ctx, in.WorkflowID)
	if err != nil {
		return out, err
	}
	out.Total = len(turns)
	limit := cmp.Or(in.Limit, defaultTurns)
	for _, t := range turns[max(0, len(turns)-limit):] {
		out.Turns = append(out.Turns, chatTurn(t))
	}
	return out, nil
}

// apiTurn is a turn as GET …/messages answers it.
type apiTurn struct {
	MessageID string                      `json:"message_id"`
	Text      string                      `json:"text"`
	UserID    string                      `json:"user_id"`
	SentAt    time.Time                   `json:"sent_at"`
	Steps     []workflow.ConversationStep `json:"steps"`
	Reply     string                      `json:"reply"`
	Question  bool                        `json:"question"`
	Done      bool                        `json:"done"`
}

// turns reads a workflow's conversation.
func (c *client) turns(ctx context.Context, workflowID string) ([]apiTurn, error) {
	var conv struct {
		Turns []apiTurn `json:"turns"`
	}
	err := c.call(ctx, http.MethodGet, workflowPath(workflowID)+"/messages", nil, "", nil, &conv)
	return conv.Turns, err
}

// chatTurn is a turn as the tools show it.
func chatTurn(t apiTurn) ChatTurn {
	out := ChatTurn{Text: t.Text, UserID: t.UserID, SentAt: t.SentAt, Done: t.Done, Reply: t.Reply, Question: t.Question}
	for _, s := range t.Steps {
		out.Steps = append(out.Steps, ChatStep{Thought: s.Action.Thought, Action: s.Action.Tool, Observation: s.Observation, Rejected: s.Rejected})
	}
	return out
}

// awaitTurn polls the conversation until the message's turn is done or
// the wait passes; it returns the turn as it is then (empty when it was
// not read back yet).
func (c *client) awaitTurn(ctx context.Context, workflowID, messageID string, wait time.Duration) (ChatTurn, error) {
	deadline := time.Now().Add(wait)
	pause := 100 * time.Millisecond
	for {
		turns, err := c.turns(ctx, workflowID)
		if err != nil {
			return ChatTurn{}, err
		}
		var t ChatTurn
		if i := slices.IndexFunc(turns, func(t apiTurn) bool { return t.MessageID == messageID }); i >= 0 {
			t = chatTurn(turns[i])
		}
		left := time.Until(deadline)
		if t.Done || left <= 0 {
			return t, nil
		}
		timer := time.NewTimer(min(pause, left))
		select {
		case <-ctx.Done():
			timer.Stop()
			return ChatTurn{}, fmt.Errorf("wait for the reply to %s: %w", messageID, ctx.Err())
		case <-timer.C:
		}
		pause = min(pause*3/2, time.Second)
	}
}

// pendingApprovals lists the approvals waiting for the caller, with the
// title of each one's workflow.
func (c *client) pendingApprovals(ctx context.Context) (ApprovalsOutput, error) {
	var out ApprovalsOutput
	var ans struct {
		Approvals []struct {
			WorkflowID string                `json:"workflow_id"`
			DemandID   string                `json:"demand_id"`
			Node       workflow.WorkflowNode `json:"node"`
		} `json:"approvals"`
	}
	if err := c.call(ctx, http.MethodGet, "/api/v1/approvals", nil, "", nil, &ans); err != nil {
		return out, err
	}
	titles := map[string]string{}
	for _, a := range ans.Approvals {
		title, ok := titles[a.WorkflowID]
		if !ok {
			if w, err := c.workflow(ctx, a.WorkflowID); err == nil {
				title = w.Title
			}
			titles[a.WorkflowID] = title
		}
		out.Approvals = append(out.Approvals, PendingApproval{WorkflowID: a.WorkflowID, NodeID: a.Node.ID, DemandID: a.DemandID,
			Title: a.Node.Title, Description: a.Node.Description, Due: a.Node.Due, WorkflowTitle: title})
	}
	return out, nil
}

// decidePayloadText is what each payload field of a decision is (which
// decision types need it comes from workflow.DecisionPayloads).
var decidePayloadText = map[string]string{
	"node_id":  "the step's node_id",
	"node":     "the new step",
	"after":    "node_ids of the steps the new one runs after",
	"before":   "node_ids of the steps that run after the new one",
	"changes":  "the fields to set (the others stay as they are)",
	"from":     "the step that runs first (node_id)",
	"to":       "the step that runs after from (node_id)",
	"position": "the step's place on the canvas",
	"reason":   "why",
}

// decideSchema is decide_workflow's input schema, one flat object (a
// client may refuse a union at the root): the decision types and node
// types as enums, each payload field described with the decision types
// that need it (workflow.DecisionPayloads), and the node's fields.
func decideSchema() *jsonschema.Schema {
	s := schemaFor[DecideInput]()
	dt := s.Properties["decision_type"]
	dt.Enum = enumOf(workflow.DecisionTypes)
	dt.Description += " (" + variantsSummary(workflow.DecisionTypes, workflow.DecisionPayloads) + ")"
	payload := s.Properties["payload"]
	describeVariants(payload, "", workflow.DecisionTypes, workflow.DecisionPayloads, decidePayloadText)
	node := payload.Properties["node"]
	node.Properties["type"].Enum = enumOf(workflow.NodeTypes)
	for name, text := range map[string]string{
		"id":              "leave it out: one is drawn (the answer's node_id)",
		"type":            "task (an agent's part: assignee_id), approval (approver answers with answer_approval), wait (until wait_until), http (POSTs body to url), milestone (done when everything before it is)",
		"title":           "what the step is, e.g. 确认预算",
		"description":     "what is to be done",
		"assignee_id":     "task only: the agent doing it, one of get_workflow's participants",
		"role":            "task: the agent's role",
		"due":             "when it is due, as free text (e.g. 第一周)",
		"wait_until":      "wait only: when it ends (RFC 3339)",
		"url":             "http only: the URL to POST to (its host must be on the server's allow list)",
		"body":            "http: the JSON body, string values",
		"timeout_seconds": "how long one attempt may take (default: the type's)",
		"max_attempts":    "http: how often it is tried (default 3, at most 10)",
		"approver":        "approval only: the user who answers it (default: the negotiation's owner)",
		"sub_channel_id":  "leave it out (set on a task that came from a sub-negotiation)",
		"position":        "leave it out: the step is placed beside the steps it follows",
	} {
		if p := node.Properties[name]; p != nil {
			p.Description = text
		}
	}
	return s
}
