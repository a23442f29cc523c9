package api

import (
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/timeline"
)

// Three shapes are one of several variants, told apart by a discriminator:
// a decision by its decision_type (its payload's fields depend on it), a
// canvas change and a fork change by their type. Their Go types are one
// struct holding every variant's fields (the domain's); the document
// describes each variant as a schema of its own holding only its fields,
// required as the domain's table says, under oneOf with a discriminator.
// A generated client gets one type per variant, and a request missing a
// variant's field is refused, naming the field, before anything runs.

// union is one of them: the component that becomes the union, its
// discriminator, where the variant's fields are (at: "" for the object
// itself, else the property holding them) and each variant's fields.
type union struct {
	component string
	property  string
	at        string
	variants  []string
	fields    map[string]event.Fields
	// name is a variant's component name, e.g. CreateNodeDecision.
	name func(variant string) string
}

// unions are the document's discriminated unions.
func unions() []union {
	return []union{
		{component: "DecisionInputBody", property: "decision_type", at: "payload",
			variants: names(workflow.DecisionTypes), fields: table(workflow.DecisionPayloads),
			name: func(v string) string { return camel(v) + "Decision" }},
		{component: "CanvasChange", property: "type",
			variants: names(workflow.CanvasChangeTypes), fields: table(workflow.CanvasChangeFields),
			name: func(v string) string { return "Canvas" + camel(v) }},
		{component: "ForkChange", property: "type",
			variants: names(negotiation.ForkChangeTypes), fields: table(negotiation.ForkChangeFields),
			name: func(v string) string { return "Fork" + camel(v) }},
	}
}

// applyUnions makes each union's component a oneOf of its variants, each
// registered as a component of its own. A server without the operations
// that use a union (one that serves no commands) has no such component.
func applyUnions(reg huma.Registry) {
	for _, u := range unions() {
		u.apply(reg)
	}
	for _, u := range valueUnions() {
		u.apply(reg)
	}
}

// valueUnion is a union whose variants differ by the type of one value:
// an event's payload by its event_type, a bridge message's data by its
// event. Each variant is the component with the discriminator fixed to
// its name and the value's schema that of its Go type.
type valueUnion struct {
	component string
	property  string
	value     string
	variants  []valueVariant
}

// valueVariant is one variant of a valueUnion: its discriminator value,
// the Go type of its value and its component's name.
type valueVariant struct {
	name      string
	value     reflect.Type
	component string
}

// valueUnions are the document's unions by a value's type.
func valueUnions() []valueUnion {
	events := valueUnion{component: "Event", property: "event_type", value: "payload"}
	for _, spec := range event.Catalog() {
		t := reflect.TypeOf(spec.New()).Elem()
		events.variants = append(events.variants, valueVariant{name: string(spec.Type), value: t, component: t.Name() + "Event"})
	}
	bridge := valueUnion{component: "BridgeMessage", property: "event", value: "data"}
	for _, e := range timeline.BridgeEvents {
		t := reflect.TypeOf(e.Data)
		bridge.variants = append(bridge.variants, valueVariant{name: e.Event, value: t, component: t.Name() + "Message"})
	}
	return []valueUnion{events, bridge}
}

func (u valueUnion) apply(reg huma.Registry) {
	base := reg.Map()[u.component]
	if base == nil {
		return
	}
	variants := make([]variant, len(u.variants))
	for i, v := range u.variants {
		s := objectLike(base)
		s.Properties[u.value] = reg.Schema(v.value, true, "")
		variants[i] = variant{value: v.name, component: v.component, schema: s}
	}
	discriminate(reg, u.component, u.property, variants)
}

func (u union) apply(reg huma.Registry) {
	base := reg.Map()[u.component]
	if base == nil {
		return
	}
	fieldsOf := base
	if u.at != "" {
		fieldsOf = resolve(reg, base.Properties[u.at])
	}
	variants := make([]variant, len(u.variants))
	for i, v := range u.variants {
		f := u.fields[v]
		own := &huma.Schema{Type: huma.TypeObject, AdditionalProperties: false, Properties: map[string]*huma.Schema{},
			Required: append([]string{}, f.Required...)}
		for _, name := range f.All() {
			own.Properties[name] = fieldsOf.Properties[name]
		}
		s := own
		if u.at == "" {
			s.Required = append([]string{u.property}, s.Required...)
		} else {
			s = objectLike(base)
			own.Description = fieldsOf.Description
			own.PrecomputeMessages()
			s.Properties[u.at] = own
			if len(f.Required) > 0 {
				s.Required = append(s.Required, u.at)
			}
		}
		s.Description = base.Description
		variants[i] = variant{value: v, component: u.name(v), schema: s}
	}
	discriminate(reg, u.component, u.property, variants)
}

// variant is one variant of a union: its discriminator value, the name it
// is registered under and its schema (the discriminator is set by
// discriminate).
type variant struct {
	value     string
	component string
	schema    *huma.Schema
}

// discriminate registers each variant with its discriminator fixed to its
// value and makes component the oneOf of them. The discriminator is also
// declared beside oneOf, so that a value of no variant is refused naming
// the variants, not as "matched none".
func discriminate(reg huma.Registry, component, property string, variants []variant) {
	schemas := reg.Map()
	all := make([]any, len(variants))
	for i, v := range variants {
		all[i] = v.value
	}
	out := &huma.Schema{Description: schemas[component].Description, Type: huma.TypeObject, Required: []string{property},
		Properties:    map[string]*huma.Schema{property: {Type: huma.TypeString, Enum: all}},
		Discriminator: &huma.Discriminator{PropertyName: property, Mapping: map[string]string{}}}
	out.Properties[property].PrecomputeMessages()
	for _, v := range variants {
		v.schema.Properties[property] = &huma.Schema{Type: huma.TypeString, Enum: []any{v.value}}
		v.schema.PrecomputeMessages()
		schemas[v.component] = v.schema
		ref := "#/components/schemas/" + v.component
		out.OneOf = append(out.OneOf, &huma.Schema{Ref: ref})
		out.Discriminator.Mapping[v.value] = ref
	}
	out.PrecomputeMessages()
	schemas[component] = out
}

// objectLike is a closed object with base's properties (the same
// schemas), required fields and description.
func objectLike(base *huma.Schema) *huma.Schema {
	s := &huma.Schema{Type: huma.TypeObject, AdditionalProperties: false, Properties: make(map[string]*huma.Schema, len(base.Properties)),
		Required: append([]string{}, base.Required...), Description: base.Description}
	for name, p := range base.Properties {
		s.Properties[name] = p
	}
	return s
}

// resolve is s, or the schema it refers to.
func resolve(reg huma.Registry, s *huma.Schema) *huma.Schema {
	for s != nil && s.Ref != "" {
		s = reg.SchemaFromRef(s.Ref)
	}
	return s
}

// camel is snake_case as CamelCase: create_node → CreateNode.
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// names is a list of string-typed names as strings.
func names[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

// table is a variant table keyed by strings.
func table[T ~string](m map[T]event.Fields) map[string]event.Fields {
	out := make(map[string]event.Fields, len(m))
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}
