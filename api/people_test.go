package api_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/towow/towow/identity"
)

// The test servers' people: one local-mode authority (one signing key)
// for every test server of the package, so a user's token works on each.
var testPeople = func() *identity.Authority {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	return identity.NewLocalWith(identity.NewSigner(key))
}()

// userToken is a bearer token for the local user name.
func userToken(t testing.TB, name string) string {
	t.Helper()
	tok, err := testPeople.MintLocalToken(name, identity.LocalTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// plainTransport is net/http's transport, without asOperator.
var plainTransport = http.DefaultTransport

// noCredentials, as a request's Authorization header, makes the test
// transport send the request without credentials.
const noCredentials = "-"

// asOperator is the package's HTTP transport: a request that carries no
// Authorization header is sent with the admin token, so the tests of
// behaviour other than access act as the operator (who may act for any
// user_id they name); the tests of access (access_test.go) send users'
// tokens, and noCredentials for none.
type asOperator struct{ base http.RoundTripper }

func (t asOperator) RoundTrip(r *http.Request) (*http.Response, error) {
	switch r.Header.Get("Authorization") {
	case "":
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+testAdminToken)
	case noCredentials:
		r = r.Clone(r.Context())
		r.Header.Del("Authorization")
	}
	return t.base.RoundTrip(r)
}

func TestMain(m *testing.M) {
	http.DefaultTransport = asOperator{base: http.DefaultTransport}
	http.DefaultClient.Transport = http.DefaultTransport
	os.Exit(m.Run())
}

// expect calls the API as token and fails the test unless the answer has
// status and holds has; it returns the body.
func (a *testAPI) expect(t *testing.T, name, token, method, path, body string, status int, has string) string {
	t.Helper()
	st, _, got := a.asUser(t, token, method, path, body)
	if st != status || !strings.Contains(got, has) {
		t.Fatalf("%s: %d %.400s, want %d %s", name, st, got, status, has)
	}
	return got
}
