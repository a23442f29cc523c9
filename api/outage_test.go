package api_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/api"
	"github.com/towow/towow/app"
	"github.com/towow/towow/directory"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// TestDatabaseUnreachable: while the database cannot be reached, a command
// answers 503 TOWOW_SYSTEM_001 with Retry-After (not a 500), and the
// failure is logged at ERROR with its cause and the request id.
func TestDatabaseUnreachable(t *testing.T) {
	ctx := context.Background()
	// Nothing listens on port 1: every connection attempt is refused.
	pool, err := pgxpool.New(ctx, "postgres://towow:x@127.0.0.1:1/towow?connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	store := eventstore.New(pool, eventstore.Options{})
	dir := directory.NewDirectory(store)
	e, err := app.NewWriteSide(pool, store, dir, llm.NewClient(llm.Config{Provider: builtin.New()}), false, app.WriteConfig{})
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	srv := httptest.NewServer((&api.Server{DB: pool, Commands: e.Commands, Events: store, AdminToken: testAdminToken,
		Logger: slog.New(slog.NewJSONHandler(logs, nil))}).Handler())
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/api/v1/demand/submit", "application/json",
		strings.NewReader(`{"raw_input":"我想在北京办一场AI主题聚会","user_id":"u1"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p struct {
		Status int
		Code   string
	}
	_ = json.NewDecoder(resp.Body).Decode(&p)
	if resp.StatusCode != http.StatusServiceUnavailable || p.Code != "TOWOW_SYSTEM_001" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("%d Retry-After %q %+v, want 503 TOWOW_SYSTEM_001 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), p)
	}
	id := resp.Header.Get("X-Request-Id")
	if !strings.Contains(logs.String(), `"level":"ERROR"`) || !strings.Contains(logs.String(), `"request_id":"`+id+`"`) ||
		!strings.Contains(logs.String(), "connect") {
		t.Fatalf("the 503 is not logged at ERROR with its cause and request id %q:\n%s", id, logs.String())
	}
}

// panicky is a command side whose every method panics (its embedded
// interface is nil): a stand-in for a bug, not for the database.
type panicky struct{ api.Commands }

// TestHandlerPanicIsAProblem: a handler that panics answers 500
// problem+json TOWOW_SYSTEM_003 (not a dropped connection) and is logged
// at ERROR with the request id and the stack.
func TestHandlerPanicIsAProblem(t *testing.T) {
	logs := &syncBuffer{}
	srv := httptest.NewServer((&api.Server{Commands: panicky{}, AdminToken: testAdminToken, Logger: slog.New(slog.NewJSONHandler(logs, nil))}).Handler())
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/api/v1/demand/submit", "application/json", strings.NewReader(`{"raw_input":"x","user_id":"u1"}`))
	if err != nil {
		t.Fatalf("the connection was dropped: %v", err)
	}
	defer resp.Body.Close()
	var p struct{ Code string }
	_ = json.NewDecoder(resp.Body).Decode(&p)
	id := resp.Header.Get("X-Request-Id")
	if resp.StatusCode != 500 || p.Code != "TOWOW_SYSTEM_003" || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("%d %s %+v, want 500 problem+json TOWOW_SYSTEM_003", resp.StatusCode, resp.Header.Get("Content-Type"), p)
	}
	if out := logs.String(); !strings.Contains(out, `"msg":"request panicked"`) || !strings.Contains(out, `"request_id":"`+id+`"`) ||
		!strings.Contains(out, "goroutine") {
		t.Fatalf("the panic is not logged with its request id and stack:\n%s", out)
	}
}
