package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"go.opentelemetry.io/otel/trace"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/logthrottle"
	"github.com/towow/towow/llm"
)

// Defaults of [Config], as River exports its own: the README's
// configuration table and `towow --help` are built from them.
const (
	// DefaultMaxCandidates bounds smart filtering (the design says 10-20).
	DefaultMaxCandidates = 12
	// DefaultShortlist is how many profiles prompt 2 reads at most
	// (TOWOW_SHORTLIST), however large the network.
	DefaultShortlist = 40
	// DefaultWorkers is how many steps one process runs at once; it should
	// exceed the widest fan-out, the candidates of one channel.
	DefaultWorkers = 50
	// DefaultFetchCooldown and DefaultFetchPollInterval tune River's
	// fetcher: a step's follow-up starts within milliseconds.
	DefaultFetchCooldown     = time.Millisecond
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

// Config tunes the engine. A zero field takes its Default* value.
type Config struct {
	// Rules are stamped on every new channel (defaults: domain.DefaultRules).
	Rules domain.Rules
	// MaxCandidates bounds smart filtering ([DefaultMaxCandidates]).
	MaxCandidates int
	// Shortlist bounds the profiles the filter's SQL stage hands to
	// prompt 2, across the demand's needs ([DefaultShortlist]).
	Shortlist int
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
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
	// Observe, when set, sees every event this process's steps committed,
	// after the commit (metrics; it must not block).
	Observe func(domain.Payload)
	// HTTPAllow are the hosts a workflow's http nodes may POST to (host,
	// host:port or *.domain; none: no http node validates).
	HTTPAllow []string
	// DecisionRateLimit is how many decisions one actor may make on a
	// workflow per minute ([domain.DefaultDecisionRateLimit]; negative: no
	// limit).
	DecisionRateLimit int
	// HTTPClient sends the http nodes' requests (default: a client that
	// follows no redirect).
	HTTPClient *http.Client
	// OfflineAfter is how long an online external agent may stay silent
	// before it is taken offline ([DefaultOfflineAfter]).
	OfflineAfter time.Duration
	// TracerProvider, when set, traces the River jobs (otelriver) and
	// keeps each negotiation tree in one trace (see trace.go); nil:
	// tracing off, nothing is added.
	TracerProvider trace.TracerProvider
}

func (c *Config) defaults() {
	// Each rule left at zero takes the design's value (MaxDepth 0 is a real
	// choice: no sub-negotiations; it is defaulted only with all the rules).
	def := domain.DefaultRules()
	if c.Rules == (domain.Rules{}) {
		c.Rules = def
	}
	c.Rules.MaxRounds = cmp.Or(c.Rules.MaxRounds, def.MaxRounds)
	c.Rules.OfferTimeoutSeconds = cmp.Or(c.Rules.OfferTimeoutSeconds, def.OfferTimeoutSeconds)
	c.Rules.FeedbackTimeoutSeconds = cmp.Or(c.Rules.FeedbackTimeoutSeconds, def.FeedbackTimeoutSeconds)
	c.Rules.StuckTimeoutSeconds = cmp.Or(c.Rules.StuckTimeoutSeconds, def.StuckTimeoutSeconds)
	if c.Shortlist <= 0 {
		c.Shortlist = DefaultShortlist
	}
	if c.MaxCandidates <= 0 {
		c.MaxCandidates = DefaultMaxCandidates
	}
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
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.DecisionRateLimit == 0 {
		c.DecisionRateLimit = domain.DefaultDecisionRateLimit
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{CheckRedirect: noRedirects}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.OfflineAfter <= 0 {
		c.OfflineAfter = DefaultOfflineAfter
	}
}

// Engine runs negotiations: the River workers of the Coordinator, the
// ChannelAdmin and the twins, and the one unit of work every write goes
// through (commit: lock the streams, reload, decide, insert the follow-up
// jobs, append). The command side (package commands) writes through the
// same unit of work with DecideDemand, DecideChannel, DecideAgent and
// DecideAgents.
type Engine struct {
	cfg   Config
	pool  *pgxpool.Pool
	store *eventstore.Store
	llm   *llm.Client
	river *river.Client[pgx.Tx]
	dir   *Directory
	cache *eventCache
	log   *slog.Logger
	// throttledLog repeats a warning or error at most every few seconds.
	throttledLog *slog.Logger
	// live holds this process's liveness lock and sweeps for the steps of
	// dead processes (nil for an insert-only engine); stopLive ends it.
	live     *liveness
	stopLive context.CancelFunc
	// httpClient sends the workflows' http nodes.
	httpClient *http.Client
	// forks caches, by tree id, the root demand each tree was forked from
	// ("" for a tree that is no fork).
	forks sync.Map
	// contacts is, by external agent id, when this process last wrote
	// its contact time (presence.go).
	contacts sync.Map
	// tracing says Config.TracerProvider is set: events and jobs carry
	// their tree's traceparent.
	tracing bool
}

// New builds an engine over store (on pool) that filters candidates from
// dir and asks client. With workers false the River client only inserts
// jobs (a process that leaves the work to `towow worker` processes).
func New(pool *pgxpool.Pool, store *eventstore.Store, dir *Directory, client *llm.Client, workers bool, cfg Config) (*Engine, error) {
	cfg.defaults()
	e := &Engine{cfg: cfg, pool: pool, store: store, dir: dir, llm: client, log: cfg.Logger, cache: newEventCache(eventCacheStreams),
		throttledLog: slog.New(logthrottle.New(cfg.Logger.Handler(), logthrottle.Interval)), httpClient: cfg.HTTPClient,
		tracing: cfg.TracerProvider != nil}
	rc := &river.Config{
		// River reports a database outage from several loops, many times a
		// second: one line per message every few seconds, with a count.
		Logger:               e.throttledLog,
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: cfg.RescueAfter,
		FetchCooldown:        cfg.FetchCooldown,
		FetchPollInterval:    cfg.FetchPollInterval,
	}
	if e.tracing {
		rc.Middleware = riverMiddleware(cfg.TracerProvider)
	}
	if workers {
		e.live = &liveness{e: e, id: newClientID()}
		rc.ID = e.live.id
		rc.Queues = map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: cfg.Workers},
			queueTimeouts:      {MaxWorkers: timeoutWorkers},
		}
		rc.Workers = e.workers()
		rc.PeriodicJobs = []*river.PeriodicJob{e.presenceJob()}
	}
	rcl, err := river.NewClient(riverpgxv5.New(pool), rc)
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	e.river = rcl
	return e, nil
}

