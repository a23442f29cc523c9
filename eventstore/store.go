package eventstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/internal/sqlcdb"
)

// DefaultMaxPayloadBytes is the default payload size limit (256 KiB).
const DefaultMaxPayloadBytes = 256 << 10

// Options configures a Store.
type Options struct {
	// MaxPayloadBytes limits one event's payload; 0 means DefaultMaxPayloadBytes.
	MaxPayloadBytes int
}

// Store appends to and reads from the events table.
type Store struct {
	pool *pgxpool.Pool
	q    *sqlcdb.Queries
	opts Options
}

// New returns a Store on pool.
func New(pool *pgxpool.Pool, opts Options) *Store {
	if opts.MaxPayloadBytes <= 0 {
		opts.MaxPayloadBytes = DefaultMaxPayloadBytes
	}
	return &Store{pool: pool, q: sqlcdb.New(pool), opts: opts}
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

// Append appends events to a stream in a transaction of its own.
func (s *Store) Append(ctx context.Context, streamID string, expected ExpectedVersion, events ...EventData) (AppendResult, error) {
	var res AppendResult
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		res, err = s.AppendTx(ctx, tx, streamID, expected, events...)
		return err
	})
	return res, err
}

// AppendTx appends events to a stream inside tx, atomically, if the stream
// is at the expected version. It takes the store-wide append lock, which is
// held until tx ends: append as the last step before committing (enqueuing
// River jobs after it is fine).
//
// Errors: *InvalidEventError (nothing sent to the database),
// *VersionConflictError, ErrEventIDReused. In every error case nothing was
// written and tx is still usable.
func (s *Store) AppendTx(ctx context.Context, tx pgx.Tx, streamID string, expected ExpectedVersion, events ...EventData) (AppendResult, error) {
	events = append([]EventData(nil), events...) // ids and defaults are filled in a copy
	metas, err := s.validateAppend(streamID, expected, events)
	if err != nil {
		return AppendResult{}, err
	}
	q := s.q.WithTx(tx)
	if err := q.LockEvents(ctx); err != nil {
		return AppendResult{}, fmt.Errorf("append to %q: lock: %w", streamID, err)
	}
	ids := make([]uuid.UUID, len(events))
	for i, e := range events {
		ids[i] = e.ID
	}
	existing, err := q.FindEventsByID(ctx, ids)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append to %q: look up event ids: %w", streamID, err)
	}
	if len(existing) > 0 {
		return duplicateResult(streamID, events, existing)
	}
	current, err := q.StreamVersion(ctx, streamID)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append to %q: read version: %w", streamID, err)
	}
	if expected != AnyVersion && int64(expected) != current {
		return AppendResult{}, &VersionConflictError{StreamID: streamID, Expected: expected, Actual: current}
	}
	params := sqlcdb.InsertEventsParams{
		EventIds:       ids,
		StreamID:       streamID,
		StreamVersions: make([]int64, len(events)),
		EventTypes:     make([]string, len(events)),
		Payloads:       make([]json.RawMessage, len(events)),
		Metadatas:      make([]json.RawMessage, len(events)),
	}
	for i, e := range events {
		params.StreamVersions[i] = current + 1 + int64(i)
		params.EventTypes[i] = string(e.Type)
		params.Payloads[i] = e.Payload
		params.Metadatas[i] = metas[i]
	}
	rows, err := q.InsertEvents(ctx, params)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append to %q: insert: %w", streamID, err)
	}
	if len(rows) != len(events) {
		return AppendResult{}, fmt.Errorf("append to %q: inserted %d of %d events", streamID, len(rows), len(events))
	}
	res := AppendResult{StreamID: streamID, FirstVersion: current + 1, LastVersion: current + int64(len(events))}
	res.FirstPosition, res.LastPosition = rows[0].GlobalPosition, rows[0].GlobalPosition
	for _, r := range rows {
		res.FirstPosition = min(res.FirstPosition, r.GlobalPosition)
		res.LastPosition = max(res.LastPosition, r.GlobalPosition)
	}
	return res, nil
}

// duplicateResult decides what an append whose ids are (partly) stored
// means: the same events appended again (idempotent no-op) or a reuse of ids
// by different events (an error).
func duplicateResult(streamID string, events []EventData, existing []sqlcdb.FindEventsByIDRow) (AppendResult, error) {
	byID := make(map[uuid.UUID]sqlcdb.FindEventsByIDRow, len(existing))
	for _, r := range existing {
		byID[r.EventID] = r
	}
	res := AppendResult{StreamID: streamID, Duplicate: true}
	for i, e := range events {
		r, ok := byID[e.ID]
		switch {
		case !ok:
			return AppendResult{}, fmt.Errorf("append to %q: %w: %d of %d events are already stored; event #%d (%s) is not",
				streamID, ErrEventIDReused, len(existing), len(events), i, e.ID)
		case r.StreamID != streamID || domain.EventType(r.EventType) != e.Type:
			return AppendResult{}, fmt.Errorf("append to %q: %w: event %s is stored as %s in stream %q",
				streamID, ErrEventIDReused, e.ID, r.EventType, r.StreamID)
		case i > 0 && r.StreamVersion != res.FirstVersion+int64(i):
			return AppendResult{}, fmt.Errorf("append to %q: %w: event %s is stored at version %d, not after event #%d",
				streamID, ErrEventIDReused, e.ID, r.StreamVersion, i-1)
		}
		if i == 0 {
			res.FirstVersion, res.FirstPosition = r.StreamVersion, r.GlobalPosition
		}
		res.LastVersion, res.LastPosition = r.StreamVersion, r.GlobalPosition
	}
	return res, nil
}
