package uow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/jobs"
)

// Inserter enqueues jobs in a transaction (*jobs.Runner).
type Inserter interface {
	InsertManyTx(ctx context.Context, tx pgx.Tx, params []river.InsertManyParams) error
}

// Config tunes the unit of work.
type Config struct {
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
	// Observe, when set, sees every event this process committed, after
	// the commit (metrics; it must not block).
	Observe func(event.Payload)
	// Tracing says events and jobs carry their tree's traceparent.
	Tracing bool
	// BeforeCommit, when set, runs before every commit (the agent
	// directory catches up, so a decision reads a fresh one).
	BeforeCommit func(context.Context) error
	// Follow, when set, adds the jobs that any committed events start in
	// a process that did not decide them (the notices), in the same
	// transaction; a fork's copied history starts none.
	Follow func(events []event.Payload) []Job
	// Personal, when set, seals every event's personal texts (and those
	// of an LLM call's answer, and of job arguments) before they are
	// stored; nil stores them as they are.
	Personal Sealer
}

// Sealer seals a personal text with its data subject's key
// (*personal.Keys).
type Sealer interface {
	Seal(ctx context.Context, subject, text string) (string, error)
}

// UnitOfWork is the one way anything writes: lock the streams a decision
// is about, load them through the transaction, decide, enqueue the
// follow-up jobs and append, in one transaction, deciding again on a
// version conflict. It knows no process. It is safe for concurrent use.
type UnitOfWork struct {
	cfg   Config
	pool  *pgxpool.Pool
	store *eventstore.Store
	jobs  Inserter
	cache *eventCache
	log   *slog.Logger
}

// eventCacheStreams bounds the streams whose decoded events the unit of
// work keeps: those of running negotiations (four or so each) fit many
// times. retiredCacheStreams bounds those kept after their negotiation
// ended, for the steps that read them then: the last few dozen
// negotiations' worth.
const (
	eventCacheStreams   = 1024
	retiredCacheStreams = 32
)

// maxConflictRetries bounds the reload-and-decide loop of a commit.
const maxConflictRetries = 50

// errRelock ends an attempt of a commit whose plan appends to a stream
// that sorts before one it already locked and that another transaction
// holds: the next attempt locks it with the others, in order.
var errRelock = errors.New("a stream to append to sorts before a locked one")

// New returns the unit of work over store (on pool), enqueueing follow-up
// jobs through jobs.
func New(pool *pgxpool.Pool, store *eventstore.Store, jobs Inserter, cfg Config) *UnitOfWork {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &UnitOfWork{cfg: cfg, pool: pool, store: store, jobs: jobs, cache: newEventCache(eventCacheStreams, retiredCacheStreams), log: cfg.Logger}
}

// Store is the event store written to (reads outside a commit use it).
func (u *UnitOfWork) Store() *eventstore.Store { return u.store }

// Pool is the database.
func (u *UnitOfWork) Pool() *pgxpool.Pool { return u.pool }

// Forget drops every decoded event the unit of work keeps: after an
// erasure, no step of this process decides on texts it read before.
func (u *UnitOfWork) Forget() { u.cache.clear() }

// Now is the clock's time.
func (u *UnitOfWork) Now() time.Time { return u.cfg.Now() }

// Append is one stream's share of a commit.
type Append struct {
	Stream   string
	Expected eventstore.ExpectedVersion
	Events   []event.Payload
	Meta     event.Metadata
	// Call is the LLM call whose answer produced the event of type
	// CallFor; it is recorded in that event's metadata.
	Call    *event.LLMCall
	CallFor event.EventType
	// AgentCalls are the twins' LLM calls, recorded on each agent's own
	// offer or feedback event.
	AgentCalls map[string]*event.LLMCall
	// Raw are events appended as they are (a fork's copy of another
	// tree's history) instead of Events.
	Raw []eventstore.EventData
}

// Plan is what one commit writes, in one transaction.
type Plan struct {
	Appends []Append
	Jobs    []Job
}

