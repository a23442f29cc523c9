package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/projections"
)

// problemBody is the part of a problem+json answer the tests check.
type problemBody struct {
	Status int    `json:"status"`
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// do sends a JSON request with an optional bearer token and decodes a 2xx
// answer into out; it returns the status and, for an error, the problem.
func (a *testAPI) do(t *testing.T, method, path, token string, body, out any) (int, problemBody) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, a.url+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	switch token {
	case "":
	case noCredentials:
		req.Header.Set("Authorization", noCredentials)
	default:
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var p problemBody
	if resp.StatusCode >= 300 {
		if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
			t.Fatalf("%s %s: %d with Content-Type %q: %s", method, path, resp.StatusCode, ct, raw)
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("%s %s: %d, problem not JSON: %s", method, path, resp.StatusCode, raw)
		}
		return resp.StatusCode, p
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %d, body not JSON: %v: %s", method, path, resp.StatusCode, err, raw)
		}
	}
	return resp.StatusCode, p
}

// headPosition is the log's last committed position (settled or not): it
// moves exactly when something is appended.
func (a *testAPI) headPosition(t *testing.T) int64 {
	t.Helper()
	h, err := a.store.LatestPosition(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func waitShort() { time.Sleep(50 * time.Millisecond) }

func externalProfile(id, name string, tags ...string) negotiation.AgentProfile {
	return negotiation.AgentProfile{AgentID: id, UserName: name, Location: "北京",
		ProfileSummary: name + "在北京朝阳区，常办AI技术沙龙，有场地也认识很多嘉宾。",
		Tags:           tags, Capabilities: map[string]string{"场地": "望京40人会议室", "嘉宾": "认识多位AI研究员"},
		Interests: []string{"AI"}, Availability: "周末", Mode: negotiation.AgentModeExternal}
}

// TestAgentsAdmin: the agent directory over HTTP, with its auth and error
// cases; every refused request writes nothing.
func TestAgentsAdmin(t *testing.T) {
	a := newAPIWith(t, dbtest.NewURL(t), apiOptions{profiles: []negotiation.AgentProfile{}})
	adm := testAdminToken
	twin := externalProfile("user_agent_twin1", "双胞胎", "嘉宾邀请")
	twin.Mode = negotiation.AgentModeTwin
	ext := externalProfile("user_agent_ext1", "外部一号", "场地提供")
	bad := ext
	bad.AgentID, bad.Tags = "user_agent_bad", nil

	var created api.AgentWrite
	if st, p := a.do(t, "POST", "/api/v1/agents", adm, twin, &created); st != 201 || created.Token != "" || !created.Changed {
		t.Fatalf("create twin: %d %+v %+v", st, p, created)
	}
	var extW api.AgentWrite
	if st, p := a.do(t, "POST", "/api/v1/agents", adm, ext, &extW); st != 201 || !strings.HasPrefix(extW.Token, "towow_agent_") || extW.Mode != "external" {
		t.Fatalf("create external: %d %+v %+v", st, p, extW)
	}

	// The external agent's first contact brings it online (an event of its
	// own, TestAgentPresence); the refused requests below write nothing.
	if st, p := a.do(t, "GET", "/api/v1/agent/inbox", extW.Token, nil, nil); st != 200 {
		t.Fatalf("first contact: %d %+v", st, p)
	}
	head := a.headPosition(t)
	refused := []struct {
		name         string
		method, path string
		token        string
		body         any
		status       int
		code         string
	}{
		{"no token", "POST", "/api/v1/agents", noCredentials, twin, 401, api.CodeUnauthorized},
		{"wrong token", "POST", "/api/v1/agents", "not-the-admin-token", twin, 401, api.CodeUnauthorized},
		{"agent token is not admin", "POST", "/api/v1/agents", extW.Token, twin, 403, api.CodeForbidden},
		{"exists", "POST", "/api/v1/agents", adm, twin, 409, "TOWOW_AGENT_002"},
		{"invalid profile", "POST", "/api/v1/agents", adm, bad, 422, "TOWOW_AGENT_001"},
		{"missing fields", "POST", "/api/v1/agents", adm, `{"agent_id":"user_agent_x"}`, 422, api.CodeBadRequest},
		{"update unknown", "PUT", "/api/v1/agents/user_agent_nobody", adm, externalProfile("user_agent_nobody", "无人", "场地提供"), 404, api.CodeNotFound},
		{"update renames", "PUT", "/api/v1/agents/user_agent_ext1", adm, twin, 422, "TOWOW_AGENT_001"},
		{"reactivate active", "POST", "/api/v1/agents/user_agent_ext1/reactivate", adm, nil, 409, "TOWOW_AGENT_003"},
		{"token for a twin", "POST", "/api/v1/agents/user_agent_twin1/token", adm, nil, 422, "TOWOW_AGENT_004"},
		{"deactivate unknown", "POST", "/api/v1/agents/user_agent_nobody/deactivate", adm, nil, 404, api.CodeNotFound},
		{"bulk with one bad profile", "POST", "/api/v1/agents/bulk", adm,
			[]negotiation.AgentProfile{externalProfile("user_agent_ok", "好", "场地提供"), bad}, 422, "TOWOW_AGENT_001"},
		{"bulk with a repeated id", "POST", "/api/v1/agents/bulk", adm,
			[]negotiation.AgentProfile{externalProfile("user_agent_ok", "好", "场地提供"), externalProfile("user_agent_ok", "好", "场地提供")}, 422, "TOWOW_AGENT_001"},
		{"bulk not an array", "POST", "/api/v1/agents/bulk", adm, `{"agent_id":"x"}`, 422, api.CodeBadRequest},
		{"agent endpoint without token", "POST", "/api/v1/channels/collab-x/offers", noCredentials, map[string]any{"decision": "participate"}, 401, api.CodeUnauthorized},
		{"agent endpoint with a made-up token", "POST", "/api/v1/channels/collab-x/offers", "towow_agent_made-up", map[string]any{"decision": "participate"}, 401, api.CodeUnauthorized},
		{"agent endpoint with the admin token", "GET", "/api/v1/agent/inbox", adm, nil, 403, api.CodeForbidden},
		{"offer to an unknown channel", "POST", "/api/v1/channels/collab-nope/offers", extW.Token, map[string]any{"decision": "participate", "contribution": "场地"}, 404, api.CodeNotFound},
		{"offer with a bad decision", "POST", "/api/v1/channels/collab-nope/offers", extW.Token, map[string]any{"decision": "maybe"}, 422, api.CodeBadRequest},
		{"unknown agent (read model)", "GET", "/api/v1/agents/user_agent_nobody", "", nil, 404, api.CodeNotFound},
		{"history of an unknown agent", "GET", "/api/v1/agents/user_agent_nobody/history", "", nil, 404, api.CodeNotFound},
		{"bad list filter", "GET", "/api/v1/agents?mode=robot", "", nil, 422, api.CodeBadRequest},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			st, p := a.do(t, tc.method, tc.path, tc.token, tc.body, nil)
			if st != tc.status || p.Code != tc.code {
				t.Fatalf("%d %+v, want %d %s", st, p, tc.status, tc.code)
			}
		})
	}
	if h := a.headPosition(t); h != head {
		t.Fatalf("refused requests wrote events: head %d → %d", head, h)
	}

	// Update, deactivate, reactivate, rotate the token.
	moved := ext
	moved.Location = "上海"
	var w api.AgentWrite
	if st, p := a.do(t, "PUT", "/api/v1/agents/user_agent_ext1", adm, moved, &w); st != 200 || !w.Changed || w.Profile.Location != "上海" {
		t.Fatalf("update: %d %+v %+v", st, p, w)
	}
	if st, _ := a.do(t, "PUT", "/api/v1/agents/user_agent_ext1", adm, moved, &w); st != 200 || w.Changed {
		t.Fatalf("same profile again: %d changed=%v", st, w.Changed)
	}
	if st, p := a.do(t, "POST", "/api/v1/agents/user_agent_ext1/deactivate", adm, map[string]string{"reason": "休假"}, &w); st != 200 || w.Active {
		t.Fatalf("deactivate: %d %+v %+v", st, p, w)
	}
	if st, p := a.do(t, "GET", "/api/v1/agent/inbox", extW.Token, nil, nil); st != 403 || p.Code != api.CodeForbidden {
		t.Fatalf("deactivated agent's token: %d %+v", st, p)
	}
	if st, p := a.do(t, "POST", "/api/v1/agents/user_agent_ext1/deactivate", adm, nil, nil); st != 409 || p.Code != "TOWOW_AGENT_003" {
		t.Fatalf("deactivate twice: %d %+v", st, p)
	}
	if st, p := a.do(t, "POST", "/api/v1/agents/user_agent_ext1/reactivate", adm, nil, &w); st != 200 || !w.Active {
		t.Fatalf("reactivate: %d %+v", st, p)
	}
	var rotated api.AgentWrite
	if st, p := a.do(t, "POST", "/api/v1/agents/user_agent_ext1/token", adm, nil, &rotated); st != 201 || rotated.Token == "" || rotated.Token == extW.Token {
		t.Fatalf("rotate: %d %+v %+v", st, p, rotated)
	}
	if st, p := a.do(t, "GET", "/api/v1/agent/inbox", extW.Token, nil, nil); st != 401 || p.Code != api.CodeUnauthorized {
		t.Fatalf("old token after rotation: %d %+v", st, p)
	}
	var inbox api.InboxOutput
	if st, p := a.do(t, "GET", "/api/v1/agent/inbox", rotated.Token, nil, &inbox.Body); st != 200 || inbox.Body.AgentID != "user_agent_ext1" || len(inbox.Body.Tasks) != 0 {
		t.Fatalf("new token: %d %+v %+v", st, p, inbox.Body)
	}

	// A twin that becomes external gets its token with the update.
	twinExt := twin
	twinExt.Mode = negotiation.AgentModeExternal
	if st, p := a.do(t, "PUT", "/api/v1/agents/user_agent_twin1", adm, twinExt, &w); st != 200 || w.Token == "" || w.Mode != "external" {
		t.Fatalf("twin → external: %d %+v %+v", st, p, w)
	}

	// Bulk: one new external agent (with its token), one changed, one unchanged.
	var bulk struct {
		Registered, Updated, Unchanged int
		Tokens                         map[string]string
		Cursor                         int64
	}
	moved.UserName = "外部一号（上海）"
	body := []negotiation.AgentProfile{externalProfile("user_agent_ext2", "外部二号", "场地提供"), moved, twinExt}
	if st, p := a.do(t, "POST", "/api/v1/agents/bulk", adm, body, &bulk); st != 200 || bulk.Registered != 1 || bulk.Updated != 1 ||
		bulk.Unchanged != 1 || len(bulk.Tokens) != 1 || bulk.Tokens["user_agent_ext2"] == "" {
		t.Fatalf("bulk: %d %+v %+v", st, p, bulk)
	}

	// The read model, read-your-writes: list with filters and pages, get.
	var page struct {
		Agents     []projections.AgentView `json:"agents"`
		NextCursor string                  `json:"next_cursor"`
	}
	q := fmt.Sprintf("?min_cursor=%d", bulk.Cursor)
	if st := a.getJSON(t, "/api/v1/agents"+q, &page); st != 200 || len(page.Agents) != 3 {
		t.Fatalf("list: %d %+v", st, page)
	}
	var ids []string
	for cursor := ""; len(ids) < 10; {
		page.NextCursor = ""
		a.getJSON(t, "/api/v1/agents?limit=2&cursor="+cursor, &page)
		for _, ag := range page.Agents {
			ids = append(ids, ag.AgentID)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if want := []string{"user_agent_ext1", "user_agent_ext2", "user_agent_twin1"}; !slices.Equal(ids, want) {
		t.Fatalf("paged ids %v, want %v", ids, want)
	}
	a.getJSON(t, "/api/v1/agents?location="+"%E4%B8%8A%E6%B5%B7", &page) // 上海
	if len(page.Agents) != 1 || page.Agents[0].AgentID != "user_agent_ext1" || page.Agents[0].Profile.UserName != "外部一号（上海）" {
		t.Fatalf("location filter: %+v", page.Agents)
	}
	var one projections.AgentView
	if st := a.getJSON(t, "/api/v1/agents/user_agent_ext1", &one); st != 200 || !one.Active || one.Mode != "external" || one.TokenIssuedAt == nil {
		t.Fatalf("get: %d %+v", st, one)
	}

	// Rebuild over the API (admin only): the same rows again.
	if st, p := a.do(t, "POST", "/api/v1/admin/projections/agents/rebuild", noCredentials, nil, nil); st != 401 || p.Code != api.CodeUnauthorized {
		t.Fatalf("rebuild without token: %d %+v", st, p)
	}
	if st, p := a.do(t, "POST", "/api/v1/admin/projections/nope/rebuild", adm, nil, nil); st != 404 || p.Code != api.CodeNotFound {
		t.Fatalf("rebuild of an unknown model: %d %+v", st, p)
	}
	var rb api.RebuildOutput
	a.getJSON(t, fmt.Sprintf("/api/v1/agents?min_cursor=%d", a.headPosition(t)), &page)
	if st, p := a.do(t, "POST", "/api/v1/admin/projections/agents/rebuild", adm, nil, &rb.Body); st != 200 || !rb.Body.Identical ||
		rb.Body.After.Rows == 0 || rb.Body.Cursor != a.headPosition(t) {
		t.Fatalf("rebuild: %d %+v %+v", st, p, rb.Body)
	}
}
