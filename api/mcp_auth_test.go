package api_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/coreos/go-oidc/v3/oidc/oidctest"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/identity"
)

// mcpCaller is what the protected mount's handler saw: the SDK's TokenInfo.
type mcpCaller struct {
	UserID     string
	Token      string
	Expiration time.Time
}

// mcpProtectedServer serves api.Server with an OAuth mount at /mcp whose
// handler reports its caller, over real HTTP.
func mcpProtectedServer(t *testing.T, people *identity.Authority, trusted ...netip.Prefix) string {
	t.Helper()
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ti := auth.TokenInfoFromContext(r.Context())
		if ti == nil {
			http.Error(w, "no TokenInfo", http.StatusInternalServerError)
			return
		}
		tok, _ := ti.Extra["token"].(string)
		_ = json.NewEncoder(w).Encode(mcpCaller{UserID: ti.UserID, Token: tok, Expiration: ti.Expiration})
	})
	srv := httptest.NewServer((&api.Server{AdminToken: testAdminToken, People: people, TrustedProxies: trusted,
		Mounts: []api.Mount{{Pattern: "/mcp", Handler: echo, OAuth: true}}}).Handler())
	t.Cleanup(srv.Close)
	return srv.URL
}

// loopback trusts the test's own client as a reverse proxy.
var loopback = netip.MustParsePrefix("127.0.0.1/32")

// mcpPost sends POST /mcp with token (none when "") and returns the answer,
// its body decoded into out when it is a 2xx.
func mcpPost(t *testing.T, base, token string, out any) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Transport: plainTransport}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode/100 == 2 && out != nil {
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return resp
}

// mcpMetadata reads a protected resource metadata document, with
// X-Forwarded-Proto: proto when set.
func mcpMetadata(t *testing.T, u, proto string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if proto != "" {
		req.Header.Set("X-Forwarded-Proto", proto)
	}
	resp, err := (&http.Client{Transport: plainTransport}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != 200 ||
		resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("GET %s: %d %v %v", u, resp.StatusCode, resp.Header, err)
	}
	return m
}

func mcpJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestMCPAuthLocal: in local mode a protected mount admits a user's token
// and the admin token, hands the handler the caller (actor, token,
// expiry), and refuses anything else with a 401 pointing at metadata that
// names no authorization server.
func TestMCPAuthLocal(t *testing.T) {
	base := mcpProtectedServer(t, testPeople, loopback)
	alice := userToken(t, "alice")
	var c mcpCaller
	if resp := mcpPost(t, base, alice, &c); resp.StatusCode != 200 {
		t.Fatalf("alice: %d", resp.StatusCode)
	}
	if c.UserID != "user:alice" || c.Token != alice || time.Until(c.Expiration) < identity.LocalTokenTTL-time.Minute ||
		time.Until(c.Expiration) > identity.LocalTokenTTL {
		t.Fatalf("alice's caller: %+v", c)
	}
	if resp := mcpPost(t, base, testAdminToken, &c); resp.StatusCode != 200 {
		t.Fatalf("the admin: %d", resp.StatusCode)
	}
	if c.UserID != "admin" || c.Token != testAdminToken || time.Until(c.Expiration) < 59*time.Minute || time.Until(c.Expiration) > time.Hour {
		t.Fatalf("the admin's caller: %+v", c)
	}

	// The challenge names no metadata (there is no authorization server to
	// send a client to) and says what the problem says, in the realm.
	for _, tc := range []struct {
		name, token string
		invalid     bool
	}{
		{"no token", "", false},
		{"not a token", "not-a-token-0123456789", true},
		{"an unknown agent token", negotiation.AgentTokenPrefix + "0123456789", true},
	} {
		resp := mcpPost(t, base, tc.token, nil)
		header := resp.Header.Get("WWW-Authenticate")
		p := readProblem(resp)
		if resp.StatusCode != 401 || p.Code != api.CodeUnauthorized ||
			!strings.Contains(p.Detail, "towow token --user NAME") || !strings.Contains(p.Detail, "admin token") {
			t.Errorf("%s: %d %+v", tc.name, resp.StatusCode, p)
		}
		want := map[string]string{"realm": "ToWow", "error_description": p.Detail}
		if tc.invalid {
			want["error"] = "invalid_token"
		}
		if got := bearerChallenge(t, header); !maps.Equal(got, want) {
			t.Errorf("%s: WWW-Authenticate %q: %v, want %v", tc.name, header, got, want)
		}
	}
	// The OAuth endpoints a client falls back to say the same: no one signs
	// in here, send a token.
	for _, path := range []string{"/register", "/authorize", "/token"} {
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(`{"client_name":"an MCP client"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := (&http.Client{Transport: plainTransport}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if p := readProblem(resp); resp.StatusCode != 404 || p.Code != api.CodeNotFound ||
			!strings.Contains(p.Detail, "no OAuth sign-in") || !strings.Contains(p.Detail, "towow token --user NAME") {
			t.Errorf("POST %s: %d %+v", path, resp.StatusCode, p)
		}
	}

	want := `{"bearer_methods_supported":["header"],"resource":"` + base + `/mcp","resource_name":"ToWow"}`
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		if got := mcpJSON(mcpMetadata(t, base+path, "")); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	// Behind a trusted proxy that ended TLS: https. A server that trusts
	// no proxy ignores the header, whoever sends it.
	https := strings.Replace(base, "http://", "https://", 1)
	if got := mcpJSON(mcpMetadata(t, base+"/.well-known/oauth-protected-resource/mcp", "https")); !strings.Contains(got, `"resource":"`+https+`/mcp"`) {
		t.Errorf("behind a TLS proxy: %s", got)
	}
	untrusting := mcpProtectedServer(t, testPeople)
	if got := mcpJSON(mcpMetadata(t, untrusting+"/.well-known/oauth-protected-resource/mcp", "https")); !strings.Contains(got, `"resource":"`+untrusting+`/mcp"`) {
		t.Errorf("X-Forwarded-Proto from a peer that is no trusted proxy was believed: %s", got)
	}
	// A preflight of a browser client.
	req, _ := http.NewRequest(http.MethodOptions, base+"/.well-known/oauth-protected-resource/mcp", nil)
	resp, err := (&http.Client{Transport: plainTransport}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("OPTIONS: %d %v", resp.StatusCode, resp.Header)
	}
}

// TestMCPAuthIssuer: with an OpenID Connect issuer the metadata names it
// (and the scopes to ask it for), a 401 says to bring its ID token, and
// its ID tokens are admitted with their expiry, also one that has just
// expired within the clock skew the API tolerates.
func TestMCPAuthIssuer(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	is := &oidctest.Server{PublicKeys: []oidctest.PublicKey{{PublicKey: key.Public(), KeyID: "k1", Algorithm: oidc.ES256}},
		Algorithms: []string{oidc.ES256}}
	hs := httptest.NewServer(is)
	t.Cleanup(hs.Close)
	is.SetIssuer(hs.URL)
	people, err := identity.NewOIDCWith(context.Background(), identity.NewSigner(key), identity.OIDCConfig{Issuer: hs.URL, Audience: "towow-api"})
	if err != nil {
		t.Fatal(err)
	}
	base := mcpProtectedServer(t, people, loopback)
	u, err := url.Parse(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	host := u.Host

	meta := mcpMetadata(t, base+"/.well-known/oauth-protected-resource/mcp", "")
	want := `{"authorization_servers":["` + hs.URL + `"],"bearer_methods_supported":["header"],"resource":"` + base +
		`/mcp","resource_name":"ToWow","scopes_supported":["openid","profile","email"]}`
	if got := mcpJSON(meta); got != want {
		t.Errorf("metadata %s, want %s", got, want)
	}

	// A 401 points at the metadata (https behind a proxy that ended TLS)
	// and says to bring the issuer's ID token.
	https := strings.Replace(base, "http://", "https://", 1)
	for _, tc := range []struct {
		name, token, proto, metadata string
		invalid                      bool
	}{
		{"no token", "", "", base, false},
		{"not a token", "not-a-token-0123456789", "", base, true},
		{"behind a TLS proxy", "", "https", https, false},
	} {
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{}`))
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		if tc.proto != "" {
			req.Header.Set("X-Forwarded-Proto", tc.proto)
		}
		resp, err := (&http.Client{Transport: plainTransport}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		header := resp.Header.Get("WWW-Authenticate")
		p := readProblem(resp)
		if resp.StatusCode != 401 || !strings.Contains(p.Detail, hs.URL) || !strings.Contains(p.Detail, "towow-api") {
			t.Errorf("%s: %d %+v", tc.name, resp.StatusCode, p)
		}
		want := map[string]string{"realm": "ToWow", "resource_metadata": tc.metadata + "/.well-known/oauth-protected-resource/mcp",
			"error_description": p.Detail}
		if tc.invalid {
			want["error"] = "invalid_token"
		}
		if got := bearerChallenge(t, header); !maps.Equal(got, want) {
			t.Errorf("%s: WWW-Authenticate %q: %v, want %v", tc.name, header, got, want)
		}
	}
	// The issuer signs people in: the fallback endpoints are not ToWow's.
	req, _ := http.NewRequest(http.MethodPost, base+"/register", strings.NewReader(`{}`))
	resp, err := (&http.Client{Transport: plainTransport}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if p := readProblem(resp); resp.StatusCode != 404 || strings.Contains(p.Detail, "OAuth sign-in") {
		t.Errorf("POST /register with an issuer: %d %+v", resp.StatusCode, p)
	}

	for _, exp := range []time.Time{time.Now().Add(time.Hour), time.Now().Add(-30 * time.Second)} {
		claims, _ := json.Marshal(map[string]any{"iss": hs.URL, "sub": "42", "aud": "towow-api", "name": "Ada",
			"iat": time.Now().Add(-time.Hour).Unix(), "exp": exp.Unix()})
		tok := oidctest.SignIDToken(key, "k1", oidc.ES256, string(claims))
		var c mcpCaller
		if resp := mcpPost(t, base, tok, &c); resp.StatusCode != 200 {
			t.Fatalf("an ID token ending at %v: %d %+v", exp, resp.StatusCode, readProblem(resp))
		}
		if c.UserID != "user:42@"+host || c.Token != tok || c.Expiration.Unix() != exp.Unix() {
			t.Errorf("the caller: %+v", c)
		}
	}
}

// bearerChallenge is the auth-params of a Bearer challenge (RFC 6750),
// each a quoted string whose text is printable ASCII without " or \.
func bearerChallenge(t *testing.T, header string) map[string]string {
	t.Helper()
	rest, ok := strings.CutPrefix(header, "Bearer ")
	if !ok {
		t.Fatalf("not a Bearer challenge: %q", header)
	}
	params := map[string]string{}
	for rest != "" {
		name, after, ok := strings.Cut(rest, `="`)
		if !ok {
			t.Fatalf("challenge %q: no quoted value after %q", header, rest)
		}
		value, tail, ok := strings.Cut(after, `"`)
		if !ok {
			t.Fatalf("challenge %q: unterminated %s", header, name)
		}
		for _, r := range value {
			if r < 0x20 || r > 0x7e || r == '\\' {
				t.Errorf("challenge %q: %s holds %q", header, name, r)
			}
		}
		params[name] = value
		rest = strings.TrimPrefix(tail, ", ")
	}
	return params
}

// TestMCPChallengeQuoting: a reason that quotes something still makes a
// well-formed challenge: its description is the reason with ' for ".
func TestMCPChallengeQuoting(t *testing.T) {
	base := mcpProtectedServer(t, testPeople)
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Basic YWxpY2U6c2VjcmV0")
	resp, err := (&http.Client{Transport: plainTransport}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	header := resp.Header.Get("WWW-Authenticate")
	p := readProblem(resp)
	if resp.StatusCode != 401 || !strings.Contains(p.Detail, `"Bearer <token>"`) {
		t.Fatalf("%d %+v", resp.StatusCode, p)
	}
	got := bearerChallenge(t, header)
	if want := strings.ReplaceAll(p.Detail, `"`, "'"); got["error_description"] != want || got["error"] != "invalid_token" {
		t.Errorf("WWW-Authenticate %q: %v, want the description %q", header, got, want)
	}
}
