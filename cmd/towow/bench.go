package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/internal/bench"
	"github.com/towow/towow/internal/schema"
)

func cmdBench(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "append" {
		return fmt.Errorf("%w: towow bench append [--writers 1,4,16] [--duration 2s] [--batch 100]", errUsage)
	}
	fs := flag.NewFlagSet("bench append", flag.ContinueOnError)
	fs.SetOutput(stderr)
	writers := fs.String("writers", "1,4,16", "comma-separated concurrent writer counts")
	duration := fs.Duration("duration", 2*time.Second, "length of each scenario run")
	batch := fs.Int("batch", 100, "events per batch append")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	opts := bench.AppendOptions{Duration: *duration, BatchSize: *batch}
	for _, w := range strings.Split(*writers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 1 || n > 256 {
			return fmt.Errorf("%w: --writers %q: want numbers between 1 and 256", errUsage, *writers)
		}
		opts.Writers = append(opts.Writers, n)
	}
	if *batch < 1 || *batch > 10000 || *duration <= 0 {
		return fmt.Errorf("%w: --batch must be 1..10000 and --duration positive", errUsage)
	}

	logger := cfg.logger(stderr)
	pool, closeDB, err := openDB(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer closeDB()
	// Benchmark in a scratch database so the real log stays clean. Database
	// DDL takes an identifier, which cannot be a bind parameter, so this SQL
	// is not in queries/ (sqlc cannot express it).
	name := fmt.Sprintf("towow_bench_%d", time.Now().UnixNano())
	if _, err := pool.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return fmt.Errorf("create scratch database %s (the role needs CREATEDB): %w", name, err)
	}
	defer func() {
		if _, err := pool.Exec(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			logger.Error("drop scratch database", "name", name, "err", err)
		}
	}()
	pcfg := pool.Config().Copy()
	pcfg.ConnConfig.Database = name
	bpool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return fmt.Errorf("open scratch database: %w", err)
	}
	defer bpool.Close()
	m, err := schema.New(bpool, nil)
	if err != nil {
		return err
	}
	err = m.Up(ctx)
	m.Close()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "towow bench append: %s per run, writers %v, batches of %d, scratch database %s\n", *duration, opts.Writers, *batch, name)
	results, err := bench.Append(ctx, bpool, opts, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	return bench.Write(stdout, results, *batch)
}
