package main

import (
	"context"
	"fmt"
	"io"
)

// cmdWorker runs the negotiation workers without the HTTP API: several
// `towow worker` and `towow serve` processes may share one database; River
// hands each job to exactly one of them.
func cmdWorker(ctx context.Context, cfg config, args []string, _, stderr io.Writer) error {
	if len(args) != 0 {
		return fmt.Errorf("%w: towow worker takes no arguments (configure it with the environment, see towow --help)", errUsage)
	}
	logger := cfg.logger(stderr)
	_, _, closeEngine, err := openEngine(ctx, cfg, nil, logger)
	if err != nil {
		return err
	}
	defer closeEngine()
	logger.Info("towow worker running", "workers", cfg.Workers, "llm", cfg.LLM)
	<-ctx.Done()
	logger.Info("shutting down")
	return ctx.Err()
}
