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

var updateReadme = flag.Bool("update", false, "rewrite the README's generated event catalog and bridge table")

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

const (
	bridgeStart = "<!-- bridge:start -->"
	bridgeEnd   = "<!-- bridge:end -->"
)

// bridgeTable renders domain.BridgeRoutes() as the README's markdown table.
func bridgeTable() string {
	var b strings.Builder
	b.WriteString("| towow event | name in 000 | bridge event |\n|---|---|---|\n")
	for _, r := range domain.BridgeRoutes() {
		from := "`" + r.From + "`"
		if r.From == string(r.Type) {
			from = "— (not in 000)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", r.Type, from, r.Event)
	}
	return b.String()
}

// TestReadmeBridgeTable keeps the README's table of the 000 bridge format
// true to domain.BridgeRoutes().
func TestReadmeBridgeTable(t *testing.T) {
	const path = "../../README.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, bridgeStart), strings.Index(s, bridgeEnd)
	if i < 0 || j < i {
		t.Fatalf("README has no %s … %s section", bridgeStart, bridgeEnd)
	}
	want := bridgeStart + "\n" + bridgeTable() + bridgeEnd
	if s[i:j+len(bridgeEnd)] == want {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(s[:i]+want+s[j+len(bridgeEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("the README's bridge table differs from domain.BridgeRoutes(); run go test ./cmd/towow -run TestReadmeBridgeTable -update")
}
