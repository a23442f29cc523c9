package workflow

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNodeSpecsComplete: every node type has a complete spec: a unique
// type, a label for people and a summary, a positive default timeout, a
// known start mode (a type that completes as it starts says how its
// result begins, no other does), a known answerer (an assignee answers
// only a type that needs one), and needs only typed fields, each with
// its refusal. NodeTypes lists the table's types in its order, and a
// field only some types may carry is needed by one.
func TestNodeSpecsComplete(t *testing.T) {
	if len(nodeSpecs) == 0 {
		t.Fatal("no node types")
	}
	seen := map[NodeType]bool{}
	for i, s := range NodeSpecs() {
		if s.Type == "" || seen[s.Type] {
			t.Errorf("spec %d: type %q empty or repeated", i, s.Type)
		}
		seen[s.Type] = true
		if i >= len(NodeTypes) || NodeTypes[i] != s.Type {
			t.Errorf("NodeTypes %v do not list the table's types in order (spec %d is %s)", NodeTypes, i, s.Type)
		}
		if got, ok := SpecOf(s.Type); !ok || got.Type != s.Type {
			t.Errorf("SpecOf(%s) = %v, %v", s.Type, got.Type, ok)
		}
		if strings.TrimSpace(s.Label) == "" || strings.TrimSpace(s.Summary) == "" {
			t.Errorf("%s: needs a label and a summary", s.Type)
		}
		if s.Timeout <= 0 {
			t.Errorf("%s: default timeout %s", s.Type, s.Timeout)
		}
		if !slices.Contains([]StartMode{StartEffect, StartTimer, StartCompleted}, s.Start) {
			t.Errorf("%s: unknown start mode %q", s.Type, s.Start)
		}
		if (s.Start == StartCompleted) != (s.Completed != "") {
			t.Errorf("%s: start %s with result summary %q", s.Type, s.Start, s.Completed)
		}
		if !slices.Contains([]Answerer{AnswerNobody, AnswerAssignee, AnswerUser}, s.Answer) {
			t.Errorf("%s: unknown answerer %q", s.Type, s.Answer)
		}
		if s.Answer == AnswerAssignee && !s.Uses("assignee_id") {
			t.Errorf("%s: answered by its assignee but needs none", s.Type)
		}
		if s.Start == StartCompleted && s.Answer != AnswerNobody {
			t.Errorf("%s: completes as it starts, yet waits for an answer", s.Type)
		}
		for _, n := range s.Needs {
			if !slices.ContainsFunc(typedFields, func(f typedField) bool { return f.name == n.Field }) {
				t.Errorf("%s needs %q, which is no typed field", s.Type, n.Field)
			}
			if strings.TrimSpace(n.Missing) == "" && !n.Optional {
				t.Errorf("%s needs %q without saying so when it is missing", s.Type, n.Field)
			}
		}
		for i, f := range s.Templates {
			if !slices.Contains([]TemplateField{TemplateURL, TemplateBody, TemplateDescription}, f) || slices.Index(s.Templates, f) != i {
				t.Errorf("%s: template field %q unknown or repeated", s.Type, f)
			}
			if (f == TemplateURL || f == TemplateBody) && !s.Uses("url") {
				t.Errorf("%s: its %s holds references, yet it has no URL", s.Type, f)
			}
		}
		if s.Outputs && s.Start == StartCompleted {
			t.Errorf("%s: completes as it starts, so nothing gives it output fields", s.Type)
		}
	}
	if len(NodeTypes) != len(nodeSpecs) {
		t.Errorf("NodeTypes %v, %d specs", NodeTypes, len(nodeSpecs))
	}
	for _, f := range typedFields {
		if !slices.ContainsFunc(nodeSpecs, func(s NodeSpec) bool { return s.Uses(f.name) }) {
			t.Errorf("typed field %s is needed by no type", f.name)
		}
	}
	if _, ok := SpecOf("fax"); ok {
		t.Error("SpecOf(fax) found a spec")
	}
	if s := NodeType("fax").Spec(); s.Timeout != time.Minute || s.Start != StartEffect || len(s.Needs) != 0 {
		t.Errorf("unknown type's spec %+v", s)
	}
}

