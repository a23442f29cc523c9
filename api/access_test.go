package api_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/testop"
)

// asUser sends a request with a user's token (noCredentials: none) and
// returns the status, the Content-Type and the body (a stream: what it
// sent within a short read).
func (a *testAPI) asUser(t *testing.T, token, method, path, body string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequestWithContext(ctx, method, a.url+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token == noCredentials {
		req.Header.Set("Authorization", noCredentials)
	} else {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
		}
	} else {
		raw, _ := io.ReadAll(resp.Body)
		b.Write(raw)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b.String()
}

// TestIsolation: for every operation of the published OpenAPI document, a
// second signed-in user gets 404 (an owned resource: the answer for an id
// that does not exist) or 403 (an operation that is not a user's) on the
// first user's negotiation, channel, fork and workflow; no answer or
// stream frame sent to the second user holds the first user's demand text;
// the second user's lists do not show it; and the owner is still served.
func TestIsolation(t *testing.T) {
	a := newAPI(t)
	const secret = "我想在北京办一场AI主题聚会，需要场地和嘉宾，联系电话13800138000"
	alice, bob := userToken(t, "alice"), userToken(t, "bob")

	// Alice's negotiation and its agreement's workflow.
	st, _, body := a.asUser(t, alice, "POST", "/api/v1/demand/submit", `{"raw_input":"`+secret+`"}`)
	var sub struct{ DemandID, ChannelID string }
	if err := json.Unmarshal([]byte(body), &struct {
		D *string `json:"demand_id"`
		C *string `json:"channel_id"`
	}{&sub.DemandID, &sub.ChannelID}); st != 202 || err != nil {
		t.Fatalf("alice submits: %d %s", st, body)
	}
	demandID, channelID := sub.DemandID, sub.ChannelID
	var wf api.WorkflowListOutput
	for deadline := time.Now().Add(30 * time.Second); len(wf.Body.Workflows) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no workflow after the agreement")
		}
		st, _, body := a.asUser(t, alice, "GET", "/api/v1/workflows?demand_id="+demandID, "")
		if st != 200 || json.Unmarshal([]byte(body), &wf.Body) != nil {
			t.Fatalf("the owner lists her workflow: %d %s", st, body)
		}
	}
	workflowID := wf.Body.Workflows[0].WorkflowID
	ids := map[string]string{"demand_id": demandID, "channel_id": channelID, "workflow_id": workflowID, "fork_id": demandID,
		"node_id": wf.Body.Workflows[0].Nodes[0].ID, "agent_id": "user_agent_lihua", "name": "demands"}

	// The operations, from the document.
	st, _, body = a.asUser(t, alice, "GET", "/openapi.json", "")
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Security    []map[string][]string
		} `json:"paths"`
	}
	if st != 200 || json.Unmarshal([]byte(body), &doc) != nil {
		t.Fatalf("openapi.json: %d", st)
	}
	bodies := map[string]string{
		"submit-demand": `{"raw_input":"bob's own demand"}`, "clarify-demand": `{"text":"更多"}`,
		"fork-negotiation": `{"at":0,"change":{"kind":"remove_agent","agent_id":"nobody"}}`,
		"change-canvas":    `{"base_version":1,"changes":[]}`, "decide-workflow": `{"decision_id":"x","type":"execute_workflow","base_version":1}`,
		"send-message": `{"text":"hi"}`, "approve-node": `{"approved":true}`,
		"submit-offer": `{"decision":"participate","contribution":"x"}`, "submit-feedback": `{"round":1,"feedback_type":"accept"}`,
		"report-task": `{"status":"done","summary":"x"}`,
	}
	queries := map[string]string{"list-workflows": "demand_id=" + demandID, "list-events": "demand_id=" + demandID,
		"list-llm-calls": "demand_id=" + demandID, "compare-negotiations": "left=" + demandID + "&right=" + demandID,
		"negotiation-view": "", "list-demands": "", "quality": ""}
	checked := 0
	for path, ops := range doc.Paths {
		for method, op := range ops {
			method = strings.ToUpper(method)
			p := path
			for k, v := range ids {
				p = strings.ReplaceAll(p, "{"+k+"}", url.PathEscape(v))
			}
			if q := queries[op.OperationID]; q != "" {
				p += "?" + q
			}
			st, ct, got := a.asUser(t, bob, method, p, bodies[op.OperationID])
			checked++
			if strings.Contains(got, "13800138000") || strings.Contains(got, "联系电话") {
				t.Errorf("%s %s (%s): bob was sent alice's demand text: %d %.300s", method, p, op.OperationID, st, got)
			}
			owned := strings.Contains(path, "{demand_id}") || strings.Contains(path, "{channel_id}") ||
				strings.Contains(path, "{workflow_id}") || strings.Contains(path, "{fork_id}") || queries[op.OperationID] != ""
			switch {
			case len(op.Security) == 0: // public: the catalog, node types, health
			case owned && st != 404 && st != 403:
				t.Errorf("%s %s (%s): bob got %d %s %.200s, want 404 (or 403)", method, p, op.OperationID, st, ct, got)
			case !owned && st/100 == 5:
				t.Errorf("%s %s (%s): %d %.200s", method, p, op.OperationID, st, got)
			}
		}
	}
	if checked < 45 {
		t.Fatalf("only %d operations checked", checked)
	}

	// Bob's lists hold nothing of alice's; alice's hold her demand.
	for _, tc := range []struct {
		token, path string
		want        bool
	}{
		{bob, "/api/v1/demands", false}, {alice, "/api/v1/demands", true},
		{bob, "/api/v1/demands?user_id=alice", false}, // 422: not bob
		{alice, "/api/v1/events?demand_id=" + demandID, true},
	} {
		st, _, got := a.asUser(t, tc.token, "GET", tc.path, "")
		if strings.Contains(got, "13800138000") != tc.want {
			t.Errorf("GET %s: %d, holds alice's demand: %v, want %v", tc.path, st, !tc.want, tc.want)
		}
	}
	// The global list and stream are the admin's.
	for _, path := range []string{"/api/v1/events", "/api/v1/events/stream"} {
		if st, _, _ := a.asUser(t, bob, "GET", path, ""); st != 403 {
			t.Errorf("bob GET %s: %d, want 403", path, st)
		}
	}
	// A user_id that is not the caller's, and no credentials.
	if st, _, got := a.asUser(t, bob, "POST", "/api/v1/demand/submit", `{"raw_input":"x","user_id":"alice"}`); st != 422 || !strings.Contains(got, api.CodeNotYou) {
		t.Errorf("bob submitting as alice: %d %s", st, got)
	}
	if st, _, got := a.asUser(t, noCredentials, "GET", "/api/v1/demands/"+demandID, ""); st != 401 || !strings.Contains(got, api.CodeUnauthorized) {
		t.Errorf("no credentials: %d %s", st, got)
	}
	// The owner is served, and her write is recorded with her principal.
	if st, _, got := a.asUser(t, alice, "GET", "/api/v1/demands/"+demandID, ""); st != 200 || !strings.Contains(got, "13800138000") {
		t.Errorf("alice reads her demand: %d %.200s", st, got)
	}
	st, _, got := a.asUser(t, alice, "GET", "/api/v1/events?demand_id="+demandID+"&principal=user:alice&type=towow.demand.submitted", "")
	if st != 200 || !strings.Contains(got, `"principal":"user:alice"`) {
		t.Errorf("the submission's principal: %d %.300s", st, got)
	}
}

