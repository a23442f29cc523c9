package workflow

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
)

func TestParseTemplate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Reference
		err  string // a part of the error, "" when it parses
	}{
		{"plain text, a { brace } and a lone }}", nil, ""},
		{"{{nodes.venue.output.address}}", []Reference{{Node: "venue", Output: "address"}}, ""},
		{"at {{ nodes.venue.output.venue.address }}, by {{nodes.task-1.summary}} for {{vars.title}}",
			[]Reference{{Node: "venue", Output: "venue.address"}, {Node: "task-1", Output: ""}, {Var: "title"}}, ""},
		{"{{nodes.场地.summary}}", []Reference{{Node: "场地"}}, ""},
		{"{{nodes.}}", nil, "{{nodes.}} is not a reference"},
		{"{{}}", nil, "{{}} is not a reference: empty"},
		{"{{nodes.venue}}", nil, "{{nodes.venue}} is not a reference: want"},
		{"{{nodes.venue.output}}", nil, "want nodes.<node_id>.output.<key>"},
		{"{{nodes.venue.summary.x}}", nil, "is not a reference"},
		{"{{vars}}", nil, "{{vars}} is not a reference"},
		{"{{vars.a.b}}", nil, "{{vars.a.b}} is not a reference"},
		{"{{env.HOME}}", nil, `unknown root "env"`},
		{"{{nodes.venue.summary", nil, "no closing }}"},
		{"{{nodes.a b.summary}}", nil, `' ' may not stand in a name`},
		{"{{nodes.venue.output.x|upper}}", nil, `'|' may not stand in a name`},
		{"{{nodes.venue.output.a()}}", nil, `'(' may not stand in a name`},
		{"{{{nodes.venue.summary}}}", nil, `'{' may not stand in a name`},
		{"{{nodes..summary}}", nil, "an empty name between dots"},
		{"{{nodes." + strings.Repeat("x", 81) + ".summary}}", nil, "at most 80 characters"},
	} {
		got, err := ParseTemplate(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one with %q", tc.in, err, tc.err)
		case tc.err == "" && !slices.Equal(got, tc.want):
			t.Errorf("%q: %+v, want %+v", tc.in, got, tc.want)
		}
	}
	if s := (Reference{Node: "v", Output: "a.b"}).String(); s != "{{nodes.v.output.a.b}}" {
		t.Errorf("String %s", s)
	}
}

func TestHTTPOutput(t *testing.T) {
	many := map[string]int{}
	for i := range 40 {
		many[fmt.Sprintf("k%02d", i)] = i
	}
	manyJSON := fmt.Sprint(`{`, strings.Join(func() []string {
		var out []string
		for _, k := range slices.Sorted(maps.Keys(many)) {
			out = append(out, fmt.Sprintf("%q:%d", k, many[k]))
		}
		return out
	}(), ","), `}`)
	for _, tc := range []struct {
		name   string
		answer string
		want   map[string]string // besides status and body
	}{
		{"not JSON", "ok", map[string]string{}},
		{"a JSON array", `[1,2]`, map[string]string{}},
		{"scalars, numbers as written", `{"address":"望京 SOHO","seats":40,"price":1.50,"open":true,"none":null,"tags":["a"]}`,
			map[string]string{"address": "望京 SOHO", "seats": "40", "price": "1.50", "open": "true"}},
		{"nested objects by path", `{"venue":{"address":"x","room":{"no":"3"}},"a":{"b":{"c":{"d":{"e":"too deep"}}}}}`,
			map[string]string{"venue.address": "x", "venue.room.no": "3"}},
		{"the answer's own status and body stay in the body", `{"status":"booked","body":"b","id":"7"}`, map[string]string{"id": "7"}},
		{"names a reference cannot hold, values too long", `{"a b":"1","x.y":"2","ok":"3","long":"` + strings.Repeat("x", MaxOutputValue+1) + `"}`,
			map[string]string{"ok": "3"}},
		{"at most MaxOutputFields", manyJSON, func() map[string]string {
			out := map[string]string{}
			for _, k := range slices.Sorted(maps.Keys(many))[:MaxOutputFields] {
				out[k] = fmt.Sprint(many[k])
			}
			return out
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := HTTPOutput(201, []byte(tc.answer))
			want := maps.Clone(tc.want)
			want["status"], want["body"] = "201", clipBytes([]byte(tc.answer), MaxHTTPBodyKept)
			if !maps.Equal(got, want) {
				t.Fatalf("got %v\nwant %v", got, want)
			}
		})
	}
	// The kept body is cut at a character.
	long := strings.Repeat("场", MaxHTTPBodyKept) // 3 bytes each
	if b := HTTPOutput(200, []byte(long))["body"]; len(b) > MaxHTTPBodyKept || !strings.HasPrefix(long, b) || len(b) < MaxHTTPBodyKept-3 {
		t.Fatalf("body of %d bytes", len(b))
	}
}

