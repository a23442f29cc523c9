package mcpserver

import (
	"bytes"
	"io"
	"net/http"
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

// RoundTrip serves req with the handler and returns its recorded answer.
func (t *inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body == nil {
		req.Body = http.NoBody
	}
	// A server-side request: RequestURI set, as net/http's server does.
	in := req.Clone(req.Context())
	in.RequestURI = req.URL.RequestURI()
	in.RemoteAddr = "127.0.0.1:0"
	if in.Host == "" {
		in.Host = req.URL.Host
	}
	w := &recorder{header: http.Header{}}
	t.handler().ServeHTTP(w, in)
	if req.Body != nil {
		_ = req.Body.Close()
	}
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	return &http.Response{
		Status:        http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.header,
		Body:          io.NopCloser(bytes.NewReader(w.body.Bytes())),
		ContentLength: int64(w.body.Len()),
		Request:       req,
	}, nil
}

// recorder is the http.ResponseWriter of an in-process request.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header is the answer's header.
func (r *recorder) Header() http.Header { return r.header }

// WriteHeader records the first status written.
func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

// Write appends to the answer's body.
func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

// Flush is a no-op: the answer is returned once the handler is done.
func (r *recorder) Flush() {}