func (p *Plan) empty() bool { return p == nil || (len(p.Appends) == 0 && len(p.Jobs) == 0) }

// Commit writes a decision in one transaction: it locks the streams the
// decision is about (in sorted order), lets build load them through the
// transaction and decide, locks the other streams the plan appends to (in
// order after the first ones; one that sorts before them only if no one
// holds it, else all again from the start in a new attempt), then inserts
// the follow-up jobs and appends. The
// stream locks make this process's own steps on one stream queue instead
// of racing (twelve twins answering one channel at once would otherwise
// conflict again and again); the expected-version check still guards
// against any other writer, and a conflict reruns build. build must read
// only through the store it is given (no pool connections inside the
// transaction); a nil or empty plan writes nothing. A decision error
// (*event.Error) comes back as is; other errors are wrapped with step. It
// returns the last global position written (0 if none).
func (u *UnitOfWork) Commit(ctx context.Context, step string, lock []string, build func(ctx context.Context, st *eventstore.Store) (*Plan, error)) (int64, error) {
	if u.cfg.BeforeCommit != nil {
		if err := u.cfg.BeforeCommit(ctx); err != nil {
			return 0, err
		}
	}
	lock = slices.Compact(slices.Sorted(slices.Values(lock)))
	for attempt := range maxConflictRetries {
		var last int64
		var done *Plan
		var written []appended
		var relock []string
		var tLock, tBuild, tJobs, tAppend time.Time
		t0 := time.Now()
		err := pgx.BeginFunc(ctx, u.pool, func(tx pgx.Tx) error {
			bctx := ctx
			if len(lock) > 0 {
				versions, err := u.store.LockStreams(ctx, tx, lock)
				if err != nil {
					return err
				}
				bctx = context.WithValue(ctx, lockedKey{}, versions)
			}
			tLock = time.Now()
			p, err := build(bctx, u.store.In(tx))
			tBuild = time.Now()
			if err != nil || p.empty() {
				return err
			}
			if more := unlockedStreams(lock, p.Appends); len(more) > 0 {
				held, err := u.lockAppended(ctx, tx, lock, more)
				if err != nil {
					return err
				}
				if !held {
					relock = more
					return errRelock
				}
			}
			defer func() { tAppend = time.Now() }()
			traces, jobTrace := map[string]string{}, ""
			for i, a := range p.Appends {
				root := rootOf(a)
				if _, ok := traces[root]; !ok {
					if traces[root], err = u.treeTrace(ctx, u.store.In(tx), root); err != nil {
						return err
					}
				}
				if i == 0 {
					jobTrace = traces[root]
				}
			}
			if len(p.Appends) == 0 {
				jobTrace, _ = jobs.TreeTraceOf(ctx)
			}
			jobs := p.Jobs
			if u.cfg.Follow != nil {
				var evs []event.Payload
				for _, a := range p.Appends {
					evs = append(evs, a.Events...)
				}
				jobs = append(slices.Clip(jobs), u.cfg.Follow(evs)...)
			}
			// Jobs first, appends last, every stream locked by now.
			if err := u.insertJobs(ctx, tx, jobs, jobTrace); err != nil {
				return err
			}
			tJobs = time.Now()
			for _, a := range p.Appends {
				a.Meta.TraceParent = traces[rootOf(a)]
				a.Meta.Principal = identity.From(ctx).Actor()
				evs, plain, err := u.encode(ctx, a)
				if err != nil {
					return err
				}
				for _, r := range a.Raw {
					// A fork's copy of another tree's history: its own trace.
					r.Metadata.TraceParent = a.Meta.TraceParent
					evs = append(evs, r)
				}
				res, err := u.store.AppendTx(ctx, tx, a.Stream, a.Expected, evs...)
				if err != nil {
					return err
				}
				last = max(last, res.LastPosition)
				if !res.Duplicate {
					written = append(written, appended{stream: a.Stream, first: res.FirstVersion, events: evs, plain: plain})
				}
			}
			done = p
			return nil
		})
		if u.log.Enabled(ctx, slog.LevelDebug) && !tAppend.IsZero() {
			u.log.DebugContext(ctx, "commit", "step", step, "lock_wait", tLock.Sub(t0), "build", tBuild.Sub(tLock),
				"jobs", tJobs.Sub(tBuild), "append", tAppend.Sub(tJobs), "commit", time.Since(tAppend))
		}
		if errors.Is(err, errRelock) {
			lock = slices.Compact(slices.Sorted(slices.Values(append(slices.Clip(lock), relock...))))
			continue
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
		var de *event.Error
		if errors.As(err, &de) {
			return 0, err // a domain decision, reported as is (TOWOW_* code first)
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", step, err)
		}
		if done != nil {
			if last > 0 {
				u.store.Committed()
				if eventstore.WantsItsWrites(ctx) && !u.store.SettleBriefly(ctx, last) {
					// The commit stands; the caller's next read of the log
					// may not show it yet.
					u.log.InfoContext(ctx, "commit: events not settled yet; a write transaction that began before them is still open",
						"step", step, "cursor", last, "waited", eventstore.SettleWaitMax)
				}
			}
			for _, w := range written {
				u.cache.extend(ctx, u.store, w)
			}
			for _, a := range done.Appends {
				for _, ev := range a.Events {
					if u.cfg.Observe != nil {
						u.cfg.Observe(ev)
					}
					u.cache.retire(ended(ev)...)
				}
			}
		}
		return last, nil
	}
	return 0, fmt.Errorf("%s: gave up after %d version conflicts", step, maxConflictRetries)
}

// lockAppended locks more, the streams a plan appends to beyond those the
// commit locked (locked; both sorted), before the transaction's first
// write: from that write on (its id is drawn then) it holds every reader
// of the log back, so it must not then wait for a lock another writer
// holds. Every commit waits for its locks in one order (sorted), so that
// no two wait on each other: streams after the locked ones are waited
// for; streams sorting before one of them are taken only if nobody holds
// them (never waiting). It reports false when they were not: a new
// attempt locks them with the others, in order.
func (u *UnitOfWork) lockAppended(ctx context.Context, tx pgx.Tx, locked, more []string) (bool, error) {
	if len(locked) == 0 || more[0] > locked[len(locked)-1] {
		_, err := u.store.LockStreams(ctx, tx, more)
		return err == nil, err
	}
	_, held, err := u.store.TryLockStreams(ctx, tx, more)
	return held, err
}

// unlockedStreams are the streams appends write to that lock (sorted)
// does not hold, sorted.
func unlockedStreams(lock []string, appends []Append) []string {
	var more []string
	for _, a := range appends {
		if _, held := slices.BinarySearch(lock, a.Stream); !held {
			more = append(more, a.Stream)
		}
	}
	slices.Sort(more)
	return slices.Compact(more)
}

// agentOf is the agent an agent event is about ("" for other events).
func agentOf(p event.Payload) string {
	switch e := p.(type) {
	case *negotiation.OfferSubmitted:
		return e.AgentID
	case *negotiation.ProposalFeedback:
		return e.AgentID
	case *negotiation.AgentWithdrawn:
		return e.AgentID
	}
	return ""
}

// encode encodes a's events as they are stored (personal texts sealed),
// and the payloads as written, for the event cache (nil where the stored
// one is the same).
func (u *UnitOfWork) encode(ctx context.Context, a Append) ([]eventstore.EventData, [][]byte, error) {
	out := make([]eventstore.EventData, len(a.Events))
	plain := make([][]byte, len(a.Events))
	for i, p := range a.Events {
		md := a.Meta
		switch agent := agentOf(p); {
		case md.Actor == event.ActorSystem: // e.g. feedback that timed out
		case agent != "":
			md.Actor = event.AgentActor(agent)
			if call := a.AgentCalls[agent]; call != nil && p.EventType() != negotiation.EventAgentWithdrawn {
				md.LLMCall = call
			}
		case strings.HasPrefix(md.Actor, "agent:") && strings.HasPrefix(a.Stream, negotiation.ChannelStream("")):
			md.Actor = event.ActorChannelAdmin // a twins' stage: the channel's own events are the ChannelAdmin's
		}
		if a.Call != nil && p.EventType() == a.CallFor {
			md.LLMCall = a.Call
			a.Call = nil // only the first such event carries it
		}
		id, err := uuid.NewV7()
		if err != nil {
			return nil, nil, fmt.Errorf("event id: %w", err)
		}
		sealed, written, err := u.seal(ctx, subjectOf(a, p), p, &md)
		if err != nil {
			return nil, nil, err
		}
		ev, err := eventstore.NewEvent(id, sealed, md)
		if err != nil {
			return nil, nil, err
		}
		out[i], plain[i] = ev, written
	}
	return out, plain, nil
}

// subjectOf is the data subject whose key seals the personal texts of p,
// appended by a.
func subjectOf(a Append, p event.Payload) string { return SubjectOf(a.Stream, a.Meta.CorrelationID, p) }

// SubjectOf is the data subject whose key seals the personal texts of p
// on stream, correlated to correlation: an agent's, for its own stream
// (its profile); else the tree's, named by the payload (a notice) or by
// the correlation; else the stream owner's (an inbox, a webhook list); ""
// when nobody's.
func SubjectOf(stream, correlation string, p event.Payload) string {
	if id, ok := strings.CutPrefix(stream, negotiation.AgentStream("")); ok {
		return event.PrincipalSubject(identity.Agent(id).Actor())
	}
	if s, ok := p.(event.Subjected); ok && s.PersonalSubject() != "" {
		return s.PersonalSubject()
	}
	if correlation != "" {
		return event.TreeSubject(correlation)
	}
	for _, prefix := range []string{notice.InboxStream(""), notice.WebhooksStream("")} {
		if owner, ok := strings.CutPrefix(stream, prefix); ok {
			return event.PrincipalSubject(owner)
		}
	}
	return ""
}

// seal returns p with its personal texts, and those of md's LLM call,
// sealed for subject, and p's JSON as written (nil when nothing in it is
// sealed). p is copied first (through its JSON), so the caller's payload
// stays as it was.
func (u *UnitOfWork) seal(ctx context.Context, subject string, p event.Payload, md *event.Metadata) (event.Payload, []byte, error) {
	if u.cfg.Personal == nil {
		return p, nil, nil
	}
	seal := func(text string) (string, error) { return u.cfg.Personal.Seal(ctx, subject, text) }
	if md.LLMCall != nil && md.LLMCall.Answer != "" {
		call := *md.LLMCall
		if err := event.SealPersonal(&call, seal); err != nil {
			return nil, nil, fmt.Errorf("seal an llm answer: %w", err)
		}
		md.LLMCall = &call
	}
	if !event.HasPersonal(p) {
		return p, nil, nil
	}
	t, v, data, err := event.EncodePayload(p)
	if err != nil {
		return nil, nil, fmt.Errorf("encode event: %w", err)
	}
	cp, err := event.DecodePayload(t, v, data)
	if err != nil {
		return nil, nil, fmt.Errorf("copy event: %w", err)
	}
	if err := event.SealPersonal(cp, seal); err != nil {
		return nil, nil, fmt.Errorf("seal %s: %w", t, err)
	}
	return cp, data, nil
}

// insertJobs enqueues jobs in tx; traceparent is their tree's ("": none).
func (u *UnitOfWork) insertJobs(ctx context.Context, tx pgx.Tx, js []Job, traceparent string) error {
	if len(js) == 0 {
		return nil
	}
	md := jobs.Metadata(traceparent)
	params := make([]river.InsertManyParams, len(js))
	for i, j := range js {
		opts := &river.InsertOpts{Queue: j.Queue, Metadata: slices.Clone(md)} // each job its own: middleware edits it
		if !j.At.IsZero() && j.At.After(u.cfg.Now()) {
			opts.ScheduledAt = j.At
		}
		args, err := u.sealArgs(ctx, j.Args)
		if err != nil {
			return err
		}
		params[i] = river.InsertManyParams{Args: args, InsertOpts: opts}
	}
	if err := u.jobs.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("enqueue follow-up jobs: %w", err)
	}
	return nil
}

