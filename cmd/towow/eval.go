package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/data"
	"github.com/towow/towow/eval"
)

// cmdEval runs the scenario suite on a scratch database with the
// configured brain and prints the table.
func cmdEval(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("only", "", "comma-separated scenario ids (default: all)")
	set := fs.String("set", "all", "the half of the suite to run: dev (tuned on), holdout (never tuned on) or all")
	c := fs.Int("c", 4, "negotiations in flight at once")
	timeout := fs.Duration("timeout", 2*time.Minute, "longest one negotiation may take")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *c < 1 || *c > 64 || *timeout <= 0 {
		return fmt.Errorf("%w: -c must be 1..64 and -timeout positive", errUsage)
	}
	if *set != "all" && *set != eval.SetDev && *set != eval.SetHoldout {
		return fmt.Errorf("%w: -set must be dev, holdout or all, not %q", errUsage, *set)
	}
	scenarios, err := eval.ParseScenarios(data.EvalScenarios)
	if err != nil {
		return err
	}
	if *only != "" {
		ids := strings.Split(*only, ",")
		scenarios = slices.DeleteFunc(scenarios, func(s eval.Scenario) bool { return !slices.Contains(ids, s.ID) })
		if len(scenarios) != len(ids) {
			return fmt.Errorf("%w: -only %q names scenarios the suite does not have", errUsage, *only)
		}
	}
	if *set != "all" {
		scenarios = slices.DeleteFunc(scenarios, func(s eval.Scenario) bool { return eval.SetOf(s) != *set })
	}
	setup := func(ac *app.Config) {}
	return withBenchAppConfig(ctx, cfg, stderr, "eval runs the builtin brain (a real model is not deterministic)", setup,
		func(a *app.App, _ *pgxpool.Pool, name string) error {
			fmt.Fprintf(stdout, "towow eval: %d scenarios, %d at a time, LLM %s, scratch database %s\n\n", len(scenarios), *c, cfg.LLM, name)
			rows, err := eval.Run(ctx, a, scenarios, *c, *timeout)
			if err != nil {
				return err
			}
			return eval.Write(stdout, rows)
		})
}
