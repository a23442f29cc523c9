package mcpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/mcpserver"
)

// postMCP sends one JSON-RPC message to /mcp with token (none when "")
// and, when sid is set, the session's id; it returns the answer, its body
// read.
func postMCP(t *testing.T, tw *towow, token, sid, body string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, tw.url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, raw
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestMCPSignIn: /mcp takes a user's bearer token or the admin token and
// nothing else; a refusal says what to send, in its body and in its
// challenge (local mode: a challenge that points at no metadata, as there
// is no authorization server); the protected resource metadata (RFC 9728)
// names the resource.
func TestMCPSignIn(t *testing.T) {
	tw := startTowow(t)

	// An external agent, for its token.
	var bulk struct{ Tokens map[string]string }
	if st := tw.rest(t, "POST", "/api/v1/agents/bulk", adminToken, []negotiation.AgentProfile{externalAgent("user_agent_ext1", "外部一号")}, &bulk); st != 200 {
		t.Fatalf("bulk: %d", st)
	}
	forged, err := identity.NewLocalWith(identity.NewSigner(newKey())).MintLocalToken("alice", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	session, err := people.MintSession(identity.User("alice", "alice"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, token, cookie string
		status              int
		code                string
		invalid             bool // a 401 for a token that is not valid (error="invalid_token")
	}{
		{name: "no token", status: 401, code: "TOWOW_AUTH_001"},
		{name: "the console's session", cookie: session, status: 401, code: "TOWOW_AUTH_001"},
		{name: "a forged user token", token: forged, status: 401, code: "TOWOW_AUTH_001", invalid: true},
		{name: "not a token", token: "wrong-token-0123456789", status: 401, code: "TOWOW_AUTH_001", invalid: true},
		{name: "an agent token", token: bulk.Tokens["user_agent_ext1"], status: 403, code: "TOWOW_AUTH_002"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, tw.url+"/mcp", strings.NewReader(initialize))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			if tc.cookie != "" {
				req.AddCookie(&http.Cookie{Name: "towow_session", Value: tc.cookie})
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var p struct{ Code, Detail string }
			_ = json.NewDecoder(resp.Body).Decode(&p)
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/problem+json" || p.Code != tc.code {
				t.Fatalf("%d %s %+v, want %d %s", resp.StatusCode, resp.Header.Get("Content-Type"), p, tc.status, tc.code)
			}
			// The challenge: the realm, the error for a bad token, the
			// detail as its description (a " in it as ').
			challenge := ""
			if tc.status == 401 {
				challenge = `Bearer realm="ToWow", `
				if tc.invalid {
					challenge += `error="invalid_token", `
				}
				challenge += `error_description="` + strings.ReplaceAll(p.Detail, `"`, "'") + `"`
			}
			if got := resp.Header.Get("WWW-Authenticate"); got != challenge {
				t.Errorf("WWW-Authenticate %q, want %q", got, challenge)
			}
			// What to send: a person's token (local mode: towow token) or
			// the admin token; an agent is told to pass its token to the
			// agent tools.
			want := []string{"towow token --user NAME", "admin token"}
			if tc.status == 403 {
				want = []string{"agent_token", "admin token"}
			}
			for _, w := range want {
				if !strings.Contains(p.Detail, w) {
					t.Errorf("detail %q does not say %q", p.Detail, w)
				}
			}
			t.Logf("%d %s", resp.StatusCode, p.Detail)
		})
	}
	if _, err := tw.connect(t, forged); err == nil {
		t.Fatal("the SDK's client connected with a forged token")
	}

	// The metadata: the resource is /mcp of the URL asked; local mode has
	// no authorization server (tokens come from `towow token`). The same
	// document at the root.
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(tw.url + path)
		if err != nil {
			t.Fatal(err)
		}
		var meta map[string]any
		err = json.NewDecoder(resp.Body).Decode(&meta)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET %s: %d %s %v", path, resp.StatusCode, resp.Header.Get("Content-Type"), err)
		}
		raw, _ := json.Marshal(meta)
		want := `{"bearer_methods_supported":["header"],"resource":"` + tw.url + `/mcp","resource_name":"ToWow"}`
		if string(raw) != want {
			t.Errorf("GET %s: %s, want %s", path, raw, want)
		}
	}
}

