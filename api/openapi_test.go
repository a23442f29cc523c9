package api_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/app"
	"github.com/towow/towow/projections"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.golden.json")

// TestOpenAPIGolden keeps the published OpenAPI document in
// testdata/openapi.golden.json (go test ./api -run OpenAPI -update), and
// checks its basic shape: version 3.1, every operation with an id and
// responses, every error answered with the problem schema.
func TestOpenAPIGolden(t *testing.T) {
	h := (&api.Server{Commands: &app.Commands{}, ReadModels: &projections.Queries{}}).Handler() // registration only: no database needed
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/openapi.json", nil))
	body, _ := io.ReadAll(rec.Body)
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatalf("openapi.json is not JSON: %v", err)
	}
	pretty.WriteByte('\n')
	if *update {
		if err := os.WriteFile("testdata/openapi.golden.json", pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/openapi.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Fatal("openapi.json changed: review it and run go test ./api -run OpenAPI -update")
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]struct {
			OperationID string         `json:"operationId"`
			Responses   map[string]any `json:"responses"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Components.Schemas["Problem"] == nil {
		t.Fatalf("openapi %q, Problem schema %v", doc.OpenAPI, doc.Components.Schemas["Problem"] != nil)
	}
	for _, path := range []string{"/healthz", "/api/v1/demand/submit", "/api/v1/events", "/api/v1/events/stream",
		"/api/v1/events/negotiations/{demand_id}/stream", "/api/v1/channels/{channel_id}/state", "/api/v1/negotiations/{demand_id}/replay"} {
		ops, ok := doc.Paths[path]
		if !ok {
			t.Errorf("no %s", path)
		}
		for method, op := range ops {
			if op.OperationID == "" || len(op.Responses) == 0 {
				t.Errorf("%s %s: id %q, %d responses", method, path, op.OperationID, len(op.Responses))
			}
		}
	}
}

// TestOpenAPILint runs Redocly's recommended ruleset over the published
// document (testdata/openapi.golden.json, kept equal to it by
// TestOpenAPIGolden): 0 errors and 0 warnings. scripts/ensure-redocly.sh
// installs the pinned CLI from npm into bin/ the first time (`make test`
// runs it first).
func TestOpenAPILint(t *testing.T) {
	tool := npmTool(t, "ensure-redocly.sh")
	cmd := exec.Command(tool, "lint", "--extends=recommended", "--format=stylish", "testdata/openapi.golden.json")
	// No telemetry and no update check: nothing leaves this machine.
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	lint, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("redocly lint: %v\n%s", err, lint)
	}
	if !strings.Contains(string(lint), "Your API description is valid") || regexp.MustCompile(`You have \d+ warning`).Match(lint) {
		t.Fatalf("redocly lint found errors or warnings:\n%s", lint)
	}
}
