// Package dbtest gives tests a real, private, migrated PostgreSQL database.
//
// The server is TOWOW_TEST_DATABASE_URL when set (its role must be allowed to
// create databases); otherwise the embedded cluster in <repo>/.towow/testpg,
// started on first use and left running for the next test process (`make
// test` stops it at the end; `towow db stop --data-dir .towow/testpg` does
// too). Each call to New clones a template database that was migrated once
// (goose + River) and is named after a hash of the migrations, so a schema
// change builds a fresh template automatically.
package dbtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/towow/towow/internal/database"
	"github.com/towow/towow/internal/pgcluster"
	"github.com/towow/towow/internal/schema"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/migrations"
)

// EnvURL names the variable that points tests at an existing server.
const EnvURL = "TOWOW_TEST_DATABASE_URL"

// templateLockID serializes template creation across test processes.
const templateLockID int64 = 7784431300528011808

var (
	setupOnce sync.Once
	setupErr  error
	adminURL  string // a database on the server we may CREATE DATABASE from
	template  string
	counter   atomic.Int64
)

// New creates a fresh database cloned from the migrated template and returns
// a pool on it. The database is dropped when the test ends. A test that
// cannot get a database fails (never skips): the suite needs PostgreSQL.
func New(tb testing.TB) *pgxpool.Pool {
	tb.Helper()
	u := NewURL(tb)
	ctx := context.Background()
	pool, err := database.Open(ctx, u, database.Options{ApplicationName: "towow-test"})
	if err != nil {
		tb.Fatalf("dbtest: %v", err)
	}
	tb.Cleanup(pool.Close)
	return pool
}

// NewURL is New without the pool: it returns the fresh database's URL (for
// tests that start a towow process themselves). Cleanup drops the database.
func NewURL(tb testing.TB) string {
	tb.Helper()
	u, drop, err := Create(context.Background())
	if err != nil {
		tb.Fatalf("dbtest: %v", err)
	}
	tb.Cleanup(func() {
		if err := drop(); err != nil {
			tb.Logf("dbtest: %v", err)
		}
	})
	return u
}

// Create makes a fresh migrated database outside any test, for TestMain
// (runnable examples have no *testing.T). Call drop when done.
func Create(ctx context.Context) (url string, drop func() error, err error) {
	setupOnce.Do(func() { setupErr = setup(ctx) })
	if setupErr != nil {
		return "", nil, setupErr
	}
	name := fmt.Sprintf("towow_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, counter.Add(1))
	// Identifiers cannot be bind parameters: this DDL is not in queries/.
	if err := adminExec(ctx, "CREATE DATABASE "+ident(name)+" TEMPLATE "+ident(template)); err != nil {
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	drop = func() error {
		if err := adminExec(context.Background(), "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop %s: %w", name, err)
		}
		return nil
	}
	return withDatabase(adminURL, name), drop, nil
}

func setup(ctx context.Context) error {
	adminURL = os.Getenv(EnvURL)
	if adminURL == "" {
		root, err := repoRoot()
		if err != nil {
			return err
		}
		c, err := pgcluster.Start(ctx, pgcluster.Config{DataDir: filepath.Join(root, ".towow", "testpg")})
		if err != nil {
			return fmt.Errorf("start embedded test cluster: %w", err)
		}
		adminURL = c.URL("postgres")
	}
	h, err := schemaHash()
	if err != nil {
		return err
	}
	template = "towow_tpl_" + h
	return ensureTemplate(ctx)
}

// ensureTemplate builds the template database once per schema version.
func ensureTemplate(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("connect to test server %s: %w", database.Redact(adminURL), err)
	}
	defer conn.Close(ctx)
	q := sqlcdb.New(conn)
	if err := q.AdvisoryLock(ctx, templateLockID); err != nil {
		return fmt.Errorf("template lock: %w", err)
	}
	// The lock is a session lock: closing conn (deferred above) releases it.
	exists, err := q.DatabaseExists(ctx, template)
	if err != nil {
		return fmt.Errorf("look up template: %w", err)
	}
	if exists {
		return nil
	}
	// Database DDL takes identifiers, which cannot be bind parameters, so it
	// is not in queries/ (sqlc cannot express it); names are generated here.
	build := template + "_build"
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(build)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop stale template build: %w", err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident(build)); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	if err := migrate(ctx, withDatabase(adminURL, build)); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+ident(build)+" RENAME TO "+ident(template)); err != nil {
		return fmt.Errorf("publish template: %w", err)
	}
	return nil
}

func migrate(ctx context.Context, u string) error {
	pool, err := database.Open(ctx, u, database.Options{ApplicationName: "towow-test-template"})
	if err != nil {
		return err
	}
	defer pool.Close()
	m, err := schema.New(pool, nil)
	if err != nil {
		return err
	}
	defer m.Close()
	if err := m.Up(ctx); err != nil {
		return fmt.Errorf("migrate template: %w", err)
	}
	return nil
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

func adminExec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// schemaHash fingerprints the ToWow migrations and River's migration list.
func schemaHash() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%s\x00", path, b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash migrations: %w", err)
	}
	rm, err := rivermigrate.New(riverpgxv5.New(nil), nil)
	if err != nil {
		return "", fmt.Errorf("river migrator: %w", err)
	}
	for _, v := range rm.AllVersions() {
		fmt.Fprintf(h, "river%d\x00%s\x00", v.Version, v.SQLUp)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

func withDatabase(base, name string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.Path = "/" + name
	return u.String()
}

// repoRoot finds the directory holding go.mod, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir || strings.TrimSpace(parent) == "" {
			return "", fmt.Errorf("no go.mod above the working directory; set %s", EnvURL)
		}
		dir = parent
	}
}

// Main runs a package's tests and examples with *pool on a fresh migrated
// database (runnable examples have no *testing.T), then drops it and exits:
// call it from TestMain.
func Main(m *testing.M, pool **pgxpool.Pool) {
	ctx := context.Background()
	url, drop, err := Create(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*pool, err = database.Open(ctx, url, database.Options{ApplicationName: "towow-test"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	(*pool).Close()
	if err := drop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	os.Exit(code)
}
