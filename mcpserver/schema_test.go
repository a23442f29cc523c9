package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// listTools is every tool as a client lists it, over an in-memory
// connection (listing calls no API).
func listTools(t *testing.T) []*mcp.Tool {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(Config{BaseURL: "http://towow.invalid"}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

// unportable lists what in a JSON schema, as a client receives it, a
// client mapping it onto a narrower dialect could not take: a type list,
// a boolean schema where a schema object belongs, a schema that accepts
// anything, a reference outside the document (the MCP Inspector's
// --strict rules).
func unportable(node any, at string) []string {
	switch n := node.(type) {
	case bool:
		return []string{at + ": bare " + fmt.Sprint(n)}
	case map[string]any:
		var out []string
		if _, ok := n["type"].([]any); ok {
			out = append(out, at+": type list "+fmt.Sprint(n["type"]))
		}
		if ref, ok := n["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
			out = append(out, at+": remote $ref "+ref)
		}
		constrains := false
		for _, k := range []string{"type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "not", "properties",
			"items", "additionalProperties", "required", "pattern", "format", "minimum", "maximum"} {
			if _, ok := n[k]; ok {
				constrains = true
			}
		}
		if !constrains {
			out = append(out, at+": accepts any value")
		}
		for _, k := range []string{"properties", "$defs", "definitions", "patternProperties"} {
			if m, ok := n[k].(map[string]any); ok {
				for name, sub := range m {
					out = append(out, unportable(sub, at+"."+k+"."+name)...)
				}
			}
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
			if l, ok := n[k].([]any); ok {
				for i, sub := range l {
					out = append(out, unportable(sub, fmt.Sprintf("%s.%s[%d]", at, k, i))...)
				}
			}
		}
		for _, k := range []string{"items", "not", "additionalProperties"} {
			sub, ok := n[k]
			if !ok {
				continue
			}
			if _, isBool := sub.(bool); isBool && k == "additionalProperties" {
				continue
			}
			out = append(out, unportable(sub, at+"."+k)...)
		}
		return out
	}
	return []string{at + ": not a schema"}
}

// TestSchemasPortable: every tool's input and output schema, as a client
// lists it, is portable: one type per value, no schema that accepts
// anything, no null list (see schemaFor).
func TestSchemasPortable(t *testing.T) {
	tools := listTools(t)
	if len(tools) < 17 {
		t.Fatalf("%d tools", len(tools))
	}
	for _, tool := range tools {
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
		for kind, s := range map[string]any{"inputSchema": tool.InputSchema, "outputSchema": tool.OutputSchema} {
			raw, _ := json.Marshal(s)
			var node any
			if err := json.Unmarshal(raw, &node); err != nil {
				t.Fatal(err)
			}
			for _, p := range unportable(node, kind) {
				t.Errorf("%s: %s", tool.Name, p)
			}
		}
	}
}

// TestUnportableFindsProblems: the check above finds what it looks for.
func TestUnportableFindsProblems(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   int
	}{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, 0},
		{`{"type":"object","additionalProperties":true}`, 0},
		{`{"type":["null","array"],"items":{"type":"string"}}`, 1},
		{`{"type":"object","properties":{"a":true}}`, 1},
		{`{"type":"object","properties":{"a":{"description":"x"}}}`, 1},
		{`{"type":"array","items":{"$ref":"https://example.com/s.json"}}`, 1},
	} {
		var node any
		if err := json.Unmarshal([]byte(tc.schema), &node); err != nil {
			t.Fatal(err)
		}
		if got := unportable(node, "s"); len(got) != tc.want {
			t.Errorf("%s: %q, want %d findings", tc.schema, got, tc.want)
		}
	}
}

// schemaJSON is a tool's schema as JSON, decoded.
func schemaJSON(t *testing.T, s any) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(s)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// prop is the property at the path of names inside a schema.
func prop(t *testing.T, s map[string]any, names ...string) map[string]any {
	t.Helper()
	for _, n := range names {
		next, ok := s["properties"].(map[string]any)[n].(map[string]any)
		if !ok {
			t.Fatalf("no property %s in %v", n, s)
		}
		s = next
	}
	return s
}

