package app

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/internal/testca"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// TestHTTPS serves a real App over TLS with a certificate of a test CA: a
// client trusting the CA gets HTTP/2 over TLS 1.2 or later and a Secure
// session cookie; a client that does not trust it, or that offers only
// TLS 1.1, is refused at the handshake; a renewed certificate is served
// without a restart; a missing key file stops the start with one line.
func TestHTTPS(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ca := testca.New(t)
	ca.Issue(t, 100, certFile, keyFile)
	signer, err := identity.LoadOrCreateSigner(filepath.Join(dir, "signing-key.pem"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(ctx, Config{Pool: dbtest.New(t), LLM: llm.Config{Provider: builtin.New()}, People: identity.NewLocalWith(signer),
		TLSCertFile: certFile, TLSKeyFile: keyFile})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- a.serve(ctx, ln, a.Handler()) }()
	base := "https://" + ln.Addr().String()

	client := func(cfg *tls.Config) *http.Client {
		return &http.Client{Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}, Timeout: 10 * time.Second}
	}
	trusting := client(&tls.Config{RootCAs: ca.Pool})
	resp, err := trusting.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ProtoMajor != 2 || resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Fatalf("GET /healthz: %d over %s, TLS %+v; want 200 over HTTP/2 and TLS 1.2+", resp.StatusCode, resp.Proto, resp.TLS)
	}
	if got := resp.TLS.PeerCertificates[0].SerialNumber.Int64(); got != 100 {
		t.Fatalf("served certificate %d, want 100", got)
	}
	resp, err = trusting.Post(base+"/auth/local", "application/json", strings.NewReader(`{"name":"alice"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	secure := false
	for _, c := range resp.Cookies() {
		if c.Name == "towow_session" {
			secure = c.Secure
		}
	}
	if resp.StatusCode != 200 || !secure {
		t.Fatalf("sign-in over HTTPS: %d, Secure session cookie %v; want 200 and Secure", resp.StatusCode, secure)
	}

	for name, cfg := range map[string]*tls.Config{
		"a client without the CA": {},
		"a TLS 1.1 client":        {RootCAs: ca.Pool, MaxVersion: tls.VersionTLS11},
	} {
		if resp, err := client(cfg).Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			t.Errorf("%s was served (%d)", name, resp.StatusCode)
		}
	}

	// A renewed certificate, served at the next look at the files.
	ca.Issue(t, 101, certFile, keyFile)
	a.cert.mu.Lock()
	a.cert.checked = time.Time{}
	a.cert.mu.Unlock()
	fresh := client(&tls.Config{RootCAs: ca.Pool})
	resp, err = fresh.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.TLS.PeerCertificates[0].SerialNumber.Int64(); got != 101 {
		t.Fatalf("after renewal: certificate %d, want 101", got)
	}

	cancel()
	if err := <-served; err != context.Canceled {
		t.Fatalf("serve: %v", err)
	}
	if _, err := New(context.Background(), Config{Pool: dbtest.New(t), LLM: llm.Config{Provider: builtin.New()},
		TLSCertFile: certFile, TLSKeyFile: filepath.Join(dir, "missing.pem")}); err == nil || !strings.Contains(err.Error(), "missing.pem") {
		t.Fatalf("a missing key file: %v, want an error naming it", err)
	}
}