// Start starts working jobs (a no-op for an insert-only engine): it takes
// this process's liveness lock, then starts River and the sweep that makes
// the steps of dead processes available again (liveness.go).
func (e *Engine) Start(ctx context.Context) error {
	if e.live != nil {
		if err := e.live.hold(ctx); err != nil {
			return err
		}
		lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		e.stopLive = cancel
		go e.live.run(lctx)
	}
	if err := e.river.Start(ctx); err != nil && !errors.Is(err, river.ErrNotFound) {
		e.endLiveness()
		return fmt.Errorf("start river: %w", err)
	}
	return nil
}

// endLiveness stops the sweep and releases the liveness lock.
func (e *Engine) endLiveness() {
	if e.stopLive != nil {
		e.stopLive()
	}
}

// Stop stops working: running steps finish (or are cancelled when ctx
// ends; they are retried later, safely).
func (e *Engine) Stop(ctx context.Context) error {
	defer e.endLiveness()
	if err := e.river.Stop(ctx); err != nil {
		return fmt.Errorf("stop river: %w", err)
	}
	return nil
}

// River is the engine's River client, for what only reads or manages
// its jobs (River UI); the engine's steps never go around it.
func (e *Engine) River() *river.Client[pgx.Tx] { return e.river }

// Rules returns the rules stamped on new channels.
func (e *Engine) Rules() domain.Rules { return e.cfg.Rules }

// StopAndCancel stops working at once: running steps are cancelled (and
// retried later, safely), as when the process dies.
func (e *Engine) StopAndCancel(ctx context.Context) error {
	defer e.endLiveness()
	if err := e.river.StopAndCancel(ctx); err != nil {
		return fmt.Errorf("stop river: %w", err)
	}
	return nil
}

// appendOp is one stream's share of a step's transaction.
type appendOp struct {
	stream   string
	expected eventstore.ExpectedVersion
	events   []domain.Payload
	meta     domain.Metadata
	// call is the LLM call whose answer produced the event of type callFor;
	// it is recorded in that event's metadata.
	call    *domain.LLMCall
	callFor domain.EventType
	// agentCalls are the twins' LLM calls, recorded on each agent's own
	// offer or feedback event.
	agentCalls map[string]*domain.LLMCall
	// raw are events appended as they are (a fork's copy of another
	// tree's history) instead of events.
	raw []eventstore.EventData
}

// plan is what one step writes, in one transaction.
type plan struct {
	appends []appendOp
	jobs    []job
}

