package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/towow/towow/api"
)

// TestForwardedHeadersOnlyFromTrustedProxies: X-Forwarded-For and
// X-Forwarded-Proto are believed from a configured proxy (each client
// behind it has its own sign-in allowance, and a session over its HTTPS is
// a Secure cookie) and ignored from anyone else (the headers cannot buy a
// client a fresh allowance or fake HTTPS).
func TestForwardedHeadersOnlyFromTrustedProxies(t *testing.T) {
	server := func(trusted ...netip.Prefix) string {
		srv := httptest.NewServer((&api.Server{People: testPeople, Limits: api.Limits{RequestsPerSecond: 100},
			TrustedProxies: trusted}).Handler())
		t.Cleanup(srv.Close)
		return srv.URL
	}
	signIn := func(base, client, proto string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, base+"/auth/local", strings.NewReader(`{"name":"alice"}`))
		req.Header.Set("Content-Type", "application/json")
		if client != "" {
			req.Header.Set("X-Forwarded-For", "198.51.100.1, "+client) // what the client wrote, then what the proxy saw
		}
		if proto != "" {
			req.Header.Set("X-Forwarded-Proto", proto)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	secure := func(resp *http.Response) bool {
		for _, c := range resp.Cookies() {
			if c.Name == api.SessionCookieName {
				return c.Secure
			}
		}
		t.Fatalf("no session cookie: %d %v", resp.StatusCode, resp.Header)
		return false
	}

	behind := server(netip.MustParsePrefix("127.0.0.0/8"))
	if resp := signIn(behind, "203.0.113.7", "https"); resp.StatusCode != 200 || !secure(resp) {
		t.Fatalf("through a trusted proxy over HTTPS: %d, Secure %v; want 200 with a Secure cookie", resp.StatusCode, secure(resp))
	}
	for range 19 {
		signIn(behind, "203.0.113.7", "")
	}
	if resp := signIn(behind, "203.0.113.7", ""); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the 21st sign-in of one client behind the proxy: %d, want 429", resp.StatusCode)
	}
	if resp := signIn(behind, "203.0.113.8", ""); resp.StatusCode != 200 {
		t.Fatalf("another client behind the same proxy: %d, want 200 (an allowance of its own)", resp.StatusCode)
	}

	direct := server()
	if resp := signIn(direct, "203.0.113.7", "https"); resp.StatusCode != 200 || secure(resp) {
		t.Fatalf("X-Forwarded-Proto from a peer that is no proxy: %d, Secure %v; want 200 without Secure", resp.StatusCode, secure(resp))
	}
	for i := range 19 {
		signIn(direct, fmt.Sprintf("203.0.113.%d", 10+i), "")
	}
	if resp := signIn(direct, "203.0.113.99", ""); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("X-Forwarded-For from a peer that is no proxy bought a fresh allowance: %d, want 429", resp.StatusCode)
	}
}
