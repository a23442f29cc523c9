package database_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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

// TestJSONScansAsBytes checks that json and jsonb values, in the text and
// the binary format, scan into a json.RawMessage as the server sent them,
// that SQL NULL scans as nil, and that other targets still unmarshal.
func TestJSONScansAsBytes(t *testing.T) {
	ctx := context.Background()
	pool, err := database.Open(ctx, dbtest.NewURL(t), database.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	tests := []struct {
		name, sql string
		want      json.RawMessage
	}{
		{"jsonb object", `SELECT '{"b": [1, 2], "a": "x"}'::jsonb`, json.RawMessage(`{"a": "x", "b": [1, 2]}`)},
		{"json as written", `SELECT '{"b":1,  "a":2}'::json`, json.RawMessage(`{"b":1,  "a":2}`)},
		{"jsonb null", `SELECT 'null'::jsonb`, json.RawMessage(`null`)},
		{"SQL NULL", `SELECT NULL::jsonb`, nil},
		{"jsonb parameter", `SELECT $1::jsonb`, json.RawMessage(`{"k": "中文"}`)},
	}
	for _, format := range []struct {
		name string
		mode pgx.QueryExecMode
	}{{"binary", pgx.QueryExecModeCacheStatement}, {"text", pgx.QueryExecModeSimpleProtocol}} {
		for _, tc := range tests {
			t.Run(format.name+"/"+tc.name, func(t *testing.T) {
				args := []any{format.mode}
				if strings.Contains(tc.sql, "$1") {
					args = append(args, json.RawMessage(`{"k":"中文"}`))
				}
				var got json.RawMessage
				if err := pool.QueryRow(ctx, tc.sql, args...).Scan(&got); err != nil {
					t.Fatal(err)
				}
				if string(got) != string(tc.want) || (got == nil) != (tc.want == nil) {
					t.Fatalf("scanned %q, want %q", got, tc.want)
				}
			})
		}
	}
	var m map[string]int
	if err := pool.QueryRow(ctx, `SELECT '{"a": 1}'::jsonb`).Scan(&m); err != nil || m["a"] != 1 {
		t.Fatalf("scan into a map: %v, %v", m, err)
	}
}

// TestDeclareNoAppends: the pool's sessions end their application name in
// " (no appends)", once, within the server's 63 bytes.
func TestDeclareNoAppends(t *testing.T) {
	long := strings.Repeat("名", 30) // 90 bytes
	tests := []struct{ name, want string }{
		{"towow", "towow (no appends)"},
		{"towow (no appends)", "towow (no appends)"},
		{"", " (no appends)"},
		{long, strings.Repeat("名", 16) + " (no appends)"},
	}
	for _, tt := range tests {
		cfg, err := pgxpool.ParseConfig("postgres://u@localhost/db")
		if err != nil {
			t.Fatal(err)
		}
		cfg.ConnConfig.RuntimeParams["application_name"] = tt.name
		database.DeclareNoAppends(cfg)
		got := cfg.ConnConfig.RuntimeParams["application_name"]
		if got != tt.want || len(got) > 63 {
			t.Errorf("%q: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
