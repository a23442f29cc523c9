package api

import (
	"net/http"
	"slices"
)

// withCORS lets browsers on the allowed origins call the API and follow
// its streams: simple requests get Access-Control-Allow-Origin, preflights
// (OPTIONS with Access-Control-Request-Method) are answered here with 204.
// "*" allows any origin. The MCP endpoint's session headers
// (Mcp-Session-Id, Mcp-Protocol-Version) may be sent and read. Requests
// from other origins get no CORS headers (the browser then blocks them);
// non-browser clients are unaffected.
func withCORS(origins []string, next http.Handler) http.Handler {
	if len(origins) == 0 {
		return next
	}
	any := slices.Contains(origins, "*")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || (!any && !slices.Contains(origins, origin)) {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Allow-Origin", origin)
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
			h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Last-Event-ID, Mcp-Session-Id, Mcp-Protocol-Version")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Access-Control-Expose-Headers", "Link, Location, Mcp-Session-Id")
		next.ServeHTTP(w, r)
	})
}
