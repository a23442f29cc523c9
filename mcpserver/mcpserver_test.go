package mcpserver_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
	"github.com/towow/towow/mcpserver"
)

const adminToken = "mcp-test-admin-token-0123456789"

// people is the test servers' local-mode authority: its tokens are the
// users' (userToken).
var people = identity.NewLocalWith(identity.NewSigner(newKey()))

// newKey is a fresh P-256 signing key.
func newKey() *ecdsa.PrivateKey {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	return key
}

// userToken is a bearer token of the local user name, as `towow token
// --user NAME` prints it.
func userToken(t *testing.T, name string) string {
	t.Helper()
	tok, err := people.MintLocalToken(name, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// towow is a real App (real database, River, builtin brain, read models)
// served over real HTTP, as `towow serve` serves it.
type towow struct {
	url string
}

func startTowow(t *testing.T) *towow {
	t.Helper()
	ctx := context.Background()
	a, err := app.New(ctx, app.Config{
		DatabaseURL: dbtest.NewURL(t),
		AdminToken:  adminToken,
		LLM:         llm.Config{Provider: builtin.New()},
		// Only the agents the test registers; no sub-negotiations; the
		// external agents have all the time they need.
		Profiles: "none",
		Write: app.WriteConfig{Rules: negotiation.Rules{MaxRounds: 2, OfferTimeoutSeconds: 300, FeedbackTimeoutSeconds: 300,
			StuckTimeoutSeconds: 900, MaxDepth: 0}},
		ReadModels: true,
		Hub:        true,
		People:     people,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.API().Handler())
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		a.Close()
	})
	return &towow{url: srv.URL}
}

// rest sends a plain REST request (the test's own setup and checks).
func (tw *towow) rest(t *testing.T, method, path, token string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, tw.url+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
	return resp.StatusCode
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens an MCP session with the SDK's own client over Streamable
// HTTP, with token (the admin's or a user's).
func (tw *towow) connect(t *testing.T, token string) (*mcp.ClientSession, error) {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "towow-test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: tw.url + "/mcp", HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, tr, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

// call calls a tool that must succeed and decodes its structured result.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res := callRaw(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", name, args, text(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: %v: %s", name, err, raw)
	}
}

// toolError calls a tool that must fail and returns its error text.
func toolError(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res := callRaw(t, cs, name, args)
	if !res.IsError {
		t.Fatalf("%s %v: succeeded, want an error: %s", name, args, text(res))
	}
	return text(res)
}

func callRaw(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// externalAgent is a profile answered over the API, not by a twin.
func externalAgent(id, name string) negotiation.AgentProfile {
	return negotiation.AgentProfile{AgentID: id, UserName: name, Location: "北京",
		ProfileSummary: name + "在北京做活动策划，常办AI技术沙龙。", Tags: []string{"活动策划", "场地提供"},
		Capabilities: map[string]string{"策划": "沙龙流程与嘉宾邀请"}, Interests: []string{"AI"}, Availability: "周末",
		Mode: negotiation.AgentModeExternal}
}

// drive answers, as the external agents and through the MCP tools, every
// offer and feedback the negotiation demandID asks of them until it ends;
// it returns its outcome and how many offers and feedbacks it sent.
func drive(t *testing.T, cs *mcp.ClientSession, tokens map[string]string, demandID string) (out mcpserver.WaitOutput, offers, feedbacks int) {
	t.Helper()
	for range 300 {
		for _, tok := range tokens {
			var inbox mcpserver.InboxOutput
			call(t, cs, "agent_inbox", map[string]any{"agent_token": tok}, &inbox)
			for _, task := range inbox.Tasks {
				if task.DemandID != demandID {
					continue
				}
				var ans mcpserver.AnswerOutput
				switch task.Kind {
				case "offer":
					call(t, cs, "submit_offer", map[string]any{"agent_token": tok, "channel_id": task.ChannelID,
						"decision": "participate", "contribution": "活动策划与流程", "confidence": 80}, &ans)
					offers++
				case "feedback":
					call(t, cs, "submit_feedback", map[string]any{"agent_token": tok, "channel_id": task.ChannelID,
						"round": task.Round, "feedback_type": "accept", "reasoning": "分工合理",
						"proposed_changes": []map[string]string{{"field": "timeline.start_date", "value": "周六下午", "reason": "上午有课"}}}, &ans)
					feedbacks++
				default:
					continue
				}
				if ans.ChannelID != task.ChannelID || ans.AgentID != inbox.AgentID || ans.Cursor == 0 {
					t.Fatalf("%s answer of %s: %+v", task.Kind, inbox.AgentID, ans)
				}
			}
		}
		call(t, cs, "wait_for_outcome", map[string]any{"demand_id": demandID, "timeout_seconds": 1}, &out)
		if out.Done {
			return out, offers, feedbacks
		}
	}
	t.Fatalf("negotiation %s did not end: %+v", demandID, out)
	return out, 0, 0
}

var timelineLine = regexp.MustCompile(`^#(\d+) \d\d:\d\d:\d\d\.\d{3}Z [+-]\d+\.\d\ds (towow\.[a-z_.]+) (-|r\d+) \S+`)

// TestMCPOverStreamableHTTP drives a negotiation between external agents
// end to end through the MCP endpoint of a real server, with the SDK's
// client: the tools, the timeline resource, the workflow, a fork and its
// comparison, and the API's refusals as tool errors.
func TestMCPOverStreamableHTTP(t *testing.T) {
	tw := startTowow(t)

	// Without the admin token, /mcp is the API's 401.
	for _, token := range []string{"", "wrong-token-0123456789"} {
		req, _ := http.NewRequest(http.MethodPost, tw.url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var p struct{ Code string }
		_ = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if resp.StatusCode != 401 || resp.Header.Get("Content-Type") != "application/problem+json" || p.Code != "TOWOW_AUTH_001" {
			t.Fatalf("POST /mcp with token %q: %d %s %+v", token, resp.StatusCode, resp.Header.Get("Content-Type"), p)
		}
	}
	if _, err := tw.connect(t, "wrong-token-0123456789"); err == nil {
		t.Fatal("the SDK's client connected with a wrong token")
	}

	// Three external planners, registered with the admin API; their tokens
	// come back once.
	var bulk struct {
		Tokens map[string]string
		Cursor int64
	}
	profiles := []negotiation.AgentProfile{externalAgent("user_agent_ext1", "外部一号"), externalAgent("user_agent_ext2", "外部二号"),
		externalAgent("user_agent_ext3", "外部三号")}
	if st := tw.rest(t, "POST", "/api/v1/agents/bulk", adminToken, profiles, &bulk); st != 200 || len(bulk.Tokens) != 3 {
		t.Fatalf("bulk: %d %+v", st, bulk)
	}
	// The directory's read model has them (read-your-writes).
	if st := tw.rest(t, "GET", fmt.Sprintf("/api/v1/agents?min_cursor=%d", bulk.Cursor), adminToken, nil, nil); st != 200 {
		t.Fatalf("agents at cursor %d: %d", bulk.Cursor, st)
	}

	cs, err := tw.connect(t, adminToken)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("tool %s: description %q, input schema %v, output schema %v", tool.Name, tool.Description, tool.InputSchema, tool.OutputSchema)
		}
	}
	slices.Sort(names)
	want := []string{"agent_inbox", "answer_approval", "compare_negotiations", "complete_workflow_task", "decide_workflow",
		"fork_negotiation", "get_negotiation", "get_workflow", "get_workflow_messages", "list_agents", "list_pending_approvals",
		"search_agents", "send_workflow_message", "submit_demand", "submit_feedback", "submit_offer", "wait_for_outcome"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != mcpserver.TimelineTemplate {
		t.Fatalf("resource templates: %v %+v", err, templates)
	}

	// The directory: list with filters, search by text.
	for _, tc := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"list_agents", map[string]any{}, []string{"user_agent_ext1", "user_agent_ext2", "user_agent_ext3"}},
		{"list_agents", map[string]any{"mode": "external", "tag": "活动策划", "limit": 2}, []string{"user_agent_ext1", "user_agent_ext2"}},
		{"list_agents", map[string]any{"mode": "twin"}, []string{}},
		{"search_agents", map[string]any{"query": "二号"}, []string{"user_agent_ext2"}},
		{"search_agents", map[string]any{"query": "EXT3"}, []string{"user_agent_ext3"}},
		{"search_agents", map[string]any{"query": "外部", "location": "成都"}, []string{}},
	} {
		var out mcpserver.AgentsOutput
		call(t, cs, tc.tool, tc.args, &out)
		var got []string
		for _, a := range out.Agents {
			got = append(got, a.AgentID)
			if a.Profile.UserName == "" || a.Mode != "external" || !a.Active {
				t.Errorf("%s %v: agent %+v", tc.tool, tc.args, a)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %v: %v, want %v", tc.tool, tc.args, got, tc.want)
		}
	}

	// Submit; while the external agents have not answered it is still running.
	var sub mcpserver.SubmitDemandOutput
	call(t, cs, "submit_demand", map[string]any{"text": "我想在北京办一场AI主题聚会，需要3位活动策划", "user_id": "user_alice"}, &sub)
	if sub.DemandID == "" || sub.Status != "processing" || sub.Cursor == 0 {
		t.Fatalf("submit: %+v", sub)
	}
	var running mcpserver.WaitOutput
	call(t, cs, "wait_for_outcome", map[string]any{"demand_id": sub.DemandID, "timeout_seconds": 1}, &running)
	if running.Done || running.Status != "processing" || running.Waited < 1 {
		t.Fatalf("wait before any answer: %+v", running)
	}

	// The API's refusals are tool errors with their code.
	for _, tc := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"agent_inbox", map[string]any{"agent_token": "not-a-real-token"}, "TOWOW_AUTH_001"},
		{"agent_inbox", map[string]any{"agent_token": ""}, "TOWOW_AUTH_002"}, // the session's own token (the admin's) is not an agent's,
		{"submit_offer", map[string]any{"agent_token": "not-a-real-token", "channel_id": sub.ChannelID, "decision": "participate", "contribution": "x"}, "TOWOW_AUTH_001"},
		// A decision the schema does not list is refused before the API; one
		// it lists but with a contribution over the API's limit, by the API.
		{"submit_offer", map[string]any{"agent_token": bulk.Tokens["user_agent_ext1"], "channel_id": sub.ChannelID, "decision": "maybe"},
			"decision: enum: maybe does not equal any of: [participate decline conditional]"},
		{"submit_offer", map[string]any{"agent_token": bulk.Tokens["user_agent_ext1"], "channel_id": sub.ChannelID, "decision": "participate",
			"contribution": strings.Repeat("很", 2001)}, "TOWOW_REQUEST_001"},
		{"submit_demand", map[string]any{"text": ""}, "TOWOW_"},
		{"get_negotiation", map[string]any{"demand_id": "d-000000000000"}, "TOWOW_NOT_FOUND"},
		{"wait_for_outcome", map[string]any{"demand_id": "d-000000000000", "timeout_seconds": 5}, "TOWOW_NOT_FOUND"},
		{"complete_workflow_task", map[string]any{"agent_token": "not-a-real-token", "workflow_id": "wf-x", "node_id": "task-1"}, "TOWOW_AUTH_001"},
		{"wait_for_outcome", map[string]any{"demand_id": sub.DemandID, "timeout_seconds": 601}, "timeout_seconds"},
		{"compare_negotiations", map[string]any{"left": sub.DemandID}, "fork_id"},
	} {
		msg := toolError(t, cs, tc.tool, tc.args)
		if !strings.Contains(msg, tc.code) {
			t.Errorf("%s %v: error %q, want %s", tc.tool, tc.args, msg, tc.code)
		}
		t.Logf("%s: %s", tc.tool, msg)
	}
	res := callRaw(t, cs, "submit_demand", map[string]any{"txt": "typo"})
	if !res.IsError {
		t.Errorf("submit_demand without text: %s", text(res))
	}

	// The external agents answer through the tools; the negotiation ends.
	out, offers, feedbacks := drive(t, cs, bulk.Tokens, sub.DemandID)
	if out.Status != "completed" || out.Outcome != "finalized" || offers != 3 || feedbacks < 3 {
		t.Fatalf("outcome %+v after %d offers and %d feedbacks", out, offers, feedbacks)
	}
	if msg := toolError(t, cs, "submit_offer", map[string]any{"agent_token": bulk.Tokens["user_agent_ext1"], "channel_id": sub.ChannelID,
		"decision": "participate", "contribution": "再来一次"}); !strings.Contains(msg, "TOWOW_CHANNEL_") {
		t.Errorf("an offer after the end: %q", msg)
	}
	var n mcpserver.Negotiation
	call(t, cs, "get_negotiation", map[string]any{"demand_id": sub.DemandID}, &n)
	if n.Status != "completed" || n.Outcome != "finalized" || n.RoundsTaken < 1 || n.FinalProposal == nil || n.UserID != "user_alice" ||
		n.ChannelID != sub.ChannelID || n.Understanding == nil {
		t.Fatalf("negotiation: %+v", n)
	}

	// The timeline: one line per event of the tree, in the log's order.
	var events struct {
		Events []struct {
			Cursor  int64           `json:"cursor"`
			Type    string          `json:"event_type"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	tw.rest(t, "GET", "/api/v1/events?limit=1000&demand_id="+sub.DemandID, adminToken, nil, &events)
	for _, e := range events.Events { // submit_feedback passed the proposed changes on (the API's own body)
		if e.Type == "towow.proposal.feedback" && !strings.Contains(string(e.Payload), `"proposed_changes":[{"field":"timeline.start_date","value":"周六下午","reason":"上午有课"}]`) {
			t.Fatalf("feedback without its proposed changes: %s", e.Payload)
		}
	}
	lines := readTimeline(t, cs, sub.DemandID)
	if len(lines) != len(events.Events) || len(lines) < 20 {
		t.Fatalf("timeline has %d lines, the log %d events", len(lines), len(events.Events))
	}
	aggregation := int64(0)
	for i, line := range lines {
		m := timelineLine.FindStringSubmatch(line)
		if m == nil || m[1] != strconv.FormatInt(events.Events[i].Cursor, 10) || m[2] != events.Events[i].Type {
			t.Fatalf("timeline line %d %q, event %+v", i, line, events.Events[i])
		}
		if m[2] == "towow.aggregation.started" && aggregation == 0 {
			aggregation = events.Events[i].Cursor
		}
	}
	t.Logf("timeline, %d lines:\n%s\n…\n%s", len(lines), strings.Join(lines[:4], "\n"), lines[len(lines)-1])
	if !strings.Contains(lines[0], "towow.demand.submitted") || !strings.Contains(lines[0], "3位活动策划") {
		t.Errorf("first line: %q", lines[0])
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "towow://negotiations/d-000000000000/timeline"}); err == nil {
		t.Error("the timeline of an unknown demand was read")
	}

	// The agreement's workflow: executed, each external agent reports its
	// task through complete_workflow_task.
	runWorkflow(t, tw, cs, bulk.Tokens, sub.DemandID)

	// What if: fork at the first aggregation without a change; the agents
	// answer the fork's proposal; compare it with the original.
	if msg := toolError(t, cs, "fork_negotiation", map[string]any{"demand_id": sub.DemandID, "at": 1,
		"change": map[string]any{"type": "none"}}); !strings.Contains(msg, "TOWOW_FORK_001") {
		t.Errorf("fork at a foreign cursor: %q", msg)
	}
	var fork mcpserver.ForkOutput
	call(t, cs, "fork_negotiation", map[string]any{"demand_id": sub.DemandID, "at": aggregation, "change": map[string]any{"type": "none"}}, &fork)
	if fork.DemandID == "" || fork.ForkedFrom != sub.DemandID {
		t.Fatalf("fork: %+v", fork)
	}
	fout, forkOffers, _ := drive(t, cs, bulk.Tokens, fork.DemandID)
	if fout.Outcome != "finalized" || forkOffers != 0 {
		t.Fatalf("fork outcome %+v (%d offers asked again)", fout, forkOffers)
	}
	for _, args := range []map[string]any{{"fork_id": fork.DemandID}, {"left": sub.DemandID, "right": fork.DemandID}} {
		var cmp mcpserver.CompareOutput
		call(t, cs, "compare_negotiations", args, &cmp)
		if cmp.Left.DemandID != sub.DemandID || cmp.Right.DemandID != fork.DemandID || !cmp.SamePlan ||
			cmp.Left.Status != "finalized" || cmp.Right.Status != "finalized" || len(cmp.Left.Participants) != 3 {
			t.Fatalf("compare %v: %+v", args, cmp)
		}
	}
	// The session ends with the transport's DELETE, through the API's edge:
	// its id is unknown afterwards.
	sid := cs.ID()
	if err := cs.Close(); err != nil || sid == "" {
		t.Fatalf("close the session %q: %v", sid, err)
	}
	req, _ := http.NewRequest(http.MethodPost, tw.url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+adminToken)
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a request in the deleted session %s: %d", sid, resp.StatusCode)
	}
}

// readTimeline reads a negotiation's timeline resource, as lines.
func readTimeline(t *testing.T, cs *mcp.ClientSession, demandID string) []string {
	t.Helper()
	uri := "towow://negotiations/" + demandID + "/timeline"
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/plain" || res.Contents[0].URI != uri {
		t.Fatalf("timeline contents: %+v", res.Contents)
	}
	return strings.Split(strings.TrimSuffix(res.Contents[0].Text, "\n"), "\n")
}

// runWorkflow executes the agreement's workflow (a REST decision) and has
// each external agent report its running task done with
// complete_workflow_task, first trying another agent's token.
func runWorkflow(t *testing.T, tw *towow, cs *mcp.ClientSession, tokens map[string]string, demandID string) {
	t.Helper()
	id := workflow.WorkflowIDFor(demandID)
	var w struct {
		Status  string `json:"status"`
		Version int    `json:"version"`
	}
	if st := tw.rest(t, "GET", "/api/v1/workflows/"+id, adminToken, nil, &w); st != 200 || w.Status != "draft" {
		t.Fatalf("workflow %s: %d %+v", id, st, w)
	}
	if st := tw.rest(t, "POST", "/api/v1/workflows/"+id+"/decisions", adminToken, map[string]any{"decision_type": "execute_workflow",
		"base_version": w.Version}, nil); st != 200 {
		t.Fatalf("execute: %d", st)
	}
	reported, refused := 0, false
	for range 300 {
		tw.rest(t, "GET", "/api/v1/workflows/"+id, adminToken, nil, &w)
		if w.Status != "running" {
			break
		}
		for agent, tok := range tokens {
			var inbox mcpserver.InboxOutput
			call(t, cs, "agent_inbox", map[string]any{"agent_token": tok}, &inbox)
			for _, task := range inbox.Tasks {
				if task.Kind != "task" || task.WorkflowID != id {
					continue
				}
				if task.NodeID == "" {
					t.Fatalf("task without node_id: %+v", task)
				}
				if !refused {
					for other, otherTok := range tokens {
						if other != agent {
							msg := toolError(t, cs, "complete_workflow_task", map[string]any{"agent_token": otherTok,
								"workflow_id": id, "node_id": task.NodeID, "summary": "不是我的"})
							if !strings.Contains(msg, "TOWOW_WORKFLOW_003") {
								t.Fatalf("someone else's task: %q", msg)
							}
							refused = true
							break
						}
					}
				}
				var rep mcpserver.TaskReportOutput
				call(t, cs, "complete_workflow_task", map[string]any{"agent_token": tok, "workflow_id": id, "node_id": task.NodeID,
					"summary": fmt.Sprintf("%s 已完成", task.NodeID)}, &rep)
				if rep.WorkflowID != id || rep.NodeID != task.NodeID || rep.Cursor == 0 {
					t.Fatalf("report: %+v", rep)
				}
				reported++
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if w.Status != "completed" || reported == 0 || !refused {
		t.Fatalf("workflow %s after %d reports (refusal checked: %v)", w.Status, reported, refused)
	}
}
