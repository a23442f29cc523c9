// Package web is ToWow's console: a single page (plain HTML, CSS and
// JavaScript as native ES modules, no build step) embedded in the binary
// and served by `towow serve` at /. It talks to the API like any client: it
// submits demands, follows negotiations and workflows over EventSource
// (resuming with Last-Event-ID), names events by the server's catalog and
// summaries, reads the read models and time-travels through the state
// endpoints.
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
)

//go:embed static
var files embed.FS

// Static is the console's files (index.html, style.css and the modules
// under js/).
var Static, _ = fs.Sub(files, "static")

// Register serves the console on mux: the page at GET / and its assets,
// subfolders included, under GET /static/. Every other path stays the
// API's (an unknown API path is still a problem+json 404).
func Register(mux *http.ServeMux) {
	files := loadFiles()
	mux.Handle("GET /{$}", fileHandler(files, "index.html"))
	mux.Handle("GET /static/{file...}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fileHandler(files, path.Clean(r.PathValue("file"))).ServeHTTP(w, r)
	}))
}

// file is one embedded file with the ETag of its content.
type file struct {
	body []byte
	etag string
}

// loadFiles reads every embedded file once, with its ETag, by its path
// under static/ ("js/workflow/page.js").
func loadFiles() map[string]file {
	out := map[string]file{}
	_ = fs.WalkDir(Static, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(Static, name)
		if err != nil {
			return nil
		}
		sum := sha256.Sum256(b)
		out[name] = file{body: b, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	return out
}

// fileHandler serves one embedded file with its ETag, so a browser
// revalidates instead of running an old console after an upgrade.
func fileHandler(files map[string]file, name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("ETag", f.etag)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Type", contentType(name))
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.Header.Get("If-None-Match") == f.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(f.body)
	})
}

// contentType is a file's media type by its extension, for the kinds of
// file under static/ (TestContentTypes holds every file to one): a module
// script must be served as JavaScript, or the browser refuses to run it.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	}
	return "application/octet-stream"
}
