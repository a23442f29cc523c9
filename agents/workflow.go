package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
)

// The WorkflowAgent (design 003): an agreed negotiation tree becomes a
// draft workflow in the commit that completes it; decisions on it go through the Coordinator's validators
// (domain.Workflow.Decide); once executed, its nodes run as River jobs in
// topological order, independent branches in parallel.
//
// A node runs in three jobs: start (records the attempt: towow.node.started,
// with its deadline), effect (does the work of that attempt and records
// its outcome) and timeout (fails the attempt at its deadline). An http
// node's effect is the one with an outside effect: its job, retried by
// River after a crash or an error once the request may have gone out,
// records the attempt as interrupted instead of sending again, and the
// node's next recorded attempt sends it; so each recorded attempt POSTs at
// most once. Every start job is enqueued in the commit that makes its node
// ready, every effect and timeout job in the commit that starts the
// attempt.

type startNodeArgs struct {
	WorkflowID string `json:"workflow_id"`
	NodeID     string `json:"node_id"`
}

func (startNodeArgs) Kind() string { return "towow.start_node" }

type nodeEffectArgs struct {
	WorkflowID string `json:"workflow_id"`
	NodeID     string `json:"node_id"`
	Attempt    int    `json:"attempt"`
}

func (nodeEffectArgs) Kind() string { return "towow.node_effect" }

type nodeTimeoutArgs struct {
	WorkflowID string    `json:"workflow_id"`
	NodeID     string    `json:"node_id"`
	Attempt    int       `json:"attempt"`
	Deadline   time.Time `json:"deadline"`
}

func (nodeTimeoutArgs) Kind() string { return "towow.node_timeout" }

// farFuture is a time after any retry: Ready at it lists the nodes ready
// now or once their retry time comes.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// loadWorkflowFrom folds a workflow's stream from st (through the event
// cache). Applying more events to it is safe: Workflow.Apply never writes
// into an event's memory.
func (e *Engine) loadWorkflowFrom(ctx context.Context, st *eventstore.Store, id string) (*domain.Workflow, eventstore.ExpectedVersion, error) {
	w := &domain.Workflow{}
	v, err := e.fold(ctx, st, domain.WorkflowStream(id), w.Apply)
	return w, v, err
}

// LoadWorkflow folds a workflow from the log (for the command side).
func (e *Engine) LoadWorkflow(ctx context.Context, id string) (*domain.Workflow, error) {
	w, _, err := e.loadWorkflowFrom(ctx, e.store, id)
	return w, err
}

// workflowChange is what a step decides on a workflow: its events, the
// jobs it enqueues beyond those the events set off, and the event its LLM
// call (if any) is recorded on.
type workflowChange struct {
	events  []domain.Payload
	jobs    []job
	callFor domain.EventType
}

