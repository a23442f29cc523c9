package execute

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/workflow"
)

// receiver is a local server (httptest, on 127.0.0.1): /a answers with
// its answer, anything else with {"ok":true}; it keeps every request
// (its path as sent, escapes kept, and its JSON body).
type receiver struct {
	srv    *httptest.Server
	answer string
	mu     sync.Mutex
	got    []received
}

type received struct {
	Method, Path string
	Body         map[string]any
	Raw          []byte
}

func newReceiver(t *testing.T, answer string) *receiver {
	rc := &receiver{answer: answer}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{Method: r.Method, Path: r.URL.EscapedPath(), Body: body, Raw: b})
		rc.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/a" {
			_, _ = w.Write([]byte(rc.answer))
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// TestHTTPDataFlow: given an http node a and an http node b after it
// whose URL and body read a's answer, when a posts to a local receiver
// and b starts, then b posts with a's JSON fields in its URL and body,
// or fails as it starts naming the reference a's answer lacked, or fails
// when the rendered URL's host is no longer on the allow list; b never
// reaches the receiver then.
func TestHTTPDataFlow(t *testing.T) {
	tests := []struct {
		name    string
		answer  string // a's answer
		allowB  bool   // the host still on the allow list when b posts
		path    string // b's request path
		body    map[string]any
		failure string // a part of b's error, when it fails
	}{
		{"a's JSON fields flow into b's URL and body", `{"venue":{"address":"望京 SOHO 3号"},"booking_id":"B/42","seats":40}`, true,
			"/b/B%2F42", map[string]any{"address": "望京 SOHO 3号", "seats": "40 seats", "plan": "AI聚会"}, ""},
		{"a's answer lacks a field b reads", `{"booking_id":"B-42"}`, true, "", nil,
			`cannot start: body.address: {{nodes.a.output.venue.address}}: node a's output has no field "venue.address" (it has body, booking_id, status)`},
		{"the host is off the allow list when b posts", `{"venue":{"address":"x"},"booking_id":"1","seats":1}`, false, "", nil,
			"is no longer on the allow list"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rc := newReceiver(t, tc.answer)
			u, _ := url.Parse(rc.srv.URL)
			now := time.Now()
			wf := &workflow.Workflow{}
			for _, ev := range []event.Payload{&workflow.WorkflowCreated{WorkflowID: "wf-df", DemandID: "d-df", Title: "AI聚会",
				Nodes: []workflow.WorkflowNode{
					{ID: "a", Type: workflow.NodeHTTP, Title: "订场地", URL: rc.srv.URL + "/a"},
					{ID: "b", Type: workflow.NodeHTTP, Title: "通知嘉宾", URL: rc.srv.URL + "/b/{{nodes.a.output.booking_id}}",
						Body: map[string]string{"address": "{{nodes.a.output.venue.address}}", "seats": "{{nodes.a.output.seats}} seats",
							"plan": "{{vars.title}}"}},
				},
				Edges: []workflow.WorkflowEdge{{From: "a", To: "b"}}}} {
				wf.Apply(ev)
			}
			step := func(evs []event.Payload, err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
				if r := workflow.RejectionOf(evs); r != nil {
					t.Fatalf("refused by %s: %+v", r.Rule, r.Errors)
				}
				for _, ev := range evs {
					wf.Apply(ev)
				}
			}
			step(wf.Decide(workflow.Decision{DecisionID: "go", Type: workflow.DecisionExecuteWorkflow, Actor: "user:u", Confidence: 1,
				BaseVersion: 1}, workflow.DecisionContext{Now: now, AllowedHosts: []string{u.Host}}))
			e := &Process{cfg: Config{HTTPAllow: []string{u.Host}, Now: time.Now, JobTimeout: time.Minute}, httpClient: rc.srv.Client()}
			ctx := context.Background()

			step(wf.StartNode("a", now))
			res, failure, _ := e.post(ctx, wf, wf.Node("a"), 1)
			if res == nil {
				t.Fatalf("a failed: %s", failure)
			}
			step(wf.CompleteNode("a", 1, *res))
			step(wf.StartNode("b", now))
			if !tc.allowB {
				e.cfg.HTTPAllow = []string{"hooks.example.com"}
			}
			if r := wf.Run("b"); r.Status == workflow.NodeStatusRunning {
				res, failure, _ := e.post(ctx, wf, wf.Node("b"), 1)
				if res != nil {
					step(wf.CompleteNode("b", 1, *res))
				} else {
					step(wf.FailNode("b", 1, failure, false, now))
				}
			}

			got := rc.requests()
			if tc.failure != "" {
				if r := wf.Run("b"); r.Status != workflow.NodeStatusFailed || !strings.Contains(r.Error, tc.failure) {
					t.Fatalf("b %+v, want a failure with %q", r, tc.failure)
				}
				if len(got) != 1 || wf.Status != workflow.WorkflowStatusFailed {
					t.Fatalf("requests %+v, workflow %s", got, wf.Status)
				}
				return
			}
			if len(got) != 2 || wf.Status != workflow.WorkflowStatusCompleted {
				t.Fatalf("requests %+v, workflow %s %+v", got, wf.Status, wf.Run("b"))
			}
			b := got[1]
			if b.Path != tc.path || b.Body["node_id"] != "b" {
				t.Fatalf("b posted to %s: %+v", b.Path, b.Body)
			}
			sent, _ := b.Body["body"].(map[string]any)
			for k, v := range tc.body {
				if sent[k] != v {
					t.Errorf("b's body %s = %v, want %v (sent %v)", k, sent[k], v, sent)
				}
			}
			// The workflow keeps the templates; the result says where b went.
			if wf.Node("b").Body["address"] != "{{nodes.a.output.venue.address}}" ||
				!strings.Contains(wf.Run("b").Result.Summary, "/b/B%2F42") {
				t.Fatalf("node %+v result %+v", wf.Node("b"), wf.Run("b").Result)
			}
			if out := wf.Run("a").Result.Output; out["venue.address"] != "望京 SOHO 3号" || out["status"] != "200" || out["seats"] != "40" {
				t.Fatalf("a's output %v", out)
			}
		})
	}
}