// flowCreated is the given workflow of the data-flow tests: venue (http)
// → book (a1's task) → done (milestone), and side, a milestone on its
// own.
func flowCreated() *WorkflowCreated {
	return &WorkflowCreated{WorkflowID: "wf-f", DemandID: "d-f", ChannelID: "collab-f", Title: "AI聚会", Participants: []string{"a1"},
		Nodes: []WorkflowNode{
			{ID: "venue", Type: NodeHTTP, Title: "订场地", URL: "http://127.0.0.1/venue"},
			{ID: "book", Type: NodeTask, Title: "确认", AssigneeID: "a1", Description: "在 {{nodes.venue.output.address}} 确认场地"},
			{ID: "done", Type: NodeMilestone, Title: "完成"},
			{ID: "side", Type: NodeMilestone, Title: "旁支"},
		},
		Edges: []WorkflowEdge{{From: "venue", To: "book"}, {From: "book", To: "done"}}}
}

// flowRunning is flowCreated executed, with venue completed with output.
func flowRunning(output map[string]string) []event.Payload {
	return []event.Payload{flowCreated(),
		&DecisionValidated{WorkflowID: "wf-f", Decision: decision("go", DecisionExecuteWorkflow, 1, DecisionPayload{}), Version: 2, DecidedAt: wfNow},
		&WorkflowStarted{WorkflowID: "wf-f"},
		&NodeStarted{WorkflowID: "wf-f", NodeID: "venue", NodeType: NodeHTTP, Attempt: 1},
		&NodeCompleted{WorkflowID: "wf-f", NodeID: "venue", NodeType: NodeHTTP, Attempt: 1,
			Result: NodeResult{Summary: "POST http://127.0.0.1/venue → 200", By: event.ActorSystem, Output: output}}}
}