// changeWorkflow decides on a workflow through the unit of work: it locks
// the stream, folds the workflow and its conversation afresh, lets decide
// choose the change, enqueues the jobs its events set off
// (workflowReactions) and its own, and appends, deciding again on a
// version conflict. It returns the events appended (nil when decide chose
// none) and the last position written.
func (e *Engine) changeWorkflow(ctx context.Context, step, workflowID, actor, cause string, call *domain.LLMCall,
	decide func(w *domain.Workflow, conv *domain.Conversation) (workflowChange, error)) ([]domain.Payload, int64, error) {
	var appended []domain.Payload
	pos, err := e.commit(ctx, step, []string{domain.WorkflowStream(workflowID)}, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
		appended = nil
		w, conv, v, err := e.loadConversation(ctx, st, workflowID)
		if err != nil {
			return nil, err
		}
		before := w.Ready(farFuture)
		ch, err := decide(w, conv)
		if err != nil || len(ch.events) == 0 {
			return nil, err
		}
		for _, ev := range ch.events {
			w.Apply(ev)
		}
		appended = ch.events
		return &plan{jobs: append(e.workflowReactions(before, w, ch.events), ch.jobs...), appends: []appendOp{{
			stream: domain.WorkflowStream(workflowID), expected: v, events: ch.events, meta: stepMeta(w.DemandID, actor, cause),
			call: call, callFor: ch.callFor}}}, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return appended, pos, nil
}

// workflowStep is changeWorkflow for a decision that only chooses events.
func (e *Engine) workflowStep(ctx context.Context, step, workflowID, actor, cause string, call *domain.LLMCall,
	callFor domain.EventType, decide func(w *domain.Workflow) ([]domain.Payload, error)) ([]domain.Payload, int64, error) {
	return e.changeWorkflow(ctx, step, workflowID, actor, cause, call, func(w *domain.Workflow, _ *domain.Conversation) (workflowChange, error) {
		evs, err := decide(w)
		return workflowChange{events: evs, callFor: callFor}, err
	})
}

// workflowReactions are the jobs a workflow's new events set off: w is the
// workflow after them, readyBefore the nodes ready (now or at their retry)
// before them.
func (e *Engine) workflowReactions(readyBefore []string, w *domain.Workflow, events []domain.Payload) []job {
	var jobs []job
	for _, ev := range events {
		if s, ok := ev.(*domain.NodeStarted); ok && s.NodeType != domain.NodeMilestone {
			n := w.Node(s.NodeID)
			effect := job{args: nodeEffectArgs{WorkflowID: w.ID, NodeID: s.NodeID, Attempt: s.Attempt}}
			if n != nil && n.Type == domain.NodeWait {
				effect = deadlined(effect.args, n.WaitUntil) // a durable timer: River holds the job until about then
			}
			jobs = append(jobs, effect, deadlined(nodeTimeoutArgs{WorkflowID: w.ID, NodeID: s.NodeID, Attempt: s.Attempt,
				Deadline: s.Deadline}, s.Deadline))
		}
	}
	for _, id := range w.Ready(farFuture) {
		if !slices.Contains(readyBefore, id) {
			// Available at once even for a retry: the start job waits out
			// a short retry delay itself (startNode), rather than rely on
			// River's scheduler, which a restarted process runs only once
			// the dead leader's lease has expired.
			jobs = append(jobs, job{args: startNodeArgs{WorkflowID: w.ID, NodeID: id}})
		}
	}
	return jobs
}

// agreedWorkflow is the draft workflow a root negotiation's agreement
// becomes (domain.PlanWorkflow), when events complete the root channel c
// (c is after them) with an agreed plan; nil otherwise. It is appended in
// the completion's own commit, so the tree's log holds it before the
// completion and nothing can complete without it.
func (e *Engine) agreedWorkflow(ctx context.Context, st *eventstore.Store, c *domain.Channel, events []domain.Payload) (*domain.WorkflowCreated, error) {
	if c.ParentChannelID != "" || !slices.ContainsFunc(events, func(p domain.Payload) bool {
		_, ok := p.(*domain.NegotiationCompleted)
		return ok
	}) {
		return nil, nil
	}
	agreed := c.AgreedPlan()
	if agreed == nil || len(agreed.Assignments) == 0 {
		return nil, nil
	}
	d, _, err := e.loadDemandFrom(ctx, st, c.DemandID)
	if err != nil {
		return nil, err
	}
	return domain.PlanWorkflow(domain.PlanInput{DemandID: c.DemandID, ChannelID: c.ID, UserID: d.UserID, Plan: *agreed,
		Now: e.cfg.Now()}), nil
}

// decisionContext is what the Coordinator's validators know at now.
func (e *Engine) decisionContext() domain.DecisionContext {
	return domain.DecisionContext{Now: e.cfg.Now(), AllowedHosts: e.cfg.HTTPAllow, RateLimit: e.cfg.DecisionRateLimit,
		RateWindow: domain.DefaultDecisionRateWindow}
}

// DecideWorkflow runs a decision through the Coordinator and records the
// outcome: the validation with its effects, or the rejection (appended
// too: a refused decision is part of the story). It returns the events
// appended (domain.RejectionOf finds a rejection; nil for a decision id
// already ruled on) and the last position written.
func (e *Engine) DecideWorkflow(ctx context.Context, workflowID string, d domain.Decision, cause string) ([]domain.Payload, int64, error) {
	return e.workflowStep(ctx, "decide", workflowID, d.Actor, cause, nil, "", func(w *domain.Workflow) ([]domain.Payload, error) {
		return w.Decide(d, e.decisionContext())
	})
}

// ActOnWorkflow runs a command on a workflow's execution (an external
// agent's task report, the user's approval) through the unit of work.
func (e *Engine) ActOnWorkflow(ctx context.Context, step, workflowID, actor, cause string,
	decide func(w *domain.Workflow) ([]domain.Payload, error)) ([]domain.Payload, int64, error) {
	return e.workflowStep(ctx, step, workflowID, actor, cause, nil, "", decide)
}

// startNode records the next attempt of a ready node, once its retry
// time has come.
func (e *Engine) startNode(ctx context.Context, job *river.Job[startNodeArgs]) error {
	a := job.Args
	w, _, err := e.loadWorkflowFrom(ctx, e.store, a.WorkflowID)
	if err != nil {
		return err
	}
	if at := w.Run(a.NodeID).RetryAt; !at.IsZero() {
		if err := e.waitUntil(ctx, at); err != nil {
			return err
		}
	}
	_, _, err = e.workflowStep(ctx, "start node", a.WorkflowID, domain.ActorSystem, causation(job.Kind, job.ID), nil, "",
		func(w *domain.Workflow) ([]domain.Payload, error) { return w.StartNode(a.NodeID, e.cfg.Now()) })
	return e.jobError(ctx, "start node", err)
}

// nodeTimeout fails an attempt still running at its deadline.
func (e *Engine) nodeTimeout(ctx context.Context, job *river.Job[nodeTimeoutArgs]) error {
	a := job.Args
	if err := e.waitUntil(ctx, a.Deadline); err != nil {
		return err
	}
	_, _, err := e.workflowStep(ctx, "node timeout", a.WorkflowID, domain.ActorSystem, causation(job.Kind, job.ID), nil, "",
		func(w *domain.Workflow) ([]domain.Payload, error) { return w.TimeOut(a.NodeID, a.Attempt, e.cfg.Now()) })
	return e.jobError(ctx, "node timeout", err)
}

// nodeEffect does the work of a node's attempt: a wait ends, an http node
// POSTs, a twin's task is answered through the task prompt. An approval
// and an external agent's task wait for their answer over the API.
func (e *Engine) nodeEffect(ctx context.Context, job *river.Job[nodeEffectArgs]) error {
	a := job.Args
	w, _, err := e.loadWorkflowFrom(ctx, e.store, a.WorkflowID)
	if err != nil {
		return err
	}
	r := w.Run(a.NodeID)
	n := w.Node(a.NodeID)
	if n == nil || r.Status != domain.NodeStatusRunning || r.Attempt != a.Attempt {
		return nil
	}
	cause := causation(job.Kind, job.ID)
	finish := func(actor string, call *domain.LLMCall, res *domain.NodeResult, failure string, retryable bool) error {
		callFor := domain.EventNodeCompleted
		if res == nil {
			callFor = domain.EventNodeFailed
		}
		_, _, err := e.workflowStep(ctx, "node "+string(n.Type), a.WorkflowID, actor, cause, call, callFor,
			func(w *domain.Workflow) ([]domain.Payload, error) {
				if res != nil {
					return w.CompleteNode(a.NodeID, a.Attempt, *res)
				}
				return w.FailNode(a.NodeID, a.Attempt, failure, retryable, e.cfg.Now())
			})
		return e.jobError(ctx, "node "+string(n.Type), err)
	}
	switch n.Type {
	case domain.NodeWait:
		if err := e.waitUntil(ctx, n.WaitUntil); err != nil {
			return err
		}
		return finish(domain.ActorSystem, nil, &domain.NodeResult{Summary: "等待结束：" + n.WaitUntil.Format(time.RFC3339), By: domain.ActorSystem}, "", false)
	case domain.NodeHTTP:
		if job.Attempt > 1 { // an earlier run of this attempt may have sent it: never twice
			return finish(domain.ActorSystem, nil, nil, "interrupted: this attempt may have reached the server and is not repeated", true)
		}
		res, failure, retryable := e.post(ctx, w, n, a.Attempt)
		return finish(domain.ActorSystem, nil, res, failure, retryable)
	case domain.NodeTask:
		prof, _, ok, err := e.dir.Get(ctx, n.AssigneeID)
		if err != nil {
			return err
		}
		if !ok || prof.IsExternal() {
			return nil // the agent reports over the API; the timeout settles silence
		}
		return e.twinTask(ctx, w, n, prof, finish)
	}
	return nil // approval: the user answers over the API
}

// twinTask asks a task's twin (the task prompt) and records its report.
func (e *Engine) twinTask(ctx context.Context, w *domain.Workflow, n *domain.WorkflowNode, prof domain.AgentProfile,
	finish func(actor string, call *domain.LLMCall, res *domain.NodeResult, failure string, retryable bool) error) error {
	d, _, err := e.loadDemand(ctx, w.DemandID)
	if err != nil {
		return err
	}
	var before []domain.NodeOutcome
	for _, id := range w.Before(n.ID) {
		if r := w.Run(id); r.Result != nil {
			before = append(before, domain.NodeOutcome{NodeID: id, Result: *r.Result})
		}
	}
	ans, call, err := llm.Call(ctx, e.llm, llm.Task, llm.TaskInput{Profile: prof, Demand: understanding(d), RawInput: d.RawInput, Plan: w.Title,
		Task: *n, Before: before})
	if err != nil {
		return err
	}
	actor := domain.AgentActor(prof.AgentID)
	if ans.Status == domain.TaskDone {
		return finish(actor, &call, &domain.NodeResult{Summary: ans.Summary, By: prof.AgentID}, "", false)
	}
	return finish(actor, &call, nil, ans.Problem, false)
}

// maxHTTPBody bounds what an http node keeps of an answer.
const maxHTTPBody = 2048

// post sends an http node's request: its body and the node's identity as
// JSON, with an Idempotency-Key naming the attempt. It returns the result,
// or why it failed and whether another attempt may help (a network error,
// 408, 429, 5xx).
func (e *Engine) post(ctx context.Context, w *domain.Workflow, n *domain.WorkflowNode, attempt int) (*domain.NodeResult, string, bool) {
	if !domain.HostAllowed(n.URL, e.cfg.HTTPAllow) {
		return nil, "the host of " + n.URL + " is no longer on the allow list", false
	}
	body, err := json.Marshal(map[string]any{"workflow_id": w.ID, "node_id": n.ID, "demand_id": w.DemandID, "attempt": attempt,
		"title": n.Title, "body": n.Body})
	if err != nil {
		return nil, err.Error(), false
	}
	timeout := min(n.Timeout(e.cfg.Now()), e.cfg.JobTimeout-5*time.Second)
	ctx, cancel := context.WithTimeout(ctx, max(timeout, time.Second))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err.Error(), false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s/%s/%d", w.ID, n.ID, attempt))
	resp, err := e.httpClient.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, "timed out after " + timeout.String(), true
		}
		return nil, err.Error(), true
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		retry := resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		return nil, fmt.Sprintf("%s answered %d: %s", n.URL, resp.StatusCode, bytes.TrimSpace(got)), retry
	}
	return &domain.NodeResult{Summary: fmt.Sprintf("POST %s → %d", n.URL, resp.StatusCode), By: domain.ActorSystem,
		Output: map[string]string{"status": fmt.Sprint(resp.StatusCode), "body": string(got)}}, "", false
}

// noRedirects keeps an http node on the host the allow list let through.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// ChangeCanvas rules on a batch of canvas changes (domain.DecideCanvas)
// and records the outcome: every change's validation and effects, or the
// one refused change's rejection; nothing for a conflict, a locked
// workflow or a batch ruled on before. It returns the outcome and the last
// position written.
func (e *Engine) ChangeCanvas(ctx context.Context, workflowID string, b domain.CanvasBatch) (domain.CanvasOutcome, int64, error) {
	var out domain.CanvasOutcome
	_, pos, err := e.workflowStep(ctx, "canvas", workflowID, b.Actor, "canvas:"+b.BatchID, nil, "",
		func(w *domain.Workflow) ([]domain.Payload, error) {
			o, err := w.DecideCanvas(b, e.decisionContext())
			out = o
			return o.Events, err
		})
	if err != nil {
		return domain.CanvasOutcome{}, 0, err
	}
	return out, pos, nil
}
