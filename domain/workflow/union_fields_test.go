package workflow_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// jsonNames is the JSON names of t's fields (embedded structs' included).
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, jsonNames(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// TestUnionFields: every variant of the three unions (a decision's payload,
// a canvas change, a fork change) has an entry in its table, and every
// field the table names is a field of the type it describes.
func TestUnionFields(t *testing.T) {
	check := func(union string, variants []string, table map[string]event.Fields, typ reflect.Type) {
		t.Helper()
		names := jsonNames(typ)
		for _, v := range variants {
			f, ok := table[v]
			if !ok {
				t.Errorf("%s: %s has no entry", union, v)
			}
			for _, name := range f.All() {
				if !slices.Contains(names, name) {
					t.Errorf("%s: %s names %q, not a field of %s", union, v, name, typ.Name())
				}
			}
		}
		if len(table) != len(variants) {
			t.Errorf("%s: %d entries for %d variants", union, len(table), len(variants))
		}
	}
	table := func(m any) map[string]event.Fields {
		out := map[string]event.Fields{}
		iter := reflect.ValueOf(m).MapRange()
		for iter.Next() {
			out[iter.Key().String()] = iter.Value().Interface().(event.Fields)
		}
		return out
	}
	check("decision payload", strs(workflow.DecisionTypes), table(workflow.DecisionPayloads), reflect.TypeFor[workflow.DecisionPayload]())
	check("canvas change", strs(workflow.CanvasChangeTypes), table(workflow.CanvasChangeFields), reflect.TypeFor[workflow.CanvasChange]())
	check("fork change", strs(negotiation.ForkChangeTypes), table(negotiation.ForkChangeFields), reflect.TypeFor[negotiation.ForkChange]())
}

// TestUnionEnums: the discriminator of each union lists exactly its
// variants, in the table's order, as its OpenAPI enum.
func TestUnionEnums(t *testing.T) {
	tests := []struct {
		typ      reflect.Type
		field    string
		variants []string
	}{
		{reflect.TypeFor[workflow.Decision](), "Type", strs(workflow.DecisionTypes)},
		{reflect.TypeFor[workflow.CanvasChange](), "Type", strs(workflow.CanvasChangeTypes)},
		{reflect.TypeFor[negotiation.ForkChange](), "Type", strs(negotiation.ForkChangeTypes)},
		{reflect.TypeFor[negotiation.AgentOnline](), "AgentType", strs([]negotiation.AgentType{
			negotiation.AgentTypeCoordinator, negotiation.AgentTypeChannelAdmin, negotiation.AgentTypeUserAgent})},
	}
	for _, tc := range tests {
		f, _ := tc.typ.FieldByName(tc.field)
		if got, want := f.Tag.Get("enum"), strings.Join(tc.variants, ","); got != want {
			t.Errorf("%s.%s's enum is %q, want %q", tc.typ.Name(), tc.field, got, want)
		}
	}
}

// strs is string-typed names as strings.
func strs[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
