package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/agents"
	"github.com/towow/towow/data"
	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// provider builds the LLM provider TOWOW_LLM names.
func (c config) provider() llm.Provider {
	switch c.LLM {
	case "anthropic":
		return llm.NewAnthropic(llm.AnthropicConfig{APIKey: c.AnthropicKey, BaseURL: c.AnthropicURL, Model: c.LLMModel})
	case "openai":
		return llm.NewOpenAI(llm.OpenAIConfig{APIKey: c.OpenAIKey, BaseURL: c.OpenAIURL, Model: c.LLMModel})
	}
	return builtin.NewWithLatency(c.builtinLatency)
}

// newEngine builds the negotiation engine on pool (working jobs when
// workers is true) and loads the agent profiles. m, when not nil, counts
// its LLM calls and finished negotiations.
func newEngine(ctx context.Context, cfg config, pool *pgxpool.Pool, workers bool, m *metrics.Metrics, logger *slog.Logger) (*agents.Engine, error) {
	store := eventstore.New(pool, eventstore.Options{})
	lc := llm.Config{Provider: cfg.provider(), Timeout: cfg.LLMTimeout,
		FailureThreshold: uint32(cfg.FailureThreshold), RecoveryTimeout: cfg.RecoveryTimeout, Logger: logger}
	ac := agents.Config{Rules: cfg.Rules, MaxCandidates: cfg.MaxCandidates,
		Workers: cfg.Workers, JobTimeout: cfg.JobTimeout, RescueAfter: cfg.RescueAfter, Logger: logger}
	if m != nil {
		lc.OnCall, ac.Observe = m.LLMCall, m.Observe
	}
	e, err := agents.New(pool, store, llm.NewClient(lc), workers, ac)
	if err != nil {
		return nil, err
	}
	if err := loadProfiles(ctx, cfg, e, logger); err != nil {
		return nil, err
	}
	return e, nil
}

// startEngine builds the engine on pool and starts its workers. stop
// waits, for at most 15 s, for running steps to finish (the rest are
// retried later, safely).
func startEngine(ctx context.Context, cfg config, pool *pgxpool.Pool, m *metrics.Metrics, logger *slog.Logger) (*agents.Engine, func(), error) {
	e, err := newEngine(ctx, cfg, pool, true, m, logger)
	if err != nil {
		return nil, nil, err
	}
	if err := e.Start(ctx); err != nil {
		return nil, nil, err
	}
	stop := func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		if err := e.Stop(sctx); err != nil {
			logger.Error("stop negotiation workers", "err", err)
		}
	}
	return e, stop, nil
}

// openEngine opens the database (embedded or DATABASE_URL), migrates it and
// starts the engine; close stops the engine and releases the database.
func openEngine(ctx context.Context, cfg config, m *metrics.Metrics, logger *slog.Logger) (*agents.Engine, *pgxpool.Pool, func(), error) {
	pool, closeDB, err := openMigrated(ctx, cfg, logger)
	if err != nil {
		return nil, nil, nil, err
	}
	e, stop, err := startEngine(ctx, cfg, pool, m, logger)
	if err != nil {
		closeDB()
		return nil, nil, nil, err
	}
	return e, pool, func() { stop(); closeDB() }, nil
}

// loadProfiles registers TOWOW_PROFILES (default: the embedded mock
// profiles). A broken entry is reported with its index and skipped.
func loadProfiles(ctx context.Context, cfg config, e *agents.Engine, logger *slog.Logger) error {
	raw, source := data.MockProfiles, "data/mock_profiles.json"
	switch cfg.Profiles {
	case "none":
		return nil
	case "":
	default:
		b, err := os.ReadFile(cfg.Profiles)
		if err != nil {
			return fmt.Errorf("TOWOW_PROFILES: %w", err)
		}
		raw, source = b, cfg.Profiles
	}
	profiles, errs := domain.ParseProfiles(raw)
	for _, err := range errs {
		logger.Warn("agent profile rejected", "source", source, "err", err)
	}
	res, err := e.RegisterProfiles(ctx, profiles, source, false)
	if err != nil {
		return fmt.Errorf("load agent profiles: %w", err)
	}
	logger.Info("agent profiles loaded", "source", source, "registered", res.Registered, "updated", res.Updated,
		"unchanged", res.Unchanged, "rejected", len(errs))
	return nil
}

// engineSources are the metrics read at scrape time from an engine's
// process: River's jobs in the database and the LLM breaker.
func engineSources(e *agents.Engine, pool *pgxpool.Pool) metrics.Sources {
	return metrics.Sources{Pool: pool, BreakerOpen: func() bool { return e.LLM().BreakerState() == "open" }}
}
