package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/towow/towow/internal/schema"
)

func cmdMigrate(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 || (args[0] != "up" && args[0] != "down" && args[0] != "status") {
		return fmt.Errorf("%w: towow migrate up|down|status", errUsage)
	}
	logger := cfg.logger(stderr)
	pool, closeDB, err := openDB(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer closeDB()
	m, err := schema.New(pool, logger)
	if err != nil {
		return err
	}
	defer m.Close()
	switch args[0] {
	case "up":
		return m.Up(ctx)
	case "down":
		return m.Down(ctx)
	}
	st, err := m.Status(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "COMPONENT\tVERSION\tSTATE\tNAME")
	for _, s := range st {
		state := "pending"
		if s.Applied {
			state = "applied"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", s.Component, s.Version, state, s.Name)
	}
	return tw.Flush()
}
