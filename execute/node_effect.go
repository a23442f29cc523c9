package execute

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// NodeEffectArgs do the work of a node's attempt.
type NodeEffectArgs struct {
	WorkflowID string `json:"workflow_id"`
	NodeID     string `json:"node_id"`
	Attempt    int    `json:"attempt"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (NodeEffectArgs) Kind() string { return "towow.node_effect" }

// NodeEffectWorker runs the NodeEffect job.
type NodeEffectWorker struct {
	river.WorkerDefaults[NodeEffectArgs]
	e *Process
}

// finishFunc records the outcome of a node's attempt: its result, or
// why it failed and whether another attempt may help; actor and call say
// who answered and through which model call.
type finishFunc func(actor string, call *event.LLMCall, res *workflow.NodeResult, failure string, retryable bool) error

// nodeEffect does the work of a running attempt of one node type and
// records its outcome through finish (or leaves it to an answer over the
// API, which the attempt's timeout bounds).
type nodeEffect func(ctx context.Context, e *Process, job *river.Job[NodeEffectArgs], w *workflow.Workflow, n *workflow.WorkflowNode,
	finish finishFunc) error

// nodeEffects are the effects of the node types that have one: a node type
// that starts running and is not listed here is answered over the API
// (an approval, by the demand's user); one that completes as it starts
// (a milestone) has none.
var nodeEffects = map[workflow.NodeType]nodeEffect{
	workflow.NodeWait: func(ctx context.Context, e *Process, _ *river.Job[NodeEffectArgs], _ *workflow.Workflow, n *workflow.WorkflowNode,
		finish finishFunc) error {
		if err := e.u.WaitUntil(ctx, n.WaitUntil); err != nil {
			return err
		}
		return finish(event.ActorSystem, nil, &workflow.NodeResult{Summary: "等待结束：" + n.WaitUntil.Format(time.RFC3339), By: event.ActorSystem}, "", false)
	},
	workflow.NodeHTTP: func(ctx context.Context, e *Process, job *river.Job[NodeEffectArgs], w *workflow.Workflow, n *workflow.WorkflowNode,
		finish finishFunc) error {
		if job.Attempt > 1 { // an earlier run of this attempt may have sent it: never twice
			return finish(event.ActorSystem, nil, nil, "interrupted: this attempt may have reached the server and is not repeated", true)
		}
		res, failure, retryable := e.post(ctx, w, n, job.Args.Attempt)
		return finish(event.ActorSystem, nil, res, failure, retryable)
	},
	workflow.NodeTask: func(ctx context.Context, e *Process, _ *river.Job[NodeEffectArgs], w *workflow.Workflow, n *workflow.WorkflowNode,
		finish finishFunc) error {
		prof, _, ok, err := e.dir.Get(ctx, n.AssigneeID)
		if err != nil {
			return err
		}
		if !ok || prof.IsExternal() || e.cfg.PeopleDoTasks {
			return nil // the agent (or its person) reports over the API; the timeout settles silence
		}
		return e.twinTask(ctx, w, n, prof, finish)
	},
}

// Work does the work of a node's attempt (nodeEffects): a wait ends, an
// http node POSTs, a twin's task is answered through the task prompt. An
// approval and an external agent's task wait for their answer over the
// API.
func (wk *NodeEffectWorker) Work(ctx context.Context, job *river.Job[NodeEffectArgs]) error {
	e := wk.e
	a := job.Args
	w, _, err := e.loadWorkflowFrom(ctx, e.store, a.WorkflowID)
	if err != nil {
		return err
	}
	r := w.Run(a.NodeID)
	n := w.Node(a.NodeID)
	if n == nil || r.Status != workflow.NodeStatusRunning || r.Attempt != a.Attempt {
		return nil
	}
	effect, ok := nodeEffects[n.Type]
	if !ok {
		return nil // answered over the API
	}
	cause := uow.Causation(job.Kind, job.ID)
	finish := func(actor string, call *event.LLMCall, res *workflow.NodeResult, failure string, retryable bool) error {
		callFor := workflow.EventNodeCompleted
		if res == nil {
			callFor = workflow.EventNodeFailed
		}
		_, _, err := e.workflowStep(ctx, "node "+string(n.Type), a.WorkflowID, actor, cause, call, callFor,
			func(w *workflow.Workflow) ([]event.Payload, error) {
				if res != nil {
					return w.CompleteNode(a.NodeID, a.Attempt, *res)
				}
				return w.FailNode(a.NodeID, a.Attempt, failure, retryable, e.cfg.Now())
			})
		return e.jobError(ctx, "node "+string(n.Type), err)
	}
	return effect(ctx, e, job, w, n, finish)
}

// twinTask asks a task's twin (the task prompt) and records its report.
func (e *Process) twinTask(ctx context.Context, w *workflow.Workflow, n *workflow.WorkflowNode, prof negotiation.AgentProfile,
	finish finishFunc) error {
	d, _, err := e.loadDemand(ctx, w.DemandID)
	if err != nil {
		return err
	}
	var before []workflow.NodeOutcome
	for _, id := range w.Before(n.ID) {
		if r := w.Run(id); r.Result != nil {
			before = append(before, workflow.NodeOutcome{NodeID: id, Result: *r.Result})
		}
	}
	task, err := w.RenderNode(n.ID) // its description with the references read
	if err != nil {
		return finish(event.ActorSystem, nil, nil, workflow.FailedRenderPrefix+err.Error(), false)
	}
	ans, call, err := llm.Call(ctx, e.llm, llm.Task, llm.TaskInput{Profile: prof, Demand: d.PromptUnderstanding(), RawInput: d.RawInput, Plan: w.Title,
		Task: task, Before: before})
	if err != nil {
		return err
	}
	actor := event.AgentActor(prof.AgentID)
	if ans.Status == workflow.TaskDone {
		return finish(actor, &call, &workflow.NodeResult{Summary: ans.Summary, By: prof.AgentID, Simulated: true}, "", false)
	}
	return finish(actor, &call, nil, ans.Problem, false)
}

// maxHTTPAnswer bounds what an http node reads of an answer (its JSON
// fields become the node's output, workflow.HTTPOutput); maxHTTPError
// what a refusal's message quotes of it.
const (
	maxHTTPAnswer = 64 << 10
	maxHTTPError  = workflow.MaxHTTPBodyKept
)

// post sends an http node's request (a POST, PUT or PATCH with its body
// and the node's identity as JSON; a GET or DELETE with no body), with an Idempotency-Key naming the attempt; its URL and body
// values rendered first (workflow.Workflow.RenderNode: the references to
// earlier nodes' results replaced by their values), the rendered URL's
// host checked against the allow list. It returns the result (the output:
// the answer's status, body and JSON fields), or why it failed and
// whether another attempt may help (a network error, 408, 429, 5xx).
func (e *Process) post(ctx context.Context, w *workflow.Workflow, node *workflow.WorkflowNode, attempt int) (*workflow.NodeResult, string, bool) {
	rendered, err := w.RenderNode(node.ID)
	if err != nil {
		return nil, workflow.FailedRenderPrefix + err.Error(), false
	}
	n := &rendered
	if !workflow.HostAllowed(n.URL, e.cfg.HTTPAllow) {
		return nil, "the host of " + n.URL + " is no longer on the allow list", false
	}
	var payload io.Reader
	if n.SendsBody() {
		body, err := json.Marshal(map[string]any{"workflow_id": w.ID, "node_id": n.ID, "demand_id": w.DemandID, "attempt": attempt,
			"title": n.Title, "body": n.Body})
		if err != nil {
			return nil, err.Error(), false
		}
		payload = bytes.NewReader(body)
	}
	timeout := min(n.Timeout(e.cfg.Now()), e.cfg.JobTimeout-5*time.Second)
	ctx, cancel := context.WithTimeout(ctx, max(timeout, time.Second))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, n.HTTPMethod(), n.URL, payload)
	if err != nil {
		return nil, err.Error(), false
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s/%s/%d", w.ID, n.ID, attempt))
	resp, err := e.httpClient.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, "timed out after " + timeout.String(), true
		}
		return nil, err.Error(), true
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(io.LimitReader(resp.Body, maxHTTPAnswer))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		retry := resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		quoted := strings.ToValidUTF8(string(got[:min(len(got), maxHTTPError)]), "")
		return nil, fmt.Sprintf("%s answered %d: %s", n.URL, resp.StatusCode, strings.TrimSpace(quoted)), retry
	}
	return &workflow.NodeResult{Summary: fmt.Sprintf("%s %s → %d", n.HTTPMethod(), n.URL, resp.StatusCode), By: event.ActorSystem,
		Output: workflow.HTTPOutput(resp.StatusCode, got)}, "", false
}
