package main

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/internal/schema"
)

// embeddedDir is where the embedded cluster lives.
func (c config) embeddedDir() string { return app.EmbeddedDir(c.DataDir) }

// openDB connects to DATABASE_URL or, when it is unset, to the embedded
// cluster (app.OpenDB), for the commands that need the database but no App
// (migrate, replay, projections, the benchmarks' scratch databases).
func openDB(ctx context.Context, cfg config, logger *slog.Logger) (*pgxpool.Pool, func(), error) {
	return app.OpenDB(ctx, cfg.DatabaseURL, cfg.DataDir, logger)
}

// openMigrated opens the database and applies pending migrations.
func openMigrated(ctx context.Context, cfg config, logger *slog.Logger) (*pgxpool.Pool, func(), error) {
	pool, closeDB, err := openDB(ctx, cfg, logger)
	if err != nil {
		return nil, nil, err
	}
	if err := migrateUp(ctx, pool, logger); err != nil {
		closeDB()
		return nil, nil, err
	}
	return pool, closeDB, nil
}

// migrateUp applies the schema (idempotent, safe with concurrent starts).
func migrateUp(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	m, err := schema.New(pool, logger)
	if err != nil {
		return err
	}
	defer m.Close()
	return m.Up(ctx)
}