// TestHTTPMethods: an http node sends the method it names (POST when it
// names none); a GET and a DELETE send no body, the others their body as
// JSON; the result names the method.
func TestHTTPMethods(t *testing.T) {
	tests := []struct {
		method, sent string
		body         bool
	}{{"", "POST", true}, {"POST", "POST", true}, {"PUT", "PUT", true}, {"PATCH", "PATCH", true}, {"GET", "GET", false},
		{"DELETE", "DELETE", false}}
	for _, tc := range tests {
		t.Run(tc.sent, func(t *testing.T) {
			rc := newReceiver(t, "")
			u, _ := url.Parse(rc.srv.URL)
			n := workflow.WorkflowNode{ID: "h", Type: workflow.NodeHTTP, Title: "调用", URL: rc.srv.URL + "/h", Method: tc.method}
			if tc.body {
				n.Body = map[string]string{"k": "v"}
			}
			wf := &workflow.Workflow{}
			wf.Apply(&workflow.WorkflowCreated{WorkflowID: "wf-m", Title: "m", Nodes: []workflow.WorkflowNode{n}})
			e := &Process{cfg: Config{HTTPAllow: []string{u.Host}, Now: time.Now, JobTimeout: time.Minute}, httpClient: rc.srv.Client()}
			res, failure, _ := e.post(context.Background(), wf, wf.Node("h"), 1)
			if res == nil {
				t.Fatalf("failed: %s", failure)
			}
			got := rc.requests()
			if len(got) != 1 || got[0].Method != tc.sent || !strings.HasPrefix(res.Summary, tc.sent+" ") {
				t.Fatalf("requests %+v, result %q", got, res.Summary)
			}
			sent, _ := got[0].Body["body"].(map[string]any)
			if tc.body != (sent["k"] == "v") || (!tc.body && len(got[0].Raw) != 0) {
				t.Fatalf("%s sent %q", tc.sent, got[0].Raw)
			}
		})
	}
}
