package workflow

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

// DefaultHTTPAttempts is how often an http node is tried by default.
const DefaultHTTPAttempts = 3

// FailedRenderPrefix begins the recorded error of a node that could not
// start because a reference in it has no value (RenderNode).
const FailedRenderPrefix = "cannot start: "

// Timeout is how long one attempt of n may run; the attempt of a node
// started on a timer (a wait) lasts until its time (from now), plus the
// timeout.
func (n WorkflowNode) Timeout(now time.Time) time.Duration {
	d := n.Type.Spec().Timeout // the type's default, when the node does not say
	if n.TimeoutSeconds > 0 {
		d = time.Duration(n.TimeoutSeconds) * time.Second
	}
	if n.Type.Spec().Start == StartTimer && n.WaitUntil.After(now) {
		d += n.WaitUntil.Sub(now)
	}
	return d
}

// Attempts is how often n is tried: a node whose type is retried (an
// http node) up to MaxAttempts (DefaultHTTPAttempts), everything else
// once.
func (n WorkflowNode) Attempts() int {
	if !n.Type.Spec().Retried {
		return 1
	}
	if n.MaxAttempts > 0 {
		return n.MaxAttempts
	}
	return DefaultHTTPAttempts
}

// RetryDelay is the wait before attempt+1 of a node: 1 s, 2 s, 4 s, … at
// most a minute (the engine adds no jitter: the domain draws no random
// numbers).
func RetryDelay(attempt int) time.Duration {
	d := time.Second << min(max(attempt-1, 0), 6)
	return min(d, time.Minute)
}

// Ready returns the nodes of a running workflow that may start at now: pending,
// every node before them completed, their retry time passed; in
// topological order.
func (w *Workflow) Ready(now time.Time) []string {
	if w.Status != WorkflowStatusRunning || w.failedForGood() != "" {
		return nil
	}
	order, _ := TopoOrder(w.Nodes, w.Edges)
	var out []string
	for _, id := range order {
		r := w.Run(id)
		if r.Status != NodeStatusPending || r.RetryAt.After(now) {
			continue
		}
		if !slices.ContainsFunc(w.Before(id), func(b string) bool { return w.Run(b).Status != NodeStatusCompleted }) {
			out = append(out, id)
		}
	}
	return out
}

// failedForGood returns a node that failed with no attempt left.
func (w *Workflow) failedForGood() string {
	for _, n := range w.Nodes {
		if w.Run(n.ID).Status == NodeStatusFailed {
			return n.ID
		}
	}
	return ""
}

// StartNode starts the next attempt of a ready node at now: a node whose
// type starts completed (a milestone) completes at once (everything
// before it is done); one whose references have no value (RenderNode: an
// output field the node read did not produce) fails for good as it
// starts, the reason naming the field and the reference. Nothing when
// the node is not ready (a retried step, a cancelled workflow).
func (w *Workflow) StartNode(id string, now time.Time) ([]event.Payload, error) {
	if !w.Exists() {
		return nil, event.Errorf(ErrWorkflowNotFound, "no workflow")
	}
	n := w.Node(id)
	if n == nil || !slices.Contains(w.Ready(now), id) {
		return nil, nil
	}
	attempt := w.Run(id).Attempt + 1
	out := []event.Payload{&NodeStarted{WorkflowID: w.ID, NodeID: id, NodeType: n.Type, Attempt: attempt, Deadline: now.Add(n.Timeout(now))}}
	if _, err := w.RenderNode(id); err != nil {
		return w.settle(append(out, &NodeFailed{WorkflowID: w.ID, NodeID: id, NodeType: n.Type, Attempt: attempt,
			Error: FailedRenderPrefix + err.Error()})), nil
	}
	if s := n.Type.Spec(); s.Start == StartCompleted {
		out = append(out, &NodeCompleted{WorkflowID: w.ID, NodeID: id, NodeType: n.Type, Attempt: attempt,
			Result: NodeResult{Summary: completedSummary(s, *n), By: event.ActorSystem}})
	}
	return w.settle(out), nil
}

// CompleteNode records a node's attempt as done with its result. Nothing
// when that attempt is not running (a late or repeated answer).
func (w *Workflow) CompleteNode(id string, attempt int, res NodeResult) ([]event.Payload, error) {
	if !w.Exists() {
		return nil, event.Errorf(ErrWorkflowNotFound, "no workflow")
	}
	r := w.Run(id)
	if r.Status != NodeStatusRunning || r.Attempt != attempt {
		return nil, nil
	}
	return w.settle([]event.Payload{&NodeCompleted{WorkflowID: w.ID, NodeID: id, NodeType: w.Node(id).Type, Attempt: attempt, Result: res}}), nil
}

