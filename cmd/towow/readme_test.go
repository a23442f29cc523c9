package main

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/timeline"
)

var updateReadme = flag.Bool("update", false, "rewrite the generated event catalog (docs/events.md) and bridge table (docs/api.md)")

const (
	catalogStart = "<!-- catalog:start -->"
	catalogEnd   = "<!-- catalog:end -->"
)

// eventCatalogTable renders event.Catalog() as docs/events.md's markdown
// table, sorted by type.
func eventCatalogTable() string {
	specs := event.Catalog()
	slices.SortFunc(specs, func(a, b event.EventSpec) int { return strings.Compare(string(a.Type), string(b.Type)) })
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

// TestReadmeEventCatalog keeps the event catalog of docs/events.md true to
// the domain's registry: the table between the catalog markers is generated
// from event.Catalog() and must equal what is committed.
func TestReadmeEventCatalog(t *testing.T) {
	const path = "../../docs/events.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, catalogStart), strings.Index(s, catalogEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %s … %s section", path, catalogStart, catalogEnd)
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
	t.Fatalf("the event catalog of docs/events.md differs from event.Catalog(); run go test ./cmd/towow -run TestReadmeEventCatalog -update")
}

const (
	bridgeStart = "<!-- bridge:start -->"
	bridgeEnd   = "<!-- bridge:end -->"
)

// bridgeTable renders timeline.BridgeRoutes() as docs/api.md's markdown table.
func bridgeTable() string {
	var b strings.Builder
	b.WriteString("| towow event | prototype name | bridge event |\n|---|---|---|\n")
	for _, r := range timeline.BridgeRoutes() {
		from := "`" + r.From + "`"
		if r.From == string(r.Type) {
			from = "— (not in the prototype)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", r.Type, from, r.Event)
	}
	return b.String()
}

// TestReadmeBridgeTable keeps the table of the bridge format (the original
// prototype's SSE frames) in docs/api.md true to timeline.BridgeRoutes().
func TestReadmeBridgeTable(t *testing.T) {
	const path = "../../docs/api.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, bridgeStart), strings.Index(s, bridgeEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %s … %s section", path, bridgeStart, bridgeEnd)
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
	t.Fatalf("the bridge table of docs/api.md differs from timeline.BridgeRoutes(); run go test ./cmd/towow -run TestReadmeBridgeTable -update")
}
