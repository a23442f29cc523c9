package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/bench"
)

// maxScaleEvents is the largest log `towow bench scale` builds.
const maxScaleEvents = 10_000_000

// cmdBenchScale grows a log to each of -sizes events by copying real
// negotiation trees, and at each size times the per-tree queries, the read
// models' catch-up and rebuild, and the disk a tree takes.
func cmdBenchScale(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench scale", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("sizes", "100000,1000000", "log sizes to measure at, in events, ascending (at most 10000000)")
	templates := fs.Int("templates", 12, "negotiations the engine runs first; the log is copies of their trees")
	forks := fs.Int("forks", 2, "of those, how many are forked too (forks are copied with them)")
	repeat := fs.Int("repeat", 20, "times each query is timed at each size, each time on another tree")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	var at []int64
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 1 || n > maxScaleEvents || (len(at) > 0 && n <= at[len(at)-1]) {
			return fmt.Errorf("%w: -sizes must be ascending numbers of events from 1 to %d, got %q", errUsage, maxScaleEvents, *sizes)
		}
		at = append(at, n)
	}
	if *templates < 1 || *templates > 100 || *forks < 0 || *forks > *templates || *repeat < 1 {
		return fmt.Errorf("%w: -templates must be 1..100, -forks 0..templates and -repeat at least 1", errUsage)
	}
	if cfg.AdminToken == "" { // the queries read every tree as the operator
		t, err := randomAdminToken()
		if err != nil {
			return err
		}
		cfg.AdminToken = t
	}
	setup := func(ac *app.Config) { ac.Hub = true }
	return withBenchAppConfig(ctx, cfg, stderr, "bench scale builds its log with the engine", setup, func(a *app.App, pool *pgxpool.Pool, name string) error {
		bench.ScaleReadModels(a, pool)
		base, stop, err := serveLocal(ctx, a)
		if err != nil {
			return err
		}
		defer stop()
		fmt.Fprintf(stdout, "towow bench scale: a log of %s events copied from %d negotiations (%d forked), scratch database %s\n",
			*sizes, *templates, *forks, name)
		points, err := bench.Scale(ctx, a, pool, bench.ScaleOptions{Sizes: at, Templates: *templates, Forks: *forks, Repeat: *repeat,
			Base: base, Token: cfg.AdminToken}, stdout)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		return bench.WriteScale(stdout, points)
	})
}