// sealArgs returns a copy of job arguments with their personal texts
// sealed for the subject they name (River keeps a job's arguments in its
// table after the job ran). Arguments with personal texts must name it.
func (u *UnitOfWork) sealArgs(ctx context.Context, args river.JobArgs) (river.JobArgs, error) {
	if u.cfg.Personal == nil || !event.HasPersonal(args) {
		return args, nil
	}
	s, ok := args.(event.Subjected)
	if !ok || s.PersonalSubject() == "" {
		return nil, fmt.Errorf("job %s holds personal texts and names no data subject", args.Kind())
	}
	// A copy through JSON (as River stores it): the caller's arguments
	// share nothing with it.
	data, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("copy job %s: %w", args.Kind(), err)
	}
	cp := reflect.New(reflect.TypeOf(args))
	if err := json.Unmarshal(data, cp.Interface()); err != nil {
		return nil, fmt.Errorf("copy job %s: %w", args.Kind(), err)
	}
	if err := event.SealPersonal(cp.Interface(), func(text string) (string, error) {
		return u.cfg.Personal.Seal(ctx, s.PersonalSubject(), text)
	}); err != nil {
		return nil, fmt.Errorf("seal job %s: %w", args.Kind(), err)
	}
	return cp.Elem().Interface().(river.JobArgs), nil
}

