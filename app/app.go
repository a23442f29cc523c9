// Package app wires ToWow together: it opens the database (DATABASE_URL or
// the embedded cluster), migrates it, and builds the event store, the agent
// directory, the LLM client, the write side (the unit of work, the River
// runner and each process with its workers and commands, writeside.go), the
// live-stream notifier and hub, the read models and the HTTP API. Every
// command of the towow binary (serve, worker, demo, bench) runs one App.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"

	"github.com/towow/towow/api"
	"github.com/towow/towow/data"
	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/database"
	"github.com/towow/towow/internal/logthrottle"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/internal/pgcluster"
	"github.com/towow/towow/internal/schema"
	"github.com/towow/towow/internal/tracing"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/mcpserver"
	"github.com/towow/towow/personal"
	"github.com/towow/towow/projections"
)

// Config is what an App is built from (the towow binary reads it from the
// environment; see its --help).
type Config struct {
	// DatabaseURL is the PostgreSQL to use; empty: the embedded cluster in
	// DataDir/pg, started when needed and stopped by Close when no other
	// process uses it. Ignored when Pool is set.
	DatabaseURL string
	DataDir     string
	// LLMRequired: /readyz is not ready (503) while the LLM provider
	// refuses the key (TOWOW_LLM_REQUIRED).
	LLMRequired bool
	// Pool, when set, is the database to use as it is (migrated by New,
	// never closed by Close): the benchmarks' scratch databases.
	Pool *pgxpool.Pool

	// Addr is where Run serves the HTTP API (empty: no API listener).
	Addr string
	// MetricsAddr is where Run serves only GET /metrics, /healthz and
	// /readyz (a worker process; empty: none).
	MetricsAddr string
	// CORSOrigins and AdminToken configure the API (see api.Server).
	CORSOrigins []string
	AdminToken  string
	// People verifies people's tokens and sessions (see api.Server.People;
	// built by the command from the configuration: identity.NewLocal or
	// identity.NewOIDC); nil: no one signs in.
	People *identity.Authority
	// Limits are the API's per-user limits (see api.Limits).
	Limits api.Limits
	// BodyTimeout is how long a client has to send a request's body (see
	// api.Server.BodyTimeout).
	BodyTimeout time.Duration
	// TLSCertFile and TLSKeyFile, both set, make Run serve HTTPS (with
	// HTTP/2) from these PEM files, reloaded when they change.
	TLSCertFile, TLSKeyFile string
	// TrustedProxies are the peers whose X-Forwarded-For, -Proto and -Host
	// the API believes (see api.Server.TrustedProxies).
	TrustedProxies []netip.Prefix

	// LLM configures the LLM client (Provider required; Logger and
	// OnCall are filled in by New).
	LLM llm.Config
	// Write configures the write side (Logger, Observe and
	// TracerProvider are filled in by New).
	Write WriteConfig
	// Profiles are the agent profiles registered at start: "" the embedded
	// mock profiles, "none" none, otherwise a JSON file's path.
	Profiles string

	// ReadModels runs the read models' projectors and serves their
	// endpoints (serve).
	ReadModels bool
	// Hub feeds the live streams from one shared tail of the log (serve);
	// without it each SSE client reads the database on every commit.
	Hub bool
	// Metrics collects Prometheus metrics (served at /metrics).
	Metrics bool
	// Idle keeps the write side from working in this process: commands
	// enqueue their steps, nothing runs them (`towow fuzz`: only an
	// accepted command writes to the log).
	Idle bool
	// Tracing turns OpenTelemetry tracing on (tracing.FromEnv reads it
	// from OTEL_*): HTTP requests, River jobs, database calls and LLM
	// calls, one trace per negotiation tree. Off: nothing is traced and
	// nothing is added. Database spans need a pool New opens (a Config.Pool
	// is used as it is).
	Tracing tracing.Config
	// Logger logs (nil: discard).
	Logger *slog.Logger
}

