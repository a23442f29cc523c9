// Package emptylists writes a value's nil slices and maps as empty ones,
// so that its JSON has no null list: a client reads an empty answer as an
// empty list without a null check.
package emptylists

import (
	"encoding/json"
	"reflect"
)

// Fill returns v with every nil slice and map inside it (through pointers,
// structs, slices, maps and interfaces) replaced by an empty one. v is
// copied where it changes, never written: values shared with a cache stay
// as they are. Types that encode themselves (json.Marshaler) and byte
// slices are left alone; nil is returned as nil.
func Fill(v any) any {
	if v == nil {
		return nil
	}
	if out, changed := filled(reflect.ValueOf(v)); changed {
		return out.Interface()
	}
	return v
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
