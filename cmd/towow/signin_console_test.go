package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/towow/towow/internal/testop"
)

// awaitPromise makes chromedp.Evaluate wait for the promise the
// expression returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// providerServer starts an OpenID Provider in the test's process
// (internal/testop) and `towow serve` signing people in with it (the
// console's client registered with the server's callback), for a browser
// test.
func providerServer(t *testing.T, env ...string) (op *testop.OP, chrome, dataDir string, s *server, base, shots string) {
	t.Helper()
	op = testop.Start(t, "towow-console")
	chrome, dataDir, s, base, shots = browserServer(t, append([]string{"TOWOW_OIDC_ISSUER=" + op.Issuer,
		"TOWOW_OIDC_CLIENT_ID=" + op.ClientID, "TOWOW_OIDC_CLIENT_SECRET=" + testop.ClientSecret}, env...)...)
	// Cookies are per host name, not per port: a second person's page goes
	// to the server as localhost (see TestWorkflowCanvasInBrowser), and the
	// provider sends each back to where it came from.
	port := s.addr[strings.LastIndex(s.addr, ":"):]
	op.AllowRedirect(base+"/auth/callback", "http://localhost"+port+"/auth/callback")
	return op, chrome, dataDir, s, base, shots
}

// signInWithProvider signs the page in on base's console through the
// provider: 登录 on the sign-in view leads to the provider's login form,
// where username and the example password are typed; the provider sends
// the page back to the console, signed in.
func signInWithProvider(base, username string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(base + "/"),
		chromedp.WaitVisible(`#signin[data-mode="oidc"] #signin-submit`, chromedp.ByQuery),
		chromedp.Click(`#signin-submit`, chromedp.ByQuery),
		chromedp.WaitVisible(`#username`, chromedp.ByQuery),
		chromedp.SendKeys(`#username`, username, chromedp.ByQuery),
		chromedp.SendKeys(`#password`, testop.Password, chromedp.ByQuery),
		chromedp.Click(`button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#sign-out`, chromedp.ByQuery),
		chromedp.WaitVisible(`#app .card`, chromedp.ByQuery),
	}
}

