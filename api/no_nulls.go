package api

import (
	"encoding/json"
	"reflect"

	"github.com/danielgtaylor/huma/v2"
)

// Lists are never null. The OpenAPI document declares every array as an
// array (not array-or-null), so a generated client reads an empty answer
// as an empty list without a null check; Go encodes a nil slice as null,
// so every response body goes through noNullLists on its way out, which
// writes each nil slice (and nil map) inside it as an empty one.
func init() { huma.DefaultArrayNullable = false }

// noNullLists is the response transformer that replaces the nil slices and
// maps of a response body by empty ones. The body is copied where it
// changes: views shared with a cache are never written.
func noNullLists(_ huma.Context, _ string, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	rv := reflect.ValueOf(v)
	if out, changed := filled(rv); changed {
		return out.Interface(), nil
	}
	return v, nil
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	rawType       = reflect.TypeFor[json.RawMessage]()
)

// filled returns v with its nil slices and maps made empty, and whether
// anything changed (v itself otherwise). Types that encode themselves
// (json.Marshaler) and byte slices are left as they are.
func filled(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	if t == rawType || t.Implements(marshalerType) {
		return v, false
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		inner, changed := filled(v.Elem())
		if !changed {
			return v, false
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(inner)
		return p, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		inner, changed := filled(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(t).Elem()
		out.Set(inner)
		return out, true
	case reflect.Struct:
		var out reflect.Value
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			f, changed := filled(v.Field(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(t).Elem()
				out.Set(v)
			}
			out.Field(i).Set(f)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return v, false
		}
		if v.IsNil() {
			return reflect.MakeSlice(t, 0, 0), true
		}
		var out reflect.Value
		for i := range v.Len() {
			e, changed := filled(v.Index(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeSlice(t, v.Len(), v.Len())
				reflect.Copy(out, v)
			}
			out.Index(i).Set(e)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Map:
		if v.IsNil() {
			return reflect.MakeMap(t), true
		}
		var out reflect.Value
		iter := v.MapRange()
		for iter.Next() {
			e, changed := filled(iter.Value())
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeMapWithSize(t, v.Len())
				for _, k := range v.MapKeys() {
					out.SetMapIndex(k, v.MapIndex(k))
				}
			}
			out.SetMapIndex(iter.Key(), e)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	}
	return v, false
}

// nullableRequestLists lets the request bodies of doc's operations write a
// list as null (a Go client's nil slice, a Python None): each array
// reachable from a request body's schema is array-or-null again. A schema
// shared by a request and a response (an agent's profile) says so in both;
// the responses never carry null (noNullLists).
func nullableRequestLists(doc *huma.OpenAPI) {
	seen := map[*huma.Schema]bool{}
	var visit func(s *huma.Schema)
	visit = func(s *huma.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Ref != "" {
			visit(doc.Components.Schemas.SchemaFromRef(s.Ref))
			return
		}
		if s.Type == huma.TypeArray {
			s.Nullable = true
		}
		visit(s.Items)
		for _, p := range s.Properties {
			visit(p)
		}
		if ap, ok := s.AdditionalProperties.(*huma.Schema); ok {
			visit(ap)
		}
		for _, list := range [][]*huma.Schema{s.OneOf, s.AnyOf, s.AllOf} {
			for _, sub := range list {
				visit(sub)
			}
		}
	}
	for _, item := range doc.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Patch} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			for _, mt := range op.RequestBody.Content {
				visit(mt.Schema)
			}
		}
	}
}
