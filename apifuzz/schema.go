package apifuzz

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"
)

// validate checks v (decoded with json.Decoder.UseNumber) against the JSON
// schema s of the OpenAPI 3.1 document doc, following "#/..." references.
// It knows the keywords the ToWow document uses: $ref, type (one or a
// list), enum, properties, required, additionalProperties, items,
// maxItems, minLength, maxLength, minimum, maximum and format date-time.
// The error names the first place that breaks the schema.
func validate(doc map[string]any, s any, v any, at string) error {
	schema, ok := s.(map[string]any)
	if !ok {
		return nil // true or an absent schema: anything goes
	}
	if ref, ok := schema["$ref"].(string); ok {
		target, err := resolve(doc, ref)
		if err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		return validate(doc, target, v, at)
	}
	if t, ok := schema["type"]; ok {
		kind := jsonKind(v)
		if !typeAllows(t, kind) {
			return fmt.Errorf("%s: %s where the schema wants %v", at, kind, t)
		}
	}
	if enum, ok := schema["enum"].([]any); ok && !inEnum(enum, v) {
		return fmt.Errorf("%s: %v is not one of %v", at, v, enum)
	}
	switch x := v.(type) {
	case map[string]any:
		return validateObject(doc, schema, x, at)
	case []any:
		if limit, ok := number(schema["maxItems"]); ok && float64(len(x)) > limit {
			return fmt.Errorf("%s: %d items, at most %v allowed", at, len(x), limit)
		}
		for i, item := range x {
			if err := validate(doc, schema["items"], item, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case string:
		n := float64(utf8.RuneCountInString(x))
		if limit, ok := number(schema["maxLength"]); ok && n > limit {
			return fmt.Errorf("%s: %v characters, at most %v allowed", at, n, limit)
		}
		if limit, ok := number(schema["minLength"]); ok && n < limit {
			return fmt.Errorf("%s: %v characters, at least %v needed", at, n, limit)
		}
		if schema["format"] == "date-time" {
			if _, err := time.Parse(time.RFC3339Nano, x); err != nil {
				return fmt.Errorf("%s: %q is not a date-time", at, x)
			}
		}
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return fmt.Errorf("%s: %s is not a number", at, x)
		}
		if limit, ok := number(schema["minimum"]); ok && f < limit {
			return fmt.Errorf("%s: %v below the minimum %v", at, f, limit)
		}
		if limit, ok := number(schema["maximum"]); ok && f > limit {
			return fmt.Errorf("%s: %v above the maximum %v", at, f, limit)
		}
	}
	return nil
}

// validateObject checks an object's required, declared and extra members.
func validateObject(doc, schema map[string]any, x map[string]any, at string) error {
	props, _ := schema["properties"].(map[string]any)
	if req, ok := schema["required"].([]any); ok {
		for _, name := range req {
			if _, ok := x[fmt.Sprint(name)]; !ok {
				return fmt.Errorf("%s: required member %q is missing", at, name)
			}
		}
	}
	for name, member := range x {
		sub, declared := props[name]
		switch {
		case declared:
		case schema["additionalProperties"] == false:
			return fmt.Errorf("%s: member %q is not in the schema", at, name)
		default:
			sub = schema["additionalProperties"]
		}
		if err := validate(doc, sub, member, at+"."+name); err != nil {
			return err
		}
	}
	return nil
}

// resolve follows a local JSON pointer such as #/components/schemas/X.
func resolve(doc map[string]any, ref string) (any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("reference %q is not local", ref)
	}
	var cur any = doc
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		m, ok := cur.(map[string]any)
		if !ok || m[part] == nil {
			return nil, fmt.Errorf("reference %q leads nowhere", ref)
		}
		cur = m[part]
	}
	return cur, nil
}

// jsonKind names v's JSON type; a whole number is "integer".
func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// typeAllows reports whether the schema's type (a name or a list of them)
// admits a value of kind; an integer is also a number.
func typeAllows(t any, kind string) bool {
	names := []any{t}
	if list, ok := t.([]any); ok {
		names = list
	}
	for _, n := range names {
		if n == kind || (n == "number" && kind == "integer") {
			return true
		}
	}
	return false
}

func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		if reflect.DeepEqual(normal(e), normal(v)) {
			return true
		}
	}
	return false
}

// normal turns json.Number into float64 so enum members compare.
func normal(v any) any {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return v
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	}
	return 0, false
}