// App is a running ToWow process: the database, the write side working
// its River jobs, the commands and, with Config.ReadModels, the read side.
// Its fields are for the commands and tests that drive it; they must not
// be replaced.
type App struct {
	Pool      *pgxpool.Pool
	Store     *eventstore.Store
	Directory *directory.Directory
	LLM       *llm.Client
	// Personal seals personal texts as events are written and reveals
	// them to the readers allowed to see them; erasing a data subject's
	// key erases its texts everywhere.
	Personal *personal.Keys
	// WriteSide is the unit of work, the River runner and the processes.
	WriteSide *WriteSide
	// Commands are the processes' commands (WriteSide.Commands).
	Commands *Commands
	// Notifier wakes live readers on every commit (one LISTEN connection).
	Notifier *eventstore.Notifier
	// Hub is nil without Config.Hub; Runner and Queries are the read
	// models (nil without Config.ReadModels).
	Hub     *eventstore.Hub
	Runner  *projections.Runner
	Queries *projections.Queries
	// Metrics is nil without Config.Metrics.
	Metrics *metrics.Metrics
	// Tracing is this App's own tracer provider (the no-op one when
	// tracing is off); Close flushes and shuts it down last.
	Tracing *tracing.Provider

	cfg Config
	log *slog.Logger
	// loops logs for the parts that report an outage over and over (the
	// listener, the hub, the projectors, the API's 5xx): each warning or
	// error message at most once per few seconds, with a count.
	loops    *slog.Logger
	migrator *schema.Migrator
	closers  []func()
	// cert is the HTTPS certificate (nil: plain HTTP).
	cert *certificate
	// riverUI is River UI's mount, built the first time API is called
	// (riverui.go).
	riverUI func() (api.Mount, error)
}

// New opens and migrates the database, registers the agent profiles and
// starts the write side's workers, the notifier and, as configured, the hub
// and the read models. Close releases everything, also when New fails
// half-way (New does that itself).
func New(ctx context.Context, cfg Config) (*App, error) {
	a := &App{cfg: cfg, log: cfg.Logger}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	a.loops = slog.New(logthrottle.New(a.log.Handler(), logthrottle.Interval))
	a.riverUI = sync.OnceValues(a.newRiverUI)
	if err := a.start(ctx); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// start builds and starts the parts in order; each adds its closer.
func (a *App) start(ctx context.Context) (err error) {
	cfg := a.cfg
	if a.Tracing, err = tracing.New(ctx, cfg.Tracing); err != nil {
		return err
	}
	// First in, so last out: the spans of everything else are flushed.
	a.closers = append(a.closers, func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := a.Tracing.Shutdown(sctx); err != nil {
			a.log.Error("flush traces", "err", err)
		}
	})
	if (cfg.TLSCertFile == "") != (cfg.TLSKeyFile == "") {
		return errors.New("TOWOW_TLS_CERT and TOWOW_TLS_KEY go together: set both for HTTPS, or neither")
	}
	if cfg.TLSCertFile != "" {
		if a.cert, err = loadCertificate(cfg.TLSCertFile, cfg.TLSKeyFile, a.log); err != nil {
			return err
		}
	}
	if err := a.openDB(ctx); err != nil {
		return err
	}
	if a.migrator, err = schema.New(a.Pool, a.log); err != nil {
		return err
	}
	a.closers = append(a.closers, func() { _ = a.migrator.Close() })
	if err := a.migrator.Up(ctx); err != nil {
		return err
	}
	if cfg.Metrics {
		a.Metrics = metrics.New()
	}
	if err := a.openKeys(ctx); err != nil {
		return err
	}
	a.Store = eventstore.New(a.Pool, eventstore.Options{Personal: a.Personal})
	a.Directory = directory.NewDirectory(a.Store)
	lc, ec := cfg.LLM, cfg.Write
	lc.Logger, ec.Logger = a.log, a.log
	ec.Personal = a.Personal
	if a.Metrics != nil {
		lc.OnCall, lc.OnBreakerOpen, ec.Observe = a.Metrics.LLMCall, a.Metrics.BreakerOpened, a.Metrics.Observe
	}
	if tp := a.tracerProvider(); tp != nil {
		lc.TracerProvider, ec.TracerProvider = tp, tp
	}
	a.LLM = llm.NewClient(lc)
	if ec.JobsPool, err = a.openJobsPool(ctx); err != nil {
		return err
	}
	if a.WriteSide, err = NewWriteSide(a.Pool, a.Store, a.Directory, a.LLM, !cfg.Idle, ec); err != nil {
		return err
	}
	a.Commands = a.WriteSide.Commands
	if err := a.loadProfiles(ctx); err != nil {
		return err
	}
	if !cfg.Idle {
		if err := a.WriteSide.Start(ctx); err != nil {
			return err
		}
		a.closers = append(a.closers, func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
			defer cancel()
			if err := a.WriteSide.Stop(sctx); err != nil {
				a.log.Error("stop the write side", "err", err)
			}
		})
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	a.closers = append(a.closers, stop)
	a.Notifier = eventstore.NewNotifier(a.Pool.Config().ConnConfig, a.loops)
	go func() { _ = a.Notifier.Run(bg) }()
	src := metrics.Sources{Pool: a.Pool, BreakerOpen: func() bool { return a.LLM.BreakerState() == "open" }}
	if cfg.Hub {
		tail, err := a.openTailPool(ctx)
		if err != nil {
			return err
		}
		a.Hub = eventstore.NewHub(a.Store, a.Notifier, eventstore.HubOptions{Logger: a.loops,
			Tail: eventstore.New(tail, eventstore.Options{Personal: a.Personal})})
		go func() { _ = a.Hub.Run(bg) }()
	}
	if cfg.ReadModels {
		a.Runner = projections.NewRunner(a.Pool, a.Store, a.Notifier, a.loops)
		for _, p := range projections.All() {
			go a.Runner.RunForever(bg, p)
		}
		a.Queries = projections.NewQueries(a.Runner, a.Pool)
		a.Queries.Reveal = a.Store.Reveal
		src.Lag = a.lag
	}
	if a.Metrics != nil {
		a.Metrics.Watch(src)
	}
	return nil
}

