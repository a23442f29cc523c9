package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/mcpserver"
)

// The MCP Inspector's CLI (pinned in scripts/ensure-mcp-inspector.sh) is a
// third-party client: listed with --strict it reports every tool schema a
// client mapping schemas onto a narrower dialect could not take (a type
// list, a schema that accepts anything, a bare true); ToWow's tools have
// none, over stdio (`towow mcp`) and over Streamable HTTP (/mcp of a real
// server, with a person's token). Its calls read the tools' structured
// results as any client does.

// inspectorCLI is the Inspector's launcher, installed when missing; the
// test fails when it cannot be.
func inspectorCLI(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("../scripts/ensure-mcp-inspector.sh").Output()
	if err != nil {
		var stderr []byte
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		t.Fatalf("cannot install the MCP Inspector: %v\n%s", err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// inspected is what one run of the Inspector's CLI printed and its exit
// code.
type inspected struct {
	stdout, stderr string
	code           int
}

// inspect runs the Inspector's CLI with args (and env), its home, catalog
// and secrets in a directory of the test's: nothing of the machine's is
// read or written.
func inspect(t *testing.T, cli string, env []string, args ...string) inspected {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, cli, append([]string{"--cli"}, args...)...)
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "MCP_CATALOG_PATH=" + filepath.Join(home, "mcp.json"),
		"MCP_INSPECTOR_SECRET_STORE=memory", "NO_COLOR=1"}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := inspected{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	default:
		t.Fatalf("mcp-inspector %v: %v", args, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("mcp-inspector %v: timed out\n%s\n%s", args, res.stdout, res.stderr)
	}
	return res
}

// strictSummary is the Inspector's count of its --strict findings, e.g.
// "4 errors, 71 warnings across 14 tools." (a clean list prints none).
var strictSummary = regexp.MustCompile(`(?m)^(\d+) errors?, (\d+) warnings? across (\d+) tools?\.$`)

// strictFindings counts the findings of a --strict report: its "Error:"
// and "Warning:" entries, checked against its summary when it has one.
func strictFindings(t *testing.T, report string) (errs, warnings int) {
	t.Helper()
	for _, line := range strings.Split(report, "\n") {
		switch {
		case strings.HasPrefix(line, "Error: tool "):
			errs++
		case strings.HasPrefix(line, "Warning: tool "):
			warnings++
		}
	}
	if m := strictSummary.FindStringSubmatch(report); m != nil {
		e, _ := strconv.Atoi(m[1])
		w, _ := strconv.Atoi(m[2])
		if e != errs || w != warnings {
			t.Fatalf("the report counts %d errors and %d warnings, its summary %q", errs, warnings, m[0])
		}
	} else if errs+warnings > 0 {
		t.Fatalf("a report with findings and no summary:\n%s", report)
	}
	return errs, warnings
}

// TestStrictFindings: the report's parser counts what the Inspector
// prints (the report of an earlier ToWow, shortened).
func TestStrictFindings(t *testing.T) {
	for _, tc := range []struct {
		report         string
		errs, warnings int
	}{
		{"", 0, 0},
		{"time=… level=INFO msg=\"session initialized\"\n", 0, 0},
		{"Warning: tool \"agent_inbox\"\n  Path: outputSchema.properties.tasks\n  Issue: `type` is an array ([\"null\",\"array\"]).\n\n" +
			"Error: tool \"compare_negotiations\"\n  Path: outputSchema.properties.left.properties.plan\n  Issue: Bare `true` used where a schema object is expected.\n\n" +
			"1 error, 1 warning across 2 tools.\n", 1, 1},
	} {
		if e, w := strictFindings(t, tc.report); e != tc.errs || w != tc.warnings {
			t.Errorf("%q: %d errors, %d warnings, want %d and %d", tc.report, e, w, tc.errs, tc.warnings)
		}
	}
}

// listedTools is the tools of a tools/list result the Inspector printed.
func listedTools(t *testing.T, res inspected) []map[string]any {
	t.Helper()
	var list struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &list); err != nil {
		t.Fatalf("tools/list: %v\n%s\n%s", err, res.stdout, res.stderr)
	}
	return list.Tools
}

// checkStrict checks an Inspector tools/list --strict run: it listed every
// tool, each with both schemas, and found nothing.
func checkStrict(t *testing.T, res inspected) {
	t.Helper()
	errs, warnings := strictFindings(t, res.stderr)
	if res.code != 0 || errs+warnings > 0 {
		t.Fatalf("mcp-inspector --strict: exit %d, %d errors, %d warnings:\n%s", res.code, errs, warnings, res.stderr)
	}
	tools := listedTools(t, res)
	if len(tools) != 17 {
		t.Fatalf("%d tools listed", len(tools))
	}
	for _, tool := range tools {
		if tool["inputSchema"] == nil || tool["outputSchema"] == nil {
			t.Errorf("%s: inputSchema %v, outputSchema %v", tool["name"], tool["inputSchema"], tool["outputSchema"])
		}
	}
}

// nulls lists where a JSON value holds null.
func nulls(v any, at string) []string {
	switch x := v.(type) {
	case nil:
		return []string{at}
	case map[string]any:
		var out []string
		for k, e := range x {
			out = append(out, nulls(e, at+"."+k)...)
		}
		return out
	case []any:
		var out []string
		for i, e := range x {
			out = append(out, nulls(e, fmt.Sprintf("%s[%d]", at, i))...)
		}
		return out
	}
	return nil
}

// toolCall is a tools/call result as the Inspector printed it.
type toolCall struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Content           []struct {
		Text string `json:"text"`
	} `json:"content"`
}

