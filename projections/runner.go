package projections

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// Projector folds events into read-model rows.
type Projector interface {
	// Name identifies the projector and its checkpoint.
	Name() string
	// Apply applies one event through db (the batch's transaction, or a
	// rebuild's statement pipeline: write only, never read back), writing
	// only the projector's own tables. Events the projector does not care
	// about are ignored (return nil). An error rolls the whole batch back
	// and stops the runner.
	Apply(ctx context.Context, db DB, e eventstore.RecordedEvent) error
}

// ReadModel is a projector whose tables can be emptied and folded again
// (Rebuild) and fingerprinted (to prove a rebuild equals the live build).
type ReadModel interface {
	Projector
	// Reset deletes every row of the projector's tables inside tx.
	Reset(ctx context.Context, tx pgx.Tx) error
	// Checksum fingerprints the tables row for row.
	Checksum(ctx context.Context, db DB) (Fingerprint, error)
}

// SQLRebuilder is a read model that can refold its (emptied) tables from
// the events table in SQL, much faster than event by event. Rebuild uses
// it when present; the rebuild test proves the result equal to the live
// fold.
type SQLRebuilder interface {
	RebuildUpTo(ctx context.Context, tx pgx.Tx, head int64) error
}

// Typed is a projector that folds only some event types (and ignores the
// rest): Rebuild then reads only those from the log. Nil types: every
// event.
type Typed interface {
	Types() []event.EventType
}

// Fingerprint is a read model's row count and the md5 of its rows in key
// order: equal fingerprints mean row-for-row identical tables.
type Fingerprint struct {
	Rows int64  `json:"rows"`
	MD5  string `json:"md5"`
}

// Runner feeds projectors from the event store.
type Runner struct {
	pool     *pgxpool.Pool
	store    *eventstore.Store
	notifier *eventstore.Notifier
	logger   *slog.Logger
	// BatchSize is the most events applied in one transaction (default 500).
	BatchSize int
}

// NewRunner returns a Runner. notifier may be nil (then Run polls).
func NewRunner(pool *pgxpool.Pool, store *eventstore.Store, notifier *eventstore.Notifier, logger *slog.Logger) *Runner {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Runner{pool: pool, store: store, notifier: notifier, logger: logger, BatchSize: 500}
}

// Checkpoint returns the position up to which the named projector's tables
// are built.
func (r *Runner) Checkpoint(ctx context.Context, name string) (int64, error) {
	pos, err := sqlcdb.New(r.pool).GetCheckpoint(ctx, name)
	if err != nil {
		return 0, fmt.Errorf("projection %s checkpoint: %w", name, err)
	}
	return pos, nil
}

// Run applies every event after p's checkpoint, then follows the log live
// until ctx ends (returning ctx.Err()) or an event fails to apply.
func (r *Runner) Run(ctx context.Context, p Projector) error {
	from, err := r.start(ctx, p)
	if err != nil {
		return err
	}
	return r.store.Subscribe(ctx, eventstore.SubscribeOptions{After: from, Notifier: r.notifier, BatchSize: r.BatchSize},
		func(ctx context.Context, batch []eventstore.RecordedEvent) error {
			_, err := r.applyBatch(ctx, p, batch)
			return err
		})
}

// CatchUp applies every event committed before the call and returns the
// new checkpoint; on an error, the checkpoint of the last batch that
// committed.
func (r *Runner) CatchUp(ctx context.Context, p Projector) (int64, error) {
	pos, err := r.start(ctx, p)
	if err != nil {
		return 0, err
	}
	head, err := r.store.HeadPosition(ctx)
	if err != nil {
		return 0, err
	}
	// Every event up to head has committed, but a read may still run
	// under a lower bound and come back short: read on from where each read
	// is complete (Page.Through) until that reaches head.
	for read := pos; read < head; {
		page, err := r.store.ReadPage(ctx, read, eventstore.Filter{UntilPosition: head}, r.BatchSize)
		if err != nil {
			return pos, err
		}
		if len(page.Events) > 0 {
			next, err := r.applyBatch(ctx, p, page.Events)
			if err != nil {
				return pos, err
			}
			pos = max(pos, next, page.Events[len(page.Events)-1].Position)
		}
		read = stepped(ctx, read, page.Through)
	}
	return pos, nil
}

