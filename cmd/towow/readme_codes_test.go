package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// codeLiteral is a TOWOW_* string literal in Go source: an error code, or
// an environment variable's name (those are told apart by envVars).
var codeLiteral = regexp.MustCompile(`"(TOWOW_[A-Z0-9_]+)"`)

// producedCodes returns the TOWOW_* codes the Go sources of the module
// (tests aside) hold as string literals, environment variables excluded.
func producedCodes(t *testing.T, root string) map[string][]string {
	t.Helper()
	env := map[string]bool{}
	for _, v := range envVars {
		env[v.Name] = true
	}
	codes := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range codeLiteral.FindAllStringSubmatch(string(b), -1) {
			if !env[m[1]] {
				rel, _ := filepath.Rel(root, path)
				codes[m[1]] = append(codes[m[1]], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return codes
}

// readmeTable returns the rows (cells trimmed, backquotes dropped from the
// first) of the markdown table in doc whose header line starts with header.
func readmeTable(t *testing.T, doc, header string) [][]string {
	t.Helper()
	var rows [][]string
	in := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, header):
			in = true
		case in && !strings.HasPrefix(line, "|"):
			return rows
		case in && !strings.HasPrefix(line, "|---"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			cells[0] = strings.Trim(cells[0], "`")
			rows = append(rows, cells)
		}
	}
	if !in {
		t.Fatalf("no table headed %q", header)
	}
	return rows
}

// TestReadmeErrorCodes keeps the error code table of docs/operations.md
// true to the code: every TOWOW_* code the sources produce is listed once,
// every code listed is produced unless its row says "not applicable" (and
// then it is not produced), every TOWOW_* code the original design names is
// listed (so none of its codes is silently dropped), and the design's API
// error codes E001–E009 each map to listed codes.
func TestReadmeErrorCodes(t *testing.T) {
	b, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	produced := producedCodes(t, "../..")
	if len(produced) < 20 || produced["TOWOW_FILTER_001"] == nil {
		t.Fatalf("the scan found %d codes; it does not read the sources", len(produced))
	}
	listed := map[string]bool{}
	for _, row := range readmeTable(t, doc, "| code | HTTP | meaning |") {
		code := row[0]
		if len(row) != 5 || !codeLiteral.MatchString(`"`+code+`"`) {
			t.Errorf("malformed row %q", strings.Join(row, " | "))
			continue
		}
		if listed[code] {
			t.Errorf("%s is listed twice", code)
		}
		listed[code] = true
		na := strings.HasPrefix(row[2], "not applicable")
		switch {
		case na && produced[code] != nil:
			t.Errorf("%s is marked not applicable, but %v produce it", code, produced[code])
		case !na && produced[code] == nil:
			t.Errorf("%s is listed but nothing produces it: produce it or mark it \"not applicable: why\"", code)
		}
	}
	for code, files := range produced {
		if !listed[code] {
			t.Errorf("%s (in %v) is missing from the error code table of docs/operations.md", code, files)
		}
	}
	// The codes the original design names, each listed.
	for _, m := range []string{"DEMAND_001", "DEMAND_002", "DEMAND_003", "FILTER_001", "FILTER_002", "FILTER_003",
		"CHANNEL_001", "CHANNEL_002", "CHANNEL_003", "PROPOSAL_001", "PROPOSAL_002", "PROPOSAL_003", "PROPOSAL_004",
		"SUBNET_001", "SUBNET_002", "SYSTEM_001", "SYSTEM_002", "SYSTEM_003"} {
		if !listed["TOWOW_"+m] {
			t.Errorf("the design's TOWOW_%s is not in the error code table", m)
		}
	}
	// The design's API error codes E001–E009, each mapped onto listed codes.
	var es []string
	for _, row := range readmeTable(t, doc, "| design code |") {
		es = append(es, row[0])
		mapped := codeLiteral.FindAllStringSubmatch(strings.ReplaceAll(row[len(row)-1], "`", `"`), -1)
		if len(mapped) == 0 {
			t.Errorf("%s maps to no TOWOW_* code", row[0])
		}
		for _, m := range mapped {
			if !listed[m[1]] {
				t.Errorf("%s maps to %s, which the error code table does not list", row[0], m[1])
			}
		}
	}
	if want := []string{"E001", "E002", "E003", "E004", "E005", "E006", "E007", "E008", "E009"}; !slices.Equal(es, want) {
		t.Errorf("design code rows %v, want %v", es, want)
	}
}