// TestNodeTypeRules pins what each type's spec means: its default
// timeout, its attempts, how it starts and who answers it.
func TestNodeTypeRules(t *testing.T) {
	cases := []struct {
		t        NodeType
		timeout  time.Duration
		attempts int
		start    StartMode
		answer   Answerer
	}{
		{NodeTask, 24 * time.Hour, 1, StartEffect, AnswerAssignee},
		{NodeApproval, 7 * 24 * time.Hour, 1, StartEffect, AnswerUser},
		{NodeWait, time.Minute, 1, StartTimer, AnswerNobody},
		{NodeHTTP, 30 * time.Second, DefaultHTTPAttempts, StartEffect, AnswerNobody},
		{NodeMilestone, time.Minute, 1, StartCompleted, AnswerNobody},
		{"fax", time.Minute, 1, StartEffect, AnswerNobody},
	}
	for _, c := range cases {
		s := c.t.Spec()
		if got := c.t.Spec().Timeout; got != c.timeout {
			t.Errorf("%s: timeout %s, want %s", c.t, got, c.timeout)
		}
		if got := (WorkflowNode{Type: c.t}).Attempts(); got != c.attempts {
			t.Errorf("%s: %d attempts, want %d", c.t, got, c.attempts)
		}
		if got := (WorkflowNode{Type: c.t, MaxAttempts: 5}).Attempts(); (got == 5) != (c.attempts > 1) {
			t.Errorf("%s: %d attempts with max_attempts 5", c.t, got)
		}
		if s.Start != c.start || s.Answer != c.answer {
			t.Errorf("%s: start %s, answer %q; want %s, %q", c.t, s.Start, s.Answer, c.start, c.answer)
		}
	}
	wait := WorkflowNode{Type: NodeWait, WaitUntil: wfNow.Add(time.Hour)}
	if got := wait.Timeout(wfNow); got != time.Hour+time.Minute {
		t.Errorf("a wait an hour away lasts %s", got)
	}
	if got := (WorkflowNode{Type: NodeTask, WaitUntil: wfNow.Add(time.Hour)}).Timeout(wfNow); got != 24*time.Hour {
		t.Errorf("a task with a wait_until lasts %s", got)
	}
}

// validNodeBefore is validNode's typed-field rules as they were written
// per type before the table: the table must refuse exactly as they did.
func validNodeBefore(n WorkflowNode, field string) []FieldError {
	switch {
	case n.Type == NodeTask && n.AssigneeID == "":
		return refuse(field+"assignee_id", "a task needs an assignee")
	case n.Type != NodeTask && n.AssigneeID != "":
		return refuse(field+"assignee_id", "only a task has an assignee")
	case n.Type == NodeWait && n.WaitUntil.IsZero():
		return refuse(field+"wait_until", "a wait needs the time it waits for")
	case n.Type == NodeHTTP && n.URL == "":
		return refuse(field+"url", "an http node needs a URL")
	case n.Type != NodeHTTP && n.URL != "":
		return refuse(field+"url", "only an http node has a URL")
	}
	if n.Type == NodeHTTP {
		u, err := url.Parse(n.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return refuse(field+"url", "%q is not an http(s) URL", n.URL)
		}
	}
	return nil
}

// TestValidNodeTypedFields: for every type and every combination of an
// assignee, a wait time and a URL (none, valid, not http), validNode
// refuses with the field and message the per-type rules gave.
func TestValidNodeTypedFields(t *testing.T) {
	for _, typ := range NodeTypes {
		for _, who := range []string{"", "a1"} {
			for _, until := range []time.Time{{}, wfNow} {
				for _, u := range []string{"", "https://hooks.example.com/x", "ftp://x", "::"} {
					n := WorkflowNode{Type: typ, Title: "t", AssigneeID: who, WaitUntil: until, URL: u}
					got, want := validNode(n, "payload.node."), validNodeBefore(n, "payload.node.")
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("%s assignee %q wait %v url %q: %v, want %v", typ, who, !until.IsZero(), u, got, want)
					}
				}
			}
		}
	}
	got := validNode(WorkflowNode{Type: "fax", Title: "t"}, "payload.node.")
	if len(got) != 1 || got[0].Message != `unknown node type "fax" (one of `+strings.Join(nodeTypeNames(), ", ")+`)` {
		t.Errorf("unknown type: %v", got)
	}
}

func nodeTypeNames() []string {
	var out []string
	for _, s := range nodeSpecs {
		out = append(out, string(s.Type))
	}
	return out
}

// TestNodeTypeEnum: a node's and a canvas change's type fields list exactly the node types of
// the table, in its order, as its OpenAPI enum.
func TestNodeTypeEnum(t *testing.T) {
	var want []string
	for _, s := range nodeSpecs {
		want = append(want, string(s.Type))
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[WorkflowNode](), reflect.TypeFor[CanvasNodeData]()} {
		f, ok := typ.FieldByName("Type")
		if !ok {
			t.Fatalf("%s has no Type", typ.Name())
		}
		if got := f.Tag.Get("enum"); got != strings.Join(want, ",") {
			t.Errorf("%s.Type's enum is %q, the node types are %q", typ.Name(), got, strings.Join(want, ","))
		}
	}
}
