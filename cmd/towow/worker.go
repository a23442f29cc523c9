package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/towow/towow/internal/metrics"
)

// cmdWorker runs the negotiation workers without the HTTP API: several
// `towow worker` and `towow serve` processes may share one database; River
// hands each job to exactly one of them. With TOWOW_METRICS_ADDR it serves
// GET /metrics (its own LLM calls, breaker and outcomes, plus River's jobs)
// and GET /healthz there.
func cmdWorker(ctx context.Context, cfg config, args []string, _, stderr io.Writer) error {
	if len(args) != 0 {
		return fmt.Errorf("%w: towow worker takes no arguments (configure it with the environment, see towow --help)", errUsage)
	}
	logger := cfg.logger(stderr)
	m := metrics.New()
	engine, pool, closeEngine, err := openEngine(ctx, cfg, m, logger)
	if err != nil {
		return err
	}
	defer closeEngine()
	m.Watch(engineSources(engine, pool))
	if cfg.MetricsAddr != "" {
		ln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			return fmt.Errorf("listen on TOWOW_METRICS_ADDR=%s: %w", cfg.MetricsAddr, err)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", m.Handler())
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
			pctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
			defer cancel()
			if err := pool.Ping(pctx); err != nil {
				http.Error(w, "database unreachable", http.StatusServiceUnavailable)
				return
			}
			_, _ = io.WriteString(w, "ok\n")
		})
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				logger.Error("metrics server", "err", err)
			}
		}()
		defer func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}()
		logger.Info("towow worker metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	}
	logger.Info("towow worker running", "workers", cfg.Workers, "llm", cfg.LLM)
	<-ctx.Done()
	logger.Info("shutting down")
	return ctx.Err()
}
