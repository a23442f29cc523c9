package workflow

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// NodeType is what a workflow node does.
type NodeType string

// Node types. Each has its [NodeSpec] in nodeSpecs; its effect (what an
// attempt does once started) is in the execute package.
const (
	// NodeTask: the assignee does its part; a twin answers through the
	// task prompt, an external agent over the API.
	NodeTask NodeType = "task"
	// NodeApproval: the demand's user approves or rejects over the API.
	NodeApproval NodeType = "approval"
	// NodeWait: a durable timer until WaitUntil.
	NodeWait NodeType = "wait"
	// NodeHTTP: POSTs Body to URL (its host on the allow list).
	NodeHTTP NodeType = "http"
	// NodeMilestone: done when everything before it is done.
	NodeMilestone NodeType = "milestone"
)

// StartMode is what starting an attempt of a node sets off.
type StartMode string

// Start modes.
const (
	// StartEffect: the node's effect runs at once.
	StartEffect StartMode = "effect"
	// StartTimer: the node's effect runs at its WaitUntil (a durable
	// timer), and its attempt lasts until then plus its timeout; a
	// WaitUntil in the past is corrected to now.
	StartTimer StartMode = "timer"
	// StartCompleted: the node completes as it starts (everything before
	// it is done); it has no effect.
	StartCompleted StartMode = "completed"
)

// Answerer is who answers a running node over the API, the person whose
// inbox lists it.
type Answerer string

// Answerers.
const (
	// AnswerNobody: the node's effect settles it.
	AnswerNobody Answerer = ""
	// AnswerAssignee: the node's assignee reports on it.
	AnswerAssignee Answerer = "assignee"
	// AnswerUser: the demand's user answers it.
	AnswerUser Answerer = "user"
)

// NodeSpec is everything the domain and the console know of a node type:
// adding a type is its constant and its entry in nodeSpecs, plus its
// effect in the execute package.
type NodeSpec struct {
	Type NodeType
	// Label names the type for people (Chinese, as the console shows it).
	Label string
	// Summary says what a node of the type does (one English sentence).
	Summary string
	// Timeout is how long one attempt may run when the node does not say
	// (TimeoutSeconds).
	Timeout time.Duration
	// Start is what starting an attempt sets off.
	Start StartMode
	// Completed is the start of the result summary of a node that
	// completes as it starts (Start StartCompleted); its title follows.
	Completed string
	// Retried: the node is tried up to MaxAttempts times
	// (DefaultHTTPAttempts); any other node is tried once.
	Retried bool
	// Answer is who answers a running node over the API.
	Answer Answerer
	// Needs are the typed fields (typedFields) the type needs, each with
	// the refusal when it is missing, or marked Optional (the type may
	// have it, and need not).
	Needs []FieldNeed
	// ConsoleAdd: a person may add a node of the type from the console's
	// form (types whose fields the form does not ask for are added
	// through the conversation or the API).
	ConsoleAdd bool
	// Pill: the canvas draws the node as a pill rather than a box.
	Pill bool
	// Templates are the fields of a node of the type whose text may
	// reference earlier nodes' results and the workflow's variables
	// ({{nodes.<id>.output.<key>}}, {{nodes.<id>.summary}},
	// {{vars.<name>}}: references.go), rendered when an attempt starts;
	// in any other field "{{" is plain text.
	Templates []TemplateField
	// Outputs: a completed node of the type has output fields
	// (NodeResult.Output) a later node may reference; a node of any type
	// has its summary.
	Outputs bool
}

// TemplateField names a node field that may hold references.
type TemplateField string

// The fields that may hold references.
const (
	// TemplateURL: an http node's URL, after its host (a value is
	// percent-encoded as one URL component).
	TemplateURL TemplateField = "url"
	// TemplateBody: every value of an http node's body (not its keys).
	TemplateBody TemplateField = "body"
	// TemplateDescription: a node's description (a task's input).
	TemplateDescription TemplateField = "description"
)

