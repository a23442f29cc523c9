package eventstore

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/internal/sqlcdb"
)

// DefaultMaxPayloadBytes is the default payload size limit (256 KiB).
const DefaultMaxPayloadBytes = 256 << 10

// Options configures a Store.
type Options struct {
	// MaxPayloadBytes limits one event's payload; 0 means DefaultMaxPayloadBytes.
	MaxPayloadBytes int
	// Personal, when set, reveals the personal texts sealed in events for
	// the readers that work on their content: DecodeStream, Fold, Decode
	// and Reveal. ReadStream, ReadAll and the subscriptions hand events on
	// as stored, sealed.
	Personal Revealer
}

// Revealer puts the plaintext back in place of every sealed text in a
// text (*personal.Keys); with escape, the text is a JSON document.
type Revealer interface {
	Reveal(ctx context.Context, text string, escape bool) (string, error)
}

// Store appends to and reads from the events table.
type Store struct {
	pool *pgxpool.Pool
	q    *sqlcdb.Queries
	// qc runs queries whose best plan depends on which optional filters are
	// set; see customPlans.
	qc   *sqlcdb.Queries
	opts Options
	// announce tells listeners that events committed (Committed).
	announce *announcer
	// settle is shared by WaitSettled's callers.
	settle *settleWatch
	// highest is the highest settled bound any read of this store (and its
	// copies) ran under; see ReadPage.
	highest *atomic.Int64
	// inTx: reads run inside a caller's transaction (In), whose snapshot
	// a second look would not move.
	inTx bool
}

// New returns a Store on pool.
func New(pool *pgxpool.Pool, opts Options) *Store {
	if opts.MaxPayloadBytes <= 0 {
		opts.MaxPayloadBytes = DefaultMaxPayloadBytes
	}
	return &Store{pool: pool, q: sqlcdb.New(pool), qc: sqlcdb.New(customPlans{pool}), opts: opts,
		announce: &announcer{q: sqlcdb.New(pool)}, settle: newSettleWatch(), highest: new(atomic.Int64)}
}

// Committed tells every Notifier (in this process and others) that events
// were committed: it sends one NOTIFY on NotifyChannel, in a transaction of
// its own, soon after. Calls while one is being sent are folded into one
// more. Append calls it itself; a caller of AppendTx calls it after its
// commit. Without it, subscriptions find the events at their next poll.
func (s *Store) Committed() { s.announce.poke() }

// In returns a Store whose reads run inside tx (appends always take their
// transaction as an argument). A step that serializes on a stream lock reads
// the stream in the same transaction it appends in.
func (s *Store) In(tx pgx.Tx) *Store {
	c := *s
	c.q = s.q.WithTx(tx)
	c.qc = sqlcdb.New(customPlans{tx})
	c.inTx = true
	return &c
}

// LockStreams takes the write locks of streams, in the order given (sort
// them: two writers locking the same streams in different orders could
// wait on each other), held until tx ends — the lock every append to them
// takes — and returns each stream's version once they are all held: no
// other writer can move them until tx ends.
func (s *Store) LockStreams(ctx context.Context, tx pgx.Tx, streams []string) (map[string]int64, error) {
	versions, _, err := s.lockStreams(ctx, tx, streams, true)
	return versions, err
}

// TryLockStreams is LockStreams without waiting: when another transaction
// holds one of the streams' locks it reports false (and tx may hold some of
// the others: roll it back). Locks that are taken without waiting may be
// taken in any order.
func (s *Store) TryLockStreams(ctx context.Context, tx pgx.Tx, streams []string) (map[string]int64, bool, error) {
	return s.lockStreams(ctx, tx, streams, false)
}

