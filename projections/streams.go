package projections

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// Streams keeps one row per event stream: its version, event count, first
// and last position, last event type and correlation id.
type Streams struct{ modelMethods[Streams] }

// Model declares the streams read model.
func (Streams) Model() Model { return streamsModel }

var streamsModel = Model{
	Name:     "streams",
	Apply:    applyStream,
	Reset:    (*sqlcdb.Queries).DeleteStreams,
	Rebuild:  (*sqlcdb.Queries).RebuildStreams,
	Checksum: fingerprint((*sqlcdb.Queries).ChecksumStreams),
}

func applyStream(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, _ event.Payload) error {
	return q.UpsertStream(ctx, sqlcdb.UpsertStreamParams{
		StreamID:      e.StreamID,
		Version:       e.StreamVersion,
		Position:      e.Position,
		EventType:     string(e.Type),
		CorrelationID: pgtype.Text{String: e.Metadata.CorrelationID, Valid: e.Metadata.CorrelationID != ""},
		RecordedAt:    e.RecordedAt,
	})
}

// StreamView is one row of the streams read model.
type StreamView struct {
	StreamID      string    `json:"stream_id"`
	Version       int64     `json:"version"`
	EventCount    int64     `json:"event_count"`
	FirstPosition int64     `json:"first_position"`
	LastPosition  int64     `json:"last_position"`
	LastEventType string    `json:"last_event_type"`
	CorrelationID string    `json:"correlation_id,omitempty"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// ErrNotFound is returned for an id with no read-model row.
var ErrNotFound = errors.New("not found")

// DB is what the read functions need: a pool, a connection or a
// transaction.
type DB interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
	Query(context.Context, string, ...any) (pgx.Rows, error)
	QueryRow(context.Context, string, ...any) pgx.Row
}

// GetStream returns one stream's row, or ErrNotFound.
func GetStream(ctx context.Context, db DB, streamID string) (StreamView, error) {
	s, err := sqlcdb.New(db).GetStream(ctx, streamID)
	if errors.Is(err, pgx.ErrNoRows) {
		return StreamView{}, fmt.Errorf("stream %q: %w", streamID, ErrNotFound)
	}
	if err != nil {
		return StreamView{}, fmt.Errorf("stream %q: %w", streamID, err)
	}
	return streamView(s), nil
}

// ListStreams returns up to limit streams ordered by id, after the stream
// id afterID ("" for the first page), optionally only one negotiation tree.
func ListStreams(ctx context.Context, db DB, correlationID, afterID string, limit int) ([]StreamView, error) {
	if limit <= 0 || limit > 1000 {
		limit = 100
	}
	rows, err := sqlcdb.New(db).ListStreams(ctx, sqlcdb.ListStreamsParams{
		CorrelationID: pgtype.Text{String: correlationID, Valid: correlationID != ""},
		AfterStreamID: afterID,
		MaxCount:      int32(limit),
	})
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	out := make([]StreamView, len(rows))
	for i, r := range rows {
		out[i] = streamView(r)
	}
	return out, nil
}

func streamView(s sqlcdb.Stream) StreamView {
	return StreamView{
		StreamID: s.StreamID, Version: s.Version, EventCount: s.EventCount,
		FirstPosition: s.FirstPosition, LastPosition: s.LastPosition, LastEventType: s.LastEventType,
		CorrelationID: s.CorrelationID.String, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
	}
}
