// Package testop runs a real OpenID Provider for tests, in the test's
// process: zitadel/oidc's provider (discovery, JWKS, the authorization
// code flow with PKCE, a login form, signed ID tokens) over its example
// in-memory storage, on a local httptest server. Tests sign in through it
// exactly as a person signs in through a real identity provider.
package testop

import (
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// The example storage's people and the console's client.
const (
	// Password is every example user's password.
	Password = "verysecure"
	// SecondUsername is the example's second user (subject "id2").
	SecondUsername = "test-user2"
	// ClientSecret is the console client's secret.
	ClientSecret = "towow-console-secret"
)

// OP is a running provider.
type OP struct {
	// Issuer is its issuer URL (http://127.0.0.1:<port>).
	Issuer string
	// ClientID is the console's client id; the ID tokens it gets carry
	// it as their audience.
	ClientID string
	// Username is the example's first user (subject "id1").
	Username string
}

// registered guards the example storage's package-wide client table.
var registered sync.Mutex

// Start runs a provider whose console client (a web client with a secret)
// may redirect to redirectURIs; it stops when t ends.
func Start(t testing.TB, clientID string, redirectURIs ...string) *OP {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	registered.Lock()
	storage.RegisterClients(storage.WebClient(clientID, ClientSecret, redirectURIs...))
	registered.Unlock()
	store := storage.NewStorage(storage.NewUserStore(issuer))
	srv.Config.Handler = exampleop.SetupServer(issuer, store, slog.New(slog.DiscardHandler), false, op.WithAllowInsecure())
	srv.Start()
	t.Cleanup(srv.Close)
	host := strings.Split(strings.TrimPrefix(issuer, "http://"), ":")[0]
	return &OP{Issuer: issuer, ClientID: clientID, Username: "test-user@" + host}
}

// AllowRedirect registers the console client again with these redirect
// URIs (a server started after the provider learns its address late).
func (o *OP) AllowRedirect(redirectURIs ...string) {
	registered.Lock()
	defer registered.Unlock()
	storage.RegisterClients(storage.WebClient(o.ClientID, ClientSecret, redirectURIs...))
}
