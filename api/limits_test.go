package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/api"
)

// TestRequestLimit: a user's requests beyond the burst get 429
// TOWOW_LIMIT_001 with Retry-After; writing another name into the request
// does not get a new budget, and in local mode (where anyone signs in as
// any name) neither does signing in as a new name from the same address;
// the operator is not limited.
func TestRequestLimit(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{noWorkers: true, limits: api.Limits{RequestsPerSecond: 0.5, Burst: 3}})
	alice, newName := userToken(t, "alice"), userToken(t, "alice2")
	for i := range 3 {
		if st, _, body := a.asUser(t, alice, "GET", "/api/v1/demands", ""); st != 200 {
			t.Fatalf("request %d: %d %s", i, st, body)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, a.url+"/api/v1/demands?user_id=bob", nil)
	req.Header.Set("Authorization", "Bearer "+alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	p := readProblem(resp)
	if secs, _ := strconv.Atoi(resp.Header.Get("Retry-After")); resp.StatusCode != 429 || p.Code != api.CodeTooManyRequests || secs < 1 {
		t.Fatalf("over the burst, naming bob: %d %+v Retry-After %q", resp.StatusCode, p, resp.Header.Get("Retry-After"))
	}
	if st, _, body := a.asUser(t, newName, "GET", "/api/v1/demands", ""); st != 429 || !strings.Contains(body, api.CodeTooManyRequests) {
		t.Fatalf("a new name from the same address: %d %s", st, body)
	}
	for range 10 {
		if st, _, body := a.asUser(t, testAdminToken, "GET", "/api/v1/demands", ""); st != 200 {
			t.Fatalf("the operator: %d %s", st, body)
		}
	}
}

// TestDemandAndTokenLimits: a user past the demands per hour gets 429
// TOWOW_LIMIT_002 with Retry-After of about an hour, and cannot get
// around it under another name; another user is not affected. A user
// whose negotiations spent the day's LLM tokens gets 429 TOWOW_LIMIT_003
// for anything new that calls the model (a demand, a message to the
// conversation agent).
func TestDemandAndTokenLimits(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{limits: api.Limits{DemandsPerHour: 2}})
	alice, bob := userToken(t, "alice"), userToken(t, "bob")
	submit := func(token, body string) (int, http.Header, string) {
		req, _ := http.NewRequest(http.MethodPost, a.url+"/api/v1/demand/submit", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Code   string `json:"code"`
			Cursor int64  `json:"cursor"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		if out.Cursor > 0 { // the limit counts the read model: let it see this one
			a.asUser(t, token, "GET", "/api/v1/demands?min_cursor="+strconv.FormatInt(out.Cursor, 10), "")
		}
		return resp.StatusCode, resp.Header, out.Code
	}
	const demand = `{"raw_input":"我想在北京办一场AI主题聚会，需要场地和嘉宾"}`
	for i := range 2 {
		if st, _, code := submit(alice, demand); st != 202 {
			t.Fatalf("demand %d: %d %s", i, st, code)
		}
	}
	st, h, code := submit(alice, demand)
	if secs, _ := strconv.Atoi(h.Get("Retry-After")); st != 429 || code != api.CodeTooManyDemands || secs < 3000 || secs > 3600 {
		t.Fatalf("the third demand within the hour: %d %s Retry-After %q", st, code, h.Get("Retry-After"))
	}
	if st, _, code := submit(alice, `{"raw_input":"x","user_id":"alice2"}`); st != 422 || code != api.CodeNotYou {
		t.Fatalf("under another name: %d %s", st, code)
	}
	if st, _, code := submit(bob, demand); st != 202 {
		t.Fatalf("bob's first demand: %d %s", st, code)
	}

	// The token budget: bob's one negotiation spent more than 1 token.
	b := newAPIWith(t, "", apiOptions{limits: api.Limits{TokensPerDay: 1}})
	carol := userToken(t, "carol")
	var demandID string
	{
		st, _, body := b.asUser(t, carol, "POST", "/api/v1/demand/submit", demand)
		var out struct {
			DemandID string `json:"demand_id"`
		}
		if st != 202 || json.Unmarshal([]byte(body), &out) != nil {
			t.Fatalf("carol's first demand: %d %s", st, body)
		}
		demandID = out.DemandID
	}
	var wf api.WorkflowListOutput
	for deadline := time.Now().Add(30 * time.Second); len(wf.Body.Workflows) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no workflow")
		}
		_, _, body := b.asUser(t, carol, "GET", "/api/v1/workflows?demand_id="+demandID, "")
		_ = json.Unmarshal([]byte(body), &wf.Body)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		st, _, body := b.asUser(t, carol, "POST", "/api/v1/demand/submit", demand)
		if st == 429 && strings.Contains(body, api.CodeTokenBudget) {
			break
		}
		if st != 202 || time.Now().After(deadline) {
			t.Fatalf("over the token budget: %d %s", st, body)
		}
	}
	st, _, body := b.asUser(t, carol, "POST", "/api/v1/workflows/"+wf.Body.Workflows[0].WorkflowID+"/messages", `{"text":"进展如何？"}`)
	if st != 429 || !strings.Contains(body, api.CodeTokenBudget) {
		t.Fatalf("a message over the token budget: %d %s", st, body)
	}
}
