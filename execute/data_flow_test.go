package execute_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
	"github.com/towow/towow/writetest"
)

// taskSpy is the builtin brain, keeping the description each task prompt
// was asked with, by node.
type taskSpy struct {
	llm.Provider
	mu    sync.Mutex
	tasks map[string]string
}

func (s *taskSpy) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if in, ok := req.Input.(*llm.TaskInput); ok {
		s.mu.Lock()
		s.tasks[in.Task.ID] = in.Task.Description
		s.mu.Unlock()
	}
	return s.Provider.Complete(ctx, req)
}

func (s *taskSpy) task(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tasks[id]
}

// TestDataFlowEndToEnd: given an agreed plan's workflow, when an http
// node (venue) books at a local receiver and two nodes after it read its
// answer (an http notice: URL and body; a twin's task: its input), then
// the Coordinator refuses a reference to a node not upstream, naming the
// field; the workflow runs, the notice posts a's JSON fields and the
// twin's task prompt reads them, all from the recorded events; and, in
// another workflow whose venue's answer lacks the field, the notice fails
// as it starts, naming the reference, and the workflow fails.
func TestDataFlowEndToEnd(t *testing.T) {
	var mu sync.Mutex
	notices := map[string]map[string]any{} // path → the JSON body
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/venue" {
			_, _ = w.Write([]byte(`{"venue":{"address":"望京 SOHO 3号"},"booking_id":"B-42","seats":40,"rooms":["A"]}`))
			return
		}
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		mu.Lock()
		notices[r.URL.EscapedPath()] = body
		mu.Unlock()
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	spy := &taskSpy{Provider: builtin.New(), tasks: map[string]string{}}
	h := writetest.New(t, writetest.Opts{Provider: spy, Write: func(c *app.WriteConfig) { c.HTTPAllow = []string{u.Host} }})
	ctx := context.Background()
	demandID, w := agreedWorkflow(t, h, "user_alice")
	id := w.ID
	decide := func(d workflow.Decision) error {
		t.Helper()
		w := h.WaitWorkflow(id, time.Second, func(*workflow.Workflow) bool { return true })
		d.Actor, d.Confidence, d.BaseVersion = "user:user_alice", 1, w.Version
		_, err := h.C.Decide(ctx, id, d)
		return err
	}
	create := func(n workflow.WorkflowNode, after ...string) error {
		return decide(workflow.Decision{Type: workflow.DecisionCreateNode, Payload: workflow.DecisionPayload{Node: &n, After: after}})
	}
	if err := create(workflow.WorkflowNode{ID: "venue", Type: workflow.NodeHTTP, Title: "订场地", URL: srv.URL + "/venue"}); err != nil {
		t.Fatal(err)
	}
	notice := workflow.WorkflowNode{ID: "notice", Type: workflow.NodeHTTP, Title: "通知嘉宾",
		URL:  srv.URL + "/notice/{{nodes.venue.output.booking_id}}",
		Body: map[string]string{"address": "{{ nodes.venue.output.venue.address }}", "seats": "{{nodes.venue.output.seats}}", "plan": "{{vars.title}}"}}
	// Refused: the notice would not run after the venue it reads; one
	// error per field at fault, each naming its reference.
	var rej *workflow.RejectionError
	if err := create(notice); !errors.As(err, &rej) || rej.Rejected.Rule != "data_flow" {
		t.Fatalf("a reference to a node not upstream: %v", err)
	}
	var fields []string
	for _, fe := range rej.Rejected.Errors {
		fields = append(fields, fe.Field)
	}
	if strings.Join(fields, " ") != "payload.node.url payload.node.body.address payload.node.body.seats" ||
		!strings.Contains(rej.Rejected.Errors[1].Message, "{{nodes.venue.output.venue.address}}: node venue does not run before notice") {
		t.Fatalf("refused %+v", rej.Rejected.Errors)
	}
	if err := create(notice, "venue"); err != nil {
		t.Fatal(err)
	}
	brief := workflow.WorkflowNode{ID: "brief", Type: workflow.NodeTask, Title: "告诉嘉宾地址", AssigneeID: w.Participants[0],
		Description: "场地在 {{nodes.venue.output.venue.address}}（预订号 {{nodes.venue.output.booking_id}}），请转告嘉宾"}
	if err := create(brief, "venue"); err != nil {
		t.Fatal(err)
	}
	if err := decide(workflow.Decision{Type: workflow.DecisionExecuteWorkflow}); err != nil {
		t.Fatal(err)
	}
	w = h.WaitWorkflow(id, 30*time.Second, func(w *workflow.Workflow) bool { return w.Status.Finished() })
	if w.Status != workflow.WorkflowStatusCompleted {
		t.Fatalf("workflow %s at %s %+v\n%s", w.Status, w.FailedNode, w.Run(w.FailedNode), h.Timeline(demandID))
	}
	// The venue's answer, folded from the log: its JSON fields as output.
	if out := w.Run("venue").Result.Output; out["venue.address"] != "望京 SOHO 3号" || out["booking_id"] != "B-42" || out["seats"] != "40" {
		t.Fatalf("venue's output %v", out)
	}
	mu.Lock()
	got, ok := notices["/notice/B-42"]
	mu.Unlock()
	sent, _ := got["body"].(map[string]any)
	if !ok || sent["address"] != "望京 SOHO 3号" || sent["seats"] != "40" || sent["plan"] != w.Title {
		t.Fatalf("the notice posted %v (all: %v)", got, notices)
	}
	if d := spy.task("brief"); d != "场地在 望京 SOHO 3号（预订号 B-42），请转告嘉宾" {
		t.Fatalf("the task prompt read %q", d)
	}
	if w.Node("notice").URL != notice.URL || w.Node("brief").Description != brief.Description {
		t.Fatal("running changed the plan's templates")
	}

	// Another agreement: its venue answers without a booking id, so the
	// notice fails as it starts, naming the reference, and never posts.
	demandID, w = agreedWorkflow(t, h, "user_bob")
	id = w.ID
	if err := create(workflow.WorkflowNode{ID: "venue", Type: workflow.NodeHTTP, Title: "订场地", URL: srv.URL + "/bare"}); err != nil {
		t.Fatal(err)
	}
	if err := create(notice, "venue"); err != nil {
		t.Fatal(err)
	}
	if err := decide(workflow.Decision{Type: workflow.DecisionExecuteWorkflow}); err != nil {
		t.Fatal(err)
	}
	w = h.WaitWorkflow(id, 30*time.Second, func(w *workflow.Workflow) bool { return w.Status.Finished() })
	want := `cannot start: url: {{nodes.venue.output.booking_id}}: node venue's output has no field "booking_id" (it has body, ok, status)`
	if w.Status != workflow.WorkflowStatusFailed || w.FailedNode != "notice" || w.Run("notice").Error != want {
		t.Fatalf("workflow %s at %s %+v\n%s", w.Status, w.FailedNode, w.Run(w.FailedNode), h.Timeline(demandID))
	}
	mu.Lock()
	defer mu.Unlock()
	for path := range notices {
		if path != "/notice/B-42" && path != "/bare" {
			t.Fatalf("the notice posted to %s", path)
		}
	}
}
