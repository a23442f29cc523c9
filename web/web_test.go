package web_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/towow/towow/domain/workflow"
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
		{"/", "text/html; charset=utf-8", `<script type="module" src="/static/js/main.js">`, 200},
		{"/static/js/main.js", "text/javascript; charset=utf-8", "import ", 200},
		{"/static/js/stream.js", "text/javascript; charset=utf-8", "new EventSource(", 200},
		{"/static/js/workflow/page.js", "text/javascript; charset=utf-8", "export function workflowPage", 200},
		{"/static/style.css", "text/css; charset=utf-8", "@media", 200},
		{"/static/nope.js", "", "", 404},
		{"/static/js/../../web.go", "", "", 404},
		{"/static/..%2fweb.go", "", "", 404},
		{"/static/js/..%2f..%2fweb.go", "", "", 404},
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

var (
	importRE  = regexp.MustCompile(`(?m)^import\s+(?:[^"']*\s+from\s+)?["']([^"']+)["'];`)
	exportRE  = regexp.MustCompile(`(?m)^export\s+(?:async\s+)?(?:function|const|let|class)\s+(\w+)`)
	importsRE = regexp.MustCompile(`(?m)^import\s+\{([^}]*)\}\s+from\s+["']([^"']+)["'];`)
)

// TestConsoleModules keeps the console's modules loadable without a build
// step: every import is a relative path to an embedded module that exports
// each name imported, no module reaches for window globals, no module is
// longer than 400 lines, and the page loads one module script.
// TestContentTypes: every embedded file is served with a media type of
// its own, not as application/octet-stream (a new kind of file needs its
// case in contentType).
func TestContentTypes(t *testing.T) {
	mux := http.NewServeMux()
	web.Register(mux)
	n := 0
	_ = fs.WalkDir(web.Static, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		n++
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/static/"+name, nil))
		if ct := rec.Header().Get("Content-Type"); rec.Code != http.StatusOK || ct == "" || ct == "application/octet-stream" {
			t.Errorf("%s: %d %q", name, rec.Code, ct)
		}
		return nil
	})
	if n < 10 {
		t.Fatalf("%d files", n)
	}
}

func TestConsoleModules(t *testing.T) {
	exports := map[string]map[string]bool{}
	sources := map[string]string{}
	_ = fs.WalkDir(web.Static, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || path.Ext(name) != ".js" {
			return err
		}
		b, err := fs.ReadFile(web.Static, name)
		if err != nil {
			t.Fatal(err)
		}
		sources[name] = string(b)
		exports[name] = map[string]bool{}
		for _, m := range exportRE.FindAllStringSubmatch(string(b), -1) {
			exports[name][m[1]] = true
		}
		return nil
	})
	if len(sources) < 10 {
		t.Fatalf("%d modules", len(sources))
	}
	for name, src := range sources {
		if n := strings.Count(src, "\n"); n > 400 {
			t.Errorf("%s: %d lines (at most 400)", name, n)
		}
		if strings.Contains(src, "window.") && !strings.Contains(name, "main.js") {
			t.Errorf("%s uses window.*: modules share nothing through globals", name)
		}
		if strings.Contains(src, "require(") {
			t.Errorf("%s uses require(): native ES modules only", name)
		}
		for _, m := range importRE.FindAllStringSubmatch(src, -1) {
			if !strings.HasPrefix(m[1], "./") && !strings.HasPrefix(m[1], "../") {
				t.Errorf("%s imports %q: only relative module paths load without a build step", name, m[1])
			}
		}
		for _, m := range importsRE.FindAllStringSubmatch(src, -1) {
			target := path.Join(path.Dir(name), m[2])
			ex, ok := exports[target]
			if !ok {
				t.Errorf("%s imports %s, which is not embedded", name, target)
				continue
			}
			for _, n := range strings.Split(m[1], ",") {
				if n = strings.TrimSpace(n); n != "" && !ex[n] {
					t.Errorf("%s imports %s from %s, which does not export it", name, n, target)
				}
			}
		}
	}
	index, _ := fs.ReadFile(web.Static, "index.html")
	if n := strings.Count(string(index), "<script"); n != 1 || !strings.Contains(string(index), `type="module"`) {
		t.Errorf("index.html has %d scripts; want one module", n)
	}
}

// TestConsoleNodeTypes: the console names no node type and no node type
// label itself: it takes them, their shapes and its add menu from the
// server's list (workflow/node_types.js), built from the domain's table.
func TestConsoleNodeTypes(t *testing.T) {
	src, err := fs.ReadFile(web.Static, "js/workflow/node_types.js")
	if err != nil || !strings.Contains(string(src), `"/api/v1/workflows/node-types"`) {
		t.Fatalf("workflow/node_types.js does not read the server's list: %v", err)
	}
	_ = fs.WalkDir(web.Static, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || path.Ext(name) != ".js" {
			return err
		}
		b, _ := fs.ReadFile(web.Static, name)
		for _, s := range workflow.NodeSpecs() {
			for _, lit := range []string{`"` + string(s.Type) + `"`, `"` + s.Label + `"`} {
				if strings.Contains(string(b), lit) {
					t.Errorf("%s writes %s: the node types come from GET /api/v1/workflows/node-types", name, lit)
				}
			}
		}
		return nil
	})
}
