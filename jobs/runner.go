package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"go.opentelemetry.io/otel/trace"

	"github.com/towow/towow/internal/logthrottle"
)

// Defaults of [Config], as River exports its own: the README's
// configuration table and `towow --help` are built from them.
const (
	// DefaultWorkers is how many steps one process runs at once; it should
	// exceed the widest fan-out, the candidates of one channel.
	DefaultWorkers = 50
	// DefaultFetchCooldown and DefaultFetchPollInterval tune River's
	// fetcher: a step's follow-up starts within milliseconds. The cooldown
	// also spaces River's insert notifications (a NOTIFY inside the
	// inserting transaction, which queues every notifying commit behind
	// the one before): at 5 ms rather than 1, `bench negotiate -c 8` runs
	// about 5% more negotiations a second.
	DefaultFetchCooldown     = 5 * time.Millisecond
	DefaultFetchPollInterval = 50 * time.Millisecond
	// DefaultJobTimeout bounds one step.
	DefaultJobTimeout = 2 * time.Minute
	// DefaultRescueAfter is how long a step may stay claimed before River
	// retries it elsewhere: the backstop for a step that hangs in a live
	// process (a dead process's steps are retried within seconds, see
	// liveness.go). A RescueAfter not above JobTimeout becomes JobTimeout +
	// JobTimeout/2.
	DefaultRescueAfter = DefaultJobTimeout + DefaultJobTimeout/2
)

// QueueTimeouts runs the timeout jobs, so that their waits never take a
// worker a step needs.
const QueueTimeouts = "timeouts"

// timeoutWorkers bounds the timeout jobs waiting out their deadline at once
// (their own queue, so they never hold a step's worker).
const timeoutWorkers = 200

// Config tunes the River client. A zero field takes its Default* value.
type Config struct {
	// Workers is how many jobs run at once in this process
	// ([DefaultWorkers]).
	Workers int
	// FetchCooldown and FetchPollInterval tune River's fetcher
	// ([DefaultFetchCooldown], [DefaultFetchPollInterval]).
	FetchCooldown, FetchPollInterval time.Duration
	// JobTimeout bounds one step ([DefaultJobTimeout]); RescueAfter is how
	// long a job may stay "running" before River retries it elsewhere
	// ([DefaultRescueAfter]; it must exceed JobTimeout).
	JobTimeout, RescueAfter time.Duration
	Logger                  *slog.Logger
	// TracerProvider, when set, traces the River jobs (otelriver) and
	// keeps each negotiation tree in one trace (see trace.go); nil:
	// tracing off, nothing is added.
	TracerProvider trace.TracerProvider
	// Pool is where River's own work runs: fetching, completing and
	// rescuing jobs, electing a leader, the liveness lock (nil: the
	// runner's pool). Jobs inserted with a step's transaction go with
	// that transaction. A pool whose sessions declare they append no
	// events (database.DeclareNoAppends) keeps River's write transactions
	// from holding the log's readers back.
	Pool *pgxpool.Pool
}