// TestUnionFieldsFromTables: decide_workflow's payload fields and
// fork_negotiation's change fields say which variants need them, as the
// domain's tables say; the discriminators are enums of the variants.
func TestUnionFieldsFromTables(t *testing.T) {
	byName := map[string]*mcp.Tool{}
	for _, tool := range listTools(t) {
		byName[tool.Name] = tool
	}
	decide := schemaJSON(t, byName["decide_workflow"].InputSchema)
	if decide["type"] != "object" || decide["oneOf"] != nil || decide["anyOf"] != nil {
		t.Errorf("decide_workflow's input is not one flat object: %v", decide)
	}
	fork := schemaJSON(t, byName["fork_negotiation"].InputSchema)
	for _, tc := range []struct {
		name     string
		disc     map[string]any
		fields   map[string]any
		variants []string
		table    func(variant string) (required, optional []string)
	}{
		{"decision", prop(t, decide, "decision_type"), prop(t, decide, "payload"), names(workflow.DecisionTypes),
			func(v string) ([]string, []string) {
				f := workflow.DecisionPayloads[workflow.DecisionType(v)]
				return f.Required, f.Optional
			}},
		{"fork change", prop(t, fork, "change", "type"), prop(t, fork, "change"), names(negotiation.ForkChangeTypes),
			func(v string) ([]string, []string) {
				f := negotiation.ForkChangeFields[negotiation.ForkChangeType(v)]
				return f.Required, f.Optional
			}},
	} {
		var enum []string
		for _, v := range tc.disc["enum"].([]any) {
			enum = append(enum, v.(string))
		}
		if !slices.Equal(enum, tc.variants) {
			t.Errorf("%s: enum %v, want %v", tc.name, enum, tc.variants)
		}
		for _, v := range tc.variants {
			required, opt := tc.table(v)
			for _, f := range required {
				desc, _ := prop(t, tc.fields, f)["description"].(string)
				if uses, _, _ := strings.Cut(desc, ":"); !strings.HasPrefix(uses, "Required by") || !containsWord(uses, v) {
					t.Errorf("%s %s: %s's description %q does not say %s requires it", tc.name, v, f, desc, v)
				}
			}
			for _, f := range opt {
				desc, _ := prop(t, tc.fields, f)["description"].(string)
				if uses, _, _ := strings.Cut(desc, ":"); !strings.Contains(uses, "ptional for") || !containsWord(uses, v) {
					t.Errorf("%s %s: %s's description %q does not say %s may give it", tc.name, v, f, desc, v)
				}
			}
		}
		t.Logf("%s: %s", tc.name, tc.disc["description"])
	}
	if got := prop(t, decide, "payload", "node_id")["description"]; got != "Required by update_node, delete_node and move_node: the step's node_id" {
		t.Errorf("node_id: %q", got)
	}
	if got := prop(t, decide, "payload", "reason")["description"]; got != "Optional for cancel_workflow: why" {
		t.Errorf("reason: %q", got)
	}
	if got := prop(t, decide, "payload", "node", "type")["enum"]; !reflect.DeepEqual(got, []any{"task", "approval", "wait", "http", "milestone"}) {
		t.Errorf("node type enum: %v", got)
	}
}

// containsWord reports whether the list text names w (not only as a part
// of a longer name).
func containsWord(text, w string) bool {
	return slices.Contains(strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == ';' }), w)
}

func names[T ~string](l []T) []string {
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = string(v)
	}
	return out
}

// TestNullableOutput: an output type with a pointer written as null is
// refused when the tool is added.
func TestNullableOutput(t *testing.T) {
	type inner struct {
		N *int `json:"n"`
	}
	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[Negotiation](), ""},
		{reflect.TypeFor[CompareOutput](), ""},
		{reflect.TypeFor[struct {
			P *inner `json:"p,omitempty"`
		}](), ".p.n"},
		{reflect.TypeFor[struct {
			L []inner `json:"l"`
		}](), ".l[].n"},
		{reflect.TypeFor[struct {
			A any `json:"a"`
		}](), ".a"},
	} {
		if got := nullable(tc.typ, "", map[reflect.Type]bool{}); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.typ, got, tc.want)
		}
	}
}