// Close stops the workers (running steps get 15 s to finish; the rest are
// retried later, safely), the background loops and the database (the
// embedded cluster stops when no other process uses it).
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// API is the HTTP API of this process: commands, the log, the live
// streams, the status, River UI at /riverui/ (behind the admin token) and,
// with Config.ReadModels, the read models' endpoints and the MCP endpoint
// at /mcp (a person's bearer token or the admin token; its tools act as
// their caller). Callers may adjust it before building
// its Handler. Do not call it concurrently with Close.
func (a *App) API() *api.Server {
	s := a.rest()
	if m, err := a.riverUI(); err != nil {
		a.log.Error("river ui not served", "err", err)
	} else {
		s.Mounts = append(s.Mounts, m)
	}
	if a.Queries != nil {
		// An OAuth protected resource: each request's tools act as its
		// caller (NewHTTPHandler has no token of its own).
		s.Mounts = append(s.Mounts, api.Mount{Pattern: "/mcp", Handler: mcpserver.NewHTTPHandler(a.MCP()), OAuth: true})
	}
	return s
}

// MCP configures an MCP server (package mcpserver) whose tools call this
// App's REST API in process, without a socket: the /mcp endpoint and
// `towow mcp`. The API handler they call is built at the first call. Its
// Token is the admin token: `towow mcp` over stdio acts as the operator
// of the database it opens; the /mcp endpoint ignores it and acts as each
// request's caller.
func (a *App) MCP() mcpserver.Config {
	return mcpserver.Config{
		BaseURL:    "http://towow.internal",
		HTTPClient: mcpserver.InProcess(func() http.Handler { return a.rest().Handler() }),
		Logger:     a.log,
		Token:      a.cfg.AdminToken,
	}
}

