package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	evt "github.com/towow/towow/domain/event"
	"github.com/towow/towow/internal/emptylists"
)

// Every tool's input and output schema is inferred from its Go types (the
// domain's own types where the tool takes or returns one, the types the
// REST API's OpenAPI document is generated from) by schemaFor, so that any
// MCP client can use it:
//
//   - each value has one type: a list, a map, an optional object or scalar
//     is "array", "object", "string", … never type-or-null. An optional
//     input field is one that is not required (absent means unset); an
//     output never holds null where the schema says a list or a map
//     (addTool fills them) and leaves out a missing object (omitempty);
//   - no schema accepts anything: every field has a shape (a free-form
//     value is declared {"type":"object","additionalProperties":true});
//   - the domain types' tags for the API are read too: doc is a field's
//     description (unless the tool's own jsonschema tag gives one), enum
//     its allowed values, required:"false" makes it optional.

// typeSchemas are the schemas of the types that encode themselves.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[time.Time](): {Type: "string", Format: "date-time"},
}

// schemaFor is T's JSON schema as a tool declares it (see above). The
// types are fixed: a type it cannot describe is a programming error, and
// it panics.
func schemaFor[T any]() *jsonschema.Schema {
	t := reflect.TypeFor[T]()
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %v: %v", t, err))
	}
	singleTypes(s)
	annotate(s, t)
	if at := untyped(s, ""); at != "" {
		panic(fmt.Sprintf("mcpserver: schema of %v: %s takes any value: give it a type", t, at))
	}
	return s
}

// singleTypes makes every type-or-null of s (a Go slice, map or pointer)
// its one type.
func singleTypes(s *jsonschema.Schema) {
	eachSchema(s, func(s *jsonschema.Schema) {
		if len(s.Types) == 0 {
			return
		}
		types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(types) == 1 {
			s.Type, s.Types = types[0], nil
		} else {
			s.Types = types
		}
	})
}

// eachSchema calls f on s and every schema inside it.
func eachSchema(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	f(s)
	for _, p := range s.Properties {
		eachSchema(p, f)
	}
	for _, d := range s.Defs {
		eachSchema(d, f)
	}
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems, s.ItemsArray} {
		for _, sub := range list {
			eachSchema(sub, f)
		}
	}
	eachSchema(s.Items, f)
	eachSchema(s.AdditionalProperties, f)
	eachSchema(s.Not, f)
}

// untyped is the path of the first schema inside s that says nothing of
// its value (a Go any or json.RawMessage), "" when there is none. An
// object's additionalProperties may be the schema that takes anything:
// the object is then free-form.
func untyped(s *jsonschema.Schema, at string) string {
	if s == nil {
		return ""
	}
	if s.Type == "" && len(s.Types) == 0 && s.Ref == "" && s.Enum == nil && s.Const == nil &&
		s.AnyOf == nil && s.OneOf == nil && s.AllOf == nil && s.Not == nil {
		return cmp.Or(at, "the value")
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		if p := untyped(s.Properties[name], at+"."+name); p != "" {
			return p
		}
	}
	if p := untyped(s.Items, at+"[]"); p != "" {
		return p
	}
	if a := s.AdditionalProperties; a != nil && !reflect.DeepEqual(*a, jsonschema.Schema{}) {
		return untyped(a, at+".*")
	}
	return ""
}

// annotate reads the API's tags of t's fields into s, t's schema: doc
// (a description, unless the field has its own jsonschema tag), enum and
// required:"false".
func annotate(s *jsonschema.Schema, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || typeSchemas[t] != nil {
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		annotate(s.Items, t.Elem())
	case reflect.Map:
		annotate(s.AdditionalProperties, t.Elem())
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous || !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			p := s.Properties[name]
			if p == nil {
				continue
			}
			if doc := f.Tag.Get("doc"); doc != "" {
				if _, own := f.Tag.Lookup("jsonschema"); !own {
					p.Description = doc
				}
			}
			if enum := f.Tag.Get("enum"); enum != "" {
				p.Enum = nil
				for _, v := range strings.Split(enum, ",") {
					p.Enum = append(p.Enum, v)
				}
			}
			if f.Tag.Get("required") == "false" {
				s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == name })
			}
			annotate(p, f.Type)
		}
	}
}

// optional makes the named properties of s optional.
func optional(s *jsonschema.Schema, names ...string) {
	s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return slices.Contains(names, r) })
}

