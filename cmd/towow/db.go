package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/towow/towow/internal/pgcluster"
)

// cmdDB manages the embedded cluster: start (and leave running), stop,
// status, url. start starts the cluster detached: it keeps running after
// this process exits and after the last towow serve using it stops, until
// towow db stop, which stops it whoever still uses it. url prints the
// running cluster's URL and changes nothing about who stops it (a server
// that started it still stops it when it exits); when none runs, it
// starts one detached, as start does.
func cmdDB(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: towow db start|stop|status|url [--data-dir DIR]", errUsage)
	}
	fs := flag.NewFlagSet("db", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("data-dir", cfg.embeddedDir(), "cluster directory")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	switch args[0] {
	case "start", "url":
		// Detached: the cluster stays running for other processes once
		// this one exits (which releases its use of the cluster), even
		// when no process uses it any more; `towow db stop` stops it.
		start := args[0] == "start"
		c, err := pgcluster.Start(ctx, pgcluster.Config{DataDir: *dir, Logger: cfg.logger(stderr), Detached: start, DetachIfStarted: !start})
		if err != nil {
			return err
		}
		if !start && c.Owned() {
			fmt.Fprintf(stderr, "towow: started the embedded cluster in %s; it keeps running until towow db stop\n", *dir)
		}
		fmt.Fprintln(stdout, c.URL("towow"))
		return nil
	case "stop":
		return pgcluster.Stop(ctx, *dir)
	case "status":
		running, port, err := pgcluster.Status(*dir)
		if err != nil {
			return err
		}
		if running {
			fmt.Fprintf(stdout, "running on 127.0.0.1:%d (%s)\n", port, *dir)
		} else {
			fmt.Fprintf(stdout, "stopped (%s)\n", *dir)
		}
		return nil
	}
	return fmt.Errorf("%w: unknown db command %q", errUsage, args[0])
}
