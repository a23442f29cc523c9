package api

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// Mount is a handler the API serves beside its own operations, outside
// the OpenAPI document: River's job dashboard at /riverui/, the MCP
// endpoint at /mcp. The app builds these handlers; the API only routes to
// them and, with Admin, guards them with the operator's token.
type Mount struct {
	// Pattern is the http.ServeMux pattern, e.g. "/riverui/" (a prefix)
	// or "/mcp".
	Pattern string
	// Handler serves the requests that match Pattern.
	Handler http.Handler
	// Admin refuses, with a problem+json 401 (TOWOW_AUTH_001), every
	// request that does not carry the admin token.
	Admin bool
}

// mount registers m on mux.
func (s *Server) mount(mux *http.ServeMux, m Mount) {
	h := m.Handler
	if m.Admin {
		h = s.adminOnly(h)
	}
	mux.Handle(m.Pattern, h)
}

// adminOnly is the admin-token check of plain handlers (the operations'
// own is Server.admin): Authorization: Bearer <admin token>.
func (s *Server) adminOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.isAdmin(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="towow"`)
			writeProblem(w, newProblem(http.StatusUnauthorized, CodeUnauthorized,
				r.URL.Path+" needs Authorization: Bearer <admin token>"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isAdmin says whether r carries the admin token as a bearer token.
func (s *Server) isAdmin(r *http.Request) bool {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	return ok && strings.EqualFold(scheme, "Bearer") && token != "" && s.AdminToken != "" &&
		subtle.ConstantTimeCompare([]byte(token), []byte(s.AdminToken)) == 1
}
