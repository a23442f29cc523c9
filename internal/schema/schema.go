// Package schema applies ToWow's database schema: the goose migrations in
// package migrations, then River's own migrations. Both steps are safe when
// several processes start at once: goose runs under its Postgres session
// locker, and River's migrator (which takes no lock of its own) runs while
// this process holds a session advisory lock on a dedicated connection.
package schema

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/migrations"
)

// riverLockID guards River's migrator; it differs from goose's lock id
// (4097083626) and the event store's append lock.
const riverLockID int64 = 7784431300528011807

// Migrator applies and inspects the schema on one pool.
type Migrator struct {
	pool   *pgxpool.Pool
	db     *sql.DB
	goose  *goose.Provider
	logger *slog.Logger
}

// New prepares a Migrator. Close releases its database/sql handle.
func New(pool *pgxpool.Pool, logger *slog.Logger) (*Migrator, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	// Retry the lock every second (goose's default is 5 s) for up to 5 minutes,
	// so instances that lose the race start soon after the winner finishes.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
	if err != nil {
		return nil, fmt.Errorf("goose locker: %w", err)
	}
	db := stdlib.OpenDBFromPool(pool)
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("goose provider: %w", err)
	}
	return &Migrator{pool: pool, db: db, goose: p, logger: logger}, nil
}

// Close releases the database/sql handle (the pool stays open).
func (m *Migrator) Close() error { return m.db.Close() }

// Up applies every pending ToWow migration and then River's.
func (m *Migrator) Up(ctx context.Context) error {
	res, err := m.goose.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate towow schema: %w", err)
	}
	for _, r := range res {
		m.logger.Info("migration applied", "version", r.Source.Version, "path", r.Source.Path, "duration", r.Duration)
	}
	// A log restored into another cluster holds positions above the ones
	// its transaction ids would give: new events must still come after.
	rebased, err := sqlcdb.New(m.pool).RebasePositions(ctx)
	if err != nil {
		return fmt.Errorf("check the event positions: %w", err)
	}
	if rebased {
		m.logger.Warn("event positions rebased: the log holds positions above what this cluster's transaction ids give (restored from another cluster?); new events come after them")
	}
	return m.riverUp(ctx)
}

// Down rolls back the most recent ToWow migration. River's tables are left
// alone: they belong to the job queue, not to the ToWow schema.
func (m *Migrator) Down(ctx context.Context) error {
	r, err := m.goose.Down(ctx)
	if err != nil {
		return fmt.Errorf("roll back towow schema: %w", err)
	}
	if r != nil && r.Source != nil {
		m.logger.Info("migration rolled back", "version", r.Source.Version, "path", r.Source.Path)
	}
	return nil
}

// Status is one migration's state.
type Status struct {
	Component string // "towow" or "river"
	Version   int64
	Name      string
	Applied   bool
}

// Status lists every known migration and whether it is applied.
func (m *Migrator) Status(ctx context.Context) ([]Status, error) {
	gs, err := m.goose.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("towow migration status: %w", err)
	}
	var out []Status
	for _, s := range gs {
		out = append(out, Status{Component: "towow", Version: s.Source.Version, Name: s.Source.Path,
			Applied: s.State == goose.StateApplied})
	}
	rm, err := rivermigrate.New(riverpgxv5.New(m.pool), nil)
	if err != nil {
		return nil, fmt.Errorf("river migrator: %w", err)
	}
	applied := map[int]bool{}
	cur, err := rm.ExistingVersions(ctx)
	if err != nil {
		return nil, fmt.Errorf("river migration status: %w", err)
	}
	for _, v := range cur {
		applied[v.Version] = true
	}
	for _, v := range rm.AllVersions() {
		out = append(out, Status{Component: "river", Version: int64(v.Version), Name: v.Name, Applied: applied[v.Version]})
	}
	return out, nil
}

// Pending reports whether any ToWow or River migration is not applied.
func (m *Migrator) Pending(ctx context.Context) (bool, error) {
	st, err := m.Status(ctx)
	if err != nil {
		return false, err
	}
	for _, s := range st {
		if !s.Applied {
			return true, nil
		}
	}
	return false, nil
}

func (m *Migrator) riverUp(ctx context.Context) (err error) {
	conn, err := m.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("river migration lock: %w", err)
	}
	defer conn.Release()
	q := sqlcdb.New(conn)
	if err := q.AdvisoryLock(ctx, riverLockID); err != nil {
		return fmt.Errorf("river migration lock: %w", err)
	}
	defer func() {
		// Unlock on a fresh context: the caller's may be cancelled already.
		if _, uerr := q.AdvisoryUnlock(context.WithoutCancel(ctx), riverLockID); uerr != nil && err == nil {
			err = fmt.Errorf("river migration unlock: %w", uerr)
		}
	}()
	rm, err := rivermigrate.New(riverpgxv5.New(m.pool), nil)
	if err != nil {
		return fmt.Errorf("river migrator: %w", err)
	}
	res, err := rm.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return fmt.Errorf("migrate river schema: %w", err)
	}
	for _, v := range res.Versions {
		m.logger.Info("river migration applied", "version", v.Version, "name", v.Name, "duration", v.Duration)
	}
	return nil
}
