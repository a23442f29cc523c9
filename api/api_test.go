package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/internal/database"
	"github.com/towow/towow/internal/dbtest"
)

func TestHealthz(t *testing.T) {
	pool, err := database.Open(t.Context(), dbtest.NewURL(t), database.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer((&api.Server{DB: pool}).Handler())
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("healthy database: status %d", resp.StatusCode)
	}

	pool.Close() // the database is now unreachable for this server
	resp, err = http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var problem struct {
		Status int    `json:"status"`
		Detail string `json:"detail"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&problem); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Content-Type") != "application/problem+json" ||
		problem.Status != 503 || problem.Detail != "database unreachable" {
		t.Fatalf("unreachable database: %d %s %+v", resp.StatusCode, resp.Header.Get("Content-Type"), problem)
	}
}