// Fold folds stream from st (the pool's store, or a transaction's) through
// the event cache and returns its version. The events apply sees are
// shared with the cache: the state they build is read-only unless its
// Apply never writes into an event's memory.
//
// Inside a commit's build, a stream the commit locked is at the version
// the lock returned: when the cache holds it up to there, Fold reads
// nothing.
func (u *UnitOfWork) Fold(ctx context.Context, st *eventstore.Store, stream string, apply func(event.Payload)) (eventstore.ExpectedVersion, error) {
	at := int64(-1)
	if versions, ok := ctx.Value(lockedKey{}).(map[string]int64); ok {
		if v, ok := versions[stream]; ok {
			at = v
		}
	}
	events, version, err := u.cache.load(ctx, st, stream, at)
	if err != nil {
		return 0, err
	}
	for _, p := range events {
		apply(p)
	}
	return eventstore.ExpectedVersion(version), nil
}

// lockedKey keys, in a commit's build context, the versions of the streams
// the commit locked (map[string]int64).
type lockedKey struct{}

// treeTrace is the traceparent of the tree whose root demand is root: the
// one of the running step, else the one on the root demand's first event,
// else (the commit creates the root demand) ctx's own span. "" when
// tracing is off or root is no tree (agent profiles).
func (u *UnitOfWork) treeTrace(ctx context.Context, st *eventstore.Store, root string) (string, error) {
	if !u.cfg.Tracing || root == "" {
		return "", nil
	}
	if tp, ok := jobs.TreeTraceOf(ctx); ok {
		return tp, nil
	}
	evs, err := st.ReadStream(ctx, negotiation.DemandStream(root), 0, 1)
	if err != nil {
		return "", fmt.Errorf("trace of tree %s: %w", root, err)
	}
	if len(evs) > 0 {
		return evs[0].Metadata.TraceParent, nil
	}
	return jobs.TraceParentOf(ctx), nil
}

// rootOf is the tree an append belongs to.
func rootOf(a Append) string {
	if a.Meta.CorrelationID == "" && len(a.Raw) > 0 {
		return a.Raw[0].Metadata.CorrelationID
	}
	return a.Meta.CorrelationID
}
