package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/internal/database"
)

// TestRiverDeclaresNoAppends: River's own sessions (those that fetch its
// jobs among them) say they append no events, so that its fetches and
// completions never hold the log's readers back, while the steps still
// append on the main pool: a negotiation ends as before.
func TestRiverDeclaresNoAppends(t *testing.T) {
	ctx := context.Background()
	a, _ := negotiatedApp(t, app.Config{}) // tracing_test.go
	pool := a.Pool

	// The sessions whose last query fetched River's jobs.
	const q = `SELECT count(*) FILTER (WHERE application_name LIKE '%(no appends)'), count(*)
		FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
		AND query LIKE '%name: JobGetAvailable%'`
	deadline := time.Now().Add(10 * time.Second)
	for {
		var declared, fetching int
		if err := pool.QueryRow(ctx, q).Scan(&declared, &fetching); err != nil {
			t.Fatal(err)
		}
		if fetching > 0 && declared == fetching {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d sessions fetching River's jobs declare they append no events", declared, fetching)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The main pool's sessions may append.
	var name string
	if err := pool.QueryRow(ctx, `SELECT current_setting('application_name')`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	if name == "" || strings.HasSuffix(name, database.NoAppendsSuffix) {
		t.Fatalf("the main pool's application name %q", name)
	}
}
