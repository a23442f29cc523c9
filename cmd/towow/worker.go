package main

import (
	"context"
	"fmt"
	"io"

	"github.com/towow/towow/app"
)

// cmdWorker runs the negotiation workers without the HTTP API: several
// `towow worker` and `towow serve` processes may share one database; River
// hands each job to exactly one of them. With TOWOW_METRICS_ADDR it serves
// GET /metrics (its own LLM calls, breaker and outcomes, plus River's jobs),
// /healthz and /readyz there.
func cmdWorker(ctx context.Context, cfg config, args []string, _, stderr io.Writer) error {
	if len(args) != 0 {
		return fmt.Errorf("%w: towow worker takes no arguments (configure it with the environment, see towow --help)", errUsage)
	}
	ac := cfg.app(stderr, false)
	ac.MetricsAddr, ac.Metrics = cfg.MetricsAddr, true
	key, err := webhookKey(cfg)
	if err != nil {
		return err
	}
	ac.Write.WebhookKey = key
	a, err := app.New(ctx, ac)
	if err != nil {
		return err
	}
	defer a.Close()
	ac.Logger.Info("towow worker running", "workers", cfg.Workers, "llm", cfg.LLM)
	return a.Run(ctx)
}
