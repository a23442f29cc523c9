package api

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/internal/emptylists"
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
	return emptylists.Fill(v), nil
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
