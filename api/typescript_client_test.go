package api_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// npmTool is the path of the pinned npm tool a scripts/ensure-*.sh script
// installs into bin/ the first time (`make test` runs them first). The
// test fails when it cannot be installed: the check it makes is part of
// the contract, not optional.
func npmTool(t *testing.T, script string) string {
	t.Helper()
	out, err := exec.Command("../scripts/" + script).Output()
	if err != nil {
		var stderr []byte
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		t.Fatalf("cannot install the tool of %s: %v\n%s", script, err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// casts are the TypeScript forms that would let a client read an answer
// as a type the document does not give it: a cast, any, a non-null
// assertion, a suppressed error.
var casts = regexp.MustCompile(`\bas\s+[A-Za-z{\[(]|(?:[=(,:?]|return)\s*<[A-Za-z][^>]*>\s*[A-Za-z(]|\bany\b|[A-Za-z0-9_)\]]!\s*[.;,)\[]|@ts-`)

// TestTypeScriptClient: a client generated from the served document reads
// it typed. openapi-typescript generates the types from GET /openapi.json
// of a real server; a small program (testdata/typedclient/client.ts, with
// openapi-fetch) type-checks under strict tsc without a single cast, then
// runs against that server: it submits a demand, waits for it, reads the
// agreed plan, lists the workflows it became and adds a step with a
// decision. A program that sends a decision without its payload's
// required field, or a decision type the document lacks, does not
// type-check.
func TestTypeScriptClient(t *testing.T) {
	generate := npmTool(t, "ensure-openapi-ts.sh")
	bin := filepath.Dir(generate)
	a := newAPI(t)

	resp, err := http.Get(a.url + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("openapi.json: %d %v", resp.StatusCode, err)
	}
	dir := t.TempDir()
	for _, f := range []string{"client.ts", "bad.ts", "run.mjs", "tsconfig.json"} {
		b, err := os.ReadFile(filepath.Join("testdata/typedclient", f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".ts") && f != "bad.ts" {
			if m := casts.FindString(string(b)); m != "" {
				t.Fatalf("%s holds a cast or an escape from the types: %q", f, m)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "openapi.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(bin), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(generate, "openapi.json", "-o", "towow.d.ts"); err != nil {
		t.Fatalf("openapi-typescript: %v\n%s", err, out)
	}
	tsc := filepath.Join(bin, "tsc")
	if out, err := run(tsc, "-p", "tsconfig.json"); err != nil {
		t.Fatalf("strict tsc refused the client:\n%s", out)
	}
	out, err := run(tsc, "--strict", "--noEmit", "--lib", "ES2022,DOM", "--module", "ES2022", "--moduleResolution", "bundler",
		"bad.ts", "towow.d.ts")
	if err == nil {
		t.Fatal("strict tsc took a decision without its node and a decision type the document lacks")
	}
	for _, want := range []string{"bad.ts(8,", "Property 'node' is missing", "bad.ts(9,", `"rename_node"`} {
		if !strings.Contains(out, want) {
			t.Errorf("tsc's refusal of bad.ts does not say %q:\n%s", want, out)
		}
	}

	if b, err := os.ReadFile(filepath.Join(dir, "run.mjs")); err != nil || os.WriteFile(filepath.Join(dir, "out", "run.mjs"), b, 0o644) != nil {
		t.Fatal("cannot place run.mjs beside the compiled client")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed (npm brought the tools; node runs them)")
	}
	res, err := run(node, "out/run.mjs", a.url, userToken(t, "alice"), "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	if err != nil {
		t.Fatalf("the client failed against the server: %v\n%s", err, res)
	}
	var got struct {
		DemandID      string   `json:"demandId"`
		Status        string   `json:"status"`
		Outcome       string   `json:"outcome"`
		Summary       string   `json:"summary"`
		Roles         []string `json:"roles"`
		Workflows     int      `json:"workflows"`
		WorkflowID    string   `json:"workflowId"`
		VersionBefore int      `json:"versionBefore"`
		VersionAfter  int      `json:"versionAfter"`
	}
	if err := json.Unmarshal([]byte(res), &got); err != nil {
		t.Fatalf("the client printed %q: %v", res, err)
	}
	if got.Status != "completed" || got.Summary == "" || len(got.Roles) == 0 || got.Workflows != 1 ||
		got.VersionAfter != got.VersionBefore+1 {
		t.Fatalf("the client's run: %+v", got)
	}
	// The step it added is in the workflow, read back by the Go side.
	_, _, body := a.asUser(t, userToken(t, "alice"), "GET", "/api/v1/workflows/"+got.WorkflowID, "")
	if !strings.Contains(body, "活动结束复盘") {
		t.Fatalf("the client's step is not in the workflow: %.300s", body)
	}
}