func (p *plan) empty() bool { return p == nil || (len(p.appends) == 0 && len(p.jobs) == 0) }

// eventCacheStreams bounds the streams whose decoded events the engine
// keeps: those of running negotiations (four or so each) fit many times.
const eventCacheStreams = 1024

// timeoutWorkers bounds the timeout jobs waiting out their deadline at once
// (their own queue, so they never hold a step's worker).
const timeoutWorkers = 200

// maxConflictRetries bounds the reload-and-decide loop of a step.
const maxConflictRetries = 50

// commit writes a step in one transaction: it locks the streams the step
// decides on (in sorted order), lets build load them through the
// transaction and decide, then inserts the follow-up jobs and appends. The
// stream locks make the engine's own steps on one stream queue instead of
// racing (twelve twins answering one channel at once would otherwise
// conflict again and again); the expected-version check still guards
// against any other writer, and a conflict reruns build. build must read
// only through the store it is given (no pool connections inside the
// transaction). It returns the last global position written (0 if none).
func (e *Engine) commit(ctx context.Context, step string, lock []string, build func(ctx context.Context, st *eventstore.Store) (*plan, error)) (int64, error) {
	if err := e.dir.refreshIfStale(ctx); err != nil {
		return 0, err
	}
	lock = slices.Compact(slices.Sorted(slices.Values(lock)))
	for attempt := range maxConflictRetries {
		var last int64
		var done *plan
		var tLock, tBuild, tJobs, tAppend time.Time
		t0 := time.Now()
		err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
			for _, stream := range lock {
				if err := e.store.LockStream(ctx, tx, stream); err != nil {
					return err
				}
			}
			tLock = time.Now()
			p, err := build(ctx, e.store.In(tx))
			tBuild = time.Now()
			if err != nil || p.empty() {
				return err
			}
			defer func() { tAppend = time.Now() }()
			traces, jobTrace := map[string]string{}, ""
			for i, a := range p.appends {
				root := rootOf(a)
				if _, ok := traces[root]; !ok {
					if traces[root], err = e.treeTrace(ctx, e.store.In(tx), root); err != nil {
						return err
					}
				}
				if i == 0 {
					jobTrace = traces[root]
				}
			}
			if len(p.appends) == 0 {
				jobTrace, _ = ctx.Value(treeTraceKey{}).(string)
			}
			// Jobs first: the append takes the store-wide append lock, held
			// until commit, so it should be the last statement.
			if err := e.insertJobs(ctx, tx, p.jobs, jobTrace); err != nil {
				return err
			}
			tJobs = time.Now()
			for _, a := range p.appends {
				a.meta.TraceParent = traces[rootOf(a)]
				evs, err := encode(a)
				if err != nil {
					return err
				}
				for _, r := range a.raw {
					// A fork's copy of another tree's history: its own trace.
					r.Metadata.TraceParent = a.meta.TraceParent
					evs = append(evs, r)
				}
				res, err := e.store.AppendTx(ctx, tx, a.stream, a.expected, evs...)
				if err != nil {
					return err
				}
				last = max(last, res.LastPosition)
			}
			done = p
			return nil
		})
		if e.log.Enabled(ctx, slog.LevelDebug) && !tAppend.IsZero() {
			e.log.DebugContext(ctx, "commit", "step", step, "lock_wait", tLock.Sub(t0), "build", tBuild.Sub(tLock),
				"jobs", tJobs.Sub(tBuild), "append", tAppend.Sub(tJobs), "commit", time.Since(tAppend))
		}
		if errors.Is(err, eventstore.ErrVersionConflict) {
			// A writer outside these locks moved a stream: decide again.
			select {
			case <-ctx.Done():
				return 0, ctx.Err()
			case <-time.After(time.Duration(rand.IntN(1+min(attempt, 10))) * time.Millisecond):
			}
			continue
		}
		var de *domain.Error
		if errors.As(err, &de) {
			return 0, err // a domain decision, reported as is (TOWOW_* code first)
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", step, err)
		}
		if done != nil {
			for _, a := range done.appends {
				for _, ev := range a.events {
					if e.cfg.Observe != nil {
						e.cfg.Observe(ev)
					}
					e.cache.drop(ended(ev)...)
				}
			}
		}
		return last, nil
	}
	return 0, fmt.Errorf("%s: gave up after %d version conflicts", step, maxConflictRetries)
}

