package app_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// codeMap is the code map of docs/architecture.md: each package and the
// ToWow packages it may import. Nothing imports upward; a new package or
// import is added here and in that table in the same change
// (TestCodeMapDocumented compares the two).
var codeMap = map[string][]string{
	"domain/event":           {},
	"domain/negotiation":     {"domain/event"},
	"domain/workflow":        {"domain/event", "domain/negotiation"},
	"timeline":               {"domain/erasure", "domain/event", "domain/negotiation", "domain/notice", "domain/workflow"},
	"domain/notice":          {"domain/event"},
	"domain/erasure":         {"domain/event"},
	"domain/event/eventtest": {"domain/erasure", "domain/event", "domain/negotiation", "domain/notice", "domain/workflow"},
	"data":                   {},
	"mocknet":                {"domain/negotiation"},
	"migrations":             {},
	"web":                    {},
	"internal/sqlcdb":        {},
	"internal/database":      {},
	"internal/logctx":        {},
	"internal/emptylists":    {},
	"internal/logthrottle":   {},
	"internal/pgcluster":     {},
	"internal/schema":        {"internal/sqlcdb", "migrations"},
	"internal/metrics":       {"domain/event", "domain/negotiation", "domain/workflow"},
	"internal/tracing":       {},
	"internal/dbtest":        {"internal/database", "internal/pgcluster", "internal/schema", "internal/sqlcdb", "migrations"},
	"personal":               {"domain/erasure", "domain/event", "domain/negotiation", "eventstore", "identity", "internal/sqlcdb", "uow"},
	"eventstore":             {"domain/event", "internal/sqlcdb"},
	"llm":                    {"domain/event", "domain/negotiation", "domain/workflow"},
	"llm/builtin":            {"data", "domain/negotiation", "domain/workflow", "llm"},
	"projections":            {"domain/event", "domain/negotiation", "domain/workflow", "eventstore", "internal/sqlcdb", "quality"},
	"jobs":                   {"internal/logctx", "internal/logthrottle", "internal/sqlcdb"},
	"identity":               {},
	"internal/testop":        {},
	"internal/testca":        {},
	"internal/llmfault":      {"llm", "llm/builtin"},
	"uow":                    {"domain/event", "domain/negotiation", "domain/notice", "eventstore", "identity", "jobs"},
	"directory":              {"domain/erasure", "domain/event", "domain/negotiation", "eventstore", "internal/sqlcdb", "uow"},
	"negotiate":              {"directory", "domain/event", "domain/negotiation", "domain/workflow", "eventstore", "identity", "internal/logctx", "internal/sqlcdb", "llm", "uow"},
	"execute":                {"directory", "domain/event", "domain/negotiation", "domain/workflow", "eventstore", "jobs", "llm", "uow"},
	"presence":               {"directory", "domain/event", "domain/negotiation", "internal/sqlcdb"},
	"forks":                  {"directory", "domain/event", "domain/negotiation", "domain/workflow", "eventstore", "internal/sqlcdb", "llm", "negotiate", "uow"},
	"notify":                 {"directory", "domain/event", "domain/negotiation", "domain/notice", "domain/workflow", "eventstore", "identity", "uow"},
	"api":                    {"domain/erasure", "domain/event", "domain/negotiation", "domain/notice", "domain/workflow", "timeline", "eventstore", "identity", "internal/emptylists", "internal/metrics", "projections", "quality", "web"},
	"quality":                {"domain/event", "domain/negotiation", "eventstore"},
	"mcpserver":              {"domain/event", "domain/negotiation", "domain/workflow", "internal/emptylists", "projections", "quality", "timeline"},
	"app": {"api", "data", "directory", "domain/event", "domain/negotiation", "domain/workflow", "eventstore", "execute", "identity", "forks", "notify", "internal/database", "internal/logthrottle",
		"internal/metrics", "internal/pgcluster", "internal/schema", "internal/tracing", "jobs", "llm", "mcpserver", "negotiate",
		"personal", "presence", "projections", "uow"},
	"writetest": {"app", "data", "directory", "domain/event", "domain/negotiation", "domain/workflow", "eventstore", "internal/dbtest", "llm", "llm/builtin"},
	"bench":     {"app", "domain/event", "domain/negotiation", "eventstore", "internal/sqlcdb", "llm", "mocknet", "projections"},
	"apifuzz":   {},
	"eval":      {"app", "domain/negotiation", "quality"},
	"cmd/towow": {"api", "apifuzz", "app", "bench", "data", "domain/negotiation", "domain/workflow", "timeline", "eval", "eventstore", "identity", "internal/database", "internal/llmfault", "internal/logctx",
		"internal/pgcluster", "internal/schema", "internal/tracing", "jobs", "llm", "llm/builtin", "mcpserver", "negotiate", "personal", "presence",
		"projections"},
}

