package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/towow/towow/web"
)

func TestConsoleFiles(t *testing.T) {
	mux := http.NewServeMux()
	web.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path, etag string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	tests := []struct {
		path, contentType, contains string
		status                      int
	}{
		{"/", "text/html; charset=utf-8", `<script src="/static/app.js">`, 200},
		{"/static/app.js", "text/javascript; charset=utf-8", "new EventSource(", 200},
		{"/static/style.css", "text/css; charset=utf-8", "@media", 200},
		{"/static/nope.js", "", "", 404},
		{"/static/..%2fweb.go", "", "", 404},
		{"/other", "", "", 404},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := get(tc.path, "")
			if resp.StatusCode != tc.status || (tc.status == 200 && (resp.Header.Get("Content-Type") != tc.contentType || !strings.Contains(body, tc.contains))) {
				t.Fatalf("%d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
			}
			if tc.status != 200 {
				return
			}
			etag := resp.Header.Get("ETag")
			if again, _ := get(tc.path, etag); etag == "" || again.StatusCode != http.StatusNotModified {
				t.Fatalf("revalidation with ETag %q: %d", etag, again.StatusCode)
			}
		})
	}
}
