package negotiate

import (
	"cmp"
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// Defaults of [Config]: the README's configuration table and `towow
// --help` are built from them.
const (
	// DefaultMaxCandidates bounds smart filtering (the design says 10-20).
	DefaultMaxCandidates = 12
	// DefaultShortlist is how many profiles prompt 2 reads at most
	// (TOWOW_SHORTLIST), however large the network.
	DefaultShortlist = 40
)

// Config tunes the negotiation. A zero field takes its default.
type Config struct {
	// Rules are stamped on every new channel (defaults: negotiation.DefaultRules).
	Rules negotiation.Rules
	// MaxCandidates bounds smart filtering ([DefaultMaxCandidates]).
	MaxCandidates int
	// Shortlist bounds the profiles the filter's SQL stage hands to
	// prompt 2, across the demand's needs ([DefaultShortlist]).
	Shortlist int
	// TreeTokenBudget bounds the LLM tokens one negotiation tree spends:
	// a decision to open sub-negotiations keeps only those that what is
	// left pays for, at prompt 8's estimate each, and records why
	// (0: no budget).
	TreeTokenBudget int
	// AnswerGather is how long a twins' stage waits, after an answer
	// arrives, for more to commit with it while others are still due
	// ([DefaultAnswerGather]).
	AnswerGather time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

func (c *Config) defaults() {
	// Each rule left at zero takes the design's value (MaxDepth 0 is a real
	// choice: no sub-negotiations; it is defaulted only with all the rules).
	def := negotiation.DefaultRules()
	if c.Rules == (negotiation.Rules{}) {
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
	if c.AnswerGather <= 0 {
		c.AnswerGather = DefaultAnswerGather
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Process is the negotiation process: what its workers (the Coordinator,
// the ChannelAdmin and the twins) and its commands share. It is safe for
// concurrent use.
type Process struct {
	cfg   Config
	u     *uow.UnitOfWork
	store *eventstore.Store
	pool  *pgxpool.Pool
	dir   *directory.Directory
	llm   *llm.Client
}

// New returns the negotiation process writing through u, inviting agents
// from dir and asking client.
func New(u *uow.UnitOfWork, dir *directory.Directory, client *llm.Client, cfg Config) *Process {
	cfg.defaults()
	return &Process{cfg: cfg, u: u, store: u.Store(), pool: u.Pool(), dir: dir, llm: client}
}

// Rules returns the rules stamped on new channels.
func (e *Process) Rules() negotiation.Rules { return e.cfg.Rules }

// Register adds the negotiation's workers to workers.
func (e *Process) Register(workers *river.Workers) {
	river.AddWorker(workers, &UnderstandWorker{e: e})
	river.AddWorker(workers, &FilterWorker{e: e})
	river.AddWorker(workers, &BroadcastWorker{e: e})
	river.AddWorker(workers, &TwinOffersWorker{e: e})
	river.AddWorker(workers, &OfferTimeoutWorker{e: e})
	river.AddWorker(workers, &AggregateWorker{e: e})
	river.AddWorker(workers, &TwinFeedbackWorker{e: e})
	river.AddWorker(workers, &FeedbackTimeoutWorker{e: e})
	river.AddWorker(workers, &AdjustWorker{e: e})
	river.AddWorker(workers, &ForceFinalizeWorker{e: e})
	river.AddWorker(workers, &GapsWorker{e: e})
	river.AddWorker(workers, &RecursionWorker{e: e})
	river.AddWorker(workers, &NotifyParentWorker{e: e})
	river.AddWorker(workers, &StuckWorker{e: e})
	river.AddWorker(workers, &DemandStuckWorker{e: e})
}

// loadDemandFrom folds a demand's stream from st (the pool's store, or a
// transaction's), through the unit of work's event cache. The state shares
// memory with the cached events: it is read-only.
func (e *Process) loadDemandFrom(ctx context.Context, st *eventstore.Store, demandID string) (*negotiation.DemandState, eventstore.ExpectedVersion, error) {
	d := &negotiation.DemandState{}
	v, err := e.u.Fold(ctx, st, negotiation.DemandStream(demandID), d.Apply)
	return d, v, err
}

// loadChannelFrom folds a channel's stream from st, through the event cache
// (read-only state, as for loadDemandFrom).
func (e *Process) loadChannelFrom(ctx context.Context, st *eventstore.Store, channelID string) (*negotiation.Channel, eventstore.ExpectedVersion, error) {
	c := &negotiation.Channel{}
	v, err := e.u.Fold(ctx, st, negotiation.ChannelStream(channelID), c.Apply)
	return c, v, err
}

func (e *Process) loadDemand(ctx context.Context, demandID string) (*negotiation.DemandState, eventstore.ExpectedVersion, error) {
	return e.loadDemandFrom(ctx, e.store, demandID)
}

func (e *Process) loadChannel(ctx context.Context, channelID string) (*negotiation.Channel, eventstore.ExpectedVersion, error) {
	return e.loadChannelFrom(ctx, e.store, channelID)
}

// FollowUps are the jobs events set off (reactions): c is the channel
// after them (nil for demand events), d the demand after them (nil for
// channel events). A fork enqueues those of the events it copies; a
// sub-negotiation's completion among them also tells its parent by a step
// (the copy may end before the parent heard of it; a parent that did
// ignores it).
func (e *Process) FollowUps(ctx context.Context, events []event.Payload, c *negotiation.Channel, d *negotiation.DemandState) ([]uow.Job, error) {
	jobs, err := e.reactions(ctx, events, c, d)
	if err != nil || c == nil || c.ParentChannelID == "" {
		return jobs, err
	}
	if completes(events) {
		jobs = append(jobs, uow.Job{Args: NotifyParentArgs{ParentChannelID: c.ParentChannelID, SubChannelID: c.ID, SubDemandID: c.DemandID}})
	}
	return jobs, nil
}
