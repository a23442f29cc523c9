package execute

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/uow"
)

// Commands are the workflow commands: decisions, canvas batches, an
// external agent's task report, approvals and messages to the conversation
// agent. They write through the same unit of work as the jobs, so a
// command's events set off their follow-up jobs exactly as a job's do.
// Safe for concurrent use.
type Commands struct {
	p *Process
}

// NewCommands returns the commands of p.
func NewCommands(p *Process) *Commands { return &Commands{p: p} }

// Decide sends a decision on a workflow through the validators: a
// decision without an id gets one. Let through, it returns the
// validation (the decision as it took effect, its corrections and the new
// version) and the position written; refused, the rejection is recorded
// and returned as a *workflow.RejectionError (errors.Is
// workflow.ErrDecisionRejected). A decision id already ruled on returns the
// earlier ruling's version with Repeated set. ErrWorkflowNotFound for an
// unknown workflow.
func (s *Commands) Decide(ctx context.Context, workflowID string, d workflow.Decision) (workflow.DecisionOutcome, error) {
	if d.DecisionID == "" {
		id, err := uow.NewID("dec-", 8)
		if err != nil {
			return workflow.DecisionOutcome{}, err
		}
		d.DecisionID = id
	}
	if err := s.requireWorkflow(ctx, workflowID); err != nil {
		return workflow.DecisionOutcome{}, err
	}
	evs, pos, err := s.p.decideWorkflow(ctx, workflowID, d, "decision:"+d.DecisionID)
	if err != nil {
		return workflow.DecisionOutcome{}, err
	}
	if rej := workflow.RejectionOf(evs); rej != nil {
		return workflow.DecisionOutcome{Position: pos}, &workflow.RejectionError{Rejected: *rej}
	}
	for _, ev := range evs {
		if v, ok := ev.(*workflow.DecisionValidated); ok {
			return workflow.DecisionOutcome{Validated: *v, Position: pos}, nil
		}
	}
	// Ruled on before: report the workflow as it is.
	w, err := s.p.loadWorkflow(ctx, workflowID)
	if err != nil {
		return workflow.DecisionOutcome{}, err
	}
	return workflow.DecisionOutcome{Validated: workflow.DecisionValidated{WorkflowID: workflowID, Decision: d, Version: w.Version},
		Repeated: true}, nil
}

// ChangeCanvas applies a batch of canvas changes through the validators,
// all or nothing: a batch without an id gets one. Let
// through, it returns the outcome (new version, decision ids,
// corrections) and the position written. A change refused: its rejection
// is recorded, the outcome names it (Rejected, Index) and the error is a
// *workflow.RejectionError. A structural batch on a stale version: a
// *workflow.CanvasConflictError; while the workflow runs or after it ended:
// workflow.ErrCanvasLocked; an unknown workflow: ErrWorkflowNotFound.
// Nothing is written then. A batch id ruled on before returns the earlier
// ruling with Repeated set (a refusal again as the error).
func (s *Commands) ChangeCanvas(ctx context.Context, workflowID string, b workflow.CanvasBatch) (workflow.CanvasOutcome, int64, error) {
	if b.BatchID == "" {
		id, err := uow.NewID("cv-", 8)
		if err != nil {
			return workflow.CanvasOutcome{}, 0, err
		}
		b.BatchID = id
	}
	if err := s.requireWorkflow(ctx, workflowID); err != nil {
		return workflow.CanvasOutcome{}, 0, err
	}
	out, pos, err := s.p.changeCanvas(ctx, workflowID, b)
	if err != nil {
		return workflow.CanvasOutcome{}, 0, err
	}
	out.BatchID = b.BatchID
	if out.Rejected != nil {
		return out, pos, &workflow.RejectionError{Rejected: *out.Rejected}
	}
	return out, pos, nil
}

// ReportTask records an external agent's report on its running task.
// Errors are *event.Error: ErrWorkflowNotFound, ErrNotFound (no such
// node), ErrNodeNotOpen, ErrNotAssignee, ErrInvalidAnswer; nothing is
// written on error.
func (s *Commands) ReportTask(ctx context.Context, workflowID, nodeID, agentID string, a workflow.TaskAnswer) (int64, error) {
	if err := s.p.dir.RequireExternal(ctx, agentID); err != nil {
		return 0, err
	}
	if err := s.requireWorkflow(ctx, workflowID); err != nil {
		return 0, err
	}
	_, pos, err := s.p.actOnWorkflow(ctx, "report task", workflowID, event.AgentActor(agentID), "agent:"+agentID,
		func(w *workflow.Workflow) ([]event.Payload, error) {
			return w.ReportTask(nodeID, agentID, a, s.p.cfg.Now())
		})
	return pos, err
}

