package app

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.opentelemetry.io/otel/trace"

	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/execute"
	"github.com/towow/towow/forks"
	"github.com/towow/towow/jobs"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/negotiate"
	"github.com/towow/towow/notify"
	"github.com/towow/towow/personal"
	"github.com/towow/towow/presence"
	"github.com/towow/towow/uow"
)

// WriteConfig tunes the write side: each field goes to the process it
// concerns. A zero field takes its default (negotiate.Default*,
// jobs.Default*, presence.DefaultOfflineAfter).
type WriteConfig struct {
	// Personal seals personal texts before they are stored, and erases
	// them on request (nil: stored as they are, and no erasure).
	Personal *personal.Keys
	// JobsPool is where River's own work runs (jobs.Config.Pool; nil: the
	// write side's pool).
	JobsPool *pgxpool.Pool
	// Rules are stamped on every new channel (defaults: negotiation.DefaultRules).
	Rules negotiation.Rules
	// MaxCandidates bounds smart filtering ([negotiate.DefaultMaxCandidates]).
	MaxCandidates int
	// Shortlist bounds the profiles the filter's SQL stage hands to
	// prompt 2, across the demand's needs ([negotiate.DefaultShortlist]).
	Shortlist int
	// TreeTokenBudget bounds the LLM tokens of one negotiation tree's
	// sub-negotiations (negotiate.Config.TreeTokenBudget; 0: none).
	TreeTokenBudget int
	// AnswerGather is how long the twins' stages gather answers that
	// arrive together into one commit
	// (negotiate.Config.AnswerGather).
	AnswerGather time.Duration
	// Workers is how many jobs run at once in this process
	// ([jobs.DefaultWorkers]).
	Workers int
	// FetchCooldown and FetchPollInterval tune River's fetcher
	// ([jobs.DefaultFetchCooldown], [jobs.DefaultFetchPollInterval]).
	FetchCooldown, FetchPollInterval time.Duration
	// JobTimeout bounds one step ([jobs.DefaultJobTimeout]); RescueAfter is
	// how long a job may stay "running" before River retries it elsewhere
	// ([jobs.DefaultRescueAfter]; it must exceed JobTimeout).
	JobTimeout, RescueAfter time.Duration
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
	// Observe, when set, sees every event this process committed, after
	// the commit (metrics; it must not block).
	Observe func(event.Payload)
	// HTTPAllow are the hosts a workflow's http nodes may POST to (host,
	// host:port or *.domain; none: no http node validates).
	HTTPAllow []string
	// DecisionRateLimit is how many decisions one actor may make on a
	// workflow per minute ([workflow.DefaultDecisionRateLimit]; negative: no
	// limit).
	DecisionRateLimit int
	// HTTPClient sends the http nodes' requests (default: a client that
	// follows no redirect).
	HTTPClient *http.Client
	// PeopleDoTasks: a task assigned to a twin waits for its person (or
	// their external agent) instead of being simulated (TOWOW_TASKS=people).
	PeopleDoTasks bool
	// WebhookKey derives the webhook subscriptions' signing secrets
	// (notify.Config.Key; empty: a key of this process, so secrets shown
	// by another process do not verify).
	WebhookKey []byte
	// OfflineAfter is how long an online external agent may stay silent
	// before it is taken offline ([presence.DefaultOfflineAfter]).
	OfflineAfter time.Duration
	// TracerProvider, when set, traces the River jobs and keeps each
	// negotiation tree in one trace (package jobs); nil: tracing off,
	// nothing is added.
	TracerProvider trace.TracerProvider
}

// WriteSide is the write side as wired: one River runner, the one unit of
// work, and each process built on them (negotiation, workflow execution,
// presence, forks, the agent directory), each registering its own workers.
// It holds no write logic of its own.
type WriteSide struct {
	Jobs        *jobs.Runner
	UoW         *uow.UnitOfWork
	Directory   *directory.Directory
	Agents      *directory.Writer
	Negotiation *negotiate.Process
	Execution   *execute.Process
	Presence    *presence.Presence
	Forks       *forks.Forks
	Notify      *notify.Process
	// Commands are all the processes' commands, as the API calls them.
	Commands *Commands
}

// Commands are the processes' commands together: what the API calls
// (api.Commands). Each method is its process's.
type Commands struct {
	*negotiationCommands
	*workflowCommands
	*directoryCommands
	*forks.Forks
	*notifyCommands
	// Eraser erases a person's data on request (nil without personal
	// data keys: EraseUser is then refused).
	*personal.Eraser
}

