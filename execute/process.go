package execute

import (
	"context"
	"net/http"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/jobs"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// Config tunes the workflow execution. A zero field takes its default.
type Config struct {
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
	// JobTimeout bounds one step ([jobs.DefaultJobTimeout]): an http
	// node's request ends before it.
	JobTimeout time.Duration
	// PeopleDoTasks: a task assigned to a twin waits for its person (or
	// their external agent) instead of being simulated by the twin
	// (TOWOW_TASKS=people; default: simulate, and say so).
	PeopleDoTasks bool
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Process is the workflow execution: what its workers (the nodes' jobs,
// the conversation agent) and its commands share. It is safe for
// concurrent use.
type Process struct {
	cfg        Config
	u          *uow.UnitOfWork
	store      *eventstore.Store
	dir        *directory.Directory
	llm        *llm.Client
	httpClient *http.Client
}

// New returns the workflow execution writing through u, asking the twins
// of dir through client.
func New(u *uow.UnitOfWork, dir *directory.Directory, client *llm.Client, cfg Config) *Process {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.DecisionRateLimit == 0 {
		cfg.DecisionRateLimit = workflow.DefaultDecisionRateLimit
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{CheckRedirect: noRedirects}
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = jobs.DefaultJobTimeout
	}
	return &Process{cfg: cfg, u: u, store: u.Store(), dir: dir, llm: client, httpClient: cfg.HTTPClient}
}

// Register adds the workflow execution's workers to workers.
func (e *Process) Register(workers *river.Workers) {
	river.AddWorker(workers, &StartNodeWorker{e: e})
	river.AddWorker(workers, &NodeEffectWorker{e: e})
	river.AddWorker(workers, &NodeTimeoutWorker{e: e})
	river.AddWorker(workers, &ConverseWorker{e: e})
}

// jobError turns a step's error into what River should do with the job
// (uow.UnitOfWork.JobError).
func (e *Process) jobError(ctx context.Context, step string, err error) error {
	return e.u.JobError(ctx, step, err)
}

// loadDemand folds a demand's stream, through the event cache (read-only
// state).
func (e *Process) loadDemand(ctx context.Context, demandID string) (*negotiation.DemandState, eventstore.ExpectedVersion, error) {
	d := &negotiation.DemandState{}
	v, err := e.u.Fold(ctx, e.store, negotiation.DemandStream(demandID), d.Apply)
	return d, v, err
}

// noRedirects keeps an http node on the host the allow list let through.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
