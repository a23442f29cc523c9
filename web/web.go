// Package web is ToWow's console: a single page (plain HTML, CSS and
// JavaScript, no build step) embedded in the binary and served by
// `towow serve` at /. It talks to the API like any client: it submits
// demands, follows negotiations over EventSource (resuming with
// Last-Event-ID), reads the read models and time-travels through the
// channel state endpoint.
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

// Static is the console's files (index.html, app.js, style.css).
var Static, _ = fs.Sub(files, "static")

// Register serves the console on mux: the page at GET / and its assets
// under GET /static/. Every other path stays the API's (an unknown API path
// is still a problem+json 404).
func Register(mux *http.ServeMux) {
	files := loadFiles()
	mux.Handle("GET /{$}", fileHandler(files, "index.html"))
	mux.Handle("GET /static/{file}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fileHandler(files, path.Clean(r.PathValue("file"))).ServeHTTP(w, r)
	}))
}

// file is one embedded file with the ETag of its content.
type file struct {
	body []byte
	etag string
}

// loadFiles reads the embedded files once, with their ETags.
func loadFiles() map[string]file {
	out := map[string]file{}
	entries, _ := fs.ReadDir(Static, ".")
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := fs.ReadFile(Static, e.Name())
		if err != nil {
			continue
		}
		sum := sha256.Sum256(b)
		out[e.Name()] = file{body: b, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
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
		if r.Header.Get("If-None-Match") == f.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(f.body)
	})
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}