// enumOf is a list of names as a schema's enum.
func enumOf[T ~string](names []T) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = string(n)
	}
	return out
}

// describeVariants describes each field of obj but its discriminator (if
// any), the fields of a union's variants (a decision's payload, a fork's
// change), with which variants require it and which may give it, as table
// says (the domain's table of each variant's fields), then the field's own
// text. A field of obj that no variant has, or a field of table that obj
// lacks, is a programming error: it panics.
func describeVariants[T ~string](obj *jsonschema.Schema, discriminator string, variants []T, table map[T]evt.Fields, text map[string]string) {
	for _, v := range variants {
		for _, f := range table[v].All() {
			if obj.Properties[f] == nil {
				panic(fmt.Sprintf("mcpserver: %s's field %s is not in the schema", v, f))
			}
		}
	}
	for name, p := range obj.Properties {
		if name == discriminator {
			continue
		}
		var required, opt []string
		for _, v := range variants {
			switch {
			case slices.Contains(table[v].Required, name):
				required = append(required, string(v))
			case slices.Contains(table[v].Optional, name):
				opt = append(opt, string(v))
			}
		}
		if len(required)+len(opt) == 0 {
			panic(fmt.Sprintf("mcpserver: field %s belongs to no variant", name))
		}
		var uses []string
		if len(required) > 0 {
			uses = append(uses, "required by "+list(required))
		}
		if len(opt) > 0 {
			uses = append(uses, "optional for "+list(opt))
		}
		use := strings.Join(uses, "; ")
		p.Description = strings.ToUpper(use[:1]) + use[1:]
		if t := text[name]; t != "" {
			p.Description += ": " + t
		}
	}
}

// variantsSummary says, for each variant, the fields it requires and may
// give, e.g. "create_node: node (optional: after and before); …;
// execute_workflow: no field".
func variantsSummary[T ~string](variants []T, table map[T]evt.Fields) string {
	parts := make([]string, 0, len(variants))
	for _, v := range variants {
		f := table[v]
		s := string(v) + ": "
		switch {
		case len(f.Required) > 0:
			s += list(f.Required)
			if len(f.Optional) > 0 {
				s += " (optional: " + list(f.Optional) + ")"
			}
		case len(f.Optional) > 0:
			s += "optional " + list(f.Optional)
		default:
			s += "no field"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// list joins names: "a", "a and b", "a, b and c".
func list(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// addTool registers a tool whose input schema (unless the tool sets its
// own) and output schema are schemaFor In's and Out's, and whose output
// never holds a null list or map: every result goes through
// emptylists.Fill, as the output schema says "array" and "object" (the
// SDK checks the result against it). Out may hold no pointer that would
// be written as null (a pointer field needs omitempty); it panics
// otherwise.
func addTool[In, Out any](s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	if at := nullable(reflect.TypeFor[Out](), "", map[reflect.Type]bool{}); at != "" {
		panic(fmt.Sprintf("mcpserver: tool %s: its output's %s may be null: give it omitempty", t.Name, at))
	}
	if t.InputSchema == nil {
		t.InputSchema = schemaFor[In]()
	}
	t.OutputSchema = schemaFor[Out]()
	mcp.AddTool(s, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		res, out, err := h(ctx, req, in)
		if err != nil {
			return res, out, err
		}
		if filled, ok := emptylists.Fill(out).(Out); ok {
			out = filled
		}
		return res, out, nil
	})
}

// nullable is the path of a field inside t that JSON writes as null when
// it is nil (a pointer or an interface without omitempty or omitzero), ""
// when there is none. Slices and maps are not: emptylists.Fill makes them
// empty.
func nullable(t reflect.Type, at string, seen map[reflect.Type]bool) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if seen[t] || typeSchemas[t] != nil {
		return ""
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return nullable(t.Elem(), at+"[]", seen)
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous || !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			name = cmp.Or(name, f.Name)
			omit := slices.ContainsFunc(strings.Split(opts, ","), func(o string) bool { return o == "omitempty" || o == "omitzero" })
			if k := f.Type.Kind(); (k == reflect.Pointer || k == reflect.Interface) && !omit {
				return at + "." + name
			}
			if p := nullable(f.Type, at+"."+name, seen); p != "" {
				return p
			}
		}
	}
	return ""
}