// FieldNeed is a typed field a node type needs and the refusal when a
// node of the type lacks it.
type FieldNeed struct {
	Field   string
	Missing string
	// Optional: the type may have the field and need not.
	Optional bool
}

// nodeSpecs is the one table of node types, in the order they are listed
// (the conversation prompt's type list, the console's menu).
var nodeSpecs = []NodeSpec{
	{Type: NodeTask, Label: "任务", Summary: "The assignee does its part: a twin answers through the task prompt, an external agent reports over the API.",
		Timeout: 24 * time.Hour, Start: StartEffect, Answer: AnswerAssignee,
		Needs: []FieldNeed{{Field: "assignee_id", Missing: "a task needs an assignee"}}, ConsoleAdd: true,
		Templates: []TemplateField{TemplateDescription}},
	{Type: NodeApproval, Label: "审批", Summary: "Its approver (the demand's owner unless it names another user) approves or rejects over the API.",
		Timeout: 7 * 24 * time.Hour, Start: StartEffect, Answer: AnswerUser, ConsoleAdd: true,
		Needs: []FieldNeed{{Field: "approver", Optional: true}}},
	{Type: NodeWait, Label: "等待", Summary: "A durable timer: done at wait_until.",
		Timeout: time.Minute, Start: StartTimer, ConsoleAdd: true,
		Needs: []FieldNeed{{Field: "wait_until", Missing: "a wait needs the time it waits for"}}},
	{Type: NodeHTTP, Label: "HTTP 调用", Summary: "Sends its request (POST unless it names GET, PUT, PATCH or DELETE; the body as JSON) to its URL, whose host must be on the allow list; retried on network errors, 408, 429 and 5xx.",
		Timeout: 30 * time.Second, Start: StartEffect, Retried: true,
		Needs: []FieldNeed{{Field: "url", Missing: "an http node needs a URL"}, {Field: "method", Optional: true}}, ConsoleAdd: true,
		Templates: []TemplateField{TemplateURL, TemplateBody}, Outputs: true},
	{Type: NodeMilestone, Label: "里程碑", Summary: "Done as soon as everything before it is done.",
		Timeout: time.Minute, Start: StartCompleted, Completed: "里程碑达成：", ConsoleAdd: true, Pill: true},
}

// NodeTypes lists the node types.
var NodeTypes = func() []NodeType {
	out := make([]NodeType, len(nodeSpecs))
	for i, s := range nodeSpecs {
		out[i] = s.Type
	}
	return out
}()

// NodeSpecs returns the spec of every node type, in NodeTypes' order.
func NodeSpecs() []NodeSpec {
	out := make([]NodeSpec, len(nodeSpecs))
	for i, s := range nodeSpecs {
		out[i] = s
		out[i].Needs = append([]FieldNeed(nil), s.Needs...)
		out[i].Templates = append([]TemplateField(nil), s.Templates...)
	}
	return out
}

// SpecOf returns the spec of node type t; false when t is no node type.
func SpecOf(t NodeType) (NodeSpec, bool) {
	for _, s := range nodeSpecs {
		if s.Type == t {
			return s, true
		}
	}
	return NodeSpec{}, false
}

// Spec is t's spec, the zero spec (one attempt of a minute, started at
// once, no fields needed) for an unknown type.
func (t NodeType) Spec() NodeSpec {
	s, ok := SpecOf(t)
	if !ok {
		return NodeSpec{Type: t, Timeout: time.Minute, Start: StartEffect}
	}
	return s
}

// Uses reports whether the type needs the typed field named field.
func (s NodeSpec) Uses(field string) bool {
	_, ok := s.need(field)
	return ok
}

func (s NodeSpec) need(field string) (FieldNeed, bool) {
	for _, f := range s.Needs {
		if f.Field == field {
			return f, true
		}
	}
	return FieldNeed{}, false
}

