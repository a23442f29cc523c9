package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/mcpserver"
)

// lockedBuffer is a bytes.Buffer safe for the process's writes and the
// test's reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMCPStdio runs `towow mcp` as an MCP client does, a subprocess
// spoken to over stdin and stdout with the SDK's CommandTransport: with
// ToWow in its own process, and with --server calling a running `towow
// serve` with a user's token (--token). Each lists the tools, submits the
// sample demand, waits for its outcome (builtin brain) and reads its
// timeline; the logs went to stderr (stdout carried nothing but the
// protocol, or the client would fail).
func TestMCPStdio(t *testing.T) {
	tests := []struct {
		name string
		args func(t *testing.T, url string) []string
	}{
		{"in process", func(*testing.T, string) []string { return []string{"mcp"} }},
		{"--server", func(t *testing.T, url string) []string {
			s := startServer(t, "DATABASE_URL="+url)
			return []string{"mcp", "--server", "http://" + s.addr, "--token", s.token(t, "mcp_user")}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := dbtest.NewURL(t)
			cmd := exec.Command(towowBin, tc.args(t, url)...)
			cmd.Env = append(cleanEnv(), "DATABASE_URL="+url)
			var stderr lockedBuffer
			cmd.Stderr = &stderr
			c := mcp.NewClient(&mcp.Implementation{Name: "towow-test", Version: "1"}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connect: %v; stderr:\n%s", err, stderr.String())
			}
			defer cs.Close()

			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
			}
			if len(names) != 17 || !slices.Contains(names, "submit_demand") || !slices.Contains(names, "wait_for_outcome") ||
				!slices.Contains(names, "get_workflow") {
				t.Fatalf("tools: %v", names)
			}

			var sub mcpserver.SubmitDemandOutput
			callTool(ctx, t, cs, "submit_demand", map[string]any{"text": "我想在北京办一场AI主题聚会，需要场地和嘉宾"}, &sub)
			var out mcpserver.WaitOutput
			callTool(ctx, t, cs, "wait_for_outcome", map[string]any{"demand_id": sub.DemandID, "timeout_seconds": 120}, &out)
			if !out.Done || out.Status != "completed" || out.Negotiation.DemandID != sub.DemandID || out.Negotiation.FinalProposal == nil {
				t.Fatalf("outcome: %+v; stderr:\n%s", out, stderr.String())
			}
			var agents mcpserver.AgentsOutput
			callTool(ctx, t, cs, "list_agents", map[string]any{"limit": 5}, &agents)
			if len(agents.Agents) != 5 || agents.NextCursor == "" {
				t.Fatalf("list_agents: %d agents, next %q", len(agents.Agents), agents.NextCursor)
			}

			uri := "towow://negotiations/" + sub.DemandID + "/timeline"
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatal(err)
			}
			timeline := res.Contents[0].Text
			if !strings.Contains(timeline, "towow.demand.submitted") || !strings.Contains(timeline, "towow.negotiation.completed") {
				t.Fatalf("timeline:\n%s", timeline)
			}
			if err := cs.Close(); err != nil {
				t.Fatalf("close: %v; stderr:\n%s", err, stderr.String())
			}
			if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
				t.Errorf("towow mcp did not exit cleanly when the client closed: %v; stderr:\n%s", cmd.ProcessState, stderr.String())
			}
			if tc.name == "in process" && !strings.Contains(stderr.String(), "towow mcp serving on stdio") {
				t.Errorf("no start-up log on stderr:\n%s", stderr.String())
			}
		})
	}
}

// callTool calls a tool that must succeed and decodes its structured
// result.
func callTool(ctx context.Context, t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: %v", name, res.Content)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: %v: %s", name, err, raw)
	}
}