// stepped returns through, the position a read of the log is complete up
// to, pausing a moment first when the read came no further than from: its
// query ran under a lower settled bound than an earlier one did (see
// eventstore.Page), which the next query, a moment later, no longer has.
func stepped(ctx context.Context, from, through int64) int64 {
	if through <= from {
		select {
		case <-ctx.Done():
		case <-time.After(time.Millisecond):
		}
	}
	return through
}

func (r *Runner) start(ctx context.Context, p Projector) (int64, error) {
	q := sqlcdb.New(r.pool)
	if err := q.EnsureCheckpoint(ctx, p.Name()); err != nil {
		return 0, fmt.Errorf("projection %s: create checkpoint: %w", p.Name(), err)
	}
	return r.Checkpoint(ctx, p.Name())
}

// applyBatch applies the events of batch that lie beyond the checkpoint, and
// moves the checkpoint, in one transaction. It returns the checkpoint after
// the batch.
func (r *Runner) applyBatch(ctx context.Context, p Projector, batch []eventstore.RecordedEvent) (int64, error) {
	var pos int64
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		q := sqlcdb.New(tx)
		// A batch writes read-model rows, never events: said before its
		// first write, the log's readers do not wait for it to end (every
		// write transaction of the database still in flight holds the
		// settled bound back otherwise, and the read models write all the
		// time).
		if err := q.DeclareNoAppends(ctx); err != nil {
			return fmt.Errorf("declare no appends: %w", err)
		}
		stored, err := q.LockCheckpoint(ctx, p.Name())
		if err != nil {
			return fmt.Errorf("lock checkpoint: %w", err)
		}
		pos = stored
		for _, e := range batch {
			if e.Position <= stored {
				continue // applied already, by another process
			}
			if err := p.Apply(ctx, tx, e); err != nil {
				return fmt.Errorf("apply event %s (%s, position %d): %w", e.EventID, e.Type, e.Position, err)
			}
			pos = e.Position
		}
		if pos == stored {
			return nil
		}
		return q.SaveCheckpoint(ctx, sqlcdb.SaveCheckpointParams{Name: p.Name(), Position: pos})
	})
	if err != nil {
		return 0, fmt.Errorf("projection %s: %w", p.Name(), err)
	}
	return pos, nil
}

// RebuildResult reports a rebuild.
type RebuildResult struct {
	Events   int64 // the log's events up to Position (a typed model reads only its own types)
	Position int64 // the new checkpoint
	Elapsed  time.Duration
}

