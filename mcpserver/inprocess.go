package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"sync"
)

// InProcess is an http.Client whose requests are served by the handler
// that handler returns, in this process, without a socket: the MCP
// endpoint of `towow serve` and `towow mcp` call their own API this way.
// handler is called once, at the first request, so the API handler may be
// built after the MCP server that calls it. Answers are buffered whole
// (the tools call JSON endpoints, never the live streams).
func InProcess(handler func() http.Handler) *http.Client {
	return &http.Client{Transport: &inProcess{handler: sync.OnceValue(handler)}}
}

// inProcess is InProcess's RoundTripper.
type inProcess struct {
	handler func() http.Handler
}

// RoundTrip serves req with the handler and returns its recorded answer
// (httptest's recorder: the whole answer, buffered). req itself is not
// modified; its body is closed, as a RoundTripper must.
func (t *inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	// A server-side request: RequestURI set, as net/http's server does.
	in := req.Clone(req.Context())
	if in.Body == nil {
		in.Body = http.NoBody
	}
	in.RequestURI = req.URL.RequestURI()
	in.RemoteAddr = "127.0.0.1:0"
	if in.Host == "" {
		in.Host = req.URL.Host
	}
	w := httptest.NewRecorder()
	t.handler().ServeHTTP(w, in)
	if req.Body != nil {
		_ = req.Body.Close()
	}
	resp := w.Result()
	resp.Request = req
	return resp, nil
}