// typedField is a field of a node that only some types use.
type typedField struct {
	name string
	set  func(WorkflowNode) bool
	// only is the refusal when a type that does not need the field has
	// it ("": the others may carry it, unused).
	only string
	// valid returns the refusal of a value of the field ("" : valid).
	valid func(WorkflowNode) string
}

// typedFields are the fields only some types use, in the order validNode
// checks them: first whether each is there when needed and absent when
// not allowed, then the values.
var typedFields = []typedField{
	{name: "assignee_id", set: func(n WorkflowNode) bool { return n.AssigneeID != "" }, only: "only a task has an assignee"},
	{name: "wait_until", set: func(n WorkflowNode) bool { return !n.WaitUntil.IsZero() }},
	{name: "url", set: func(n WorkflowNode) bool { return n.URL != "" }, only: "only an http node has a URL", valid: httpURL},
	{name: "method", set: func(n WorkflowNode) bool { return n.Method != "" }, only: "only an http node has a method", valid: httpMethod},
	{name: "approver", set: func(n WorkflowNode) bool { return n.Approver != "" }, only: "only an approval node names an approver",
		valid: approverID},
}

// HTTPMethods are the methods an http node may use.
var HTTPMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// HTTPMethod is the method an http node sends (POST when it names none).
func (n WorkflowNode) HTTPMethod() string { return cmp.Or(n.Method, "POST") }

// SendsBody reports whether an http node's request carries its body
// (POST, PUT and PATCH do; GET and DELETE do not).
func (n WorkflowNode) SendsBody() bool {
	m := n.HTTPMethod()
	return m != "GET" && m != "DELETE"
}

// httpMethod refuses a method that is not one of HTTPMethods, and a body
// on a request that sends none.
func httpMethod(n WorkflowNode) string {
	if n.Method != "" && !slices.Contains(HTTPMethods, n.Method) {
		return fmt.Sprintf("%q is not one of %s", n.Method, strings.Join(HTTPMethods, ", "))
	}
	if len(n.Body) > 0 && !n.SendsBody() {
		return "a " + n.HTTPMethod() + " request sends no body: leave the body out or use POST, PUT or PATCH"
	}
	return ""
}

// approverID refuses an approver that cannot be a user id.
func approverID(n WorkflowNode) string {
	if n.Approver == "" {
		return ""
	}
	if utf8.RuneCountInString(n.Approver) > 128 || strings.ContainsFunc(n.Approver, unicode.IsSpace) {
		return fmt.Sprintf("%q is not a user id", n.Approver)
	}
	return ""
}

// httpURL refuses a URL that is not an absolute http(s) URL, and one
// whose scheme, user or host a reference would fill in: a reference
// stands only after the host, so the allow list judges the host the
// request goes to.
func httpURL(n WorkflowNode) string {
	u, err := url.Parse(templateSkeleton(n.URL, "x"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Sprintf("%q is not an http(s) URL", n.URL)
	}
	if v, err := url.Parse(templateSkeleton(n.URL, "y")); err != nil || v.Scheme != u.Scheme || v.Host != u.Host ||
		v.User.String() != u.User.String() {
		return fmt.Sprintf("%q: a reference may stand only after the URL's host (in its path, query or fragment)", n.URL)
	}
	return ""
}

// typedFieldError checks the typed fields of n against its type's spec:
// the field of the first refusal and the refusal ("" when none).
func typedFieldError(n WorkflowNode, s NodeSpec) (field, message string) {
	for _, f := range typedFields {
		if need, ok := s.need(f.name); ok && !f.set(n) && !need.Optional {
			return f.name, need.Missing
		} else if !ok && f.only != "" && f.set(n) {
			return f.name, f.only
		}
	}
	for _, f := range typedFields {
		if _, ok := s.need(f.name); ok && f.valid != nil {
			if msg := f.valid(n); msg != "" {
				return f.name, msg
			}
		}
	}
	return "", ""
}