// rest is API without its mounts (River UI, MCP): what the MCP tools call.
func (a *App) rest() *api.Server {
	s := a.health()
	s.Commands, s.Events, s.Status, s.Notifier, s.Hub = a.Commands, a.Store, status{a}, a.Notifier, a.Hub
	s.CORSOrigins, s.AdminToken, s.People, s.Limits = a.cfg.CORSOrigins, a.cfg.AdminToken, a.cfg.People, a.cfg.Limits
	s.BodyTimeout, s.TrustedProxies, s.Personal = a.cfg.BodyTimeout, a.cfg.TrustedProxies, a.Personal
	if a.Queries != nil {
		s.ReadModels, s.Ready.Lag = a.Queries, a.lag
	}
	return s
}

// Handler is the API's HTTP handler as Run serves it: with tracing on,
// every request but /metrics, /healthz and /readyz is a server span named
// by its route ("POST /api/v1/demands"), continuing a W3C traceparent the
// client sent.
func (a *App) Handler() http.Handler {
	h := a.API().Handler()
	tp := a.tracerProvider()
	if tp == nil {
		return h
	}
	return otelhttp.NewHandler(h, "towow",
		otelhttp.WithTracerProvider(tp),
		otelhttp.WithMeterProvider(metricnoop.NewMeterProvider()),
		otelhttp.WithPropagators(tracing.Propagator()),
		otelhttp.WithFilter(func(r *http.Request) bool {
			switch r.URL.Path {
			case "/metrics", "/healthz", "/readyz":
				return false
			}
			return true
		}),
		// The method until the API's mux names the route (api.Server).
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }))
}

// tracerProvider is the provider the traced parts get: nil when tracing is
// off, so that they add nothing at all.
func (a *App) tracerProvider() trace.TracerProvider {
	if a.Tracing == nil || !a.Tracing.Enabled() {
		return nil
	}
	return a.Tracing.TracerProvider()
}

// dbTracer is the pool's query tracer: database spans, each a child of the
// span whose context runs the query (none outside a traced request or
// step, so River's and the projectors' polling make no spans).
func (a *App) dbTracer() pgx.QueryTracer {
	tp := a.tracerProvider()
	if tp == nil {
		return nil
	}
	return otelpgx.NewTracer(otelpgx.WithTracerProvider(tp), otelpgx.WithMeterProvider(metricnoop.NewMeterProvider()),
		otelpgx.WithTrimSQLInSpanName(),
		// otelpgx writes db.system (semantic conventions 1.27); newer readers look for db.system.name.
		otelpgx.WithTracerAttributes(attribute.String("db.system.name", "postgresql")))
}

// health is the API of a process without one: /healthz, /readyz and
// /metrics only.
func (a *App) health() *api.Server {
	s := &api.Server{DB: a.Pool, Ready: api.Readiness{Pending: a.migrator.Pending, LLM: a.LLM.Health, LLMRequired: a.cfg.LLMRequired},
		Logger: a.loops}
	if a.Metrics != nil {
		s.Metrics = a.Metrics
	}
	return s
}

// Run serves HTTP on Config.Addr (the API) or Config.MetricsAddr (metrics
// and health) until ctx ends, then shuts the listener down (live streams
// are ended). Without an address it waits for ctx. It returns ctx's error
// after a clean stop.
func (a *App) Run(ctx context.Context) error {
	addr, name, h := a.cfg.Addr, "TOWOW_ADDR", http.Handler(nil)
	switch {
	case addr != "":
		h = a.Handler()
	case a.cfg.MetricsAddr != "":
		addr, name, h = a.cfg.MetricsAddr, "TOWOW_METRICS_ADDR", a.health().Handler()
	default:
		<-ctx.Done()
		return ctx.Err()
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s=%s: %w", name, addr, err)
	}
	return a.serve(ctx, ln, h)
}