// Rebuild folds p's tables again from the first event, in one
// transaction: it locks p's checkpoint, deletes the rows (DELETE, not
// TRUNCATE), applies every event up to the head, and saves the new
// checkpoint. Readers keep seeing the old rows, unblocked, until the
// commit swaps in the new ones; a live runner of p waits on the checkpoint
// lock meanwhile and then goes on from the new checkpoint. The cost is
// one long transaction (see `towow bench rebuild` for its speed), declared
// as appending nothing, so the log's readers do not wait for it.
func (r *Runner) Rebuild(ctx context.Context, p ReadModel) (RebuildResult, error) {
	start := time.Now()
	var res RebuildResult
	if _, err := r.start(ctx, p); err != nil {
		return res, err
	}
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		q := sqlcdb.New(tx)
		// A long transaction that writes would hold every event reader
		// back until it ends; this one appends nothing and says so first.
		if err := q.DeclareNoAppends(ctx); err != nil {
			return fmt.Errorf("declare no appends: %w", err)
		}
		if _, err := q.LockCheckpoint(ctx, p.Name()); err != nil {
			return fmt.Errorf("lock checkpoint: %w", err)
		}
		if err := p.Reset(ctx, tx); err != nil {
			return fmt.Errorf("reset: %w", err)
		}
		// Every event up to head has committed: the rebuild sees them all.
		head, err := r.store.HeadPosition(ctx)
		if err != nil {
			return err
		}
		if sr, ok := p.(SQLRebuilder); ok {
			if err := sr.RebuildUpTo(ctx, tx, head); err != nil {
				return fmt.Errorf("rebuild in SQL: %w", err)
			}
			res.Position = head
			if res.Events, err = r.store.CountBetween(ctx, 0, head); err != nil {
				return err
			}
			return q.SaveCheckpoint(ctx, sqlcdb.SaveCheckpointParams{Name: p.Name(), Position: head})
		}
		// The writes are pipelined: queued and sent in one round trip per
		// page of events read (a rebuild is write-only, and the whole
		// transaction rolls back on any error, so a failure reported at a
		// flush loses nothing).
		pipe := &pipeline{tx: tx}
		filter := eventstore.Filter{UntilPosition: head}
		if t, ok := p.(Typed); ok {
			filter.Types = t.Types()
		}
		for pos := int64(0); pos < head; {
			page, err := r.store.ReadPage(ctx, pos, filter, eventstore.MaxReadLimit)
			if err != nil {
				return err
			}
			batch := page.Events
			for _, e := range batch {
				if err := p.Apply(ctx, pipe, e); err != nil {
					return fmt.Errorf("apply event %s (%s, position %d): %w", e.EventID, e.Type, e.Position, err)
				}
			}
			if err := pipe.flush(ctx); err != nil {
				return fmt.Errorf("apply events up to position %d: %w", page.Through, err)
			}
			pos = stepped(ctx, pos, page.Through)
		}
		res.Position = head
		if res.Events, err = r.store.CountBetween(ctx, 0, head); err != nil {
			return err
		}
		return q.SaveCheckpoint(ctx, sqlcdb.SaveCheckpointParams{Name: p.Name(), Position: head})
	})
	res.Elapsed = time.Since(start)
	if err != nil {
		return res, fmt.Errorf("rebuild projection %s: %w", p.Name(), err)
	}
	return res, nil
}

// Lag returns how many events each named projector's checkpoint trails the
// log's settled head by (positions are sparse, so their difference is not a
// count): two queries however many names.
func (r *Runner) Lag(ctx context.Context, names ...string) (map[string]int64, error) {
	head, err := r.store.HeadPosition(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := sqlcdb.New(r.pool).ProjectionLags(ctx, sqlcdb.ProjectionLagsParams{Names: names, Head: head})
	if err != nil {
		return nil, fmt.Errorf("projection lag: %w", err)
	}
	out := make(map[string]int64, len(rows))
	for _, row := range rows {
		out[row.Name] = row.Events
	}
	return out, nil
}

// RunForever runs p until ctx ends, restarting it (with backoff, logged)
// after a failure.
func (r *Runner) RunForever(ctx context.Context, p Projector) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := r.Run(ctx, p)
		if ctx.Err() != nil {
			return
		}
		r.logger.Error("projection stopped; restarting", "projection", p.Name(), "err", err, "backoff", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 30*time.Second)
	}
}

// WaitFor waits until every named read model's checkpoint reaches pos
// (read-your-writes), polling every few milliseconds, until ctx ends.
func (r *Runner) WaitFor(ctx context.Context, pos int64, names ...string) error {
	for _, n := range names {
		for {
			cp, err := r.Checkpoint(ctx, n)
			if err != nil {
				return err
			}
			if cp >= pos {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("projection %s at %d, waiting for %d: %w", n, cp, pos, ctx.Err())
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	return nil
}