// Defaults returns c with every zero field set to its Default* value.
func (c Config) Defaults() Config {
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	if c.FetchCooldown <= 0 {
		c.FetchCooldown = DefaultFetchCooldown
	}
	if c.FetchPollInterval <= 0 {
		c.FetchPollInterval = DefaultFetchPollInterval
	}
	if c.JobTimeout <= 0 {
		c.JobTimeout = DefaultJobTimeout
	}
	if c.RescueAfter <= c.JobTimeout {
		c.RescueAfter = c.JobTimeout + max(time.Second, c.JobTimeout/2)
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Runner is this process's River client: the processes register their
// workers and periodic jobs on it, then Open builds the client; the unit
// of work inserts follow-up jobs through it. With work false the client
// only inserts (a process that leaves the work to `towow worker`
// processes). It knows no process.
type Runner struct {
	cfg      Config
	work     bool
	workers  *river.Workers
	periodic []*river.PeriodicJob
	client   *river.Client[pgx.Tx]
	log      *slog.Logger
	// throttledLog repeats a warning or error at most every few seconds.
	throttledLog *slog.Logger
	// live holds this process's liveness lock and sweeps for the steps of
	// dead processes (nil for an insert-only runner); stopLive ends it.
	live     *liveness
	stopLive context.CancelFunc
}

// New returns a runner that inserts jobs with the transactions of pool and
// runs River's own work on cfg.Pool (pool when nil), not yet open.
func New(pool *pgxpool.Pool, work bool, cfg Config) *Runner {
	cfg = cfg.Defaults()
	if cfg.Pool == nil {
		cfg.Pool = pool
	}
	return &Runner{cfg: cfg, work: work, workers: river.NewWorkers(), log: cfg.Logger,
		throttledLog: slog.New(logthrottle.New(cfg.Logger.Handler(), logthrottle.Interval))}
}

// Workers is the registry the processes add their workers to before Open.
func (r *Runner) Workers() *river.Workers { return r.workers }

// AddPeriodic adds periodic jobs (run on River's leader only) before Open.
func (r *Runner) AddPeriodic(jobs ...*river.PeriodicJob) { r.periodic = append(r.periodic, jobs...) }

// Open builds the River client. Every step runs inside the trace
// middleware (with tracing on), then middleware in order, then the step
// middleware that adds its log attributes.
func (r *Runner) Open(middleware ...rivertype.Middleware) error {
	cfg := r.cfg
	rc := &river.Config{
		// River reports a database outage from several loops, many times a
		// second: one line per message every few seconds, with a count.
		Logger:               r.throttledLog,
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: cfg.RescueAfter,
		FetchCooldown:        cfg.FetchCooldown,
		FetchPollInterval:    cfg.FetchPollInterval,
	}
	if cfg.TracerProvider != nil {
		rc.Middleware = riverMiddleware(cfg.TracerProvider)
	}
	if r.work {
		rc.Middleware = append(rc.Middleware, middleware...)
		rc.Middleware = append(rc.Middleware, river.WorkerMiddlewareFunc(r.step))
		r.live = &liveness{r: r, id: newClientID()}
		rc.ID = r.live.id
		rc.Queues = map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: cfg.Workers},
			QueueTimeouts:      {MaxWorkers: timeoutWorkers},
		}
		rc.Workers = r.workers
		rc.PeriodicJobs = r.periodic
	}
	rcl, err := river.NewClient(riverpgxv5.New(r.cfg.Pool), rc)
	if err != nil {
		return fmt.Errorf("river client: %w", err)
	}
	r.client = rcl
	return nil
}

// Start starts working jobs (a no-op for an insert-only runner): it takes
// this process's liveness lock, then starts River and the sweep that makes
// the steps of dead processes available again (liveness.go).
func (r *Runner) Start(ctx context.Context) error {
	if r.live != nil {
		if err := r.live.hold(ctx); err != nil {
			return err
		}
		lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		r.stopLive = cancel
		go r.live.run(lctx)
	}
	if err := r.client.Start(ctx); err != nil && !errors.Is(err, river.ErrNotFound) {
		r.endLiveness()
		return fmt.Errorf("start river: %w", err)
	}
	return nil
}

// endLiveness stops the sweep and releases the liveness lock.
func (r *Runner) endLiveness() {
	if r.stopLive != nil {
		r.stopLive()
	}
}

// Stop stops working: running steps finish (or are cancelled when ctx
// ends; they are retried later, safely).
func (r *Runner) Stop(ctx context.Context) error {
	defer r.endLiveness()
	if err := r.client.Stop(ctx); err != nil {
		return fmt.Errorf("stop river: %w", err)
	}
	return nil
}

// StopAndCancel stops working at once: running steps are cancelled (and
// retried later, safely), as when the process dies.
func (r *Runner) StopAndCancel(ctx context.Context) error {
	defer r.endLiveness()
	if err := r.client.StopAndCancel(ctx); err != nil {
		return fmt.Errorf("stop river: %w", err)
	}
	return nil
}

// River is the River client, for what only reads or manages its jobs
// (River UI); the steps never go around the unit of work.
func (r *Runner) River() *river.Client[pgx.Tx] { return r.client }

// InsertManyTx enqueues jobs in tx (the unit of work's follow-up jobs).
func (r *Runner) InsertManyTx(ctx context.Context, tx pgx.Tx, params []river.InsertManyParams) error {
	if r.client == nil {
		return errors.New("river client not open")
	}
	_, err := r.client.InsertManyTx(ctx, tx, params)
	return err
}