// TestOldLogs: a demand recorded before principals were (its metadata
// has no principal, its user a local name) is its recorded user's in
// local mode: she reads it and lists it, another user gets 404, and the
// audit query reads its principal as the system's.
func TestOldLogs(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{noWorkers: true})
	ctx := context.Background()
	ev, err := eventstore.NewEvent(uuid.Must(uuid.NewV7()),
		&negotiation.DemandSubmitted{DemandID: "d-0123456789ab", UserID: "user_alice", RawInput: "一条旧的需求"},
		event.Metadata{CorrelationID: "d-0123456789ab", Actor: event.UserActor("user_alice"), SchemaVersion: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.store.Append(ctx, negotiation.DemandStream("d-0123456789ab"), eventstore.NoStream, ev)
	if err != nil {
		t.Fatal(err)
	}
	alice, bob := userToken(t, "user_alice"), userToken(t, "bob")
	cursor := strconv.FormatInt(res.LastPosition, 10)
	if st, _, got := a.asUser(t, alice, "GET", "/api/v1/demands/d-0123456789ab?min_cursor="+cursor, ""); st != 200 || !strings.Contains(got, "一条旧的需求") {
		t.Fatalf("her old demand: %d %s", st, got)
	}
	if st, _, got := a.asUser(t, alice, "GET", "/api/v1/demands?min_cursor="+cursor, ""); st != 200 || !strings.Contains(got, "d-0123456789ab") {
		t.Fatalf("her list: %d %s", st, got)
	}
	if st, _, _ := a.asUser(t, bob, "GET", "/api/v1/demands/d-0123456789ab", ""); st != 404 {
		t.Fatalf("bob: %d", st)
	}
	if st, _, got := a.asUser(t, alice, "GET", "/api/v1/events?demand_id=d-0123456789ab&principal=system", ""); st != 200 || !strings.Contains(got, "towow.demand.submitted") {
		t.Fatalf("an old event's principal: %d %s", st, got)
	}
}

// TestImpersonationRefused: every token that does not prove its user is
// 401 TOWOW_AUTH_001 on the API, and writes nothing.
func TestImpersonationRefused(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{noWorkers: true})
	good := userToken(t, "alice")
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	stranger := identity.NewLocalWith(identity.NewSigner(key))
	wrongKey, _ := stranger.MintLocalToken("alice", time.Hour)
	past := identity.NewSigner(key).WithClock(func() time.Time { return time.Now().Add(-48 * time.Hour) })
	expired, _ := identity.NewLocalWith(past).MintLocalToken("alice", time.Hour)
	session, _ := testPeople.MintSession(identity.User("alice", "Alice")) // a session, as a bearer token: another audience
	parts := strings.Split(good, ".")
	claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
	forged := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(claims), `"alice"`, `"bob00"`, 1))) + "." + parts[2]
	op := testop.Start(t, "towow-console")
	otherIssuer := idTokenFrom(t, op)

	head, _ := a.store.LatestPosition(context.Background())
	for name, tok := range map[string]string{"signed by another key": wrongKey, "expired": expired, "another audience": session,
		"alg none": none, "forged subject": forged, "another issuer": otherIssuer, "not a token": "abc.def.ghi"} {
		st, _, got := a.asUser(t, tok, "POST", "/api/v1/demand/submit", `{"raw_input":"我想在北京办一场AI主题聚会"}`)
		if st != 401 || !strings.Contains(got, api.CodeUnauthorized) {
			t.Errorf("%s: %d %.200s", name, st, got)
		}
	}
	if after, _ := a.store.LatestPosition(context.Background()); after != head {
		t.Errorf("refused tokens wrote to the log: %d → %d", head, after)
	}
	if st, _, _ := a.asUser(t, good, "GET", "/api/v1/demands", ""); st != 200 {
		t.Errorf("the good token: %d", st)
	}
}
