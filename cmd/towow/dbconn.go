package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/internal/database"
	"github.com/towow/towow/internal/pgcluster"
)

// embeddedDir is where the embedded cluster lives.
func (c config) embeddedDir() string { return filepath.Join(c.DataDir, "pg") }

// openDB connects to DATABASE_URL or, when it is unset, to the embedded
// cluster (started if needed). The returned close function closes the pool
// and ends this process's use of the cluster, which stops it if no other
// process uses it and it was not started detached (towow db start).
func openDB(ctx context.Context, cfg config, logger *slog.Logger) (*pgxpool.Pool, func(), error) {
	if cfg.DatabaseURL != "" {
		pool, err := database.Open(ctx, cfg.DatabaseURL, database.Options{})
		if err != nil {
			return nil, nil, err
		}
		return pool, pool.Close, nil
	}
	cluster, err := pgcluster.Start(ctx, pgcluster.Config{DataDir: cfg.embeddedDir(), Logger: logger})
	if err != nil {
		return nil, nil, fmt.Errorf("embedded database: %w", err)
	}
	stop := func() {
		// Stop even when ctx is cancelled (SIGINT/SIGTERM is how we got here).
		if err := cluster.Stop(context.WithoutCancel(ctx)); err != nil {
			logger.Error("stop embedded database", "err", err)
		}
	}
	logger.Info("embedded database ready", "dir", cfg.embeddedDir(), "port", cluster.Port(), "owned", cluster.Owned())
	pool, err := database.Open(ctx, cluster.URL("towow"), database.Options{})
	if err != nil {
		stop()
		return nil, nil, err
	}
	return pool, func() { pool.Close(); stop() }, nil
}