// The embedded command types, under names of their own (each package calls
// its type Commands).
type (
	negotiationCommands = negotiate.Commands
	workflowCommands    = execute.Commands
	directoryCommands   = directory.Commands
	notifyCommands      = notify.Commands
)

// NewWriteSide wires the write side over store (on pool), filtering
// candidates from dir and asking client. With work false its River client
// only inserts jobs (a process that leaves the work to `towow worker`
// processes).
func NewWriteSide(pool *pgxpool.Pool, store *eventstore.Store, dir *directory.Directory, client *llm.Client, work bool, cfg WriteConfig) (*WriteSide, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	w := &WriteSide{Directory: dir}
	w.Jobs = jobs.New(pool, work, jobs.Config{Workers: cfg.Workers, FetchCooldown: cfg.FetchCooldown,
		FetchPollInterval: cfg.FetchPollInterval, JobTimeout: cfg.JobTimeout, RescueAfter: cfg.RescueAfter, Logger: log,
		TracerProvider: cfg.TracerProvider, Pool: cfg.JobsPool})
	ucfg := uow.Config{Now: now, Logger: log, Observe: cfg.Observe,
		Tracing: cfg.TracerProvider != nil, BeforeCommit: dir.RefreshIfStale,
		Follow: func(evs []event.Payload) []uow.Job { return notify.Triggers(evs, dir) }}
	if cfg.Personal != nil {
		ucfg.Personal = cfg.Personal
	}
	w.UoW = uow.New(pool, store, w.Jobs, ucfg)
	w.Agents = directory.NewWriter(w.UoW, dir)
	w.Negotiation = negotiate.New(w.UoW, dir, client, negotiate.Config{Rules: cfg.Rules, MaxCandidates: cfg.MaxCandidates,
		Shortlist: cfg.Shortlist, TreeTokenBudget: cfg.TreeTokenBudget, AnswerGather: cfg.AnswerGather, Now: now})
	w.Execution = execute.New(w.UoW, dir, client, execute.Config{HTTPAllow: cfg.HTTPAllow, DecisionRateLimit: cfg.DecisionRateLimit,
		HTTPClient: cfg.HTTPClient, JobTimeout: cfg.JobTimeout, PeopleDoTasks: cfg.PeopleDoTasks, Now: now})
	w.Presence = presence.New(pool, dir, w.Agents, presence.Config{OfflineAfter: cfg.OfflineAfter, Now: now, Logger: log})
	w.Forks = forks.New(w.UoW, dir, w.Negotiation)
	key := cfg.WebhookKey
	if len(key) == 0 {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("webhook key: %w", err)
		}
	}
	w.Notify = notify.New(w.UoW, dir, notify.Config{Key: key, Now: now,
		Allowed: func(host string) bool { return workflow.HostAllowed("http://"+host+"/", cfg.HTTPAllow) }})
	w.Commands = &Commands{negotiationCommands: negotiate.NewCommands(w.Negotiation),
		workflowCommands:  execute.NewCommands(w.Execution),
		directoryCommands: directory.NewCommands(w.Agents, dir, w.Presence.AgentContact), Forks: w.Forks,
		notifyCommands: notify.NewCommands(w.Notify)}
	if cfg.Personal != nil {
		w.Commands.Eraser = personal.NewEraser(w.UoW, cfg.Personal, dir.Invalidate)
	}
	if work {
		ws := w.Jobs.Workers()
		w.Negotiation.Register(ws)
		w.Execution.Register(ws)
		w.Presence.Register(ws)
		w.Notify.Register(ws)
		w.Jobs.AddPeriodic(w.Presence.PeriodicJob())
	}
	if err := w.Jobs.Open(w.Forks.Middleware()); err != nil {
		return nil, err
	}
	return w, nil
}

// Start starts working jobs (a no-op for an insert-only write side).
func (w *WriteSide) Start(ctx context.Context) error { return w.Jobs.Start(ctx) }

// Stop stops working: running steps finish (or are cancelled when ctx
// ends; they are retried later, safely).
func (w *WriteSide) Stop(ctx context.Context) error { return w.Jobs.Stop(ctx) }

// StopAndCancel stops working at once: running steps are cancelled (and
// retried later, safely), as when the process dies.
func (w *WriteSide) StopAndCancel(ctx context.Context) error { return w.Jobs.StopAndCancel(ctx) }

// Rules returns the rules stamped on new channels.
func (w *WriteSide) Rules() negotiation.Rules { return w.Negotiation.Rules() }
