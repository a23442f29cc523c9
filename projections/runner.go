package projections

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// Projector folds events into read-model rows.
type Projector interface {
	// Name identifies the projector and its checkpoint.
	Name() string
	// Apply applies one event inside tx, writing only the projector's own
	// tables. Events the projector does not care about are ignored (return
	// nil). An error rolls the whole batch back and stops the runner.
	Apply(ctx context.Context, tx pgx.Tx, e eventstore.RecordedEvent) error
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
	for pos < head {
		batch, err := r.store.ReadAll(ctx, pos, eventstore.Filter{UntilPosition: head}, r.BatchSize)
		if err != nil {
			return pos, err
		}
		if len(batch) == 0 {
			break
		}
		next, err := r.applyBatch(ctx, p, batch)
		if err != nil {
			return pos, err
		}
		pos = max(next, batch[len(batch)-1].Position)
	}
	return pos, nil
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

// Lag returns how many positions each named projector's checkpoint trails
// the log's head.
func (r *Runner) Lag(ctx context.Context, names ...string) (map[string]int64, error) {
	head, err := r.store.HeadPosition(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(names))
	for _, n := range names {
		pos, err := r.Checkpoint(ctx, n)
		if err != nil {
			return nil, err
		}
		out[n] = head - pos
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
