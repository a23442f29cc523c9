package schema_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/internal/schema"
	"github.com/towow/towow/migrations"
)

// emptyDB returns a pool on a fresh database with no schema at all.
func emptyDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool := dbtest.New(t)
	ctx := context.Background()
	name := "towow_schema_" + strings.ToLower(t.Name())
	if _, err := pool.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = pool.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	pcfg := pool.Config().Copy()
	pcfg.ConnConfig.Database = name
	p, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// migratedUp migrates pool's database up and returns its migrator (closed
// when the test ends).
func migratedUp(t *testing.T, pool *pgxpool.Pool) *schema.Migrator {
	t.Helper()
	m, err := schema.New(pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	if err := m.Up(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

func pending(t *testing.T, pool *pgxpool.Pool) (towow, river int) {
	t.Helper()
	m, err := schema.New(pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	st, err := m.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Applied {
			continue
		}
		if s.Component == "towow" {
			towow++
		} else {
			river++
		}
	}
	return towow, river
}

// TestConcurrentUp starts the migration from several "processes" (separate
// pools) at once on an empty database: all succeed, each migration is
// applied once.
func TestConcurrentUp(t *testing.T) {
	pool := emptyDB(t)
	if tw, rv := pending(t, pool); tw == 0 || rv == 0 {
		t.Fatalf("empty database reports %d towow and %d river migrations pending", tw, rv)
	}
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := pgxpool.NewWithConfig(context.Background(), pool.Config().Copy())
			if err != nil {
				errs[i] = err
				return
			}
			defer p.Close()
			m, err := schema.New(p, nil)
			if err != nil {
				errs[i] = err
				return
			}
			defer m.Close()
			errs[i] = m.Up(context.Background())
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
	}
	if tw, rv := pending(t, pool); tw != 0 || rv != 0 {
		t.Fatalf("after up: %d towow and %d river migrations pending", tw, rv)
	}
	var applied int
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM goose_db_version WHERE version_id > 0").Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if applied != migrations.Count() {
		t.Fatalf("goose recorded %d applications, want %d (each migration once)", applied, migrations.Count())
	}
}

// TestDownUp rolls the whole ToWow schema back, one migration at a time,
// and forward again.
func TestDownUp(t *testing.T) {
	pool := emptyDB(t)
	ctx := context.Background()
	m := migratedUp(t, pool)
	for range migrations.Count() {
		if err := m.Down(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT to_regclass('events') IS NOT NULL").Scan(&exists); err != nil || exists {
		t.Fatalf("events table after down: %v %v", exists, err)
	}
	if tw, rv := pending(t, pool); tw != migrations.Count() || rv != 0 {
		t.Fatalf("after down: %d towow, %d river pending; want %d, 0", tw, rv, migrations.Count())
	}
	if err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT to_regclass('events') IS NOT NULL").Scan(&exists); err != nil || !exists {
		t.Fatalf("events table after up: %v %v", exists, err)
	}
}

// TestRebaseAfterRestore: a log restored into another cluster holds
// positions above what this cluster's transaction ids give; migrating
// moves the base up, so new events come after the restored ones (and the
// restored ones are settled), and a second run changes nothing.
func TestRebaseAfterRestore(t *testing.T) {
	pool := emptyDB(t)
	ctx := context.Background()
	m := migratedUp(t, pool)
	// As COPY restores them: stored positions, far above this cluster's.
	const restored = int64(1) << 50
	if _, err := pool.Exec(ctx, `INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, payload)
		VALUES ($1, gen_random_uuid(), 'old', 1, 'towow.test.restored', '{}')`, restored); err != nil {
		t.Fatal(err)
	}
	s := eventstore.New(pool, eventstore.Options{})
	if h, err := s.HeadPosition(ctx); err != nil || h != 0 {
		t.Fatalf("before the rebase the restored event is not settled: head %d %v, want 0", h, err)
	}
	if err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if h, err := s.HeadPosition(ctx); err != nil || h != restored {
		t.Fatalf("after the rebase head %d %v, want %d", h, err, restored)
	}
	res, err := s.Append(ctx, "new", eventstore.NoStream, eventstore.EventData{Type: "towow.test.after", Payload: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if res.FirstPosition <= restored {
		t.Fatalf("new event at %d, not after the restored one at %d", res.FirstPosition, restored)
	}
	var again bool
	if err := pool.QueryRow(ctx, "SELECT towow_rebase_positions()").Scan(&again); err != nil || again {
		t.Fatalf("second rebase: %v %v, want false", again, err)
	}
}
