package execute_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/data"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
	"github.com/towow/towow/writetest"
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

// TestWorkflowEndToEnd: the sample demand agrees; its plan becomes a
// draft workflow; decisions edit it (one refused and recorded, one
// corrected, others let through); it runs: the twins' tasks, an http node
// that fails once and is tried again, the user's approval; it completes.
func TestWorkflowEndToEnd(t *testing.T) {
	hk := newHook(t, 1)
	u, _ := url.Parse(hk.srv.URL)
	h := writetest.New(t, writetest.Opts{Write: func(c *app.WriteConfig) { c.HTTPAllow = []string{u.Host} }})
	ctx := context.Background()
	sub, err := h.C.SubmitDemand(ctx, "user_alice", writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	out := h.Wait(sub.DemandID, 30*time.Second)
	if !out.Agreed() {
		t.Fatalf("no agreement (failure %+v):\n%s", out.Demand.Failure, h.Timeline(sub.DemandID))
	}
	id := workflow.WorkflowIDFor(sub.DemandID)
	w := h.WaitWorkflow(id, 10*time.Second, func(*workflow.Workflow) bool { return true })
	plan := out.Channel.AgreedPlan()
	tasks := 0
	for _, n := range w.Nodes {
		if n.Type == workflow.NodeTask {
			tasks++
		}
	}
	if w.Status != workflow.WorkflowStatusDraft || tasks != len(plan.Assignments) || w.UserID != "user_alice" || w.Version != 1 {
		t.Fatalf("draft %+v from %d assignments", w, len(plan.Assignments))
	}
	last := w.Nodes[len(w.Nodes)-1].ID
	first := w.Nodes[0].ID

	decide := func(d workflow.Decision) (workflow.DecisionOutcome, error) {
		t.Helper()
		d.Actor, d.Confidence = "user:user_alice", 1
		return h.C.Decide(ctx, id, d)
	}
	// Refused: a cycle. The rejection is recorded; the workflow does not change.
	_, err = decide(workflow.Decision{Type: workflow.DecisionConnect, BaseVersion: 1, Payload: workflow.DecisionPayload{From: last, To: first}})
	var rej *workflow.RejectionError
	if !errors.As(err, &rej) || rej.Rejected.Rule != "acyclic" || !errors.Is(err, workflow.ErrDecisionRejected) {
		t.Fatalf("a cycle: %v", err)
	}
	// Let through: an http notice after the first task, before the last node.
	res, err := decide(workflow.Decision{DecisionID: "notify", Type: workflow.DecisionCreateNode, BaseVersion: 1, Payload: workflow.DecisionPayload{
		Node:  &workflow.WorkflowNode{ID: "notify", Type: workflow.NodeHTTP, Title: "通知场地方", URL: hk.srv.URL + "/hook", TimeoutSeconds: 5},
		After: []string{first}, Before: []string{last}}})
	if err != nil || res.Validated.Version != 2 {
		t.Fatalf("create http node: %+v %v", res, err)
	}
	// Refused: based on the old version.
	_, err = decide(workflow.Decision{Type: workflow.DecisionDeleteNode, BaseVersion: 1, Payload: workflow.DecisionPayload{NodeID: first}})
	if !errors.As(err, &rej) || rej.Rejected.Rule != "version" {
		t.Fatalf("a stale decision: %v", err)
	}
	// Corrected: a wait in the past ends now.
	res, err = decide(workflow.Decision{Type: workflow.DecisionCreateNode, BaseVersion: 2, Payload: workflow.DecisionPayload{
		Node:  &workflow.WorkflowNode{ID: "pause", Type: workflow.NodeWait, Title: "等一下", WaitUntil: time.Now().Add(-time.Hour)},
		After: []string{"notify"}}})
	if err != nil || len(res.Validated.Corrections) != 1 {
		t.Fatalf("a wait in the past: %+v %v", res, err)
	}
	res, err = decide(workflow.Decision{Type: workflow.DecisionCreateNode, BaseVersion: 3, Payload: workflow.DecisionPayload{
		Node: &workflow.WorkflowNode{ID: "ok", Type: workflow.NodeApproval, Title: "用户确认"}, After: []string{"pause"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Repeating a decision id writes nothing.
	again, err := decide(workflow.Decision{DecisionID: "notify", Type: workflow.DecisionCreateNode, BaseVersion: 1})
	if err != nil || !again.Repeated || again.Validated.Version != 4 {
		t.Fatalf("a repeated decision: %+v %v", again, err)
	}
	if _, err := decide(workflow.Decision{Type: workflow.DecisionExecuteWorkflow, BaseVersion: 4}); err != nil {
		t.Fatal(err)
	}
	h.WaitWorkflow(id, 20*time.Second, func(w *workflow.Workflow) bool { return w.Run("ok").Status == workflow.NodeStatusRunning })
	if _, err := h.C.Approve(ctx, id, "ok", "mallory", true, ""); !errors.Is(err, workflow.ErrNotApprover) {
		t.Fatalf("someone else approved: %v", err)
	}
	if _, err := h.C.Approve(ctx, id, "ok", "user_alice", true, "可以"); err != nil {
		t.Fatal(err)
	}
	w = h.WaitWorkflow(id, 20*time.Second, func(w *workflow.Workflow) bool { return w.Status.Finished() })
	if w.Status != workflow.WorkflowStatusCompleted {
		t.Fatalf("workflow %s, failed node %s %+v\n%s", w.Status, w.FailedNode, w.Run(w.FailedNode), h.Timeline(sub.DemandID))
	}
	for _, n := range w.Nodes {
		if r := w.Run(n.ID); r.Status != workflow.NodeStatusCompleted || r.Result == nil {
			t.Errorf("node %s: %+v", n.ID, r)
		} else if r.Result.Simulated != (n.Type == workflow.NodeTask) { // the twins' tasks are rehearsals, and say so
			t.Errorf("node %s (%s): simulated %v", n.ID, n.Type, r.Result.Simulated)
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
	for _, e := range h.Events(sub.DemandID) {
		if e.StreamID == workflow.WorkflowStream(id) {
			n++
		}
	}
	if v, _ := h.Store.StreamVersion(ctx, workflow.WorkflowStream(id)); int64(n) != v || n == 0 {
		t.Fatalf("%d workflow events in the demand's log, the stream holds %d", n, v)
	}
}

// TestWorkflowExternalTasks: an agreement between external agents becomes
// a workflow whose tasks they report on themselves: a report by someone
// else or on a task not running is refused and writes nothing; a problem
// fails the workflow.
func TestWorkflowExternalTasks(t *testing.T) {
	s := writetest.NewScripted()
	s.Filter = func(in *llm.FilterInput) string { return writetest.CandidatesReply(in, "ext_1", "ext_2") }
	s.Gaps = func(*llm.GapInput) string { return writetest.GapsReply() }
	h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(0, "ext_1", "ext_2")})
	ctx := context.Background()
	sub, err := h.C.SubmitDemand(ctx, "u1", "需要摄影师")
	if err != nil {
		t.Fatal(err)
	}
	writetest.WaitFor(t, 10*time.Second, func() bool {
		c, _ := h.Channel(ctx, sub.ChannelID)
		return c.Status == negotiation.ChannelStatusCollecting
	})
	for _, a := range []string{"ext_1", "ext_2"} {
		if _, err := h.C.SubmitOffer(ctx, sub.ChannelID, a, writetest.AgentsOffer(negotiation.OfferDecisionParticipate)); err != nil {
			t.Fatal(err)
		}
	}
	writetest.WaitFor(t, 10*time.Second, func() bool {
		c, _ := h.Channel(ctx, sub.ChannelID)
		return c.AwaitingFeedback()
	})
	c, _ := h.Channel(ctx, sub.ChannelID)
	for _, a := range c.RoundMembers() {
		if _, err := h.C.SubmitFeedback(ctx, sub.ChannelID, a, 1, writetest.AgentsFeedback(negotiation.FeedbackAccept)); err != nil {
			t.Fatal(err)
		}
	}
	h.Wait(sub.DemandID, 20*time.Second)
	id := workflow.WorkflowIDFor(sub.DemandID)
	w := h.WaitWorkflow(id, 10*time.Second, func(*workflow.Workflow) bool { return true })
	var task *workflow.WorkflowNode
	for i := range w.Nodes {
		if w.Nodes[i].Type == workflow.NodeTask {
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
	refused := func(name string, want error, cmd func() error) { t.Helper(); h.Refused(t, name, want, cmd) }
	done := workflow.TaskAnswer{Status: workflow.TaskDone, Summary: "拍完了"}
	refused("before the workflow runs", workflow.ErrNodeNotOpen, func() error { _, err := h.C.ReportTask(ctx, id, task.ID, task.AssigneeID, done); return err })
	if _, err := h.C.Decide(ctx, id, workflow.Decision{Type: workflow.DecisionExecuteWorkflow, Actor: "user:u1", Confidence: 1,
		BaseVersion: w.Version}); err != nil {
		t.Fatal(err)
	}
	h.WaitWorkflow(id, 10*time.Second, func(w *workflow.Workflow) bool { return w.Run(task.ID).Status == workflow.NodeStatusRunning })
	refused("someone else's task", workflow.ErrNotAssignee, func() error { _, err := h.C.ReportTask(ctx, id, task.ID, other, done); return err })
	refused("no such node", negotiation.ErrNotFound, func() error { _, err := h.C.ReportTask(ctx, id, "nope", task.AssigneeID, done); return err })
	refused("no such workflow", workflow.ErrWorkflowNotFound, func() error { _, err := h.C.ReportTask(ctx, "wf-nope", task.ID, task.AssigneeID, done); return err })
	refused("a problem without the problem", negotiation.ErrInvalidAnswer, func() error {
		_, err := h.C.ReportTask(ctx, id, task.ID, task.AssigneeID, workflow.TaskAnswer{Status: workflow.TaskProblem})
		return err
	})
	if _, err := h.C.ReportTask(ctx, id, task.ID, task.AssigneeID, workflow.TaskAnswer{Status: workflow.TaskProblem,
		Problem: "设备坏了"}); err != nil {
		t.Fatal(err)
	}
	w = h.WaitWorkflow(id, 10*time.Second, func(w *workflow.Workflow) bool { return w.Status.Finished() })
	if w.Status != workflow.WorkflowStatusFailed || w.FailedNode != task.ID || w.Run(task.ID).Error != "设备坏了" {
		t.Fatalf("%s %s %+v", w.Status, w.FailedNode, w.Run(task.ID))
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

// agreedWorkflow submits the sample demand as user, fails the test unless
// it ends in an agreement, and waits for the workflow the agreement
// becomes: the demand's id and the workflow.
func agreedWorkflow(t *testing.T, h *writetest.Harness, user string) (string, *workflow.Workflow) {
	t.Helper()
	sub, err := h.C.SubmitDemand(context.Background(), user, writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	if out := h.Wait(sub.DemandID, 30*time.Second); !out.Agreed() {
		t.Fatalf("no agreement (failure %+v):\n%s", out.Demand.Failure, h.Timeline(sub.DemandID))
	}
	return sub.DemandID, h.WaitWorkflow(workflow.WorkflowIDFor(sub.DemandID), 10*time.Second, func(*workflow.Workflow) bool { return true })
}

// TestConversationReplans: a step planned on a version the workflow left
// while the agent thought is refused by the version rule (recorded) and
// planned again on the new version, not reported as the agent's failure.
func TestConversationReplans(t *testing.T) {
	r := &racing{Provider: builtin.New()}
	h := writetest.New(t, writetest.Opts{Provider: r})
	ctx := context.Background()
	demandID, agreed := agreedWorkflow(t, h, "user_alice")
	id := agreed.ID
	r.before = func() { // a canvas edit lands while the agent plans: one version sequence for both
		if _, _, err := h.C.ChangeCanvas(ctx, id, workflow.CanvasBatch{ClientID: "tab-bob", Actor: "user:bob", BaseVersion: 1,
			Changes: []workflow.CanvasChange{{Type: workflow.CanvasNodeUpdated, NodeID: "milestone-4",
				Data: &workflow.CanvasNodeData{NodeChanges: workflow.NodeChanges{Due: new("下周")}}}}}); err != nil {
			t.Error(err)
		}
	}
	turn := h.Say(id, "把宣传与报名提前到第一周")
	if len(turn.Steps) != 1 || turn.Steps[0].Rejected || turn.Steps[0].DecisionID != turn.MessageID+"-1-2" {
		t.Fatalf("%+v", turn)
	}
	w := h.WaitWorkflow(id, time.Second, func(*workflow.Workflow) bool { return true })
	if w.Version != 3 || w.Node("milestone-2").Due != "第一周" || w.Node("milestone-4").Due != "下周" {
		t.Fatalf("v%d %q %q", w.Version, w.Node("milestone-2").Due, w.Node("milestone-4").Due)
	}
	var versionRefusals int
	for _, e := range h.Events(demandID) {
		if e.Type == workflow.EventDecisionRejected {
			versionRefusals++
		}
	}
	if versionRefusals != 1 {
		t.Fatalf("%d refusals, want the one of the stale plan", versionRefusals)
	}
}

// TestWorkflowStory is a workflow's whole story in one run: the sample demand
// agrees with an external agent as its only venue; its plan becomes a
// draft; the person talks to the conversation agent (a task for someone
// outside the agreement refused and explained, a rehearsal added, a
// milestone moved earlier); an http notice to a local server and a wait
// the validators correct are added directly; "run it" executes it: the
// twins' tasks through prompt 10, the external agent's task reported with
// its own hands, the http node failing once and tried again; it
// completes, and every decision is in the log with its ruling.
func TestWorkflowStory(t *testing.T) {
	hk := newHook(t, 1)
	u, _ := url.Parse(hk.srv.URL)
	ps, errs := negotiation.ParseProfiles(data.MockProfiles)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	profiles := slices.DeleteFunc(ps, func(p negotiation.AgentProfile) bool { return slices.Contains(p.Tags, "场地提供") })
	venue := negotiation.AgentProfile{AgentID: "ext_venue", UserName: "外部场地方", Location: "北京", Mode: negotiation.AgentModeExternal,
		ProfileSummary: "在北京望京有40人会议室，常办AI沙龙。", Tags: []string{"场地提供"}, Availability: "周末全天"}
	rules := negotiation.DefaultRules()
	rules.MaxDepth = 0 // no sub-negotiation: the external agent answers only here
	h := writetest.New(t, writetest.Opts{Profiles: append(profiles, venue), Rules: rules,
		Write: func(c *app.WriteConfig) { c.HTTPAllow = []string{u.Host} }})
	ctx := context.Background()
	sub, err := h.C.SubmitDemand(ctx, "user_alice", writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	// The external agent answers for itself: it offers, and accepts every round it is asked.
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, _ := h.Channel(ctx, sub.ChannelID)
		if c.Completed {
			break
		}
		if c.Status == negotiation.ChannelStatusCollecting {
			if _, ok := c.Offers["ext_venue"]; !ok && slices.ContainsFunc(c.Candidates, func(x negotiation.Candidate) bool { return x.AgentID == "ext_venue" }) {
				if _, err := h.C.SubmitOffer(ctx, sub.ChannelID, "ext_venue", negotiation.OfferAnswer{Decision: negotiation.OfferDecisionParticipate,
					Contribution: "望京40人会议室"}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if c.AwaitingFeedback() && slices.Contains(c.MissingFeedback(), "ext_venue") {
			if _, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_venue", c.Round, writetest.AgentsFeedback(negotiation.FeedbackAccept)); err != nil {
				t.Fatal(err)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no agreement:\n%s", h.Timeline(sub.DemandID))
		}
		time.Sleep(20 * time.Millisecond)
	}
	id := workflow.WorkflowIDFor(sub.DemandID)
	w := h.WaitWorkflow(id, 10*time.Second, func(*workflow.Workflow) bool { return true })
	var venueTask string
	for _, n := range w.Nodes {
		if n.AssigneeID == "ext_venue" {
			venueTask = n.ID
		}
	}
	if venueTask == "" {
		t.Fatalf("the external venue is not in the plan: %+v\n%s", w.Nodes, h.Timeline(sub.DemandID))
	}

	// The conversation: one refused, two let through.
	if turn := h.Say(id, "在活动当天之前加一个彩排，由 Zoe 负责"); len(turn.Steps) != 1 || !turn.Steps[0].Rejected || turn.Reply == "" {
		t.Fatalf("a task for an outsider: %+v", turn)
	}
	if turn := h.Say(id, "在活动当天之前加一个彩排"); len(turn.Steps) != 1 || turn.Steps[0].Rejected {
		t.Fatalf("add a rehearsal: %+v", turn)
	}
	if turn := h.Say(id, "把宣传与报名提前到第一周"); len(turn.Steps) != 1 || turn.Steps[0].Rejected {
		t.Fatalf("earlier: %+v", turn)
	}
	// Directly: an http notice after the venue's task, and a wait the validators correct.
	decide := func(d workflow.Decision) workflow.DecisionOutcome {
		t.Helper()
		w := h.WaitWorkflow(id, time.Second, func(*workflow.Workflow) bool { return true })
		d.Actor, d.Confidence, d.BaseVersion = "user:user_alice", 1, w.Version
		res, err := h.C.Decide(ctx, id, d)
		if err != nil {
			t.Fatalf("%s: %v", d.Type, err)
		}
		return res
	}
	decide(workflow.Decision{Type: workflow.DecisionCreateNode, Payload: workflow.DecisionPayload{Node: &workflow.WorkflowNode{ID: "notify",
		Type: workflow.NodeHTTP, Title: "通知场地方", URL: hk.srv.URL + "/hook"}, After: []string{venueTask}}})
	res := decide(workflow.Decision{Type: workflow.DecisionCreateNode, Payload: workflow.DecisionPayload{Node: &workflow.WorkflowNode{ID: "pause",
		Type: workflow.NodeWait, Title: "等场地回复", WaitUntil: time.Now().Add(-time.Hour)}, After: []string{"notify"}}})
	if len(res.Validated.Corrections) != 1 {
		t.Fatalf("corrections %+v", res.Validated.Corrections)
	}
	if turn := h.Say(id, "run it"); len(turn.Steps) != 1 || turn.Steps[0].Rejected {
		t.Fatalf("run it: %+v", turn)
	}
	// The external agent reports its task once it runs.
	h.WaitWorkflow(id, 20*time.Second, func(w *workflow.Workflow) bool { return w.Run(venueTask).Status == workflow.NodeStatusRunning })
	if _, err := h.C.ReportTask(ctx, id, venueTask, "ext_venue", workflow.TaskAnswer{Status: workflow.TaskDone, Summary: "会议室已锁定"}); err != nil {
		t.Fatal(err)
	}
	w = h.WaitWorkflow(id, 30*time.Second, func(w *workflow.Workflow) bool { return w.Status.Finished() })
	if w.Status != workflow.WorkflowStatusCompleted {
		t.Fatalf("workflow %s at %s %+v\n%s", w.Status, w.FailedNode, w.Run(w.FailedNode), h.Timeline(sub.DemandID))
	}
	if got := hk.requests(); !slices.Equal(got, []string{id + "/notify/1", id + "/notify/2"}) {
		t.Fatalf("the hook got %v", got)
	}
	if r := w.Run(venueTask); r.Result == nil || r.Result.By != "ext_venue" {
		t.Fatalf("venue task %+v", r)
	}
	var validated, rejected int
	for _, e := range h.Events(sub.DemandID) {
		switch e.Type {
		case workflow.EventDecisionValidated:
			validated++
		case workflow.EventDecisionRejected:
			rejected++
		}
	}
	if validated != 5 || rejected != 1 {
		t.Fatalf("%d decisions validated, %d rejected; want 5 and 1", validated, rejected)
	}
}

// TestPeopleDoTasks: with TOWOW_TASKS=people no twin answers for its
// person: the twins' tasks stay running (waiting for a report) instead of
// completing as simulations.
func TestPeopleDoTasks(t *testing.T) {
	h := writetest.New(t, writetest.Opts{Write: func(c *app.WriteConfig) { c.PeopleDoTasks = true }})
	ctx := context.Background()
	_, w := agreedWorkflow(t, h, "user_alice")
	id := w.ID
	if _, err := h.C.Decide(ctx, id, workflow.Decision{Type: workflow.DecisionExecuteWorkflow, BaseVersion: w.Version,
		Actor: "user:user_alice", Confidence: 1}); err != nil {
		t.Fatal(err)
	}
	after := map[string]bool{} // nodes that wait for another
	for _, e := range w.Edges {
		after[e.To] = true
	}
	var first string
	for _, n := range w.Nodes {
		if n.Type == workflow.NodeTask && first == "" && !after[n.ID] {
			first = n.ID
		}
	}
	if first == "" {
		t.Fatalf("no task starts first: %+v", w.Edges)
	}
	w = h.WaitWorkflow(id, 10*time.Second, func(w *workflow.Workflow) bool { return w.Run(first).Status == workflow.NodeStatusRunning })
	time.Sleep(time.Second) // a twin would have answered by now
	w = h.WaitWorkflow(id, time.Second, func(*workflow.Workflow) bool { return true })
	if r := w.Run(first); r.Status != workflow.NodeStatusRunning || r.Result != nil {
		t.Fatalf("the twin's task %s: %+v, want it still waiting for its person", first, r)
	}
}

// capturing is the builtin brain, keeping the conversation prompts it is
// asked.
type capturing struct {
	llm.Provider
	mu      sync.Mutex
	prompts []string
}

func (c *capturing) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if req.Key == llm.PromptConverse {
		c.mu.Lock()
		c.prompts = append(c.prompts, req.Prompt)
		c.mu.Unlock()
	}
	return c.Provider.Complete(ctx, req)
}

func (c *capturing) last() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.prompts[len(c.prompts)-1]
}

// TestConversationContextBounded: a colleague's canvas edit between two
// messages reaches the agent as an observation (and the person hears of it
// by name); after more turns than the agent reads in full, the older ones
// are summarised once, recorded on the stream, and the prompt carries the
// summary instead of those turns.
func TestConversationContextBounded(t *testing.T) {
	c := &capturing{Provider: builtin.New()}
	h := writetest.New(t, writetest.Opts{Provider: c})
	ctx := context.Background()
	demandID, agreed := agreedWorkflow(t, h, "user_alice")
	id := agreed.ID
	first := h.Say(id, "第一个问题：现在怎么样了")
	if !strings.Contains(first.Reply, "上次之后没有新的变化") {
		t.Fatalf("the first reply: %q", first.Reply)
	}
	if _, _, err := h.C.ChangeCanvas(ctx, id, workflow.CanvasBatch{ClientID: "tab-bob", Actor: "user:bob", BaseVersion: 1,
		Changes: []workflow.CanvasChange{{Type: workflow.CanvasNodeUpdated, NodeID: "milestone-4",
			Data: &workflow.CanvasNodeData{NodeChanges: workflow.NodeChanges{Due: new("下周")}}}}}); err != nil {
		t.Fatal(err)
	}
	second := h.Say(id, "现在怎么样了")
	if len(second.Since) != 1 || second.Since[0].By != "user:bob" || !strings.Contains(second.Reply, "bob 修改了「") ||
		!strings.Contains(c.last(), "update_node by user:bob on milestone-4") {
		t.Fatalf("the second turn: %+v", second)
	}
	for i := range workflow.HistoryTurns {
		h.Say(id, fmt.Sprintf("第%d次问：怎么样了", i+3))
	}
	var summaries []*workflow.ConversationSummarized
	for _, e := range h.Events(demandID) {
		if e.Type == workflow.EventConversationSummarized {
			p, err := e.Decode()
			if err != nil {
				t.Fatal(err)
			}
			summaries = append(summaries, p.(*workflow.ConversationSummarized))
		}
	}
	if len(summaries) != 1 || summaries[0].Through != first.MessageID || summaries[0].Turns != 1 {
		t.Fatalf("summaries %+v, want one of the first turn", summaries)
	}
	prompt := c.last()
	older := prompt[strings.Index(prompt, "## 更早的对话（摘要）"):strings.Index(prompt, "## 之前的对话")]
	recent := prompt[strings.Index(prompt, "## 之前的对话"):strings.Index(prompt, "## 用户现在说")]
	if !strings.Contains(older, "第一个问题") || strings.Contains(recent, "第一个问题") || strings.Count(recent, "- 用户：") != workflow.HistoryTurns {
		t.Fatalf("the prompt's context:\n%s\n%s", older, recent)
	}
}
