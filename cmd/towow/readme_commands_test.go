package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/towow/towow/data"
	"github.com/towow/towow/internal/dbtest"
)

// docFiles are the documents whose shell blocks TestReadmeCommands runs:
// the README, then every docs/*.md in name order.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md found")
	}
	return append([]string{"../../README.md"}, docs...)
}

// readmeCommands returns every command of the ```sh blocks of the README
// and of docs/*.md, with continuation lines joined and comments dropped.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, path := range docFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
			for _, line := range strings.Split(strings.ReplaceAll(block[1], "\\\n", " "), "\n") {
				if i := strings.Index(line, "  # "); i >= 0 {
					line = line[:i]
				}
				if line = strings.Join(strings.Fields(line), " "); line != "" && !strings.HasPrefix(line, "#") {
					out = append(out, line)
				}
			}
		}
	}
	return out
}

// notRunHere are the documented commands this test does not run, with who
// does.
var notRunHere = map[string]string{
	"make run":  "runs `towow serve` on the embedded database: every server test starts that (startServer), TestServeEmbeddedDatabase on the embedded cluster",
	"make test": "what CI runs (.ci/run)",
	`TOWOW_LLM=anthropic ANTHROPIC_API_KEY=sk-ant-... bin/towow demo "..."`:                                                                  "needs an Anthropic key and network; provider selection is covered by TestCommandErrors and the llm tests",
	"bin/mcp-inspector-2.12.0/node_modules/.bin/mcp-inspector --cli --strict --method tools/list -e DATABASE_URL=postgres://… bin/towow mcp": "TestInspectorStrict (mcpserver) runs it, over stdio and over /mcp, on a test database",
}

// assignment is a documented shell assignment from a command's output,
// `TOKEN=$(bin/towow token --user alice)`: run is given the command, and
// the test keeps what it printed for the commands that read $TOKEN.
var assignment = regexp.MustCompile(`^([A-Z_]+)=\$\((.+)\)$`)

