package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/workflow"
)

// TestWorkflowNodeTypes: GET /api/v1/workflows/node-types lists exactly
// the domain's node types, in their order, each as its spec says (the
// console's labels, shapes and add menu come from here only).
func TestWorkflowNodeTypes(t *testing.T) {
	h := (&api.Server{Commands: &app.Commands{}}).Handler() // registration only: the list needs no database
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/workflows/node-types", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET node-types: %d %s", rec.Code, rec.Body)
	}
	var out struct {
		NodeTypes []api.NodeTypeEntry `json:"node_types"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.NodeTypes) != len(workflow.NodeTypes) {
		t.Fatalf("%d node types listed, the domain has %v", len(out.NodeTypes), workflow.NodeTypes)
	}
	addable := 0
	for i, e := range out.NodeTypes {
		s, ok := workflow.SpecOf(workflow.NodeTypes[i])
		if !ok || e.Type != string(s.Type) || e.Label != s.Label || e.Description != s.Summary ||
			e.DefaultTimeoutSeconds != int(s.Timeout.Seconds()) || e.Start != string(s.Start) || e.Retried != s.Retried ||
			e.Answer != string(s.Answer) || e.ConsoleAdd != s.ConsoleAdd || e.Pill != s.Pill || len(e.Needs) != len(s.Needs) {
			t.Errorf("entry %d: %+v, want %+v", i, e, s)
		}
		for j, n := range s.Needs {
			if j < len(e.Needs) && e.Needs[j] != n.Field {
				t.Errorf("%s needs %v, want %v", e.Type, e.Needs, s.Needs)
			}
		}
		if e.ConsoleAdd {
			addable++
		}
	}
	if addable == 0 {
		t.Error("the console may add no node type")
	}
}

// TestNodeTypeEnums: the node types' OpenAPI enum is the same wherever a
// node type is answered (a workflow's node, the node-types list).
func TestNodeTypeEnums(t *testing.T) {
	node, _ := reflect.TypeFor[workflow.WorkflowNode]().FieldByName("Type")
	entry, _ := reflect.TypeFor[api.NodeTypeEntry]().FieldByName("Type")
	if a, b := node.Tag.Get("enum"), entry.Tag.Get("enum"); a == "" || a != b {
		t.Fatalf("a workflow node's types %q, the node-types list's %q", a, b)
	}
}
