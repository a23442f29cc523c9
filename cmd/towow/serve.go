package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/internal/schema"
	"github.com/towow/towow/projections"
)

func cmdServe(ctx context.Context, cfg config, args []string, _, stderr io.Writer) error {
	if len(args) != 0 {
		return fmt.Errorf("%w: towow serve takes no arguments (configure it with the environment, see towow --help)", errUsage)
	}
	logger := cfg.logger(stderr)
	started := time.Now()
	m := metrics.New()
	engine, pool, closeEngine, err := openEngine(ctx, cfg, m, logger)
	if err != nil {
		return err
	}
	defer closeEngine()
	// One LISTEN connection for the whole process; every SSE client is
	// woken through it.
	notifier := eventstore.NewNotifier(pool.Config().ConnConfig, logger)
	nctx, stopNotifier := context.WithCancel(context.WithoutCancel(ctx))
	defer stopNotifier()
	go func() { _ = notifier.Run(nctx) }()
	hub := eventstore.NewHub(engine.Store(), notifier, eventstore.HubOptions{Logger: logger})
	go func() { _ = hub.Run(nctx) }()
	runner := projections.NewRunner(pool, engine.Store(), notifier, logger)
	var names []string
	for _, p := range projections.All() {
		go runner.RunForever(nctx, p)
		names = append(names, p.Name())
	}
	migrator, err := schema.New(pool, logger)
	if err != nil {
		return err
	}
	defer migrator.Close()
	ready := api.Readiness{Pending: migrator.Pending,
		Lag: func(ctx context.Context) (map[string]int64, error) {
			return runner.Lag(ctx, names...)
		}}
	src := engineSources(engine, pool)
	src.Lag = ready.Lag
	m.Watch(src)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on TOWOW_ADDR=%s: %w", cfg.Addr, err)
	}
	// Request contexts derive from base, which shutdown cancels: live SSE
	// streams end instead of holding Shutdown until its timeout.
	base, cancelBase := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBase()
	adminToken := cfg.AdminToken
	if adminToken == "" {
		if adminToken, err = randomAdminToken(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "towow: TOWOW_ADMIN_TOKEN is unset; the admin token of this run is %s\n", adminToken)
	}
	srv := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return base },
		Handler:           (&api.Server{Pool: pool, Engine: engine, Notifier: notifier, Hub: hub, Ready: ready, Metrics: m, CORSOrigins: cfg.CORSOrigins, Projections: runner, AdminToken: adminToken}).Handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	logger.Info("towow listening", "url", "http://"+ln.Addr().String(), "llm", cfg.LLM, "startup", time.Since(started).Round(time.Millisecond))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	cancelBase()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// randomAdminToken draws the admin token of a run without TOWOW_ADMIN_TOKEN.
func randomAdminToken() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("admin token: %w", err)
	}
	return "towow_admin_" + base64.RawURLEncoding.EncodeToString(b[:]), nil
}
