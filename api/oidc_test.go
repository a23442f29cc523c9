package api_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/towow/towow/api"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/testop"
)

// signIn runs the console's sign-in against the provider as a person's
// browser would (following redirects, keeping cookies): GET /auth/login,
// the provider's login form, back to /auth/callback. It returns the
// browser, whose cookie jar holds the session.
func signIn(t *testing.T, base string, p *testop.OP, username string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Transport: plainTransport}
	resp, err := browser.Get(base + "/auth/login")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	id := resp.Request.URL.Query().Get("authRequestID")
	if resp.StatusCode != 200 || id == "" {
		t.Fatalf("the provider's login form: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	resp, err = browser.PostForm(p.Issuer+"/login/username", url.Values{"id": {id}, "username": {username}, "password": {testop.Password}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Request.URL.String() != base+"/" || resp.StatusCode != 200 {
		t.Fatalf("after the login form: %d at %s: %.300s", resp.StatusCode, resp.Request.URL, body)
	}
	return browser
}

// idToken gets an ID token from the provider through the authorization
// code flow with PKCE, as a client of its own would.
func idToken(t *testing.T, base string, p *testop.OP, username string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	var code string
	browser := &http.Client{Jar: jar, Transport: plainTransport, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
		if r.URL.Path == "/auth/callback" && strings.HasPrefix(base, "http://"+r.URL.Host) { // the provider has a path of that name too
			code = r.URL.Query().Get("code")
			return http.ErrUseLastResponse
		}
		return nil
	}}
	prov, err := oidc.NewProvider(context.Background(), p.Issuer)
	if err != nil {
		t.Fatal(err)
	}
	conf := &oauth2.Config{ClientID: p.ClientID, ClientSecret: testop.ClientSecret, RedirectURL: base + "/auth/callback",
		Scopes: []string{"openid", "profile"}, Endpoint: prov.Endpoint()}
	verifier := oauth2.GenerateVerifier()
	resp, err := browser.Get(conf.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier)))
	if err != nil {
		t.Fatal(err)
	}
	first, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	id := resp.Request.URL.Query().Get("authRequestID")
	if id == "" {
		t.Fatalf("no login form: %d at %s: %.300s", resp.StatusCode, resp.Request.URL, first)
	}
	resp, err = browser.PostForm(p.Issuer+"/login/username", url.Values{"id": {id}, "username": {username}, "password": {testop.Password}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code == "" {
		t.Fatalf("no code: %d at %s (Location %q)", resp.StatusCode, resp.Request.URL, resp.Header.Get("Location"))
	}
	tok, err := conf.Exchange(context.WithValue(context.Background(), oauth2.HTTPClient, &http.Client{Transport: plainTransport}),
		code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		t.Fatal("no id_token")
	}
	return raw
}

// idTokenFrom gets an ID token of p for its first user, redirected to a
// client of its own (no ToWow server involved).
func idTokenFrom(t *testing.T, p *testop.OP) string {
	t.Helper()
	const base = "http://127.0.0.1:1"
	p.AllowRedirect(base + "/auth/callback")
	return idToken(t, base, p, p.Username)
}

// TestOIDCSignIn: with a real OpenID Provider (in this process), a person
// signs in on the console through the authorization code flow with PKCE
// and gets a session; an ID token of the provider works as a bearer
// token; the user is "<sub>@<issuer host>" with the name from the
// claims; a second person of the provider gets 404 on the first's demand;
// a token of the local key is refused once an issuer is configured.
func TestOIDCSignIn(t *testing.T) {
	p := testop.Start(t, "towow-console")
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	people, err := identity.NewOIDCWith(context.Background(), identity.NewSigner(key),
		identity.OIDCConfig{Issuer: p.Issuer, Audience: p.ClientID, ClientID: p.ClientID, ClientSecret: testop.ClientSecret})
	if err != nil {
		t.Fatal(err)
	}
	a := newAPIWith(t, "", apiOptions{noWorkers: true, people: people})
	p.AllowRedirect(a.url + "/auth/callback")
	host := strings.TrimPrefix(p.Issuer, "http://")

	browser := signIn(t, a.url, p, p.Username)
	var me api.Me
	resp, err := browser.Get(a.url + "/auth/me")
	if err != nil {
		t.Fatal(err)
	}
	_ = json.NewDecoder(resp.Body).Decode(&me)
	resp.Body.Close()
	// The example provider's ID tokens carry no profile claims: the name comes from its userinfo.
	if !me.SignedIn || me.UserID != "id1@"+host || me.Name != "Test User" || me.Mode != "oidc" {
		t.Fatalf("signed in as %+v", me)
	}
	// The session submits a demand (a same-origin write).
	req, _ := http.NewRequest(http.MethodPost, a.url+"/api/v1/demand/submit", strings.NewReader(`{"raw_input":"我想在北京办一场AI主题聚会"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", a.url)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err = browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var sub struct {
		DemandID string `json:"demand_id"`
		Cursor   int64  `json:"cursor"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&sub)
	resp.Body.Close()
	if resp.StatusCode != 202 || sub.DemandID == "" {
		t.Fatalf("the session's submit: %d", resp.StatusCode)
	}
	// A cross-site write with the session cookie is refused.
	req, _ = http.NewRequest(http.MethodPost, a.url+"/api/v1/demand/submit", strings.NewReader(`{"raw_input":"x"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err = browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if p := readProblem(resp); resp.StatusCode != 403 || p.Code != api.CodeForbidden {
		t.Fatalf("a cross-site write: %d %+v", resp.StatusCode, p)
	}

	// The provider's ID tokens as bearer tokens: the same user, and
	// another user of the provider sees nothing of hers.
	first, second := idToken(t, a.url, p, p.Username), idToken(t, a.url, p, testop.SecondUsername)
	// (min_cursor: the read model has folded the submission before it answers.)
	if st, _, got := a.asUser(t, first, "GET", "/api/v1/demands/"+sub.DemandID+"?min_cursor="+strconv.FormatInt(sub.Cursor, 10), ""); st != 200 || !strings.Contains(got, "北京") {
		t.Fatalf("her bearer token: %d %s", st, got)
	}
	if st, _, _ := a.asUser(t, second, "GET", "/api/v1/demands/"+sub.DemandID, ""); st != 404 {
		t.Fatalf("the second user: %d", st)
	}
	local, _ := identity.NewLocalWith(identity.NewSigner(key)).MintLocalToken("id1", identity.LocalTokenTTL)
	if st, _, _ := a.asUser(t, local, "GET", "/api/v1/demands/"+sub.DemandID, ""); st != 401 {
		t.Fatalf("a local token with an issuer configured: %d", st)
	}
	// Signing out ends the session.
	req, _ = http.NewRequest(http.MethodPost, a.url+"/auth/logout", nil)
	req.Header.Set("Origin", a.url)
	if resp, err = browser.Do(req); err != nil || resp.StatusCode != 204 {
		t.Fatalf("logout: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, _ = browser.Get(a.url + "/auth/me")
	_ = json.NewDecoder(resp.Body).Decode(&me)
	resp.Body.Close()
	if me.SignedIn {
		t.Fatalf("still signed in after logout: %+v", me)
	}
}