// TestDataFlowDecisions: given a workflow, when a decision sets or cuts
// off a reference, then the Coordinator lets it through or refuses it
// with the rule, the field and the reference.
func TestDataFlowDecisions(t *testing.T) {
	draft := []event.Payload{flowCreated()}
	running := flowRunning(map[string]string{"status": "200", "body": `{"address":"望京"}`, "address": "望京"})
	httpNode := func(id string, body map[string]string) *WorkflowNode {
		return &WorkflowNode{ID: id, Type: NodeHTTP, Title: "通知", URL: "http://127.0.0.1/notify", Body: body}
	}
	payload := func(ref string) map[string]string { return map[string]string{"payload": ref, "plain": "no reference"} }
	task := func(id, description string) *WorkflowNode {
		return &WorkflowNode{ID: id, Type: NodeTask, Title: "跟进", AssigneeID: "a1", Description: description}
	}
	create := func(n *WorkflowNode, after ...string) Decision {
		return decision("d1", DecisionCreateNode, 1, DecisionPayload{Node: n, After: after})
	}
	badDraft := flowCreated()
	badDraft.Nodes[2] = WorkflowNode{ID: "done", Type: NodeTask, Title: "完成", AssigneeID: "a1", Description: "{{nodes.side.summary}}"}
	tests := []struct {
		name     string
		given    []event.Payload
		decision Decision
		rule     string // the refusing rule, "" when let through
		field    string // the refused field
		message  string // a part of the refusal
	}{
		{"a node's output and summary upstream", draft,
			create(httpNode("notify", map[string]string{"address": "{{nodes.venue.output.address}}", "who": "{{ nodes.book.summary }}"}), "book"),
			"", "", ""},
		{"a variable and an output, in a task's input", draft, create(task("t2", "{{vars.title}}：去 {{nodes.venue.output.address}}"), "venue"), "", "", ""},
		{"a reference in the URL's path and query", draft, create(&WorkflowNode{ID: "n", Type: NodeHTTP, Title: "n",
			URL: "http://127.0.0.1/rooms/{{nodes.venue.output.room}}?by={{vars.demand_id}}"}, "venue"), "", "", ""},
		{"an unknown node", draft, create(httpNode("notify", payload("{{nodes.nope.output.address}}")), "book"),
			"data_flow", "payload.node.body.payload", `{{nodes.nope.output.address}}: no node "nope" in the workflow`},
		{"a node that is not upstream", draft, create(httpNode("notify", payload("{{nodes.venue.output.address}}")), "side"),
			"data_flow", "payload.node.body.payload", "{{nodes.venue.output.address}}: node venue does not run before notify"},
		{"a node after nothing", draft, create(task("t2", "{{nodes.book.summary}}")),
			"data_flow", "payload.node.description", "node book does not run before t2"},
		{"a node's own result", draft, create(httpNode("notify", payload("{{nodes.notify.summary}}")), "venue"),
			"data_flow", "payload.node.body.payload", "cannot read its own result"},
		{"an output field of a task", draft, create(httpNode("notify", payload("{{nodes.book.output.x}}")), "book"),
			"data_flow", "payload.node.body.payload", "book is a task node, which has no output fields"},
		{"an unknown variable", draft, create(httpNode("notify", payload("{{vars.secret}}")), "book"),
			"data_flow", "payload.node.body.payload", `{{vars.secret}}: no variable "secret"`},
		{"malformed: {{nodes.}}", draft, create(httpNode("notify", payload("{{nodes.}}")), "book"),
			"node_fields", "payload.node.body.payload", "{{nodes.}} is not a reference"},
		{"an unknown root", draft, create(task("t2", "{{env.HOME}}"), "book"),
			"node_fields", "payload.node.description", `{{env.HOME}} is not a reference: unknown root "env"`},
		{"an unclosed reference", draft, create(task("t2", "at {{nodes.venue.output.address"), "venue"),
			"node_fields", "payload.node.description", "no closing }}"},
		{"a reference in the URL's host", draft, create(&WorkflowNode{ID: "n", Type: NodeHTTP, Title: "n",
			URL: "http://127.0.0.1{{nodes.venue.output.port}}/x"}, "venue"), "node_fields", "payload.node.url", "only after the URL's host"},
		{"a milestone's description is plain text", draft, create(&WorkflowNode{ID: "m", Type: NodeMilestone, Title: "m",
			Description: "{{whatever}}"}), "", "", ""},
		{"update a task's input upstream", draft, decision("d1", DecisionUpdateNode, 1, DecisionPayload{NodeID: "book",
			Changes: &NodeChanges{Description: new("{{nodes.venue.summary}}，{{vars.title}}")}}), "", "", ""},
		{"update a task's input to a node not upstream", draft, decision("d1", DecisionUpdateNode, 1, DecisionPayload{NodeID: "book",
			Changes: &NodeChanges{Description: new("{{nodes.side.summary}}")}}), "data_flow", "payload.changes.description", "node side does not run before book"},
		{"update an http body to an unknown node", draft, decision("d1", DecisionUpdateNode, 1, DecisionPayload{NodeID: "venue",
			Changes: &NodeChanges{Body: &map[string]string{"x": "{{nodes.ghost.summary}}"}}}), "data_flow", "payload.changes.body.x", `no node "ghost"`},
		{"delete a node another reads", draft, decision("d1", DecisionDeleteNode, 1, DecisionPayload{NodeID: "venue"}),
			"data_flow", "payload.node_id", `node book would lose what its description reads: {{nodes.venue.output.address}}: no node "venue"`},
		{"disconnect a node from one it reads", draft, decision("d1", DecisionDisconnect, 1, DecisionPayload{From: "venue", To: "book"}),
			"data_flow", "payload.to", "node venue does not run before book"},
		{"disconnect what nobody reads", draft, decision("d1", DecisionDisconnect, 1, DecisionPayload{From: "book", To: "done"}), "", "", ""},
		{"delete what nobody reads", draft, decision("d1", DecisionDeleteNode, 1, DecisionPayload{NodeID: "side"}), "", "", ""},
		{"execute a workflow whose node reads a node not upstream", []event.Payload{badDraft},
			decision("d1", DecisionExecuteWorkflow, 1, DecisionPayload{}), "executable", "workflow.nodes[done].description", "node side does not run before done"},
		{"execute a workflow whose references hold", draft, decision("d1", DecisionExecuteWorkflow, 1, DecisionPayload{}), "", "", ""},
		{"while running: a field the completed node has", running, decision("d1", DecisionCreateNode, 2, DecisionPayload{
			Node: httpNode("notify", payload("{{nodes.venue.output.address}}")), After: []string{"venue"}}), "", "", ""},
		{"while running: a field the completed node lacks", running, decision("d1", DecisionCreateNode, 2, DecisionPayload{
			Node: httpNode("notify", payload("{{nodes.venue.output.phone}}")), After: []string{"venue"}}),
			"data_flow", "payload.node.body.payload", `node venue completed without output field "phone" (it has address, body, status)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := foldWorkflow(tc.given...)
			evs, err := w.Decide(tc.decision, allowed)
			if err != nil {
				t.Fatal(err)
			}
			rej := RejectionOf(evs)
			if tc.rule == "" {
				if rej != nil {
					t.Fatalf("refused by %s: %+v", rej.Rule, rej.Errors)
				}
				return
			}
			if rej == nil || rej.Rule != tc.rule || len(rej.Errors) == 0 || rej.Errors[0].Field != tc.field ||
				!strings.Contains(rej.Errors[0].Message, tc.message) || rej.Reason != rej.Errors[0].Message {
				t.Fatalf("got %s %+v\nwant %s refusing %s with %q", shortTypes(evs), rej, tc.rule, tc.field, tc.message)
			}
		})
	}
	if !slices.Contains(ValidatorRules(), "data_flow") {
		t.Fatal("data_flow is not in the chain")
	}
}

// TestRenderAtStart: given venue completed with an output, when the node
// reading it starts, then it starts with its references rendered, or
// fails for good as it starts, naming the field and the reference.
func TestRenderAtStart(t *testing.T) {
	tests := []struct {
		name        string
		output      map[string]string
		description string
		events      []string
		rendered    string // book's description as it runs
		failure     string // a part of book's error
	}{
		{"the output field is there", map[string]string{"address": "望京 SOHO"}, "", []string{"node.started"}, "在 望京 SOHO 确认场地", ""},
		{"an empty value renders empty", map[string]string{"address": ""}, "", []string{"node.started"}, "在  确认场地", ""},
		{"summary and variables", nil, "{{nodes.venue.summary}} / {{vars.title}} / {{vars.workflow_id}}", []string{"node.started"},
			"POST http://127.0.0.1/venue → 200 / AI聚会 / wf-f", ""},
		{"the output field is missing", map[string]string{"status": "200"}, "",
			[]string{"node.started", "node.failed", "node.skipped", "node.skipped", "workflow.failed"}, "",
			`cannot start: description: {{nodes.venue.output.address}}: node venue's output has no field "address" (it has status)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &run{t: t, events: flowRunning(tc.output)}
			if tc.description != "" {
				r.events[0] = func() *WorkflowCreated { c := flowCreated(); c.Nodes[1].Description = tc.description; return c }()
			}
			got := r.do(r.w().StartNode("book", wfNow))
			if !slices.Equal(got, tc.events) {
				t.Fatalf("events %v, want %v", got, tc.events)
			}
			w := r.w()
			if tc.failure != "" {
				if run := w.Run("book"); run.Status != NodeStatusFailed || !strings.Contains(run.Error, tc.failure) || w.FailedNode != "book" {
					t.Fatalf("book %+v, workflow %s at %s; want the error %q", run, w.Status, w.FailedNode, tc.failure)
				}
				return
			}
			n, err := w.RenderNode("book")
			if err != nil || n.Description != tc.rendered || w.Node("book").Description == n.Description {
				t.Fatalf("rendered %q %v, want %q (the node itself unchanged)", n.Description, err, tc.rendered)
			}
		})
	}
}