// lockStreams is LockStreams (wait) or TryLockStreams; it reports whether
// it holds every lock.
func (s *Store) lockStreams(ctx context.Context, tx pgx.Tx, streams []string, wait bool) (map[string]int64, bool, error) {
	q := s.q.WithTx(tx)
	var rows []sqlcdb.LockStreamsRow
	var err error
	if wait {
		rows, err = q.LockStreams(ctx, streams)
	} else {
		var tried []sqlcdb.TryLockStreamsRow
		tried, err = q.TryLockStreams(ctx, streams)
		for _, r := range tried {
			rows = append(rows, sqlcdb.LockStreamsRow(r))
		}
	}
	if err != nil {
		return nil, false, fmt.Errorf("lock streams %q: %w", streams, err)
	}
	if len(rows) == 0 && len(streams) > 0 {
		return nil, false, nil // one was held elsewhere (TryLockStreams only)
	}
	versions := make(map[string]int64, len(rows))
	for _, r := range rows {
		versions[r.StreamID] = r.Version
	}
	return versions, true, nil
}

// AppendResult describes a successful append.
type AppendResult struct {
	StreamID string
	// FirstVersion and LastVersion are the stream versions of the first and
	// last appended event; LastVersion is the expected version for the next
	// append to this stream.
	FirstVersion, LastVersion int64
	// FirstPosition and LastPosition are their global positions. A caller
	// that waits for read models to catch up waits for LastPosition.
	FirstPosition, LastPosition int64
	// Duplicate is true when every event id was already stored in this
	// stream: nothing was written and the fields above describe the stored
	// events.
	Duplicate bool
}

// Append appends events to a stream in a transaction of its own: a single
// statement in autocommit mode, so one network round trip, and the
// stream's lock is held only while the server inserts and commits. It
// announces the commit (Committed) and returns once the events are settled
// (WaitSettled), so a read of the log that follows sees them; if a write
// transaction that began before stays open, it returns after
// SettleWaitMax all the same.
func (s *Store) Append(ctx context.Context, streamID string, expected ExpectedVersion, events ...EventData) (AppendResult, error) {
	res, err := s.appendOn(ctx, s.pool, streamID, expected, events)
	if err != nil {
		return res, err
	}
	if !res.Duplicate {
		s.Committed()
	}
	s.SettleBriefly(ctx, res.LastPosition)
	return res, nil
}

// AppendTx appends events to a stream inside tx, atomically, if the stream
// is at the expected version. It takes the stream's lock (LockStreams),
// held until tx ends; appends to other streams go on in parallel. Call
// Committed after committing tx.
//
// Errors: *InvalidEventError (nothing sent to the database),
// *VersionConflictError and ErrEventIDReused: in these cases nothing was
// written and tx is still usable. A *VersionConflictError also reports a
// transaction that took its id before the stream's last event was
// appended (it wrote something before this append, while another
// transaction appended to the stream): its events would be ordered before
// that event, so it must decide again in a new transaction. Any other
// error comes from the database (cancelled context, statement timeout,
// the same event id appended concurrently to another stream, ...) and has
// aborted tx.
func (s *Store) AppendTx(ctx context.Context, tx pgx.Tx, streamID string, expected ExpectedVersion, events ...EventData) (AppendResult, error) {
	return s.appendOn(ctx, tx, streamID, expected, events)
}

