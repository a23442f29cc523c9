package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/projections"
)

// cmdProjections manages the read models: `rebuild [--name X]` folds them
// again from the first event while servers keep serving (readers see the
// old rows until the rebuild commits).
func cmdProjections(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "rebuild" {
		return fmt.Errorf("%w: towow projections rebuild [--name %s]", errUsage, strings.Join(projections.Names(), "|"))
	}
	fs := flag.NewFlagSet("projections rebuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "rebuild only this read model ("+strings.Join(projections.Names(), ", ")+"); default: all")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	models := projections.All()
	if *name != "" {
		m, ok := projections.ByName(*name)
		if !ok {
			return fmt.Errorf("%w: --name %q: want one of %s", errUsage, *name, strings.Join(projections.Names(), ", "))
		}
		models = []projections.ReadModel{m}
	}
	pool, closeDB, err := openMigrated(ctx, cfg, cfg.logger(stderr))
	if err != nil {
		return err
	}
	defer closeDB()
	_, err = rebuildModels(ctx, pool, models, stdout)
	return err
}

// rebuildModels rebuilds each model, printing its fingerprint before and
// after, and returns the time all of them took.
func rebuildModels(ctx context.Context, pool *pgxpool.Pool, models []projections.ReadModel, stdout io.Writer) (time.Duration, error) {
	runner := projections.NewRunner(pool, eventstore.New(pool, eventstore.Options{}), nil, nil)
	var took time.Duration
	for _, m := range models {
		before, err := m.Checksum(ctx, pool)
		if err != nil {
			return 0, fmt.Errorf("fingerprint %s: %w", m.Name(), err)
		}
		res, err := runner.Rebuild(ctx, m)
		if err != nil {
			return 0, err
		}
		after, err := m.Checksum(ctx, pool)
		if err != nil {
			return 0, fmt.Errorf("fingerprint %s: %w", m.Name(), err)
		}
		same := "identical to the rows before"
		if before != after {
			same = fmt.Sprintf("differs from the rows before (%d rows, md5 %s)", before.Rows, before.MD5)
		}
		fmt.Fprintf(stdout, "%-8s up to cursor %d in %s (%.0f events/s): %d rows, md5 %s, %s\n", m.Name(),
			res.Position, res.Elapsed.Round(time.Millisecond), float64(res.Events)/res.Elapsed.Seconds(), after.Rows, after.MD5, same)
		took += res.Elapsed
	}
	return took, nil
}