// TestRenderURLAndBody: in a URL a value is percent-encoded as one
// component (it cannot add a path, a query or a host); in a body it is
// copied as it is (the body is sent as JSON).
func TestRenderURLAndBody(t *testing.T) {
	c := flowCreated()
	c.Nodes = append(c.Nodes, WorkflowNode{ID: "notify", Type: NodeHTTP, Title: "通知",
		URL:  "http://127.0.0.1/rooms/{{nodes.venue.output.room}}?q={{nodes.venue.output.q}}",
		Body: map[string]string{"room": "{{nodes.venue.output.room}}", "q": "q={{nodes.venue.output.q}}", "key {{x": "literal key"}})
	c.Edges = append(c.Edges, WorkflowEdge{From: "venue", To: "notify"})
	evs := flowRunning(map[string]string{"room": "a/b c@evil.io", "q": "x&y=z#"})
	evs[0] = c
	w := foldWorkflow(evs...)
	n, err := w.RenderNode("notify")
	if err != nil {
		t.Fatal(err)
	}
	if want := "http://127.0.0.1/rooms/a%2Fb%20c%40evil.io?q=x%26y%3Dz%23"; n.URL != want {
		t.Fatalf("URL %s, want %s", n.URL, want)
	}
	if want := map[string]string{"room": "a/b c@evil.io", "q": "q=x&y=z#", "key {{x": "literal key"}; !maps.Equal(n.Body, want) {
		t.Fatalf("body %v", n.Body)
	}
	if !HostAllowed(n.URL, []string{"127.0.0.1"}) {
		t.Fatal("the rendered URL left the host")
	}
	if w.Node("notify").Body["room"] != "{{nodes.venue.output.room}}" {
		t.Fatal("rendering changed the workflow's node")
	}
	// A node not completed has no value yet.
	if _, err := foldWorkflow(flowCreated()).RenderNode("book"); err == nil || !strings.Contains(err.Error(), "node venue is pending, not completed") {
		t.Fatalf("%v", err)
	}
}