// TestMCPActsAsItsCaller: over /mcp the tools act as the user whose
// token opened the session, under the API's ownership rules; the admin
// token still acts as the operator; a session answers only the user who
// opened it.
func TestMCPActsAsItsCaller(t *testing.T) {
	tw := startTowow(t)
	alice, err := tw.connect(t, userToken(t, "alice"))
	if err != nil {
		t.Fatal(err)
	}
	bob, err := tw.connect(t, userToken(t, "bob"))
	if err != nil {
		t.Fatal(err)
	}
	admin, err := tw.connect(t, adminToken)
	if err != nil {
		t.Fatal(err)
	}

	// Alice submits: the demand is hers.
	const secret = "alice的私人聚会：周六在北京办一场AI沙龙"
	var sub mcpserver.SubmitDemandOutput
	call(t, alice, "submit_demand", map[string]any{"text": secret}, &sub)
	if sub.DemandID == "" {
		t.Fatalf("submit: %+v", sub)
	}
	var w mcpserver.WaitOutput
	call(t, alice, "wait_for_outcome", map[string]any{"demand_id": sub.DemandID, "timeout_seconds": 1}, &w)
	var n mcpserver.Negotiation
	for range 100 {
		res := callRaw(t, alice, "get_negotiation", map[string]any{"demand_id": sub.DemandID})
		if !res.IsError {
			raw, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(raw, &n); err != nil {
				t.Fatal(err)
			}
			break
		}
		if !strings.Contains(text(res), "TOWOW_NOT_FOUND") { // not folded yet: again
			t.Fatalf("alice's get_negotiation: %s", text(res))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n.DemandID != sub.DemandID || n.UserID != "alice" || n.RawInput != secret {
		t.Fatalf("alice's negotiation: %+v", n)
	}
	if lines := readTimeline(t, alice, sub.DemandID); !strings.Contains(lines[0], "towow.demand.submitted") {
		t.Fatalf("alice's timeline: %q", lines)
	}

	// Bob: her demand does not exist for him; he cannot submit for her.
	for _, tc := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"get_negotiation", map[string]any{"demand_id": sub.DemandID}, "TOWOW_NOT_FOUND"},
		{"wait_for_outcome", map[string]any{"demand_id": sub.DemandID, "timeout_seconds": 1}, "TOWOW_NOT_FOUND"},
		{"fork_negotiation", map[string]any{"demand_id": sub.DemandID, "at": 1, "change": map[string]any{"type": "none"}}, "TOWOW_NOT_FOUND"},
		{"submit_demand", map[string]any{"text": "替alice提交", "user_id": "alice"}, "TOWOW_AUTH_003"},
		{"agent_inbox", map[string]any{"agent_token": ""}, "TOWOW_AUTH_002"}, // his own token is not an agent's
	} {
		msg := toolError(t, bob, tc.tool, tc.args)
		if !strings.Contains(msg, tc.code) || strings.Contains(msg, secret) {
			t.Errorf("bob's %s: %q, want %s without her text", tc.tool, msg, tc.code)
		}
	}
	if res, err := bob.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "towow://negotiations/" + sub.DemandID + "/timeline"}); err == nil {
		t.Errorf("bob read alice's timeline: %+v", res)
	} else if strings.Contains(err.Error(), secret) {
		t.Errorf("bob's timeline error shows her text: %v", err)
	}
	// Bob's own demand is his.
	var bobs mcpserver.SubmitDemandOutput
	call(t, bob, "submit_demand", map[string]any{"text": "bob想在上海办一场读书会"}, &bobs)
	var bw mcpserver.WaitOutput
	call(t, bob, "wait_for_outcome", map[string]any{"demand_id": bobs.DemandID, "timeout_seconds": 1}, &bw)
	if bw.Negotiation.UserID != "" && bw.Negotiation.UserID != "bob" {
		t.Errorf("bob's demand: %+v", bw.Negotiation)
	}
	if msg := toolError(t, alice, "get_negotiation", map[string]any{"demand_id": bobs.DemandID}); !strings.Contains(msg, "TOWOW_NOT_FOUND") ||
		strings.Contains(msg, "读书会") {
		t.Errorf("alice's get_negotiation of bob's demand: %q", msg)
	}

	// The admin token: the operator sees hers and may act for someone.
	var an mcpserver.Negotiation
	call(t, admin, "get_negotiation", map[string]any{"demand_id": sub.DemandID}, &an)
	if an.UserID != "alice" || an.RawInput != secret {
		t.Fatalf("the operator's view: %+v", an)
	}
	var forCarol mcpserver.SubmitDemandOutput
	call(t, admin, "submit_demand", map[string]any{"text": "替carol办一场AI聚会", "user_id": "carol"}, &forCarol)
	if forCarol.DemandID == "" {
		t.Fatalf("the operator's submit for carol: %+v", forCarol)
	}

	// Alice's session answers her token only: bob's (or the admin's) with
	// her session id is the SDK's 403, and her session goes on.
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
	for who, token := range map[string]string{"bob": userToken(t, "bob"), "the admin": adminToken} {
		if resp, body := postMCP(t, tw, token, alice.ID(), list); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s in alice's session: %d %s", who, resp.StatusCode, body)
		}
	}
	if resp, body := postMCP(t, tw, "", alice.ID(), list); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token in alice's session: %d %s", resp.StatusCode, body)
	}
	req, _ := http.NewRequest(http.MethodDelete, tw.url+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+userToken(t, "bob"))
	req.Header.Set("Mcp-Session-Id", alice.ID())
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("bob ends alice's session: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	// Another token of hers (the same user) works in her session.
	fresh, err := people.MintLocalToken("alice", 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if resp, body := postMCP(t, tw, fresh, alice.ID(), list); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "submit_demand") {
		t.Errorf("another token of alice's in her session: %d %s", resp.StatusCode, body)
	}
	var again mcpserver.Negotiation
	call(t, alice, "get_negotiation", map[string]any{"demand_id": sub.DemandID}, &again)
	if again.UserID != "alice" {
		t.Fatalf("alice after the attempts: %+v", again)
	}
}
