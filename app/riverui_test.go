package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
)

const riverUIAdminToken = "riverui-admin-token-0123456789"

// TestRiverUI serves a real App's API over real HTTP and checks River UI at
// /riverui/: its page, its assets and its API answer with the admin token
// (as a bearer header, and as the session cookie a browser gets from POST
// /riverui/session) and are refused with a problem+json 401 without it,
// with a wrong one, with an agent's token or a forged cookie; after a
// negotiation, its job list shows that negotiation's completed River jobs
// (it reads the real river_job table).
func TestRiverUI(t *testing.T) {
	ctx := context.Background()
	// A negotiation, followed in the log to its end.
	a, sub := negotiatedApp(t, app.Config{AdminToken: riverUIAdminToken}) // tracing_test.go
	srv := httptest.NewServer(a.API().Handler())
	t.Cleanup(srv.Close)

	// An external agent's token: valid for its own operations, not here.
	ext := negotiation.AgentProfile{AgentID: "user_agent_riverui", UserName: "外部", Location: "北京",
		ProfileSummary: "外部 Agent，只用来拿一个 agent token。", Tags: []string{"测试"}, Mode: negotiation.AgentModeExternal}
	created, err := a.Commands.CreateAgent(ctx, "test", ext)
	if err != nil || created.Token == "" {
		t.Fatalf("create external agent: %+v %v", created, err)
	}

	// The browser's way in: POST /riverui/session with the bearer token.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	resp := do(t, browser, http.MethodPost, srv.URL+"/riverui/session", "Bearer "+riverUIAdminToken, "", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || len(resp.Cookies()) != 1 {
		t.Fatalf("session: %d %v", resp.StatusCode, resp.Header.Values("Set-Cookie"))
	}
	c := resp.Cookies()[0]
	if c.Name != api.SessionCookie || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/riverui" ||
		c.MaxAge <= 0 || c.Value == "" || strings.Contains(c.Value, riverUIAdminToken) {
		t.Fatalf("session cookie: %+v", c)
	}
	forged := []*http.Cookie{{Name: api.SessionCookie, Value: "99999999999." + strings.Repeat("A", 43)}}

	plain := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	tests := []struct {
		name    string
		client  *http.Client
		auth    string
		cookies []*http.Cookie
		ok      bool
	}{
		{"admin bearer", plain, "Bearer " + riverUIAdminToken, nil, true},
		{"session cookie", browser, "", nil, true},
		{"no credential", plain, "", nil, false},
		{"wrong token", plain, "Bearer " + riverUIAdminToken + "x", nil, false},
		{"agent token", plain, "Bearer " + created.Token, nil, false},
		{"token in another scheme", plain, "Basic " + riverUIAdminToken, nil, false},
		{"forged cookie", plain, "", forged, false},
		{"cookie value as bearer", plain, "Bearer " + c.Value, nil, false},
	}
	paths := []struct{ path, accept, contentType string }{
		{"/riverui/", "text/html", "text/html"},
		{"/riverui/jobs?state=completed", "text/html", "text/html"},
		{"/riverui/api/jobs?state=completed&limit=5", "application/json", "application/json"},
		{"/riverui/api/states", "application/json", "application/json"},
	}
	for _, tc := range tests {
		for _, p := range paths {
			t.Run(tc.name+" "+p.path, func(t *testing.T) {
				resp := do(t, tc.client, http.MethodGet, srv.URL+p.path, tc.auth, p.accept, tc.cookies)
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if tc.ok {
					if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), p.contentType) {
						t.Fatalf("%d %s: %.300s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
					}
					return
				}
				var prob struct {
					Status int    `json:"status"`
					Code   string `json:"code"`
				}
				if err := json.Unmarshal(body, &prob); err != nil || resp.StatusCode != http.StatusUnauthorized ||
					resp.Header.Get("Content-Type") != "application/problem+json" || prob.Code != api.CodeUnauthorized ||
					resp.Header.Get("WWW-Authenticate") == "" {
					t.Fatalf("want a 401 problem: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
				}
			})
		}
	}

	t.Run("page and assets", func(t *testing.T) {
		resp := do(t, browser, http.MethodGet, srv.URL+"/riverui/", "", "text/html", nil)
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(page), `"/riverui/api"`) {
			t.Fatalf("the page does not point River UI at /riverui/api: %.500s", page)
		}
		assets := regexp.MustCompile(`(?:src|href)="(/riverui/assets/[^"]+)"`).FindAllStringSubmatch(string(page), -1)
		if len(assets) == 0 {
			t.Fatalf("no assets in the page: %.500s", page)
		}
		for _, m := range assets {
			resp := do(t, browser, http.MethodGet, srv.URL+m[1], "", "", nil)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("asset %s: %d", m[1], resp.StatusCode)
			}
			resp = do(t, plain, http.MethodGet, srv.URL+m[1], "", "", nil)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("asset %s without a credential: %d", m[1], resp.StatusCode)
			}
		}
	})

	t.Run("redirect", func(t *testing.T) {
		resp := do(t, plain, http.MethodGet, srv.URL+"/riverui", "", "text/html", nil)
		resp.Body.Close()
		if resp.StatusCode/100 != 3 || resp.Header.Get("Location") != "/riverui/" {
			t.Fatalf("/riverui: %d %q", resp.StatusCode, resp.Header.Get("Location"))
		}
	})

	t.Run("the negotiation's completed jobs", func(t *testing.T) {
		// River marks jobs completed in batches (up to 250 ms after the
		// step committed): wait for the rows, through River UI's API.
		want := map[string]bool{"towow.understand_demand": false, "towow.filter_candidates": false, "towow.aggregate": false}
		deadline := time.Now().Add(10 * time.Second)
		for {
			resp := do(t, browser, http.MethodGet, srv.URL+"/riverui/api/jobs?state=completed&limit=1000", "", "application/json", nil)
			var list struct {
				Data []struct {
					Kind  string `json:"kind"`
					Args  string `json:"args"`
					State string `json:"state"`
				} `json:"data"`
			}
			err := json.NewDecoder(resp.Body).Decode(&list)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range list.Data {
				if _, ok := want[j.Kind]; ok && j.State == "completed" &&
					(strings.Contains(j.Args, sub.DemandID) || strings.Contains(j.Args, sub.ChannelID)) {
					want[j.Kind] = true
				}
			}
			missing := 0
			for _, seen := range want {
				if !seen {
					missing++
				}
			}
			if missing == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("completed jobs of %s not listed: %v (of %d listed)", sub.DemandID, want, len(list.Data))
			}
			time.Sleep(100 * time.Millisecond)
		}
	})

	t.Run("logout", func(t *testing.T) {
		resp := do(t, browser, http.MethodDelete, srv.URL+"/riverui/session", "", "", nil)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("logout: %d", resp.StatusCode)
		}
		resp = do(t, browser, http.MethodGet, srv.URL+"/riverui/api/states", "", "application/json", nil)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("after logout: %d", resp.StatusCode)
		}
	})

	t.Run("session needs the admin token", func(t *testing.T) {
		for _, auth := range []string{"", "Bearer " + created.Token, "Bearer nope-nope-nope-nope"} {
			resp := do(t, plain, http.MethodPost, srv.URL+"/riverui/session", auth, "", nil)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 ||
				resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("session with %q: %d %v", auth, resp.StatusCode, resp.Header.Values("Set-Cookie"))
			}
		}
	})
}

// do sends one request with an optional Authorization, Accept and cookies.
func do(t *testing.T, c *http.Client, method, url, auth, accept string, cookies []*http.Cookie) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	for _, ck := range cookies {
		req.AddCookie(ck)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