// Approve records the demand's user's answer to a running approval node.
// Errors are *event.Error: ErrWorkflowNotFound, ErrNotFound,
// ErrNodeNotOpen, ErrNotApprover; nothing is written on error.
func (s *Commands) Approve(ctx context.Context, workflowID, nodeID, userID string, approved bool, comment string) (int64, error) {
	if err := s.requireWorkflow(ctx, workflowID); err != nil {
		return 0, err
	}
	_, pos, err := s.p.actOnWorkflow(ctx, "approve", workflowID, "user:"+userID, "user:"+userID,
		func(w *workflow.Workflow) ([]event.Payload, error) {
			return w.Approve(nodeID, userID, approved, comment, s.p.cfg.Now())
		})
	return pos, err
}

// CreateWorkflow starts a person's own workflow (workflow.NewWorkflow),
// empty or from a template, and returns it with the position written.
// ErrNewWorkflowInvalid for an unknown template or a bad title; nothing
// is written then.
func (s *Commands) CreateWorkflow(ctx context.Context, userID, title, template string) (*workflow.Workflow, int64, error) {
	id, err := uow.NewID("wf-", 6)
	if err != nil {
		return nil, 0, err
	}
	created, err := workflow.NewWorkflow(workflow.NewInput{WorkflowID: id, UserID: userID, Title: title, Template: template, Now: s.p.cfg.Now()})
	if err != nil {
		return nil, 0, err
	}
	var w *workflow.Workflow
	_, pos, err := s.p.changeWorkflow(ctx, "create workflow", id, userActor(userID), "workflow:"+id, nil,
		func(cur *workflow.Workflow, _ *workflow.Conversation) (workflowChange, error) {
			if cur.Exists() {
				return workflowChange{}, fmt.Errorf("workflow %s exists already", id)
			}
			w = &workflow.Workflow{}
			w.Apply(created)
			return workflowChange{events: []event.Payload{created}}, nil
		})
	if err != nil {
		return nil, 0, err
	}
	return w, pos, nil
}

func (s *Commands) requireWorkflow(ctx context.Context, workflowID string) error {
	v, err := s.p.store.StreamVersion(ctx, workflow.WorkflowStream(workflowID))
	if err != nil {
		return err
	}
	if v == 0 {
		return &event.Error{Code: workflow.ErrWorkflowNotFound.Code, Message: fmt.Sprintf("no workflow %s", workflowID)}
	}
	return nil
}

// SendMessage records what a person said to the conversation agent about
// a workflow and starts its turn; it returns the message id and the
// position written. ErrMessageInvalid for an empty or over-long text,
// ErrWorkflowNotFound for an unknown workflow; nothing is written then.
func (s *Commands) SendMessage(ctx context.Context, workflowID, text, clientID, userID string) (string, int64, error) {
	text = strings.TrimSpace(text)
	if text == "" || utf8.RuneCountInString(text) > workflow.MaxMessageRunes {
		return "", 0, &event.Error{Code: workflow.ErrMessageInvalid.Code,
			Message: fmt.Sprintf("a message holds 1 to %d characters", workflow.MaxMessageRunes)}
	}
	if err := s.requireWorkflow(ctx, workflowID); err != nil {
		return "", 0, err
	}
	id, err := uow.NewID("msg-", 8)
	if err != nil {
		return "", 0, err
	}
	pos, err := s.p.sendMessage(ctx, workflow.ConversationMessage{WorkflowID: workflowID, MessageID: id, Text: text,
		ClientID: clientID, UserID: userID})
	return id, pos, err
}

// Conversation returns a workflow's conversation so far.
func (s *Commands) Conversation(ctx context.Context, workflowID string) ([]workflow.Turn, error) {
	if err := s.requireWorkflow(ctx, workflowID); err != nil {
		return nil, err
	}
	c, err := s.p.conversation(ctx, workflowID)
	if err != nil {
		return nil, err
	}
	if c.Turns == nil {
		return []workflow.Turn{}, nil
	}
	return c.Turns, nil
}