// TestReadmeCommands runs the commands of the README and of docs/*.md
// against a real `towow serve`, in the order a newcomer would, with the
// placeholders filled in (<demand_id>, <channel_id>, cursors, tokens) and
// the address changed to the test server's. Every command in a ```sh block
// must be run here or be listed in notRunHere with who runs it, so the
// documents cannot rot. The commands run in one folder, the server's
// working folder as far as they can tell: `bin/towow token` there signs
// with the server's key (./.towow/signing-key.pem).
func TestReadmeCommands(t *testing.T) {
	db := dbtest.NewURL(t)
	const admin = "readme-test-admin-token"
	work := t.TempDir()
	// Later rounds of the external agent's negotiation settle by timeout.
	s := startServer(t, "DATABASE_URL="+db, "TOWOW_ADMIN_TOKEN="+admin, "TOWOW_FEEDBACK_TIMEOUT=2s",
		"TOWOW_DATA_DIR="+filepath.Join(work, ".towow"), "TOWOW_HTTP_ALLOW=127.0.0.1:9000")
	base := "http://" + s.addr
	if err := os.MkdirAll(filepath.Join(work, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "data", "mock_profiles.json"), data.MockProfiles, 0o644); err != nil {
		t.Fatal(err)
	}
	// my_agent.json: an external agent that matches the sample demand's
	// every tag, so it is invited and holds the negotiation until it answers.
	myAgent := `{"agent_id":"user_agent_readme","user_name":"外部场地方","location":"北京",
		"profile_summary":"在北京望京有40人会议室，常办AI沙龙，也做演讲嘉宾和活动策划。","tags":["场地提供","演讲嘉宾","活动策划"],
		"capabilities":{"场地":"望京40人会议室","演讲":"AI应用落地"},"interests":["AI"],"availability":"周末全天","mode":"external"}`
	if err := os.WriteFile(filepath.Join(work, "my_agent.json"), []byte(myAgent), 0o644); err != nil {
		t.Fatal(err)
	}

	commands := readmeCommands(t)
	ran := map[string]bool{}
	vars := map[string]string{}
	userToken := "" // $TOKEN: alice's, from the documented `towow token`
	// run finds the documented command that starts with prefix, fills it in and
	// runs it; a streaming command (curl -N) is cut after 3 s.
	run := func(prefix string) string {
		t.Helper()
		var cmd string
		for _, c := range commands {
			if strings.HasPrefix(c, prefix) {
				cmd = c
				break
			}
		}
		if cmd == "" {
			t.Fatalf("no command of the README or docs/ starts with %q", prefix)
		}
		ran[cmd] = true
		line := strings.ReplaceAll(cmd, "http://127.0.0.1:8080", base)
		for k, v := range vars {
			line = strings.ReplaceAll(line, k, v)
		}
		line = strings.ReplaceAll(line, "bin/towow", towowBin)
		if m := assignment.FindStringSubmatch(line); m != nil {
			line = m[2] // its output is the value
		}
		streaming := strings.HasPrefix(line, "curl -N")
		if strings.HasPrefix(line, "curl ") {
			line = "curl --max-time 3 -sS -w '\\n%{http_code}' " + strings.TrimPrefix(line, "curl ")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c := exec.CommandContext(ctx, "bash", "-c", line)
		c.Dir = work
		if strings.HasPrefix(cmd, "make ") || strings.HasPrefix(cmd, "go ") {
			c.Dir = filepath.Join("..", "..") // the repository root
		}
		c.Env = append(cleanEnv(), "DATABASE_URL="+db, "TOWOW_ADMIN_TOKEN="+admin, "AGENT_TOKEN="+vars["$AGENT_TOKEN"], "TOKEN="+userToken)
		out, err := c.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !(streaming && errors.As(err, &exit) && exit.ExitCode() == 28) { // 28: curl's --max-time
			t.Fatalf("documented command %q\nran as %q: %v\n%s", cmd, line, err, out)
		}
		text := strings.TrimSpace(string(out))
		if strings.HasPrefix(line, "curl ") {
			i := strings.LastIndex(text, "\n")
			code, _ := strconv.Atoi(text[i+1:])
			if code < 200 || code > 299 {
				t.Fatalf("documented command %q\nran as %q: HTTP %d\n%s", cmd, line, code, text)
			}
			text = text[:max(i, 0)]
		}
		if text == "" {
			t.Fatalf("documented command %q printed nothing", cmd)
		}
		return text
	}
	field := func(js, name string) string {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal([]byte(js), &m); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, js)
		}
		switch v := m[name].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatInt(int64(v), 10)
		}
		t.Fatalf("no %s in %s", name, js)
		return ""
	}

	// A fresh server: its read models catch up with the profiles it loaded.
	waitFor(t, "the read models catch up", func() bool {
		var st struct {
			Lag map[string]int64 `json:"projection_lag"`
		}
		getJSONAuth(t, base+"/api/v1/status", admin, &st)
		for _, l := range st.Lag {
			if l > 0 {
				return false
			}
		}
		return len(st.Lag) > 0
	})
	// Signing in: alice's token, minted where the server runs; the server
	// takes it.
	userToken = run(`TOKEN=$(bin/towow token --user alice)`)
	if strings.Count(userToken, ".") != 2 || strings.ContainsAny(userToken, " \n") {
		t.Fatalf("towow token printed %q, want one token", userToken)
	}
	run(`curl -s 'http://127.0.0.1:8080/api/v1/demands?limit=5'`)

	// The directory first: an external agent (its token comes back once).
	vars["$AGENT_TOKEN"] = field(run(`curl -s -X POST http://127.0.0.1:8080/api/v1/agents -H`), "token")
	run(`curl -s 'http://127.0.0.1:8080/api/v1/agents?tag=`)
	run(`curl -s http://127.0.0.1:8080/api/v1/agents/user_agent_bob`)

	// Submit the sample demand; the external agent is invited.
	sub := run(`curl -s -X POST http://127.0.0.1:8080/api/v1/demand/submit`)
	vars["<demand_id>"], vars["1234"] = field(sub, "demand_id"), field(sub, "cursor")
	var inbox struct {
		Tasks []struct {
			Kind      string `json:"kind"`
			ChannelID string `json:"channel_id"`
		} `json:"tasks"`
	}
	waitFor(t, "the external agent's offer task", func() bool {
		_ = json.Unmarshal([]byte(run(`curl -s http://127.0.0.1:8080/api/v1/agent/inbox`)), &inbox)
		return len(inbox.Tasks) == 1 && inbox.Tasks[0].Kind == "offer"
	})
	vars["<channel_id>"] = inbox.Tasks[0].ChannelID
	run(`curl -s -X POST http://127.0.0.1:8080/api/v1/channels/<channel_id>/offers`)
	waitFor(t, "the external agent's feedback task", func() bool {
		_ = json.Unmarshal([]byte(run(`curl -s http://127.0.0.1:8080/api/v1/agent/inbox`)), &inbox)
		return len(inbox.Tasks) == 1 && inbox.Tasks[0].Kind == "feedback"
	})
	run(`curl -s -X POST http://127.0.0.1:8080/api/v1/channels/<channel_id>/feedback`)
	if out := run(`curl -N http://127.0.0.1:8080/api/v1/events/negotiations/<demand_id>/stream`); !strings.Contains(out, "id: ") {
		t.Fatalf("the negotiation stream sent no event:\n%s", out)
	}
	if out := run(`curl -N -H 'Last-Event-ID: 1234'`); strings.Contains(out, "id: "+vars["1234"]+"\n") || !strings.Contains(out, "id: ") {
		t.Fatalf("the resumed stream repeats the event it resumes after, or sends nothing:\n%s", out)
	}
	run(`curl -N 'http://127.0.0.1:8080/api/v1/events/stream?type_prefix=`)
	if out := run(`curl -N 'http://127.0.0.1:8080/api/v1/events/negotiations/<demand_id>/stream?format=bridge`); !strings.Contains(out, `data: {"event":"channel_created"`) {
		t.Fatalf("the bridge format:\n%s", out)
	}
	waitFor(t, "the negotiation ends", func() bool {
		return field(run(`curl -s 'http://127.0.0.1:8080/api/v1/demands/<demand_id>?min_cursor=1234'`), "status") != "processing"
	})
	run(`curl -s 'http://127.0.0.1:8080/api/v1/events?demand_id=<demand_id>&type_prefix=towow.offer.`)
	// River UI's API with the admin token: the negotiation's steps, completed (River marks them in batches).
	waitFor(t, "River UI lists completed steps", func() bool {
		return strings.Contains(run(`curl -s 'http://127.0.0.1:8080/riverui/api/jobs?state=completed`), `"kind":"towow.`)
	})
	run(`curl -s 'http://127.0.0.1:8080/api/v1/demands?status=`)
	vars["<cursor>"] = field(run(`curl -s http://127.0.0.1:8080/api/v1/channels/<channel_id>`), "last_position")
	run(`curl -s http://127.0.0.1:8080/api/v1/channels/<channel_id>/proposals`)
	run(`curl -s 'http://127.0.0.1:8080/api/v1/channels/<channel_id>/state?at=`)
	if out := run(`curl -s http://127.0.0.1:8080/api/v1/negotiations/<demand_id>/view`); !strings.Contains(out, `"outcome"`) {
		t.Fatalf("the negotiation's view has no outcome:\n%s", out)
	}
	if out := run(`curl -N 'http://127.0.0.1:8080/api/v1/negotiations/<demand_id>/replay`); !strings.Contains(out, "towow.negotiation.completed") {
		t.Fatalf("the replay did not reach the end:\n%s", out)
	}
	run(`curl -s http://127.0.0.1:8080/api/v1/agents/user_agent_bob/history`)
	// Notices: alice's negotiation ended, so her inbox has its notice.
	if out := run(`curl -s http://127.0.0.1:8080/api/v1/notices`); !strings.Contains(out, `"kind":"negotiation.`) {
		t.Fatalf("no notice of the negotiation's end:\n%s", out)
	}
	if out := run(`curl -s -X POST http://127.0.0.1:8080/api/v1/webhooks`); !strings.Contains(out, `"secret":"whsec_`) {
		t.Fatalf("the webhook subscription:\n%s", out)
	}
	if out := run(`curl -s http://127.0.0.1:8080/api/v1/webhooks -H`); !strings.Contains(out, `"url":"http://127.0.0.1:9000/towow"`) {
		t.Fatalf("the webhook list:\n%s", out)
	}
	run(`curl -s 'http://127.0.0.1:8080/api/v1/llm-calls?`)
	if out := run(`curl -s http://127.0.0.1:8080/api/v1/demands/<demand_id>/quality`); !strings.Contains(out, `"need_coverage"`) {
		t.Fatalf("no quality scores:\n%s", out)
	}
	if out := run(`curl -s 'http://127.0.0.1:8080/api/v1/quality?`); !strings.Contains(out, `"fairness_gini"`) {
		t.Fatalf("no quality aggregate:\n%s", out)
	}
	vars["<other_demand_id>"] = vars["<demand_id>"] // compared with itself: the same plan
	if out := run(`curl -s 'http://127.0.0.1:8080/api/v1/negotiations/compare?`); !strings.Contains(out, `"same_plan":true`) {
		t.Fatalf("a negotiation compared with itself:\n%s", out)
	}
	// A fork of it after its first aggregation, and the fork beside it.
	var aggs struct {
		Events []struct {
			Cursor int64 `json:"cursor"`
		} `json:"events"`
	}
	getJSONAuth(t, base+"/api/v1/events?type=towow.aggregation.started&limit=1&demand_id="+vars["<demand_id>"], userToken, &aggs)
	if len(aggs.Events) != 1 {
		t.Fatalf("no aggregation in %s", vars["<demand_id>"])
	}
	vars["<fork_cursor>"] = strconv.FormatInt(aggs.Events[0].Cursor, 10)
	vars["<fork_id>"] = field(run(`curl -s -X POST http://127.0.0.1:8080/api/v1/negotiations/<demand_id>/forks`), "demand_id")
	if out := run(`curl -s http://127.0.0.1:8080/api/v1/forks/<fork_id>/compare`); !strings.Contains(out, `"plan_diff"`) {
		t.Fatalf("no comparison of the fork:\n%s", out)
	}
	// The workflow the agreement became, a decision, a conversation and its stream.
	var wfs struct {
		Workflows []struct {
			WorkflowID string `json:"workflow_id"`
		} `json:"workflows"`
	}
	if err := json.Unmarshal([]byte(run(`curl -s 'http://127.0.0.1:8080/api/v1/workflows?demand_id=`)), &wfs); err != nil || len(wfs.Workflows) != 1 {
		t.Fatalf("no workflow for the agreement: %v %+v", err, wfs)
	}
	vars["<workflow_id>"] = wfs.Workflows[0].WorkflowID
	run(`curl -s http://127.0.0.1:8080/api/v1/workflows/<workflow_id>`)
	if out := run(`curl -s -X POST http://127.0.0.1:8080/api/v1/workflows/<workflow_id>/decisions`); field(out, "version") != "2" {
		t.Fatalf("the decision was not let through:\n%s", out)
	}
	// The canvas: a batch on the version it shows, then this tab's stream
	// acknowledges it.
	vars["<version>"] = field(run(`curl -s http://127.0.0.1:8080/api/v1/workflows/<workflow_id>/canvas`), "version")
	if out := run(`curl -s -X POST http://127.0.0.1:8080/api/v1/workflows/<workflow_id>/canvas/changes`); field(out, "version") != "4" {
		t.Fatalf("the canvas batch was not let through:\n%s", out)
	}
	if out := run(`curl -N 'http://127.0.0.1:8080/api/v1/events/workflows/<workflow_id>/stream?client_id=tab-1'`); !strings.Contains(out, "event: towow.canvas.ack") {
		t.Fatalf("the tab's stream has no acknowledgement:\n%s", out)
	}
	run(`curl -s -X POST http://127.0.0.1:8080/api/v1/workflows/<workflow_id>/messages`)
	run(`curl -s http://127.0.0.1:8080/api/v1/workflows/<workflow_id>/messages`)
	if out := run(`curl -N http://127.0.0.1:8080/api/v1/events/workflows/<workflow_id>/stream`); !strings.Contains(out, "towow.decision.validated") {
		t.Fatalf("the workflow stream:\n%s", out)
	}
	// A workflow of one's own, from a template; then it is in the caller's list.
	if out := run(`curl -s http://127.0.0.1:8080/api/v1/workflows/templates`); !strings.Contains(out, `"key":"approval"`) {
		t.Fatalf("the templates:\n%s", out)
	}
	own := field(run(`curl -s -X POST http://127.0.0.1:8080/api/v1/workflows -H`), "workflow_id")
	if own == "" {
		t.Fatal("no workflow of one's own was started")
	}
	waitFor(t, "the caller's workflows list it", func() bool { return strings.Contains(run(`curl -s http://127.0.0.1:8080/api/v1/workflows -H`), own) })
	run(`curl -s -X POST http://127.0.0.1:8080/api/v1/agents/bulk`)
	run(`curl -s -X POST http://127.0.0.1:8080/api/v1/agents/user_agent_bob/deactivate`)

	// The command-line tools on the same database (without the external
	// agent, which would hold the demo's negotiation until its offer timeout).
	postJSON(t, base+"/api/v1/agents/user_agent_readme/deactivate", admin, map[string]string{"reason": "demo"}, 200, nil)
	if out := run(`bin/towow demo "`); !strings.Contains(out, "status: ") {
		t.Fatalf("demo printed no terminal state:\n%s", out)
	}
	if out := run(`bin/towow bench fork`); !strings.Contains(out, "LLM calls after the fork point") {
		t.Fatalf("bench fork printed no figures:\n%s", out)
	}
	if out := run(`bin/towow bench append`); !strings.Contains(out, "events/s") {
		t.Fatalf("bench append printed no figures:\n%s", out)
	}
	if out := run(`go test -run '^$' -bench Append ./eventstore`); !strings.Contains(out, "ns/op") {
		t.Fatalf("the Go benchmark printed no figures:\n%s", out)
	}
	if out := run(`make bench`); !strings.Contains(out, "events/s") {
		t.Fatalf("make bench printed no figures:\n%s", out)
	}
	// The server stops first: on the same database its workers would take
	// the demo's steps and answer them with its builtin brain.
	s.stop(t)
	// The Ollama line, against a stand-in on Ollama's address that has not
	// pulled the model (Ollama's 404): a configuration error, not an
	// outage, so the demo must still reach a terminal state on the
	// prompts' fallbacks at once (a real model is not available here).
	if ln, err := net.Listen("tcp", "localhost:11434"); err != nil {
		t.Logf("localhost:11434 is taken; the documented Ollama line is not run: %v", err)
		ran[`TOWOW_LLM=openai OPENAI_BASE_URL=http://localhost:11434/v1 LLM_MODEL=qwen2.5:7b bin/towow demo "下周六在杭州办读书会，需要场地和一位主持人"`] = true
	} else {
		var calls atomic.Int64
		fake := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			http.Error(w, `{"error":{"message":"model \"qwen2.5:7b\" not found, try pulling it first"}}`, http.StatusNotFound)
		})}
		go func() { _ = fake.Serve(ln) }()
		defer fake.Close()
		if out := run(`TOWOW_LLM=openai OPENAI_BASE_URL=http://localhost:11434/v1`); !strings.Contains(out, "status: ") || calls.Load() == 0 {
			t.Fatalf("the Ollama line (%d calls to the stand-in) printed no terminal state:\n%s", calls.Load(), out)
		}
	}

	for _, c := range commands {
		if !ran[c] && notRunHere[c] == "" {
			t.Errorf("documented command not run by any test: %q (run it in TestReadmeCommands or list it in notRunHere)", c)
		}
	}
	for c := range notRunHere {
		found := false
		for _, rc := range commands {
			found = found || rc == c
		}
		if !found {
			t.Errorf("notRunHere lists %q, which is no longer in the README or docs/", c)
		}
	}
}