// inspectCall calls a tool with the Inspector over HTTP with a bearer
// token and returns its result.
func inspectCall(t *testing.T, cli, url, token, tool string, args map[string]any) (toolCall, inspected) {
	t.Helper()
	raw, _ := json.Marshal(args)
	res := inspect(t, cli, nil, "--transport", "http", "--server-url", url, "--header", "Authorization: Bearer "+token,
		"--method", "tools/call", "--tool-name", tool, "--tool-args-json", string(raw))
	var call toolCall
	if err := json.Unmarshal([]byte(res.stdout), &call); err != nil {
		t.Fatalf("%s: exit %d: %v\n%s\n%s", tool, res.code, err, res.stdout, res.stderr)
	}
	return call, res
}

// inspectResult calls a tool that must succeed and decodes its structured
// result into out; the result holds no null.
func inspectResult(t *testing.T, cli, url, token, tool string, args map[string]any, out any) {
	t.Helper()
	call, res := inspectCall(t, cli, url, token, tool, args)
	if res.code != 0 || call.IsError {
		t.Fatalf("%s: exit %d: %s\n%s", tool, res.code, res.stdout, res.stderr)
	}
	var v any
	if err := json.Unmarshal(call.StructuredContent, &v); err != nil || v == nil {
		t.Fatalf("%s: structured content %s: %v", tool, call.StructuredContent, err)
	}
	if n := nulls(v, tool); len(n) > 0 {
		t.Errorf("%s: null at %v", tool, n)
	}
	if err := json.Unmarshal(call.StructuredContent, out); err != nil {
		t.Fatalf("%s: %v: %s", tool, err, call.StructuredContent)
	}
}

// twinAgent is a profile its digital twin answers for.
func twinAgent(id, name, tag string) negotiation.AgentProfile {
	return negotiation.AgentProfile{AgentID: id, UserName: name, Location: "北京",
		ProfileSummary: name + "在北京提供" + tag + "，常参与AI技术沙龙。", Tags: []string{tag, "活动策划"},
		Capabilities: map[string]string{tag: "北京的AI活动"}, Availability: "周末"}
}