const module = "github.com/towow/towow"

type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// goList lists the module's packages (without their tests).
func goList(t *testing.T) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func local(path string) (string, bool) {
	if path == module {
		return "", true
	}
	rest, ok := strings.CutPrefix(path, module+"/")
	return rest, ok
}

// TestCodeMap fails when a package imports a ToWow package the code map
// does not allow, when a package is missing from the map, when domain
// imports anything outside the standard library, or when api depends, even
// indirectly, on the write side (the unit of work, the River plumbing, any
// process), the LLM client or the App.
func TestCodeMap(t *testing.T) {
	pkgs := goList(t)
	if len(pkgs) < len(codeMap) {
		t.Fatalf("go list found %d packages, the code map names %d", len(pkgs), len(codeMap))
	}
	for _, p := range pkgs {
		name, _ := local(p.ImportPath)
		allowed, ok := codeMap[name]
		if !ok {
			t.Errorf("package %s is not in the code map (app/codemap_test.go and docs/architecture.md)", name)
			continue
		}
		for _, imp := range p.Imports {
			if dep, ok := local(imp); ok && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s, which the code map does not allow", name, dep)
			}
		}
		switch name {
		case "domain/event", "domain/event/eventtest", "domain/negotiation", "domain/notice", "domain/workflow":
			for _, imp := range p.Deps {
				if _, ours := local(imp); ours {
					continue // the code map says which of ours it may use
				}
				if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") {
					t.Errorf("domain depends on %s: it may use only the standard library", imp)
				}
			}
		case "api":
			for _, imp := range p.Deps {
				if dep, ok := local(imp); ok && slices.Contains([]string{"uow", "jobs", "negotiate", "execute", "presence", "forks", "directory",
					"llm", "llm/builtin", "app", "writetest"}, dep) {
					t.Errorf("api depends on %s: it must reach the system only through the interfaces it declares", dep)
				}
			}
		}
	}
}

// TestCodeMapDocumented keeps the code map table of docs/architecture.md
// equal to codeMap: the same packages, each with the same ToWow packages it
// may import ("—" for none), so the document a newcomer reads is the rule
// TestCodeMap enforces.
func TestCodeMapDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string][]string{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| Package | What it holds | May import |"):
			in = true
		case in && !strings.HasPrefix(line, "|"):
			in = false
		case in && !strings.HasPrefix(line, "|---"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			name := strings.Trim(strings.TrimSpace(cells[0]), "`")
			imports := []string{}
			if last := strings.TrimSpace(cells[len(cells)-1]); last != "—" {
				for _, imp := range strings.Split(last, ",") {
					imports = append(imports, strings.Trim(strings.TrimSpace(imp), "`"))
				}
			}
			documented[name] = imports
		}
	}
	if len(documented) == 0 {
		t.Fatal("docs/architecture.md has no table headed | Package | What it holds | May import |")
	}
	for name, allowed := range codeMap {
		got, ok := documented[name]
		if !ok {
			t.Errorf("package %s is in codeMap but not in the code map of docs/architecture.md", name)
			continue
		}
		want := slices.Sorted(slices.Values(allowed))
		if got = slices.Sorted(slices.Values(got)); !slices.Equal(got, want) {
			t.Errorf("docs/architecture.md: %s may import %v, codeMap says %v", name, got, want)
		}
	}
	for name := range documented {
		if _, ok := codeMap[name]; !ok {
			t.Errorf("docs/architecture.md lists package %s, which codeMap does not", name)
		}
	}
}
