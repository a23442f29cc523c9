package llm

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Strict shapes. The reply types' field types decode leniently (flex.go),
// but a value of the wrong JSON kind is not coerced: a number or a list
// where text is expected, a single value where a list is expected, or a
// list of numbers where a list of texts is expected make the reply
// invalid, and the model is asked again with what was wrong (a reply with
// every value of the wrong type would otherwise pass as empty fields). A
// field that is absent or null is left to the prompt's validation.
// Scalars (numbers, percentages, booleans) stay lenient: "80%" for 0.8 is
// the same answer.

var (
	textType     = reflect.TypeFor[Text]()
	textListType = reflect.TypeFor[TextList]()
	scalarType   = reflect.TypeFor[Scalar]()
)

// shapeError says what in the JSON object raw has the wrong kind for the
// reply type t (a struct, or a pointer to one); "" when nothing does.
func shapeError(raw []byte, t reflect.Type) string {
	return checkShape(raw, t, "")
}

// checkShape checks the value raw against type t at path.
func checkShape(raw []byte, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	c := firstByte(raw)
	if c == 'n' || c == 0 {
		return "" // absent or null: the prompt's validation decides
	}
	switch {
	case t == textType:
		if c != '"' {
			return fmt.Sprintf("%s must be text (a JSON string), not %s", path, jsonKind(raw))
		}
		return ""
	case t == textListType:
		return checkList(raw, path, func(e []byte, at string) string {
			if firstByte(e) != '"' {
				return fmt.Sprintf("%s must be text (a JSON string), not %s", at, jsonKind(e))
			}
			return ""
		})
	case t == scalarType:
		if c == '[' || c == '{' {
			return fmt.Sprintf("%s must be a single value, not %s", path, jsonKind(raw))
		}
		return ""
	}
	if elem, ok := listElem(t); ok {
		return checkList(raw, path, func(e []byte, at string) string {
			if firstByte(e) == '"' && acceptsString(elem) {
				return "" // an agent id where the candidate object was expected
			}
			return checkShape(e, elem, at)
		})
	}
	if inner, ok := objectValue(t); ok {
		t = inner
	}
	if t.Kind() != reflect.Struct {
		return ""
	}
	if c != '{' {
		return fmt.Sprintf("%s must be an object, not %s", strings.TrimPrefix(path, "."), jsonKind(raw))
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return ""
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		v, ok := lookupField(fields, name)
		if !ok {
			continue
		}
		if msg := checkShape(v, f.Type, joinPath(path, name)); msg != "" {
			return msg
		}
	}
	return ""
}

// checkList checks that raw is a JSON list and each element passes elem.
func checkList(raw []byte, path string, elem func(e []byte, at string) string) string {
	if firstByte(raw) != '[' {
		return fmt.Sprintf("%s must be a list (a JSON array), not %s", path, jsonKind(raw))
	}
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return path + " is not a valid list"
	}
	for i, e := range elems {
		if msg := elem(e, fmt.Sprintf("%s[%d]", path, i)); msg != "" {
			return msg
		}
	}
	return ""
}

// listElem reports whether t is a List[T], and T.
func listElem(t reflect.Type) (reflect.Type, bool) {
	if l, ok := reflect.Zero(t).Interface().(interface{ elemType() reflect.Type }); ok && t.Kind() == reflect.Slice {
		return l.elemType(), true
	}
	return nil, false
}

// objectValue reports whether t is an Object[T], and T.
func objectValue(t reflect.Type) (reflect.Type, bool) {
	if o, ok := reflect.Zero(t).Interface().(interface{ valueType() reflect.Type }); ok {
		return o.valueType(), true
	}
	return nil, false
}

// acceptsString reports whether a list element of type t may be written as
// a bare string (its UnmarshalJSON takes one: decodeObjectOrString).
func acceptsString(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
}

// lookupField finds a field by its JSON name as encoding/json does
// (an exact match first, then case-insensitively).
func lookupField(fields map[string]json.RawMessage, name string) (json.RawMessage, bool) {
	if v, ok := fields[name]; ok {
		return v, true
	}
	for k, v := range fields {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