// TestInspectorStrict: the MCP Inspector's CLI lists ToWow's tools with
// --strict and finds nothing to report, over stdio and over Streamable
// HTTP; over HTTP, with a person's token, it calls tools and reads their
// structured results (no null list); another person's token gets the
// not-found tool error for that person's demand; and without a valid
// token what the person sees says what to send.
func TestInspectorStrict(t *testing.T) {
	cli := inspectorCLI(t)

	t.Run("stdio", func(t *testing.T) {
		dir := t.TempDir()
		bin := filepath.Join(dir, "towow")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/towow/towow/cmd/towow").CombinedOutput(); err != nil {
			t.Fatalf("build towow: %v\n%s", err, out)
		}
		res := inspect(t, cli, nil, "--strict", "--method", "tools/list", "--cwd", dir,
			"-e", "DATABASE_URL="+dbtest.NewURL(t), "-e", "TOWOW_DATA_DIR="+filepath.Join(dir, "data"), bin, "mcp")
		checkStrict(t, res)
	})

	tw := startTowow(t)
	url := tw.url + "/mcp"
	alice, bob := userToken(t, "alice"), userToken(t, "bob")

	t.Run("http", func(t *testing.T) {
		checkStrict(t, inspect(t, cli, nil, "--strict", "--transport", "http", "--server-url", url,
			"--header", "Authorization: Bearer "+alice, "--method", "tools/list"))
	})

	// Three twins to negotiate with, registered by the operator.
	var bulk struct{ Cursor int64 }
	profiles := []negotiation.AgentProfile{twinAgent("user_agent_venue", "场地小王", "场地提供"),
		twinAgent("user_agent_guest", "嘉宾老李", "嘉宾"), twinAgent("user_agent_host", "主持小赵", "主持")}
	if st := tw.rest(t, "POST", "/api/v1/agents/bulk", adminToken, profiles, &bulk); st != 200 {
		t.Fatalf("bulk: %d", st)
	}
	if st := tw.rest(t, "GET", fmt.Sprintf("/api/v1/agents?min_cursor=%d", bulk.Cursor), adminToken, nil, nil); st != 200 {
		t.Fatalf("agents at cursor %d: %d", bulk.Cursor, st)
	}

	var demandID string
	const secret = "alice想在北京办一场AI主题聚会，需要场地和嘉宾"
	t.Run("calls", func(t *testing.T) {
		var agents mcpserver.AgentsOutput
		inspectResult(t, cli, url, alice, "list_agents", map[string]any{"limit": 5}, &agents)
		if len(agents.Agents) != 3 || agents.Agents[0].Profile.UserName == "" {
			t.Fatalf("list_agents: %+v", agents)
		}
		var sub mcpserver.SubmitDemandOutput
		inspectResult(t, cli, url, alice, "submit_demand", map[string]any{"text": secret}, &sub)
		if sub.DemandID == "" {
			t.Fatalf("submit_demand: %+v", sub)
		}
		demandID = sub.DemandID
		var w mcpserver.WaitOutput
		inspectResult(t, cli, url, alice, "wait_for_outcome", map[string]any{"demand_id": demandID, "timeout_seconds": 120}, &w)
		if !w.Done {
			t.Fatalf("wait_for_outcome: %+v", w)
		}
		var n mcpserver.Negotiation
		inspectResult(t, cli, url, alice, "get_negotiation", map[string]any{"demand_id": demandID}, &n)
		if n.DemandID != demandID || n.UserID != "alice" || n.RawInput != secret || n.SubNegotiations == nil {
			t.Fatalf("get_negotiation: %+v", n)
		}
		t.Logf("the negotiation: %s %s, final proposal %v", n.Status, n.Outcome, n.FinalProposal != nil)
		var cmp mcpserver.CompareOutput
		inspectResult(t, cli, url, alice, "compare_negotiations", map[string]any{"left": demandID, "right": demandID}, &cmp)
		if !cmp.SamePlan || cmp.Left.DemandID != demandID || cmp.PlanDiff.Added == nil {
			t.Fatalf("compare_negotiations: %+v", cmp)
		}
	})
	if demandID == "" {
		t.Fatal("no demand to read as someone else")
	}

	t.Run("another person", func(t *testing.T) {
		call, res := inspectCall(t, cli, url, bob, "get_negotiation", map[string]any{"demand_id": demandID})
		text := ""
		for _, c := range call.Content {
			text += c.Text
		}
		if res.code != 5 || !call.IsError || !strings.Contains(text, "TOWOW_NOT_FOUND") || strings.Contains(res.stdout, secret) {
			t.Fatalf("bob's get_negotiation of alice's demand: exit %d: %s\n%s", res.code, res.stdout, res.stderr)
		}
	})

	// Without a valid token: non-interactive (--stored-auth-only, what the
	// Inspector asks a script to use) it shows the 401's body; when it may
	// sign in (MCP_AUTO_OPEN_ENABLED: as at a terminal) it finds no
	// authorization server and shows what the registration endpoint said.
	// Either way the person reads what to send.
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		code int
	}{
		{"no token, non-interactive", nil, []string{"--stored-auth-only"}, 3},
		{"a wrong token, non-interactive", nil, []string{"--stored-auth-only", "--header", "Authorization: Bearer wrong-token-0123456789"}, 3},
		{"no token, signing in", []string{"MCP_AUTO_OPEN_ENABLED=true"}, nil, 1},
		{"a wrong token, signing in", []string{"MCP_AUTO_OPEN_ENABLED=true"}, []string{"--header", "Authorization: Bearer wrong-token-0123456789"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := inspect(t, cli, tc.env, append([]string{"--transport", "http", "--server-url", url, "--method", "tools/list"}, tc.args...)...)
			seen := res.stdout + res.stderr
			if res.code != tc.code {
				t.Errorf("exit %d, want %d", res.code, tc.code)
			}
			for _, want := range []string{"Authorization: Bearer <token>", "towow token --user NAME", "the admin token"} {
				if !strings.Contains(seen, want) {
					t.Errorf("the person does not read %q in:\n%s", want, seen)
				}
			}
			t.Logf("the person reads:\n%s", seen)
		})
	}
}