// agentOf is the agent an agent event is about ("" for other events).
func agentOf(p domain.Payload) string {
	switch e := p.(type) {
	case *domain.OfferSubmitted:
		return e.AgentID
	case *domain.ProposalFeedback:
		return e.AgentID
	case *domain.AgentWithdrawn:
		return e.AgentID
	}
	return ""
}

func encode(a appendOp) ([]eventstore.EventData, error) {
	out := make([]eventstore.EventData, len(a.events))
	for i, p := range a.events {
		md := a.meta
		switch agent := agentOf(p); {
		case md.Actor == domain.ActorSystem: // e.g. feedback that timed out
		case agent != "":
			md.Actor = domain.AgentActor(agent)
			if call := a.agentCalls[agent]; call != nil && p.EventType() != domain.EventAgentWithdrawn {
				md.LLMCall = call
			}
		case strings.HasPrefix(md.Actor, "agent:") && strings.HasPrefix(a.stream, domain.ChannelStream("")):
			md.Actor = domain.ActorChannelAdmin // a twins' stage: the channel's own events are the ChannelAdmin's
		}
		if a.call != nil && p.EventType() == a.callFor {
			md.LLMCall = a.call
			a.call = nil // only the first such event carries it
		}
		id, err := uuid.NewV7()
		if err != nil {
			return nil, fmt.Errorf("event id: %w", err)
		}
		ev, err := eventstore.NewEvent(id, p, md)
		if err != nil {
			return nil, err
		}
		out[i] = ev
	}
	return out, nil
}

// insertJobs enqueues jobs in tx; traceparent is their tree's ("": none).
func (e *Engine) insertJobs(ctx context.Context, tx pgx.Tx, jobs []job, traceparent string) error {
	if len(jobs) == 0 {
		return nil
	}
	md := jobMetadata(traceparent)
	params := make([]river.InsertManyParams, len(jobs))
	for i, j := range jobs {
		opts := &river.InsertOpts{Queue: j.queue, Metadata: slices.Clone(md)} // each job its own: middleware edits it
		if !j.at.IsZero() && j.at.After(e.cfg.Now()) {
			opts.ScheduledAt = j.at
		}
		params[i] = river.InsertManyParams{Args: j.args, InsertOpts: opts}
	}
	if _, err := e.river.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("enqueue follow-up jobs: %w", err)
	}
	return nil
}

// waitWindow is how close to its deadline a timeout job is scheduled; it
// exceeds River's scheduler interval (5 s), and the job waits out the rest.
const waitWindow = 6 * time.Second

// waitUntil blocks until deadline when it is within waitWindow, or snoozes
// the job until closer to it.
func (e *Engine) waitUntil(ctx context.Context, deadline time.Time) error {
	remaining := deadline.Sub(e.cfg.Now())
	switch {
	case remaining <= 0:
		return nil
	case remaining > waitWindow:
		return river.JobSnooze(remaining - waitWindow/2)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(remaining):
		return nil
	}
}

// loadDemandFrom folds a demand's stream from st (the pool's store, or a
// transaction's), through the event cache. The state shares memory with the
// cached events: engine code treats it as read-only.
func (e *Engine) loadDemandFrom(ctx context.Context, st *eventstore.Store, demandID string) (*domain.DemandState, eventstore.ExpectedVersion, error) {
	d := &domain.DemandState{}
	v, err := e.fold(ctx, st, domain.DemandStream(demandID), d.Apply)
	return d, v, err
}

// loadChannelFrom folds a channel's stream from st, through the event cache
// (read-only state, as for loadDemandFrom).
func (e *Engine) loadChannelFrom(ctx context.Context, st *eventstore.Store, channelID string) (*domain.Channel, eventstore.ExpectedVersion, error) {
	c := &domain.Channel{}
	v, err := e.fold(ctx, st, domain.ChannelStream(channelID), c.Apply)
	return c, v, err
}

func (e *Engine) loadDemand(ctx context.Context, demandID string) (*domain.DemandState, eventstore.ExpectedVersion, error) {
	return e.loadDemandFrom(ctx, e.store, demandID)
}

func (e *Engine) loadChannel(ctx context.Context, channelID string) (*domain.Channel, eventstore.ExpectedVersion, error) {
	return e.loadChannelFrom(ctx, e.store, channelID)
}

func (e *Engine) fold(ctx context.Context, st *eventstore.Store, stream string, apply func(domain.Payload)) (eventstore.ExpectedVersion, error) {
	events, version, err := e.cache.load(ctx, st, stream)
	if err != nil {
		return 0, err
	}
	for _, p := range events {
		apply(p)
	}
	return eventstore.ExpectedVersion(version), nil
}
