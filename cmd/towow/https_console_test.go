package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/towow/towow/internal/testca"
)

// TestConsoleOverHTTPS drives the console in headless Chromium against a
// real `towow serve` with TOWOW_TLS_CERT and TOWOW_TLS_KEY from a test
// certificate authority (the browser trusts exactly that certificate's
// key): the page loads over HTTPS, a person signs in (the session cookie
// is Secure), submits a demand and follows it live to its outcome over
// the stream, at desktop and phone width; the agreement names everyone
// in the merged plan. Screenshots go to
// .towow/screenshots (https-*.png).
func TestConsoleOverHTTPS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	spki := testca.New(t).Issue(t, 7, certFile, keyFile)
	chrome, _, s, _, shots := browserServer(t, "TOWOW_TLS_CERT="+certFile, "TOWOW_TLS_KEY="+keyFile)
	base := s.url()
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("the server's URL %s", base)
	}
	for _, size := range []struct {
		name string
		w, h int
	}{{"desktop", 1200, 860}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			ctx := newBrowser(t, chrome, size.w, size.h, 3*time.Minute, chromedp.Flag("ignore-certificate-errors-spki-list", spki))
			run := func(what string, actions ...chromedp.Action) {
				t.Helper()
				sctx, cancel := context.WithTimeout(ctx, time.Minute)
				defer cancel()
				if err := chromedp.Run(sctx, actions...); err != nil {
					var text string
					_ = chromedp.Run(ctx, chromedp.Evaluate(`document.body ? document.body.innerText : ""`, &text))
					t.Fatalf("%s: %v (the page says:\n%s\nserver log:\n%s)", what, err, text, s.log())
				}
			}
			if err := chromedp.Run(ctx); err != nil {
				t.Fatal(err)
			}
			var cookies []*network.Cookie
			var outcome, protocol string
			run("sign in over HTTPS", signIn(base, "secure-"+size.name),
				chromedp.ActionFunc(func(ctx context.Context) error {
					var err error
					cookies, err = network.GetCookies().WithURLs([]string{base + "/"}).Do(ctx)
					return err
				}))
			secure := false
			for _, c := range cookies {
				if c.Name == "towow_session" {
					secure = c.Secure
				}
			}
			if !secure {
				t.Fatalf("the session cookie over HTTPS is not Secure: %+v", cookies)
			}
			run("submit a demand and follow it live",
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(`#demand-input`, chromedp.ByQuery),
				chromedp.SetValue(`#demand-input`, "我想在北京办一场AI主题聚会，需要场地和嘉宾", chromedp.ByQuery),
				chromedp.Click(`#submit-demand`, chromedp.ByQuery),
				chromedp.WaitVisible(`#outcome`, chromedp.ByQuery),
				chromedp.AttributeValue(`#outcome`, "data-outcome", &outcome, nil, chromedp.ByQuery),
				chromedp.Evaluate(`performance.getEntriesByType("navigation")[0].nextHopProtocol`, &protocol))
			if outcome != "finalized" && outcome != "force_finalized" {
				t.Fatalf("outcome %q", outcome)
			}
			if protocol != "h2" {
				t.Errorf("the page came over %q, want HTTP/2 (h2)", protocol)
			}
			// The agreement names everyone in the merged plan, the
			// sub-negotiation's people too.
			var missing []string
			run("the outcome's participants",
				chromedp.WaitVisible(`#merged-plan`, chromedp.ByQuery),
				chromedp.Evaluate(`[...document.querySelectorAll("#merged-plan tbody tr td:nth-child(2)")].map(td => td.innerText.trim())
					.filter(n => !document.querySelector("#outcome").innerText.includes(n))`, &missing))
			if len(missing) > 0 {
				t.Errorf("the outcome's participants leave out %v of the merged plan", missing)
			}
			var png []byte
			run("screenshot", chromedp.CaptureScreenshot(&png))
			if err := os.WriteFile(filepath.Join(shots, "https-"+size.name+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
