package workflow

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
)

// A workflow need not come from an agreement: a person starts one of
// their own, empty or from a template, and builds it on the canvas or in
// the conversation. It has no demand and no participants (so no task
// nodes: a task goes to a participant of an agreement); its owner is the
// person who started it, who answers its approvals.

// Template is a workflow to start from.
type Template struct {
	Key   string `json:"key"`
	Title string `json:"title" doc:"its name for people"`
	// Summary says what it is for.
	Summary string         `json:"summary"`
	Nodes   []WorkflowNode `json:"nodes"`
	Edges   []WorkflowEdge `json:"edges"`
}

// The templates' keys.
const (
	TemplateBlank    = "blank"
	TemplateApproval = "approval"
	TemplateEvent    = "event"
)

// Templates lists the templates, the empty workflow first.
var Templates = []Template{
	{Key: TemplateBlank, Title: "空白", Summary: "An empty workflow: add its steps on the canvas or ask the assistant.",
		Nodes: []WorkflowNode{}, Edges: []WorkflowEdge{}},
	{Key: TemplateApproval, Title: "审批流程", Summary: "Prepare, have it approved by the owner, done.",
		Nodes: []WorkflowNode{
			{ID: "prepare", Type: NodeMilestone, Title: "材料准备好", Description: "要审批的内容准备齐全"},
			{ID: "approve", Type: NodeApproval, Title: "审批", Description: "发起人审阅并批准"},
			{ID: "done", Type: NodeMilestone, Title: "完成"},
		},
		Edges: []WorkflowEdge{{From: "prepare", To: "approve"}, {From: "approve", To: "done"}}},
	{Key: TemplateEvent, Title: "活动筹备", Summary: "A meetup's milestones, with the owner's approval before the day.",
		Nodes: []WorkflowNode{
			{ID: "venue", Type: NodeMilestone, Title: "确定场地"},
			{ID: "signup", Type: NodeMilestone, Title: "发布报名"},
			{ID: "go", Type: NodeApproval, Title: "活动前确认", Description: "确认场地、嘉宾和报名人数，批准后活动照常举行"},
			{ID: "day", Type: NodeMilestone, Title: "活动当天"},
			{ID: "review", Type: NodeMilestone, Title: "复盘"},
		},
		Edges: []WorkflowEdge{{From: "venue", To: "signup"}, {From: "signup", To: "go"}, {From: "go", To: "day"}, {From: "day", To: "review"}}},
}

// TemplateKeys lists the templates' keys.
func TemplateKeys() []string {
	out := make([]string, len(Templates))
	for i, t := range Templates {
		out[i] = t.Key
	}
	return out
}

// MaxTitleRunes bounds a workflow's title.
const MaxTitleRunes = 200

// ErrNewWorkflowInvalid: a workflow cannot be started so: an unknown
// template, a title empty or too long (TOWOW_WORKFLOW_008).
var ErrNewWorkflowInvalid = &event.Error{Code: "TOWOW_WORKFLOW_008", Message: "invalid new workflow"}

// NewInput is a workflow a person starts.
type NewInput struct {
	WorkflowID, UserID, Title string
	// Template is a key of Templates ("": blank).
	Template string
	Now      time.Time
}

// NewWorkflow starts a person's own workflow: a draft, owned by them,
// with the template's steps laid out (the title defaults to the
// template's). ErrNewWorkflowInvalid for an unknown template or a bad
// title.
func NewWorkflow(in NewInput) (*WorkflowCreated, error) {
	key := in.Template
	if key == "" {
		key = TemplateBlank
	}
	var tpl *Template
	for i := range Templates {
		if Templates[i].Key == key {
			tpl = &Templates[i]
		}
	}
	if tpl == nil {
		return nil, event.Errorf(ErrNewWorkflowInvalid, "no template %q (one of %s)", key, strings.Join(TemplateKeys(), ", "))
	}
	title := strings.TrimSpace(in.Title)
	if title == "" {
		title = tpl.Title
	}
	if utf8.RuneCountInString(title) > MaxTitleRunes {
		return nil, event.Errorf(ErrNewWorkflowInvalid, "a title holds at most %d characters", MaxTitleRunes)
	}
	nodes := append([]WorkflowNode{}, tpl.Nodes...)
	edges := append([]WorkflowEdge{}, tpl.Edges...)
	layout(nodes, edges)
	return &WorkflowCreated{WorkflowID: in.WorkflowID, UserID: in.UserID, Title: title, Participants: []string{},
		Nodes: nodes, Edges: edges, CreatedAt: in.Now}, nil
}