// serve serves h on ln until ctx ends (see Run).
func (a *App) serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	// Request contexts derive from base, which shutdown cancels: live SSE
	// streams end instead of holding Shutdown until its timeout.
	base, cancelBase := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBase()
	srv := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return base },
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
	}
	scheme := "http"
	if a.cert != nil {
		scheme, srv.TLSConfig = "https", tlsConfig(a.cert)
	}
	a.log.Info("towow listening", "url", scheme+"://"+ln.Addr().String(), "llm", a.LLM.ProviderName())
	errc := make(chan error, 1)
	go func() {
		if a.cert != nil {
			errc <- srv.ServeTLS(ln, "", "") // the certificate comes from TLSConfig.GetCertificate
			return
		}
		errc <- srv.Serve(ln)
	}()
	select {
	case err := <-errc:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	a.log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	cancelBase()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return ctx.Err()
}

// lag is how far each read model trails the log.
func (a *App) lag(ctx context.Context) (map[string]int64, error) {
	return a.Runner.Lag(ctx, projections.Names()...)
}

// openDB uses Config.Pool, or opens the database (see OpenDB).
func (a *App) openDB(ctx context.Context) error {
	if a.cfg.Pool != nil {
		a.Pool = a.cfg.Pool
		return nil
	}
	pool, closeDB, err := openDB(ctx, a.cfg.DatabaseURL, a.cfg.DataDir, a.log, database.Options{Tracer: a.dbTracer()})
	if err != nil {
		return err
	}
	a.Pool = pool
	a.closers = append(a.closers, closeDB)
	return nil
}

// openKeys opens the personal data keys on a small pool of their own: a
// key is made inside a commit's transaction, whose connection the main
// pool has already given out, and it must be recorded at once (a key the
// commit's rollback took away would seal texts nothing can open).
func (a *App) openKeys(ctx context.Context) error {
	pool, err := a.openSidePool(ctx, "the personal keys' pool", 4, 0, nil)
	if err != nil {
		return err
	}
	a.Personal = personal.New(pool, nil)
	return nil
}

// openSidePool opens a small pool beside the main one, on its settings
// (adjust, when set, changes them further), closed with the App.
func (a *App) openSidePool(ctx context.Context, what string, maxConns, minConns int32, adjust func(*pgxpool.Config)) (*pgxpool.Pool, error) {
	pc := a.Pool.Config().Copy()
	pc.MaxConns, pc.MinConns = maxConns, minConns
	if adjust != nil {
		adjust(pc)
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", what, err)
	}
	a.closers = append(a.closers, pool.Close)
	return pool, nil
}

// openJobsPool opens River's own pool (fetching, completing and rescuing
// jobs, electing a leader), whose sessions declare they append no events:
// River writes in short transactions all the time, and every write
// transaction of the database still in flight holds the log's readers back
// otherwise (live streams waited for River's fetches and completions).
// Steps append events and insert their follow-up jobs on the main pool.
func (a *App) openJobsPool(ctx context.Context) (*pgxpool.Pool, error) {
	return a.openSidePool(ctx, "the jobs' pool", jobsPoolConns, 0, func(pc *pgxpool.Config) {
		pc.MaxConns = min(pc.MaxConns, a.Pool.Config().MaxConns)
		database.DeclareNoAppends(pc)
	})
}

// jobsPoolConns bounds River's own pool: a fetcher per queue, the
// completer, the notifier's listening connection, the leader's
// maintenance and the liveness lock.
const jobsPoolConns = 16

// openTailPool opens the live streams' shared tail its own connection
// (and a spare): every follower waits for the tail's reads, which must not
// queue behind a burst of requests that takes the main pool's connections.
func (a *App) openTailPool(ctx context.Context) (*pgxpool.Pool, error) {
	return a.openSidePool(ctx, "the event tail's pool", 2, 1, nil)
}

