package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Mount is a handler the API serves beside its own operations, outside
// the OpenAPI document: River's job dashboard at /riverui/, the MCP
// endpoint at /mcp. The app builds these handlers; the API only routes to
// them and guards them: with Admin, the operator's token; with OAuth, a
// person's bearer token or the operator's (mcp_auth.go).
type Mount struct {
	// Pattern is the http.ServeMux pattern, e.g. "/riverui/" (a prefix)
	// or "/mcp".
	Pattern string
	// Handler serves the requests that match Pattern.
	Handler http.Handler
	// Admin refuses, with a problem+json 401 (TOWOW_AUTH_001), every
	// request that does not carry the admin token.
	Admin bool
	// Session lets a browser in (with Admin, on a prefix Pattern such as
	// "/riverui/"): a browser cannot send Authorization when it navigates
	// to a page, so POST <Pattern>session with the bearer admin token
	// answers 204 with a session cookie (see SessionCookie) that the guard
	// accepts in place of the header; DELETE <Pattern>session ends it.
	Session bool
	// OAuth makes the mount an OAuth 2.0 protected resource (RFC 9728;
	// Pattern a plain path such as "/mcp", Admin and Session unused): it
	// admits a person's bearer token (a user) and the admin token, never
	// an agent token (403) nor the console's session cookie; the handler
	// finds the caller in the request's auth.TokenInfo (go-sdk's auth
	// package: UserID the caller's actor, "user:<id>" or "admin";
	// Extra["token"] the bearer token itself, to act as the caller). Any
	// other request is a problem+json 401 (TOWOW_AUTH_001) whose
	// WWW-Authenticate points at the resource's metadata, served at
	// /.well-known/oauth-protected-resource<Pattern> (and at
	// /.well-known/oauth-protected-resource): the resource and the
	// identity provider (the authorization server) to sign in with.
	OAuth bool
}

// SessionCookie is the name of the admin session cookie of a Mount with
// Session. Its value is "<expiry unix seconds>.<HMAC-SHA256 keyed by the
// admin token over the mount's path and the expiry>" (base64url): it
// proves the admin token without holding it, ends at the expiry, and stops
// working when the admin token changes. It is HttpOnly (the page's
// scripts cannot read it), SameSite=Strict (no other site's page can make
// the browser send it: no cross-site request forgery against the mount's
// writes), Secure over TLS, and scoped to the mount's path, so it opens
// nothing else of the API.
const SessionCookie = "towow_admin_session"

// SessionTTL is how long an admin session cookie lasts.
const SessionTTL = 12 * time.Hour

// mount registers m on mux.
func (s *Server) mount(mux *http.ServeMux, m Mount) {
	h := m.Handler
	if m.OAuth {
		s.mountResource(mux, m)
		return
	}
	if !m.Admin {
		mux.Handle(m.Pattern, h)
		return
	}
	scope := ""
	if m.Session && strings.HasSuffix(m.Pattern, "/") && !strings.Contains(m.Pattern, " ") {
		scope = strings.TrimSuffix(m.Pattern, "/")
		mux.HandleFunc("POST "+m.Pattern+"session", s.openSession(scope))
		mux.HandleFunc("DELETE "+m.Pattern+"session", closeSession(scope))
	}
	mux.Handle(m.Pattern, s.adminOnly(h, scope))
}

// adminOnly is the admin-token check of plain handlers (the operations'
// own is guard.admin): Authorization: Bearer <admin token>, or, when
// scope is set, a valid session cookie of that scope.
func (s *Server) adminOnly(next http.Handler, scope string) http.Handler {
	need := "Authorization: Bearer <admin token>"
	if scope != "" {
		need += " or a session (POST " + scope + "/session with that header)"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.isAdmin(r) && (scope == "" || !s.validSession(r, scope, time.Now())) {
			writeUnauthorizedPlain(w, r.URL.Path+" needs "+need)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// writeUnauthorizedPlain writes the 401 problem of plain handlers.
func writeUnauthorizedPlain(w http.ResponseWriter, detail string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="towow"`)
	writeProblem(w, newProblem(http.StatusUnauthorized, CodeUnauthorized, detail))
}

// isAdmin says whether r carries the admin token as a bearer token.
func (s *Server) isAdmin(r *http.Request) bool {
	token, ok := bearerToken(r.Header.Get("Authorization"))
	return ok && isAdminToken(s.AdminToken, token)
}

// openSession answers POST <scope>/session: with the bearer admin token,
// 204 and a session cookie for scope; without it, 401.
func (s *Server) openSession(scope string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.isAdmin(r) {
			writeUnauthorizedPlain(w, "POST "+r.URL.Path+" needs Authorization: Bearer <admin token>")
			return
		}
		expires := time.Now().Add(SessionTTL)
		http.SetCookie(w, &http.Cookie{
			Name:     SessionCookie,
			Value:    s.sessionValue(scope, expires.Unix()),
			Path:     scope,
			Expires:  expires,
			MaxAge:   int(SessionTTL / time.Second),
			HttpOnly: true,
			Secure:   isHTTPS(r),
			SameSite: http.SameSiteStrictMode,
		})
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
	}
}

// closeSession answers DELETE <scope>/session: 204 and the cookie
// removed (whoever asks: forgetting a session needs no credential).
func closeSession(scope string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: scope, MaxAge: -1,
			HttpOnly: true, Secure: isHTTPS(r), SameSite: http.SameSiteStrictMode})
		w.WriteHeader(http.StatusNoContent)
	}
}

// sessionValue is the cookie value of a session of scope ending at
// expires (unix seconds).
func (s *Server) sessionValue(scope string, expires int64) string {
	exp := strconv.FormatInt(expires, 10)
	return exp + "." + base64.RawURLEncoding.EncodeToString(sessionMAC(s.AdminToken, scope, exp))
}

// sessionMAC is the HMAC-SHA256, keyed by the admin token, of a session's
// scope and expiry.
func sessionMAC(adminToken, scope, exp string) []byte {
	mac := hmac.New(sha256.New, []byte(adminToken))
	mac.Write([]byte("towow admin session\x00" + scope + "\x00" + exp))
	return mac.Sum(nil)
}

// validSession says whether r carries a session cookie of scope that the
// current admin token signed and that has not expired at now.
func (s *Server) validSession(r *http.Request, scope string, now time.Time) bool {
	if s.AdminToken == "" {
		return false
	}
	for _, c := range r.CookiesNamed(SessionCookie) {
		exp, sig, ok := strings.Cut(c.Value, ".")
		if !ok {
			continue
		}
		unix, err := strconv.ParseInt(exp, 10, 64)
		if err != nil || now.Unix() >= unix || unix > now.Add(SessionTTL+time.Minute).Unix() {
			continue
		}
		got, err := base64.RawURLEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, sessionMAC(s.AdminToken, scope, exp)) {
			return true
		}
	}
	return false
}
