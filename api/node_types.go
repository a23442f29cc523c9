package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/workflow"
)

// NodeTypeEntry is one workflow node type as a client shows it, from the
// domain's table of node types.
type NodeTypeEntry struct {
	Type                  string   `json:"type" example:"task" enum:"task,approval,wait,http,milestone"`
	Label                 string   `json:"label" example:"任务" doc:"the type's name for people (Chinese, as the console shows it)"`
	Description           string   `json:"description" doc:"what a node of the type does, one English sentence"`
	DefaultTimeoutSeconds int      `json:"default_timeout_seconds" doc:"how long one attempt may run when the node sets no timeout_seconds"`
	Start                 string   `json:"start" enum:"effect,timer,completed" doc:"what starting an attempt sets off: its effect at once, its effect at wait_until, or nothing (it completes as it starts)"`
	Retried               bool     `json:"retried" doc:"tried up to max_attempts times; other types are tried once"`
	Answer                string   `json:"answer,omitempty" enum:"assignee,user" doc:"who answers a running node over the API (absent: its effect settles it)"`
	Needs                 []string `json:"needs" doc:"the fields a node of the type must have"`
	ConsoleAdd            bool     `json:"console_add" doc:"a person may add a node of the type from the console's form"`
	Pill                  bool     `json:"pill" doc:"the canvas draws the node as a pill rather than a box"`
}

// NodeTypesOutput lists the workflow node types.
type NodeTypesOutput struct {
	Body struct {
		NodeTypes []NodeTypeEntry `json:"node_types"`
	}
}

// nodeTypes is the list's body, built once from the domain's table: the
// list of node types exists there only.
var nodeTypes = func() []NodeTypeEntry {
	specs := workflow.NodeSpecs()
	out := make([]NodeTypeEntry, len(specs))
	for i, s := range specs {
		needs := make([]string, len(s.Needs))
		for j, n := range s.Needs {
			needs[j] = n.Field
		}
		out[i] = NodeTypeEntry{Type: string(s.Type), Label: s.Label, Description: s.Summary,
			DefaultTimeoutSeconds: int(s.Timeout.Seconds()), Start: string(s.Start), Retried: s.Retried, Answer: string(s.Answer),
			Needs: needs, ConsoleAdd: s.ConsoleAdd, Pill: s.Pill}
	}
	return out
}()

// registerNodeTypes registers GET /api/v1/workflows/node-types.
func registerNodeTypes(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "workflow-node-types",
		Method:      http.MethodGet,
		Path:        "/api/v1/workflows/node-types",
		Summary:     "Every workflow node type: its label for people, its default timeout, how it starts, the fields it needs",
		Description: "Generated from the domain's table of node types, in the order the console lists them; console_add marks the types a person adds from the console's form.",
		Tags:        []string{"workflows"},
	}, func(context.Context, *struct{}) (*NodeTypesOutput, error) {
		out := &NodeTypesOutput{}
		out.Body.NodeTypes = nodeTypes
		return out, nil
	})
}