// TestDataFlowCanvas: given a draft, when a canvas batch adds a node that
// reads another and then its edges, then the batch's later edges count
// upstream of it; a batch that leaves it reading a node not upstream is
// refused at the change at fault.
func TestDataFlowCanvas(t *testing.T) {
	added := CanvasChange{Type: CanvasNodeAdded, NodeID: "t2", Data: &CanvasNodeData{Type: NodeTask, NodeChanges: NodeChanges{
		Title: new("转告嘉宾"), AssigneeID: new("a1"), Description: new("地址：{{nodes.venue.output.address}}")}}}
	edge := func(typ CanvasChangeType, from, to string) CanvasChange {
		return CanvasChange{Type: typ, Edge: &WorkflowEdge{From: from, To: to}}
	}
	tests := []struct {
		name    string
		changes []CanvasChange
		index   int    // the refused change, -1 when applied
		field   string // its refused field
		message string
	}{
		{"the node, then the edge from the node it reads", []CanvasChange{added, edge(CanvasEdgeAdded, "venue", "t2")}, -1, "", ""},
		{"the node after a node upstream of the one it reads", []CanvasChange{added, edge(CanvasEdgeAdded, "book", "t2")}, -1, "", ""},
		{"the node, then an edge from elsewhere", []CanvasChange{added, edge(CanvasEdgeAdded, "side", "t2")}, 0,
			"payload.node.description", "{{nodes.venue.output.address}}: node venue does not run before t2"},
		{"the node and its edge, then the edge taken away", []CanvasChange{added, edge(CanvasEdgeAdded, "venue", "t2"),
			edge(CanvasEdgeDeleted, "venue", "t2")}, 2, "payload.to", "node t2 would lose what its description reads"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := foldWorkflow(flowCreated())
			out, err := w.DecideCanvas(CanvasBatch{BatchID: "b1", ClientID: "tab", Actor: "user:u", BaseVersion: 1, Changes: tc.changes}, allowed)
			if err != nil {
				t.Fatal(err)
			}
			if tc.index < 0 {
				if out.Rejected != nil {
					t.Fatalf("refused change %d by %s: %+v", out.Index, out.Rejected.Rule, out.Rejected.Errors)
				}
				return
			}
			r := out.Rejected
			if r == nil || out.Index != tc.index || r.Rule != "data_flow" || r.Errors[0].Field != tc.field || !strings.Contains(r.Reason, tc.message) {
				t.Fatalf("got index %d %+v; want change %d refused by data_flow at %s with %q", out.Index, r, tc.index, tc.field, tc.message)
			}
		})
	}
}
