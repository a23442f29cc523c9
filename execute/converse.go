package execute

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// ConverseArgs run one step of a turn of the conversation agent.
type ConverseArgs struct {
	WorkflowID string `json:"workflow_id"`
	MessageID  string `json:"message_id"`
	Step       int    `json:"step"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (ConverseArgs) Kind() string { return "towow.converse" }

// ConverseWorker runs the Converse job.
type ConverseWorker struct {
	river.WorkerDefaults[ConverseArgs]
	e *Process
}

// Work runs one step of a turn.
func (wk *ConverseWorker) Work(ctx context.Context, j *river.Job[ConverseArgs]) error {
	e := wk.e
	a := j.Args
	w, conv, _, err := e.loadConversation(ctx, e.store, a.WorkflowID)
	if err != nil {
		return err
	}
	turn := conv.Turn(a.MessageID)
	if turn == nil || turn.Done || len(turn.Steps)+1 != a.Step {
		return nil
	}
	seen := w.Version // the version the agent plans on
	var step workflow.AgentStep
	var call *event.LLMCall
	if a.Step > workflow.MaxAgentSteps {
		step = workflow.AgentStep{Thought: "步数已用完", Reply: fmt.Sprintf("我已经尝试了 %d 步仍未完成，请换一种说法或直接在画布上修改。", workflow.MaxAgentSteps)}
	} else {
		summary, history, _ := conv.Context(a.WorkflowID, a.MessageID)
		st := llm.StateOf(w)
		st.Names = e.names(ctx, w.Participants)
		s, c, err := llm.Call(ctx, e.llm, llm.Converse, llm.ConverseInput{Workflow: st, Summary: summary, History: history,
			Since: turn.Since, Message: turn.Text, Steps: turn.Steps, Now: e.cfg.Now(), Speaker: turn.UserID})
		if err != nil {
			return err
		}
		step, call = s, &c
	}
	cause := uow.Causation(j.Kind, j.ID)
	_, _, err = e.changeWorkflow(ctx, "converse", a.WorkflowID, event.ActorConversation, cause, call,
		func(w *workflow.Workflow, conv *workflow.Conversation) (workflowChange, error) {
			turn := conv.Turn(a.MessageID)
			if turn == nil || turn.Done || len(turn.Steps)+1 != a.Step { // done before this retry
				return workflowChange{}, nil
			}
			evs, next, callFor := e.act(w, turn, a.Step, step, seen)
			if _, _, due := conv.Context(a.WorkflowID, a.MessageID); due != nil {
				evs = append([]event.Payload{due}, evs...) // the context this step was planned on, recorded once
			}
			ch := workflowChange{events: evs, callFor: callFor}
			if next > 0 {
				ch.jobs = []uow.Job{{Args: ConverseArgs{WorkflowID: a.WorkflowID, MessageID: a.MessageID, Step: next}}}
			}
			return ch, nil
		})
	return e.jobError(ctx, "converse", err)
}

// sendMessage records what a person said about a workflow and starts the
// agent's turn. ErrWorkflowNotFound for an unknown workflow; a message id
// already recorded writes nothing.
func (e *Process) sendMessage(ctx context.Context, m workflow.ConversationMessage) (int64, error) {
	m.SentAt = e.cfg.Now()
	_, pos, err := e.changeWorkflow(ctx, "message", m.WorkflowID, userActor(m.UserID), "message:"+m.MessageID, nil,
		func(w *workflow.Workflow, conv *workflow.Conversation) (workflowChange, error) {
			switch {
			case !w.Exists():
				return workflowChange{}, &event.Error{Code: workflow.ErrWorkflowNotFound.Code, Message: "no workflow " + m.WorkflowID}
			case conv.Turn(m.MessageID) != nil:
				return workflowChange{}, nil
			}
			return workflowChange{events: []event.Payload{&m},
				jobs: []uow.Job{{Args: ConverseArgs{WorkflowID: m.WorkflowID, MessageID: m.MessageID, Step: 1}}}}, nil
		})
	return pos, err
}

func userActor(userID string) string {
	if userID == "" {
		return "user"
	}
	return "user:" + userID
}

// maxReplans bounds how often one step is planned again because the
// workflow changed while the agent planned it.
const maxReplans = 3

// act runs the agent's step on w, planned on version seen: the events it
// appends (a decision's ruling and effects, the step with its
// observation, the reply), the step to run next (0: the turn ended; n:
// plan step n again, the workflow changed under it) and the event the LLM
// call is recorded on.
func (e *Process) act(w *workflow.Workflow, turn *workflow.Turn, n int, s workflow.AgentStep, seen int) ([]event.Payload, int, event.EventType) {
	rec := &workflow.ConversationStep{WorkflowID: w.ID, MessageID: turn.MessageID, Step: n, Action: s}
	switch s.Tool {
	case "":
		return []event.Payload{&workflow.ConversationReplied{WorkflowID: w.ID, MessageID: turn.MessageID, Reply: s.Reply,
			Steps: n - 1}}, 0, workflow.EventConversationReplied
	case workflow.ToolGetWorkflow:
		rec.Observation = describeWorkflow(w)
	case workflow.ToolGetNode:
		rec.Observation = describeNode(w, s.Args.NodeID)
	case workflow.ToolApprove, workflow.ToolReject:
		return e.answerApproval(w, turn, rec, s), n + 1, workflow.EventConversationStep
	case workflow.ToolAskUser:
		rec.Observation = "asked the person"
		return []event.Payload{rec, &workflow.ConversationReplied{WorkflowID: w.ID, MessageID: turn.MessageID, Reply: s.Args.Reason,
			Steps: n, Question: true}}, 0, workflow.EventConversationStep
	default:
		// One decision id per planning of the step: a retried job repeats
		// it (the validators rule once), a new plan gets the next one.
		prefix := fmt.Sprintf("%s-%d", turn.MessageID, n)
		plans := 0
		for _, r := range w.Decisions {
			if r.DecisionID == prefix || strings.HasPrefix(r.DecisionID, prefix+"-") {
				plans++
			}
		}
		id := prefix
		if plans > 0 {
			id = fmt.Sprintf("%s-%d", prefix, plans+1)
		}
		// No client id: the agent's change is news to every canvas, the
		// one that sent the message included (echo exclusion leaves out
		// only what a client did itself).
		d := workflow.Decision{DecisionID: id, Type: workflow.DecisionType(s.Tool), Actor: event.ActorConversation,
			Confidence: s.Confidence, BaseVersion: seen, Payload: s.Args}
		evs, err := w.Decide(d, e.decisionContext())
		if err != nil {
			rec.Observation = err.Error()
			return []event.Payload{rec}, n + 1, workflow.EventConversationStep
		}
		rec.DecisionID = d.DecisionID
		if r := workflow.RejectionOf(evs); r != nil {
			if r.Rule == "version" && plans+1 < maxReplans { // the workflow moved on: plan this step again on it
				return evs, n, workflow.EventDecisionRejected
			}
			rec.Rejected = true
			rec.Observation = fmt.Sprintf("refused by rule %s: %s", r.Rule, r.Reason)
		} else if len(evs) > 0 {
			v := evs[0].(*workflow.DecisionValidated)
			rec.Observation = fmt.Sprintf("ok: %s applied, workflow version %d", d.Type, v.Version)
			for _, c := range v.Corrections {
				rec.Observation += fmt.Sprintf("; corrected %s from %s to %s (%s)", c.Field, c.From, c.To, c.Message)
			}
		}
		return append(evs, rec), n + 1, workflow.EventConversationStep
	}
	return []event.Payload{rec}, n + 1, workflow.EventConversationStep
}

// answerApproval gives the person's answer to a running approval
// (approve_node, reject_node): in the name of the message's author, who
// must be the node's approver, and only with enough confidence. Refused,
// nothing but the step is written and the observation says why, in the
// shape of a validator's refusal ("refused by rule <rule>: <reason>";
// the rules: confidence, approver, node_state, references).
func (e *Process) answerApproval(w *workflow.Workflow, turn *workflow.Turn, rec *workflow.ConversationStep, s workflow.AgentStep) []event.Payload {
	approve := s.Tool == workflow.ToolApprove
	refuse := func(rule, reason string) []event.Payload {
		rec.Rejected = true
		rec.Observation = fmt.Sprintf("refused by rule %s: %s", rule, reason)
		return []event.Payload{rec}
	}
	if s.Confidence < workflow.MinApprovalConfidence {
		return refuse("confidence", fmt.Sprintf("an approval is answered only when the person clearly asks for it (confidence %.2f < %.2f): ask them",
			s.Confidence, workflow.MinApprovalConfidence))
	}
	evs, err := w.Approve(s.Args.NodeID, turn.UserID, approve, s.Args.Reason, e.cfg.Now())
	var ee *event.Error
	switch {
	case err == nil:
	case errors.Is(err, workflow.ErrNotApprover) && errors.As(err, &ee):
		return refuse("approver", ee.Message)
	case errors.Is(err, workflow.ErrNodeNotOpen):
		return refuse("node_state", fmt.Sprintf("node %s is not waiting for an approval (it is %s)", s.Args.NodeID, w.Run(s.Args.NodeID).Status))
	default:
		return refuse("references", fmt.Sprintf("no approval node %s", s.Args.NodeID))
	}
	rec.Observation = "rejected: the step failed, and the workflow with it"
	if approve {
		rec.Observation = "approved: the step is completed"
	}
	return append(evs, rec)
}

// describeWorkflow is get_workflow's observation.
func describeWorkflow(w *workflow.Workflow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "workflow %s (%s, version %d):", w.ID, w.Status, w.Version)
	for _, n := range w.Nodes {
		fmt.Fprintf(&b, " %s[%s %q %s]", n.ID, n.Type, n.Title, w.Run(n.ID).Status)
	}
	for _, e := range w.Edges {
		fmt.Fprintf(&b, " %s→%s", e.From, e.To)
	}
	return b.String()
}

// describeNode is get_node's observation.
func describeNode(w *workflow.Workflow, id string) string {
	n := w.Node(id)
	if n == nil {
		return "no node " + id
	}
	r := w.Run(id)
	s := fmt.Sprintf("node %s: %s %q, assignee %q, due %q, status %s", id, n.Type, n.Title, n.AssigneeID, n.Due, r.Status)
	if r.Error != "" {
		s += ", error: " + r.Error
	}
	if r.Result != nil {
		s += ", result: " + r.Result.Summary
	}
	if r.Reason != "" {
		s += ", skipped: " + r.Reason
	}
	return s
}

// names are the agents' names for people, by id (an agent the directory
// does not know keeps its id).
func (e *Process) names(ctx context.Context, ids []string) map[string]string {
	out := map[string]string{}
	for _, id := range ids {
		if p, _, ok, err := e.dir.Get(ctx, id); err == nil && ok && p.UserName != "" {
			out[id] = p.UserName
		}
	}
	return out
}