// FailNode records a node's attempt as failed at now. A retryable failure
// with attempts left in a running workflow schedules the next attempt
// (RetryDelay); otherwise the node failed for good: every node not
// started is skipped and the workflow fails (nodes still running finish,
// their outcomes recorded). Nothing when that attempt is not running.
func (w *Workflow) FailNode(id string, attempt int, reason string, retryable bool, now time.Time) ([]event.Payload, error) {
	if !w.Exists() {
		return nil, event.Errorf(ErrWorkflowNotFound, "no workflow")
	}
	r := w.Run(id)
	if r.Status != NodeStatusRunning || r.Attempt != attempt {
		return nil, nil
	}
	n := w.Node(id)
	f := &NodeFailed{WorkflowID: w.ID, NodeID: id, NodeType: n.Type, Attempt: attempt, Error: reason}
	if retryable && attempt < n.Attempts() && w.Status == WorkflowStatusRunning {
		f.Retry, f.RetryAt = true, now.Add(RetryDelay(attempt))
	}
	return w.settle([]event.Payload{f}), nil
}

// TimeOut fails a node's attempt whose deadline passed at now (retryable:
// an http node is tried again). Nothing when the attempt is not running
// or its deadline is ahead.
func (w *Workflow) TimeOut(id string, attempt int, now time.Time) ([]event.Payload, error) {
	r := w.Run(id)
	if r.Status != NodeStatusRunning || r.Attempt != attempt || now.Before(r.Deadline) {
		return nil, nil
	}
	return w.FailNode(id, attempt, "timed out", true, now)
}

// cancel skips every node not started and ends the workflow; nodes
// still running finish, their outcomes recorded.
func (w *Workflow) cancel(decisionID, reason string) []event.Payload {
	var out []event.Payload
	for _, n := range w.Nodes {
		if w.Run(n.ID).Status == NodeStatusPending {
			out = append(out, &NodeSkipped{WorkflowID: w.ID, NodeID: n.ID, NodeType: n.Type, Reason: skipCancelled})
		}
	}
	return append(out, &WorkflowCancelled{WorkflowID: w.ID, DecisionID: decisionID, Reason: reason})
}

// with returns a copy of w with events applied (w is unchanged).
func (w *Workflow) with(events []event.Payload) *Workflow {
	c := *w
	c.Nodes, c.Edges, c.Decisions = slices.Clone(w.Nodes), slices.Clone(w.Edges), slices.Clone(w.Decisions)
	c.Runs = maps.Clone(w.Runs)
	for _, e := range events {
		c.Apply(e)
	}
	return &c
}

// settle appends to events what follows from them in a running
// workflow: a node failed for good skips every node not started and fails
// the workflow; every node completed completes it.
func (w *Workflow) settle(events []event.Payload) []event.Payload {
	next := w.with(events)
	if next.Status != WorkflowStatusRunning {
		return events
	}
	if failed := next.failedForGood(); failed != "" {
		for _, n := range next.Nodes {
			if next.Run(n.ID).Status == NodeStatusPending {
				reason := skipOtherFailed + failed
				if dependsOn(next, n.ID, failed) {
					reason = skipDependency + failed + ", which failed"
				}
				events = append(events, &NodeSkipped{WorkflowID: w.ID, NodeID: n.ID, NodeType: n.Type, Reason: reason})
			}
		}
		return append(events, &WorkflowFailed{WorkflowID: w.ID, Status: string(WorkflowStatusFailed), FailedNode: failed,
			Error: next.Run(failed).Error, Results: next.results()})
	}
	if !slices.ContainsFunc(next.Nodes, func(n WorkflowNode) bool { return next.Run(n.ID).Status != NodeStatusCompleted }) {
		events = append(events, &WorkflowCompleted{WorkflowID: w.ID, Status: string(WorkflowStatusCompleted), Results: next.results()})
	}
	return events
}

// results are the completed nodes' results, in node order.
func (w *Workflow) results() []NodeOutcome {
	out := []NodeOutcome{}
	for _, n := range w.Nodes {
		if r := w.Run(n.ID); r.Status == NodeStatusCompleted && r.Result != nil {
			out = append(out, NodeOutcome{NodeID: n.ID, Result: *r.Result})
		}
	}
	return out
}

// dependsOn reports whether id runs after dep, directly or not.
func dependsOn(w *Workflow, id, dep string) bool {
	seen := map[string]bool{}
	stack := w.Before(id)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == dep {
			return true
		}
		if !seen[b] {
			seen[b] = true
			stack = append(stack, w.Before(b)...)
		}
	}
	return false
}

// Workflow execution errors.
var (
	// ErrNodeNotOpen: the node is not waiting for this answer: not
	// running, or not of the kind answered (TOWOW_WORKFLOW_002).
	ErrNodeNotOpen = &event.Error{Code: "TOWOW_WORKFLOW_002", Message: "the node is not waiting for this answer"}
	// ErrNotAssignee: only the task's assignee reports on it
	// (TOWOW_WORKFLOW_003).
	ErrNotAssignee = &event.Error{Code: "TOWOW_WORKFLOW_003", Message: "not the task's assignee"}
	// ErrNotApprover: an approval node is answered by its approver only
	// (the demand's owner unless it names another user).
	ErrNotApprover = &event.Error{Code: "TOWOW_WORKFLOW_007", Message: "not this approval's approver"}
)