// acrossNavigation evaluates expr in the page until it gives a value
// other than "" (up to 30 s), through the navigations the page is making:
// an evaluation cut off by one is tried again on the next document.
func (b *browserTab) acrossNavigation(what, expr string, out *string) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		err := chromedp.Run(ctx, chromedp.Evaluate(expr, out))
		cancel()
		if err == nil && *out != "" {
			return
		}
		if time.Now().After(deadline) {
			b.run(what, chromedp.Evaluate(expr, out)) // the last try: its failure, with the screenshot
			b.t.Fatalf("tab %s: %s: still %q after 30 s", b.name, what, *out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestConsoleSignInWithProvider signs in on the console with a real OpenID
// Provider (zitadel/oidc's, in the test's process) in headless Chromium:
// the sign-in view of provider mode has no name field, only 登录; 登录 goes
// through /auth/login to the provider's login form, where a wrong password
// is refused and the right one sends the page back to the console signed
// in, the header showing the name from the provider's ID token; the session
// submits a demand (a same-origin write); 退出 brings the sign-in view back
// and the server no longer knows the browser. Screenshots:
// signin-provider.png, provider-login.png, signed-in-provider.png.
func TestConsoleSignInWithProvider(t *testing.T) {
	op, chrome, _, s, base, shots := providerServer(t)
	ctx := newBrowser(t, chrome, 1200, 860, 3*time.Minute)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	tab := &browserTab{t: t, name: "provider", ctx: ctx, shots: shots, srv: s}

	// The sign-in view: provider mode, 登录 and no name to type.
	var names int
	tab.run("the sign-in view", visit(base+"/#/history"),
		chromedp.WaitVisible(`#signin[data-mode="oidc"] #signin-submit`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#signin-name").length`, &names))
	if names != 0 {
		t.Fatal("provider mode's sign-in view asks for a name")
	}
	tab.shot("signin-provider")

	// 登录 → /auth/login → the provider's login form; a wrong password is
	// the provider's to refuse, the right one comes back signed in.
	var at string
	tab.run("the provider's login form", chromedp.Click(`#signin-submit`, chromedp.ByQuery),
		chromedp.WaitVisible(`#username`, chromedp.ByQuery), chromedp.Evaluate(`location.href`, &at))
	if !strings.HasPrefix(at, op.Issuer+"/login/username") {
		t.Fatalf("登录 led to %s, want the provider's login form at %s/login/username", at, op.Issuer)
	}
	var refused string
	tab.run("a wrong password",
		chromedp.SendKeys(`#username`, op.Username, chromedp.ByQuery),
		chromedp.SendKeys(`#password`, "not-the-password", chromedp.ByQuery),
		chromedp.Click(`button[type="submit"]`, chromedp.ByQuery))
	tab.acrossNavigation("the provider refuses it", fmt.Sprintf(`(() => { const p = document.querySelector("form p");
		return document.readyState === "complete" && location.href.startsWith(%q) && p ? p.textContent.trim() : ""; })()`, op.Issuer), &refused)
	if refused == "" {
		t.Fatal("the provider took a wrong password")
	}
	tab.shot("provider-login")
	var shown, title string
	var me struct {
		SignedIn bool   `json:"signed_in"`
		UserID   string `json:"user_id"`
		Name     string `json:"name"`
		Mode     string `json:"mode"`
	}
	tab.run("sign in with the provider",
		// (SetValue cannot empty a field: an empty value is sent as none.)
		chromedp.Evaluate(`document.getElementById("username").value = document.getElementById("password").value = ""`, nil),
		chromedp.SendKeys(`#username`, op.Username, chromedp.ByQuery),
		chromedp.SendKeys(`#password`, testop.Password, chromedp.ByQuery),
		chromedp.Click(`button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#sign-out`, chromedp.ByQuery),
		chromedp.Evaluate(`location.href`, &at),
		chromedp.Text(`#account-name`, &shown, chromedp.ByQuery),
		chromedp.AttributeValue(`#account-name`, "title", &title, nil, chromedp.ByQuery),
		chromedp.Evaluate(`fetch("/auth/me").then(r => r.json())`, &me, awaitPromise))
	host := strings.TrimPrefix(op.Issuer, "http://")
	if !strings.HasPrefix(at, base+"/") || !me.SignedIn || me.Mode != "oidc" || me.UserID != "id1@"+host {
		t.Fatalf("after the provider's form: at %s, /auth/me %+v (want user id1@%s)", at, me, host)
	}
	// The header shows the person's name, not their id: this provider
	// asserts no profile claims in its ID tokens, so the server asks its
	// userinfo endpoint; the user id is in the title.
	if shown == "" || shown != me.Name || title != me.UserID || strings.HasPrefix(me.UserID, shown+"@") {
		t.Fatalf("the header shows %q (title %q); /auth/me says %+v", shown, title, me)
	}
	tab.shot("signed-in-provider")

	// The session writes: a demand submitted on the home page is followed.
	tab.run("submit a demand",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`#demand-input`, chromedp.ByQuery),
		chromedp.SetValue(`#demand-input`, "我想在北京办一场AI主题聚会，需要场地和嘉宾", chromedp.ByQuery),
		chromedp.Click(`#submit-demand`, chromedp.ByQuery),
		chromedp.WaitVisible(`#timeline li`, chromedp.ByQuery))

	// 退出: the provider mode's sign-in view is back; the server no longer
	// knows this browser.
	var signedIn bool
	tab.run("sign out",
		chromedp.Click(`#sign-out`, chromedp.ByQuery),
		chromedp.WaitVisible(`#signin[data-mode="oidc"] #signin-submit`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`#timeline`, chromedp.ByQuery),
		chromedp.Evaluate(`fetch("/auth/me").then(r => r.json()).then(m => m.signed_in)`, &signedIn, awaitPromise))
	if signedIn {
		t.Fatal("GET /auth/me says signed in after 退出")
	}
}