// querier is what appendOn needs of a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func (s *Store) appendOn(ctx context.Context, db querier, streamID string, expected ExpectedVersion, events []EventData) (AppendResult, error) {
	events = append([]EventData(nil), events...) // ids and defaults are filled in a copy
	metas, err := s.validateAppend(streamID, expected, events)
	if err != nil {
		return AppendResult{}, err
	}
	ids := make([]uuid.UUID, len(events))
	types := make([]string, len(events))
	payloads := make([]json.RawMessage, len(events))
	for i, e := range events {
		ids[i], types[i], payloads[i] = e.ID, string(e.Type), e.Payload
	}
	rows, err := db.Query(ctx, appendSQL, streamID, int64(expected), ids, types, payloads, metas)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append to %q: %w", streamID, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[appendRow])
	if err != nil {
		return AppendResult{}, fmt.Errorf("append to %q: %w", streamID, err)
	}
	if len(out) == 0 {
		return AppendResult{}, fmt.Errorf("append to %q: towow_append returned no rows", streamID)
	}
	switch out[0].Outcome {
	case "conflict":
		return AppendResult{}, &VersionConflictError{StreamID: streamID, Expected: expected, Actual: out[0].StreamVersion}
	case "duplicate":
		return duplicateResult(streamID, events, out)
	case "appended":
		if len(out) != len(events) {
			return AppendResult{}, fmt.Errorf("append to %q: inserted %d of %d events", streamID, len(out), len(events))
		}
		return AppendResult{
			StreamID:      streamID,
			FirstVersion:  out[0].StreamVersion,
			LastVersion:   out[len(out)-1].StreamVersion,
			FirstPosition: *out[0].GlobalPosition,
			LastPosition:  *out[len(out)-1].GlobalPosition,
		}, nil
	}
	return AppendResult{}, fmt.Errorf("append to %q: unknown outcome %q", streamID, out[0].Outcome)
}

// appendSQL calls the server-side append (migrations/00001_events.sql). It
// is the one statement not generated by sqlc: sqlc v1.31 cannot infer the
// columns of a set-returning function (see queries/events.sql).
const appendSQL = `SELECT outcome, global_position, stream_id, stream_version, event_id, event_type
FROM towow_append($1, $2, $3, $4, $5, $6)`

// appendRow is one row of towow_append's result.
type appendRow struct {
	Outcome        string
	GlobalPosition *int64 // nil for "conflict"
	StreamID       string
	StreamVersion  int64 // the actual version for "conflict"
	EventID        *uuid.UUID
	EventType      *string
}

// duplicateResult decides what an append whose ids are (partly) stored
// means: the same events appended again (idempotent no-op) or a reuse of ids
// by different events (an error).
func duplicateResult(streamID string, events []EventData, existing []appendRow) (AppendResult, error) {
	byID := make(map[uuid.UUID]appendRow, len(existing))
	for _, r := range existing {
		byID[*r.EventID] = r
	}
	res := AppendResult{StreamID: streamID, Duplicate: true}
	for i, e := range events {
		r, ok := byID[e.ID]
		switch {
		case !ok:
			return AppendResult{}, fmt.Errorf("append to %q: %w: %d of %d events are already stored; event #%d (%s) is not",
				streamID, ErrEventIDReused, len(existing), len(events), i, e.ID)
		case r.StreamID != streamID || event.EventType(*r.EventType) != e.Type:
			return AppendResult{}, fmt.Errorf("append to %q: %w: event %s is stored as %s in stream %q",
				streamID, ErrEventIDReused, e.ID, *r.EventType, r.StreamID)
		case i > 0 && r.StreamVersion != res.FirstVersion+int64(i):
			return AppendResult{}, fmt.Errorf("append to %q: %w: event %s is stored at version %d, not after event #%d",
				streamID, ErrEventIDReused, e.ID, r.StreamVersion, i-1)
		}
		if i == 0 {
			res.FirstVersion, res.FirstPosition = r.StreamVersion, *r.GlobalPosition
		}
		res.LastVersion, res.LastPosition = r.StreamVersion, *r.GlobalPosition
	}
	return res, nil
}

// customPlans runs every query as an unnamed statement
// (pgx.QueryExecModeExec), which PostgreSQL plans with the actual parameter
// values each time. The cached named statements pgx uses by default switch
// to one generic plan after five runs, which cannot skip unused "param IS
// NULL OR ..." filters nor pick the index that matches the filter in use.
type customPlans struct{ db sqlcdb.DBTX }

func (c customPlans) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return c.db.Exec(ctx, sql, append([]any{pgx.QueryExecModeExec}, args...)...)
}

func (c customPlans) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return c.db.Query(ctx, sql, append([]any{pgx.QueryExecModeExec}, args...)...)
}

func (c customPlans) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return c.db.QueryRow(ctx, sql, append([]any{pgx.QueryExecModeExec}, args...)...)
}