// OpenDB connects to databaseURL or, when it is empty, to the embedded
// cluster of dataDir (started if needed; see OpenEmbedded). closeDB closes
// the pool and ends this process's use of the cluster.
func OpenDB(ctx context.Context, databaseURL, dataDir string, logger *slog.Logger) (pool *pgxpool.Pool, closeDB func(), err error) {
	return openDB(ctx, databaseURL, dataDir, logger, database.Options{})
}

// openDB is OpenDB with the pool's options.
func openDB(ctx context.Context, databaseURL, dataDir string, logger *slog.Logger, opts database.Options) (pool *pgxpool.Pool, closeDB func(), err error) {
	if databaseURL != "" {
		pool, err := database.Open(ctx, databaseURL, opts)
		if err != nil {
			return nil, nil, err
		}
		return pool, pool.Close, nil
	}
	return openEmbedded(ctx, dataDir, logger, opts)
}

// OpenEmbedded starts (or joins) the embedded cluster in dataDir/pg and
// connects to its towow database. stop closes the pool and ends this
// process's use of the cluster, which stops it if no other process uses it
// and it was not started detached (towow db start).
func OpenEmbedded(ctx context.Context, dataDir string, logger *slog.Logger) (pool *pgxpool.Pool, stop func(), err error) {
	return openEmbedded(ctx, dataDir, logger, database.Options{})
}

// openEmbedded is OpenEmbedded with the pool's options.
func openEmbedded(ctx context.Context, dataDir string, logger *slog.Logger, opts database.Options) (pool *pgxpool.Pool, stop func(), err error) {
	dir := EmbeddedDir(dataDir)
	cluster, err := pgcluster.Start(ctx, pgcluster.Config{DataDir: dir, Logger: logger})
	if err != nil {
		return nil, nil, fmt.Errorf("embedded database: %w", err)
	}
	stopCluster := func() {
		// Stop even when ctx is cancelled (SIGINT/SIGTERM is how we got here).
		if err := cluster.Stop(context.WithoutCancel(ctx)); err != nil {
			logger.Error("stop embedded database", "err", err)
		}
	}
	logger.Info("embedded database ready", "dir", dir, "port", cluster.Port(), "owned", cluster.Owned())
	pool, err = database.Open(ctx, cluster.URL("towow"), opts)
	if err != nil {
		stopCluster()
		return nil, nil, err
	}
	return pool, func() { pool.Close(); stopCluster() }, nil
}

// EmbeddedDir is where the embedded cluster of dataDir lives.
func EmbeddedDir(dataDir string) string { return filepath.Join(dataDir, "pg") }

// loadProfiles registers Config.Profiles (default: the embedded mock
// profiles). A broken entry is reported with its index and skipped.
func (a *App) loadProfiles(ctx context.Context) error {
	raw, source := data.MockProfiles, "data/mock_profiles.json"
	switch a.cfg.Profiles {
	case "none":
		return nil
	case "":
	default:
		b, err := os.ReadFile(a.cfg.Profiles)
		if err != nil {
			return fmt.Errorf("TOWOW_PROFILES: %w", err)
		}
		raw, source = b, a.cfg.Profiles
	}
	profiles, errs := negotiation.ParseProfiles(raw)
	for _, err := range errs {
		a.log.Warn("agent profile rejected", "source", source, "err", err)
	}
	res, err := a.Commands.RegisterProfiles(ctx, profiles, source, false)
	if err != nil {
		return fmt.Errorf("load agent profiles: %w", err)
	}
	a.log.Info("agent profiles loaded", "source", source, "registered", res.Registered, "updated", res.Updated,
		"unchanged", res.Unchanged, "rejected", len(errs))
	return nil
}

// status is the App as the API's status source.
type status struct{ a *App }

func (s status) LLMProvider() string      { return s.a.LLM.ProviderName() }
func (s status) LLMBreaker() string       { return s.a.LLM.BreakerState() }
func (s status) Rules() negotiation.Rules { return s.a.WriteSide.Rules() }
func (s status) Jobs(ctx context.Context) (map[string]int64, error) {
	return metrics.RiverJobs(ctx, s.a.Pool)
}
