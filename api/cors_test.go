package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/internal/dbtest"
)

func TestCORS(t *testing.T) {
	pool := dbtest.New(t)
	tests := []struct {
		name       string
		origins    []string
		method     string
		origin     string
		preflight  bool
		wantStatus int
		wantAllow  string // Access-Control-Allow-Origin
	}{
		{"allowed origin", []string{"http://localhost:5173"}, http.MethodGet, "http://localhost:5173", false, 200, "http://localhost:5173"},
		{"other origin", []string{"http://localhost:5173"}, http.MethodGet, "http://evil.example", false, 200, ""},
		{"no origin header", []string{"http://localhost:5173"}, http.MethodGet, "", false, 200, ""},
		{"any origin", []string{"*"}, http.MethodGet, "http://anything.example", false, 200, "http://anything.example"},
		{"preflight", []string{"http://localhost:5173"}, http.MethodOptions, "http://localhost:5173", true, 204, "http://localhost:5173"},
		{"preflight from other origin", []string{"http://localhost:5173"}, http.MethodOptions, "http://evil.example", true, 405, ""},
		{"cors off", nil, http.MethodGet, "http://localhost:5173", false, 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer((&api.Server{DB: pool, CORSOrigins: tc.origins}).Handler())
			defer srv.Close()
			req, _ := http.NewRequest(tc.method, srv.URL+"/healthz", nil)
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.preflight {
				req.Header.Set("Access-Control-Request-Method", "GET")
				req.Header.Set("Access-Control-Request-Headers", "Last-Event-ID")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.wantStatus || resp.Header.Get("Access-Control-Allow-Origin") != tc.wantAllow {
				t.Fatalf("status %d, allow-origin %q; want %d, %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), tc.wantStatus, tc.wantAllow)
			}
			// The MCP endpoint's session header may be sent and read.
			if allow := resp.Header.Get("Access-Control-Allow-Headers"); tc.preflight && tc.wantStatus == 204 && !strings.Contains(allow, "Mcp-Session-Id") {
				t.Fatalf("preflight allows headers %q", allow)
			}
			if expose := resp.Header.Get("Access-Control-Expose-Headers"); !tc.preflight && tc.wantAllow != "" && !strings.Contains(expose, "Mcp-Session-Id") {
				t.Fatalf("exposed headers %q", expose)
			}
		})
	}
}
