package main

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/towow/towow/domain"
)

var updateReadme = flag.Bool("update", false, "rewrite the README's generated event catalog")

const (
	catalogStart = "<!-- catalog:start -->"
	catalogEnd   = "<!-- catalog:end -->"
)

// eventCatalogTable renders domain.Catalog() as the README's markdown table.
func eventCatalogTable() string {
	specs := domain.Catalog()
	slices.SortFunc(specs, func(a, b domain.EventSpec) int { return strings.Compare(string(a.Type), string(b.Type)) })
	var b strings.Builder
	b.WriteString("| type | v | what it records | payload fields |\n|---|---|---|---|\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "| `%s` | %d | %s | %s |\n", s.Type, s.SchemaVersion, s.Summary, strings.Join(jsonFields(reflect.TypeOf(s.New()).Elem()), ", "))
	}
	return b.String()
}

// jsonFields lists a struct's JSON field names (embedded structs inlined).
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, "`"+name+"`")
	}
	return out
}

// TestReadmeEventCatalog keeps the README's event catalog true to the code.
func TestReadmeEventCatalog(t *testing.T) {
	const path = "../../README.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, catalogStart), strings.Index(s, catalogEnd)
	if i < 0 || j < i {
		t.Fatalf("README has no %s … %s section", catalogStart, catalogEnd)
	}
	want := catalogStart + "\n" + eventCatalogTable() + catalogEnd
	got := s[i : j+len(catalogEnd)]
	if got == want {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(s[:i]+want+s[j+len(catalogEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("the README's event catalog differs from domain.Catalog(); run go test ./cmd/towow -run TestReadmeEventCatalog -update")
}
