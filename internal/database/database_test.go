package database_test

import (
	"context"
	"strings"
	"testing"

	"github.com/towow/towow/internal/database"
	"github.com/towow/towow/internal/dbtest"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://u:secret@h:5/db?sslmode=disable", "postgres://u:xxxxx@h:5/db?sslmode=disable"},
		{"postgres://u@h/db", "postgres://u@h/db"},
		{"postgres://h/db", "postgres://h/db"},
		{"host=h password=secret", "(unparsable url)"},
	}
	for _, tc := range tests {
		if got := database.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	pool, err := database.Open(ctx, dbtest.NewURL(t), database.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if got := pool.Config().MaxConns; got != database.DefaultMaxConns {
		t.Fatalf("MaxConns = %d, want %d", got, database.DefaultMaxConns)
	}
	var app string
	if err := pool.QueryRow(ctx, "SHOW application_name").Scan(&app); err != nil || app != "towow" {
		t.Fatalf("application_name = %q, %v", app, err)
	}
}

func TestOpenErrorsAreOneReadableLine(t *testing.T) {
	ctx := context.Background()
	tests := []struct{ url, want string }{
		{"postgres://towow:secret@127.0.0.1:1/towow?connect_timeout=2", "database postgres://towow:xxxxx@127.0.0.1:1/towow?connect_timeout=2 unreachable: "},
		{"postgres://towow:secret@[::1", "invalid database url"},
		{"postgres://towow:secret@127.0.0.1:1/towow?pool_max_conns=zero", "invalid database url"},
		{"host=localhost password=secret port=notaport", "invalid database url (unparsable url): "},
	}
	for _, tc := range tests {
		_, err := database.Open(ctx, tc.url, database.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") ||
			strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "%!") {
			t.Errorf("Open(%q) = %v, want one line starting %q without the password", tc.url, err, tc.want)
		}
	}
}