// openNode returns the running node id whose type's spec says by
// answers it (a task's assignee, the demand's user for an approval), or
// the error saying why it is not waiting; kind names the node expected.
func (w *Workflow) openNode(id string, by Answerer, kind NodeType) (*WorkflowNode, NodeRun, error) {
	if !w.Exists() {
		return nil, NodeRun{}, event.Errorf(ErrWorkflowNotFound, "no workflow")
	}
	n := w.Node(id)
	if n == nil {
		return nil, NodeRun{}, event.Errorf(negotiation.ErrNotFound, "workflow %s has no node %s", w.ID, id)
	}
	r := w.Run(id)
	switch {
	case n.Type.Spec().Answer != by:
		return nil, r, event.Errorf(ErrNodeNotOpen, "node %s is a %s node, not a %s", id, n.Type, kind)
	case r.Status != NodeStatusRunning:
		return nil, r, event.Errorf(ErrNodeNotOpen, "node %s is %s, not running", id, r.Status)
	}
	return n, r, nil
}

// ReportTask records an assignee's report on its running task: done
// completes it, a problem fails it for good. Errors: ErrNotFound,
// ErrNodeNotOpen, ErrNotAssignee, ErrInvalidAnswer.
func (w *Workflow) ReportTask(nodeID, agentID string, a TaskAnswer, now time.Time) ([]event.Payload, error) {
	n, r, err := w.openNode(nodeID, AnswerAssignee, NodeTask)
	if err != nil {
		return nil, err
	}
	if n.AssigneeID != agentID {
		return nil, event.Errorf(ErrNotAssignee, "node %s is %s's task", nodeID, n.AssigneeID)
	}
	if err := a.Valid(); err != nil {
		return nil, err
	}
	if a.Status == TaskDone {
		return w.CompleteNode(nodeID, r.Attempt, NodeResult{Summary: a.Summary, By: agentID})
	}
	return w.FailNode(nodeID, r.Attempt, a.Problem, false, now)
}

// ApproverOf is who answers the approval node n: the user it names, else
// the demand's owner.
func (w *Workflow) ApproverOf(n WorkflowNode) string { return cmp.Or(n.Approver, w.UserID) }

// Approve records the approver's answer to a running approval: approved
// completes it, rejected fails it for good (the comment says why); both
// name the approver. The approver is the node's Approver, else the
// demand's owner. Errors: ErrNotFound, ErrNodeNotOpen, ErrNotApprover.
func (w *Workflow) Approve(nodeID, userID string, approved bool, comment string, now time.Time) ([]event.Payload, error) {
	n, r, err := w.openNode(nodeID, AnswerUser, NodeApproval)
	if err != nil {
		return nil, err
	}
	if approver := w.ApproverOf(*n); userID != approver {
		return nil, event.Errorf(ErrNotApprover, "only %s answers this approval", approver)
	}
	if approved {
		summary := "已批准"
		if comment != "" {
			summary += "：" + comment
		}
		return w.CompleteNode(nodeID, r.Attempt, NodeResult{Summary: summary, By: "user:" + userID})
	}
	reason := "被 " + userID + " 拒绝"
	if comment != "" {
		reason += "：" + comment
	}
	return w.FailNode(nodeID, r.Attempt, reason, false, now)
}

// The recorded reasons of a skipped node (NodeSkipped.Reason): the
// workflow was cancelled; a node it depends on failed for good ("depends
// on <id>, which failed"); another node failed for good ("the workflow
// failed at <id>").
const (
	skipCancelled   = "cancelled"
	skipDependency  = "depends on "
	skipOtherFailed = "the workflow failed at "
)

// SkipCause is why a node was skipped, read from its recorded reason.
type SkipCause int

// The causes of a skip; SkipOther is a reason written otherwise.
const (
	SkipOther SkipCause = iota
	SkipCancelled
	SkipDependencyFailed
	SkipOtherNodeFailed
)

// SkipCauseOf reads a NodeSkipped reason back into its cause.
func SkipCauseOf(reason string) SkipCause {
	switch {
	case reason == skipCancelled:
		return SkipCancelled
	case strings.HasPrefix(reason, skipDependency):
		return SkipDependencyFailed
	case strings.HasPrefix(reason, skipOtherFailed):
		return SkipOtherNodeFailed
	}
	return SkipOther
}

// completedSummary is what a node that completes as it starts says: a
// milestone is reached when everything before it is done, which says
// nothing of its date; a date not yet fixed ("待定", "TBD") is named as
// such rather than claimed.
func completedSummary(s NodeSpec, n WorkflowNode) string {
	out := s.Completed + n.Title
	if n.Due != "" && undetermined(n.Due) {
		out += "（日期待定，尚未发生）"
	}
	return out
}

// undetermined reports whether a due date is not fixed yet.
func undetermined(due string) bool {
	d := strings.ToLower(strings.TrimSpace(due))
	for _, w := range []string{"待定", "未定", "待确认", "tbd", "tba", "unknown", "?"} {
		if strings.Contains(d, w) {
			return true
		}
	}
	return false
}
