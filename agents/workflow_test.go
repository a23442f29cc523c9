package agents_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/agents"
	"github.com/towow/towow/domain"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// hook is a local server an http node posts to: it answers the first
// failFirst requests with 503, then 200, and keeps every request's
// Idempotency-Key.
type hook struct {
	srv       *httptest.Server
	mu        sync.Mutex
	keys      []string
	failFirst int
}

func newHook(t *testing.T, failFirst int) *hook {
	h := &hook{failFirst: failFirst}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.keys = append(h.keys, r.Header.Get("Idempotency-Key"))
		n := len(h.keys)
		h.mu.Unlock()
		if n <= h.failFirst {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hook) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.keys)
}

// waitWorkflow polls until the workflow exists and cond holds.
func (h *harness) waitWorkflow(id string, within time.Duration, cond func(w *domain.Workflow) bool) *domain.Workflow {
	h.t.Helper()
	deadline := time.Now().Add(within)
	for {
		w := &domain.Workflow{}
		if _, err := h.store.Fold(context.Background(), domain.WorkflowStream(id), w.Apply); err != nil {
			h.t.Fatal(err)
		}
		if w.Exists() && cond(w) {
			return w
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("workflow %s: condition not reached in %s (status %q)", id, within, w.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWorkflowEndToEnd: the sample demand agrees; its plan becomes a
// draft workflow; decisions edit it (one refused and recorded, one
// corrected, others let through); it runs: the twins' tasks, an http node
// that fails once and is tried again, the user's approval; it completes.
func TestWorkflowEndToEnd(t *testing.T) {
	hk := newHook(t, 1)
	u, _ := url.Parse(hk.srv.URL)
	h := newHarness(t, opts{engine: func(c *agents.Config) { c.HTTPAllow = []string{u.Host} }})
	ctx := context.Background()
	sub, err := h.c.SubmitDemand(ctx, "user_alice", sampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	out := h.wait(sub.DemandID, 30*time.Second)
	if !out.channel.Agreed() {
		t.Fatalf("no agreement:\n%s", h.timeline(sub.DemandID))
	}
	id := domain.WorkflowIDFor(sub.DemandID)
	w := h.waitWorkflow(id, 10*time.Second, func(*domain.Workflow) bool { return true })
	plan := out.channel.AgreedPlan()
	tasks := 0
	for _, n := range w.Nodes {
		if n.Type == domain.NodeTask {
			tasks++
		}
	}
	if w.Status != domain.WorkflowStatusDraft || tasks != len(plan.Assignments) || w.UserID != "user_alice" || w.Version != 1 {
		t.Fatalf("draft %+v from %d assignments", w, len(plan.Assignments))
	}
	last := w.Nodes[len(w.Nodes)-1].ID
	first := w.Nodes[0].ID

	decide := func(d domain.Decision) (domain.DecisionOutcome, error) {
		t.Helper()
		d.Actor, d.Confidence = "user:user_alice", 1
		return h.c.Decide(ctx, id, d)
	}
	// Refused: a cycle. The rejection is recorded; the workflow does not change.
	_, err = decide(domain.Decision{Type: domain.DecisionConnect, BaseVersion: 1, Payload: domain.DecisionPayload{From: last, To: first}})
	var rej *domain.RejectionError
	if !errors.As(err, &rej) || rej.Rejected.Rule != "acyclic" || !errors.Is(err, domain.ErrDecisionRejected) {
		t.Fatalf("a cycle: %v", err)
	}
	// Let through: an http notice after the first task, before the last node.
	res, err := decide(domain.Decision{DecisionID: "notify", Type: domain.DecisionCreateNode, BaseVersion: 1, Payload: domain.DecisionPayload{
		Node:  &domain.WorkflowNode{ID: "notify", Type: domain.NodeHTTP, Title: "通知场地方", URL: hk.srv.URL + "/hook", TimeoutSeconds: 5},
		After: []string{first}, Before: []string{last}}})
	if err != nil || res.Validated.Version != 2 {
		t.Fatalf("create http node: %+v %v", res, err)
	}
	// Refused: based on the old version.
	_, err = decide(domain.Decision{Type: domain.DecisionDeleteNode, BaseVersion: 1, Payload: domain.DecisionPayload{NodeID: first}})
	if !errors.As(err, &rej) || rej.Rejected.Rule != "version" {
		t.Fatalf("a stale decision: %v", err)
	}
	// Corrected: a wait in the past ends now.
	res, err = decide(domain.Decision{Type: domain.DecisionCreateNode, BaseVersion: 2, Payload: domain.DecisionPayload{
		Node:  &domain.WorkflowNode{ID: "pause", Type: domain.NodeWait, Title: "等一下", WaitUntil: time.Now().Add(-time.Hour)},
		After: []string{"notify"}}})
	if err != nil || len(res.Validated.Corrections) != 1 {
		t.Fatalf("a wait in the past: %+v %v", res, err)
	}
	res, err = decide(domain.Decision{Type: domain.DecisionCreateNode, BaseVersion: 3, Payload: domain.DecisionPayload{
		Node: &domain.WorkflowNode{ID: "ok", Type: domain.NodeApproval, Title: "用户确认"}, After: []string{"pause"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Repeating a decision id writes nothing.
	again, err := decide(domain.Decision{DecisionID: "notify", Type: domain.DecisionCreateNode, BaseVersion: 1})
	if err != nil || !again.Repeated || again.Validated.Version != 4 {
		t.Fatalf("a repeated decision: %+v %v", again, err)
	}
	if _, err := decide(domain.Decision{Type: domain.DecisionExecuteWorkflow, BaseVersion: 4}); err != nil {
		t.Fatal(err)
	}
	h.waitWorkflow(id, 20*time.Second, func(w *domain.Workflow) bool { return w.Run("ok").Status == domain.NodeStatusRunning })
	if _, err := h.c.Approve(ctx, id, "ok", "mallory", true, ""); !errors.Is(err, domain.ErrNotWorkflowUser) {
		t.Fatalf("someone else approved: %v", err)
	}
	if _, err := h.c.Approve(ctx, id, "ok", "user_alice", true, "可以"); err != nil {
		t.Fatal(err)
	}
	w = h.waitWorkflow(id, 20*time.Second, func(w *domain.Workflow) bool { return w.Status.Finished() })
	if w.Status != domain.WorkflowStatusCompleted {
		t.Fatalf("workflow %s, failed node %s %+v\n%s", w.Status, w.FailedNode, w.Run(w.FailedNode), h.timeline(sub.DemandID))
	}
	for _, n := range w.Nodes {
		if r := w.Run(n.ID); r.Status != domain.NodeStatusCompleted || r.Result == nil {
			t.Errorf("node %s: %+v", n.ID, r)
		}
	}
	// The http node: attempt 1 answered 503, attempt 2 200; one request each.
	if got := hk.requests(); !slices.Equal(got, []string{id + "/notify/1", id + "/notify/2"}) {
		t.Fatalf("requests %v", got)
	}
	if w.Run("notify").Attempt != 2 {
		t.Fatalf("notify %+v", w.Run("notify"))
	}
	// Every workflow event carries the root demand as correlation id.
	n := 0
	for _, e := range h.events(sub.DemandID) {
		if e.StreamID == domain.WorkflowStream(id) {
			n++
		}
	}
	if v, _ := h.store.StreamVersion(ctx, domain.WorkflowStream(id)); int64(n) != v || n == 0 {
		t.Fatalf("%d workflow events in the demand's log, the stream holds %d", n, v)
	}
}

// TestWorkflowExternalTasks: an agreement between external agents becomes
// a workflow whose tasks they report on themselves: a report by someone
// else or on a task not running is refused and writes nothing; a problem
// fails the workflow.
func TestWorkflowExternalTasks(t *testing.T) {
	s := newScripted()
	s.filter = func(in *llm.FilterInput) string { return candidatesReply(in, "ext_1", "ext_2") }
	s.gaps = func(*llm.GapInput) string { return gapsReply() }
	h := newHarness(t, opts{provider: s, profiles: testProfiles(0, "ext_1", "ext_2")})
	ctx := context.Background()
	sub, err := h.c.SubmitDemand(ctx, "u1", "需要摄影师")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, func() bool {
		c, _ := h.channel(ctx, sub.ChannelID)
		return c.Status == domain.ChannelStatusCollecting
	})
	for _, a := range []string{"ext_1", "ext_2"} {
		if _, err := h.c.SubmitOffer(ctx, sub.ChannelID, a, agentsOffer(domain.OfferDecisionParticipate)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 10*time.Second, func() bool {
		c, _ := h.channel(ctx, sub.ChannelID)
		return c.AwaitingFeedback()
	})
	c, _ := h.channel(ctx, sub.ChannelID)
	for _, a := range c.RoundMembers() {
		if _, err := h.c.SubmitFeedback(ctx, sub.ChannelID, a, 1, agentsFeedback(domain.FeedbackAccept)); err != nil {
			t.Fatal(err)
		}
	}
	h.wait(sub.DemandID, 20*time.Second)
	id := domain.WorkflowIDFor(sub.DemandID)
	w := h.waitWorkflow(id, 10*time.Second, func(*domain.Workflow) bool { return true })
	var task *domain.WorkflowNode
	for i := range w.Nodes {
		if w.Nodes[i].Type == domain.NodeTask {
			task = &w.Nodes[i]
			break
		}
	}
	if task == nil {
		t.Fatalf("no task in %+v", w.Nodes)
	}
	other := "ext_1"
	if task.AssigneeID == "ext_1" {
		other = "ext_2"
	}
	refused := func(name string, want error, cmd func() error) { t.Helper(); h.refused(t, name, want, cmd) }
	done := domain.TaskAnswer{Status: domain.TaskDone, Summary: "拍完了"}
	refused("before the workflow runs", domain.ErrNodeNotOpen, func() error { _, err := h.c.ReportTask(ctx, id, task.ID, task.AssigneeID, done); return err })
	if _, err := h.c.Decide(ctx, id, domain.Decision{Type: domain.DecisionExecuteWorkflow, Actor: "user:u1", Confidence: 1,
		BaseVersion: w.Version}); err != nil {
		t.Fatal(err)
	}
	h.waitWorkflow(id, 10*time.Second, func(w *domain.Workflow) bool { return w.Run(task.ID).Status == domain.NodeStatusRunning })
	refused("someone else's task", domain.ErrNotAssignee, func() error { _, err := h.c.ReportTask(ctx, id, task.ID, other, done); return err })
	refused("no such node", domain.ErrNotFound, func() error { _, err := h.c.ReportTask(ctx, id, "nope", task.AssigneeID, done); return err })
	refused("no such workflow", domain.ErrWorkflowNotFound, func() error { _, err := h.c.ReportTask(ctx, "wf-nope", task.ID, task.AssigneeID, done); return err })
	refused("a problem without the problem", domain.ErrInvalidAnswer, func() error {
		_, err := h.c.ReportTask(ctx, id, task.ID, task.AssigneeID, domain.TaskAnswer{Status: domain.TaskProblem})
		return err
	})
	if _, err := h.c.ReportTask(ctx, id, task.ID, task.AssigneeID, domain.TaskAnswer{Status: domain.TaskProblem,
		Problem: "设备坏了"}); err != nil {
		t.Fatal(err)
	}
	w = h.waitWorkflow(id, 10*time.Second, func(w *domain.Workflow) bool { return w.Status.Finished() })
	if w.Status != domain.WorkflowStatusFailed || w.FailedNode != task.ID || w.Run(task.ID).Error != "设备坏了" {
		t.Fatalf("%s %s %+v", w.Status, w.FailedNode, w.Run(task.ID))
	}
}

// say sends a message about a workflow and waits for the agent's reply.
func (h *harness) say(id, text string) domain.Turn {
	h.t.Helper()
	msg, _, err := h.c.SendMessage(context.Background(), id, text, "tab-1", "user_alice")
	if err != nil {
		h.t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		turns, err := h.c.Conversation(context.Background(), id)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, t := range turns {
			if t.MessageID == msg && t.Done {
				return t
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("no reply to %q", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestConversationEndToEnd: the person edits the sample demand's workflow
// by talking to the conversation agent (builtin brain): a task for someone
// outside the agreement is refused by the Coordinator and explained; a
// rehearsal is added before the event day; a milestone is moved earlier;
// "run it" runs the workflow to completion; asking why a step failed
// reads the node. Each step's decision is recorded with its ruling.
func TestConversationEndToEnd(t *testing.T) {
	h := newHarness(t, opts{})
	ctx := context.Background()
	sub, err := h.c.SubmitDemand(ctx, "user_alice", sampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	h.wait(sub.DemandID, 30*time.Second)
	id := domain.WorkflowIDFor(sub.DemandID)
	w := h.waitWorkflow(id, 10*time.Second, func(*domain.Workflow) bool { return true })
	titles := func(w *domain.Workflow) []string {
		var out []string
		for _, n := range w.Nodes {
			out = append(out, n.ID+"="+n.Title)
		}
		return out
	}
	t.Logf("workflow: %v", titles(w))

	turn := h.say(id, "在活动当天之前加一个彩排，由 Zoe 负责")
	if len(turn.Steps) != 1 || !turn.Steps[0].Rejected || turn.Reply == "" {
		t.Fatalf("a task for an outsider: %+v", turn)
	}
	turn = h.say(id, "在活动当天之前加一个彩排")
	if len(turn.Steps) != 1 || turn.Steps[0].Rejected || turn.Steps[0].Action.Tool != string(domain.DecisionCreateNode) {
		t.Fatalf("add a rehearsal: %+v", turn)
	}
	turn = h.say(id, "把宣传与报名提前到第一周")
	if len(turn.Steps) != 1 || turn.Steps[0].Rejected || turn.Steps[0].Action.Tool != string(domain.DecisionUpdateNode) {
		t.Fatalf("earlier: %+v", turn)
	}
	w = h.waitWorkflow(id, time.Second, func(*domain.Workflow) bool { return true })
	if w.Version != 3 {
		t.Fatalf("version %d after two accepted decisions: %v", w.Version, titles(w))
	}
	turn = h.say(id, "run it")
	if len(turn.Steps) != 1 || turn.Steps[0].Action.Tool != string(domain.DecisionExecuteWorkflow) || turn.Steps[0].Rejected {
		t.Fatalf("run it: %+v", turn)
	}
	w = h.waitWorkflow(id, 30*time.Second, func(w *domain.Workflow) bool { return w.Status.Finished() })
	t.Logf("workflow %s", w.Status)
	if w.Status == domain.WorkflowStatusFailed {
		turn = h.say(id, "为什么失败了？")
		if len(turn.Steps) != 1 || turn.Steps[0].Action.Tool != domain.ToolGetNode || !strings.Contains(turn.Reply, w.Run(w.FailedNode).Error) {
			t.Fatalf("why did it fail: %+v", turn)
		}
	} else if w.Status != domain.WorkflowStatusCompleted {
		t.Fatalf("workflow %s", w.Status)
	}
	// Every decision the agent took is recorded with its ruling and its step.
	var validated, rejected, steps int
	for _, e := range h.events(sub.DemandID) {
		switch e.Type {
		case domain.EventDecisionValidated:
			validated++
		case domain.EventDecisionRejected:
			rejected++
		case domain.EventConversationStep:
			steps++
			if e.Metadata.LLMCall == nil || e.Metadata.Actor != domain.ActorConversation {
				t.Fatalf("a step without its LLM call or actor: %+v", e.Metadata)
			}
		}
	}
	if validated != 3 || rejected != 1 {
		t.Fatalf("%d validated, %d rejected decisions", validated, rejected)
	}
}

// racing is the builtin brain, except that while it plans a conversation
// step the first time, someone else changes the workflow (before runs).
type racing struct {
	llm.Provider
	once   sync.Once
	before func()
}

func (r *racing) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if req.Key == llm.PromptConverse {
		r.once.Do(r.before)
	}
	return r.Provider.Complete(ctx, req)
}

// TestConversationReplans: a step planned on a version the workflow left
// while the agent thought is refused by the version rule (recorded) and
// planned again on the new version, not reported as the agent's failure.
func TestConversationReplans(t *testing.T) {
	r := &racing{Provider: builtin.New()}
	h := newHarness(t, opts{provider: r})
	ctx := context.Background()
	sub, err := h.c.SubmitDemand(ctx, "user_alice", sampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	h.wait(sub.DemandID, 30*time.Second)
	id := domain.WorkflowIDFor(sub.DemandID)
	h.waitWorkflow(id, 10*time.Second, func(*domain.Workflow) bool { return true })
	r.before = func() { // a canvas edit lands while the agent plans
		if _, err := h.c.Decide(ctx, id, domain.Decision{Type: domain.DecisionUpdateNode, Actor: "user:bob", Confidence: 1,
			BaseVersion: 1, Payload: domain.DecisionPayload{NodeID: "milestone-4", Changes: &domain.NodeChanges{Due: ptr("下周")}}}); err != nil {
			t.Error(err)
		}
	}
	turn := h.say(id, "把宣传与报名提前到第一周")
	if len(turn.Steps) != 1 || turn.Steps[0].Rejected || turn.Steps[0].DecisionID != turn.MessageID+"-1-2" {
		t.Fatalf("%+v", turn)
	}
	w := h.waitWorkflow(id, time.Second, func(*domain.Workflow) bool { return true })
	if w.Version != 3 || w.Node("milestone-2").Due != "第一周" || w.Node("milestone-4").Due != "下周" {
		t.Fatalf("v%d %q %q", w.Version, w.Node("milestone-2").Due, w.Node("milestone-4").Due)
	}
	var versionRefusals int
	for _, e := range h.events(sub.DemandID) {
		if e.Type == domain.EventDecisionRejected {
			versionRefusals++
		}
	}
	if versionRefusals != 1 {
		t.Fatalf("%d refusals, want the one of the stale plan", versionRefusals)
	}
}

func ptr[T any](v T) *T { return &v }
