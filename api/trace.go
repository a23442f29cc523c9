package api

import (
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// routeNamed names the request's span, when one is recording (the App's
// otelhttp handler around the whole API), by the route that served it:
// "POST /api/v1/demands", with http.route set to its path. The mux sets
// the route only once it has matched, so the span is renamed after it
// served the request.
func routeNamed(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		span := trace.SpanFromContext(r.Context())
		if r.Pattern == "" || !span.IsRecording() {
			return
		}
		method, route, ok := strings.Cut(r.Pattern, " ")
		if !ok {
			method, route = r.Method, r.Pattern
		}
		span.SetName(method + " " + route)
		span.SetAttributes(attribute.String("http.route", route))
	})
}
