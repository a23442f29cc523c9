package projections

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// Model declares a read model, all in one place: its name, the event types
// it folds, how it applies one event (the live fold, and the specification
// of its rows), and how its tables are emptied, folded again from the log
// in set-based SQL, and fingerprinted.
//
// A read model is an empty struct type that embeds modelMethods of itself
// and returns its Model from its Model method; modelMethods derives the
// [ReadModel], [Typed] and [SQLRebuilder] methods from that declaration.
// Adding the type to [All] runs it in `towow serve`, and the rebuild tests
// (TestSQLRebuildEqualsFold, over every model of All) prove its Rebuild
// equal to its Apply row for row. A new event type or column is an edit of
// the model's declaration and of its queries (the live statement Apply
// runs and the Rebuild statement), which that test then checks.
//
// Reset, Rebuild and Checksum take the queries first, like a sqlcdb
// method, so a step that is one statement names its query directly
// ((*sqlcdb.Queries).DeleteStreams).
type Model struct {
	// Name identifies the read model and its checkpoint.
	Name string
	// Types are the event types Apply folds: Apply sees no other event (a
	// rebuild through Apply reads only these), and Rebuild's SQL reads
	// their payloads as stored. Nil: every event, undecoded (the model
	// reads the envelope and metadata, and decodes what it folds itself).
	Types []event.EventType
	// Apply folds one event through q (the batch's transaction, or a
	// pipelined rebuild: write only, never read back). p is the event's
	// decoded payload, one of Types; nil when Types is nil. An error rolls
	// the whole batch back and stops the runner.
	Apply func(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, p event.Payload) error
	// Reset deletes every row of the model's tables (inside a rebuild's
	// transaction, so readers keep the old rows until it commits).
	Reset func(q *sqlcdb.Queries, ctx context.Context) error
	// Rebuild folds the emptied tables again from the events up to head,
	// in SQL over the events table: the rows Apply would have written,
	// event by event. (A model whose rows are a Go fold, as Quality's
	// scores, may instead fold in Go through q, reading the log through
	// its queries.) It runs with custom plans and only while every type
	// in Types is at sqlPayloadVersion (see checkSQLPayloads).
	Rebuild func(q *sqlcdb.Queries, ctx context.Context, head int64) error
	// Checksum fingerprints the tables row for row (see fingerprint).
	Checksum func(q *sqlcdb.Queries, ctx context.Context) (Fingerprint, error)
}

// declared is a read-model type: its Model method returns its declaration.
type declared interface{ Model() Model }

// modelMethods gives a read-model type M (an empty struct embedding
// modelMethods[M]) the methods of [ReadModel], [Typed] and [SQLRebuilder],
// from M's Model. It holds nothing, so M{} is the read model.
type modelMethods[M declared] struct{}

func (modelMethods[M]) model() Model {
	var m M
	return m.Model()
}

// Name implements Projector.
func (d modelMethods[M]) Name() string { return d.model().Name }

// Types implements Typed.
func (d modelMethods[M]) Types() []event.EventType { return d.model().Types }

// Apply implements Projector: it decodes the event when it is one of the
// model's types (and ignores any other), then applies it.
func (d modelMethods[M]) Apply(ctx context.Context, db DB, e eventstore.RecordedEvent) error {
	m := d.model()
	var p event.Payload
	if m.Types != nil {
		if !slices.Contains(m.Types, e.Type) {
			return nil
		}
		var err error
		if p, err = e.Decode(); err != nil {
			return err
		}
	}
	return m.Apply(ctx, sqlcdb.New(db), e, p)
}

// Reset implements ReadModel.
func (d modelMethods[M]) Reset(ctx context.Context, tx pgx.Tx) error {
	return d.model().Reset(sqlcdb.New(tx), ctx)
}

// RebuildUpTo implements SQLRebuilder: it checks that SQL may read the
// model's payloads as stored, has every statement of the transaction
// planned for its own head bound (a cached generic plan, after a few
// rebuilds on one connection, is several times slower), and runs the
// model's Rebuild.
func (d modelMethods[M]) RebuildUpTo(ctx context.Context, tx pgx.Tx, head int64) error {
	m := d.model()
	if m.Rebuild == nil {
		return fmt.Errorf("read model %s declares no SQL rebuild", m.Name)
	}
	if err := checkSQLPayloads(m.Types); err != nil {
		return err
	}
	q := sqlcdb.New(tx)
	if err := q.UseCustomPlans(ctx); err != nil {
		return fmt.Errorf("use custom plans: %w", err)
	}
	return m.Rebuild(q, ctx, head)
}

// Checksum implements ReadModel.
func (d modelMethods[M]) Checksum(ctx context.Context, db DB) (Fingerprint, error) {
	return d.model().Checksum(sqlcdb.New(db), ctx)
}

// checksumRow is what every Checksum... query returns: the row count and
// the md5 of the rows in key order.
type checksumRow = struct {
	RowCount int64  `json:"row_count"`
	Checksum string `json:"checksum"`
}

// fingerprint turns a Checksum... query into a Model's Checksum.
func fingerprint[R ~checksumRow](query func(*sqlcdb.Queries, context.Context) (R, error)) func(*sqlcdb.Queries, context.Context) (Fingerprint, error) {
	return func(q *sqlcdb.Queries, ctx context.Context) (Fingerprint, error) {
		r, err := query(q, ctx)
		c := checksumRow(r)
		return Fingerprint{Rows: c.RowCount, MD5: c.Checksum}, err
	}
}

// All is every read model, in the order `towow serve` runs them.
func All() []ReadModel {
	return []ReadModel{Streams{}, Demands{}, Channels{}, LLMCalls{}, Agents{}, Quality{}, Workflows{}}
}

// Names lists the read models' names, in All's order.
func Names() []string {
	var out []string
	for _, m := range All() {
		out = append(out, m.Name())
	}
	return out
}

// ByName returns the read model called name.
func ByName(name string) (ReadModel, bool) {
	for _, p := range All() {
		if p.Name() == name {
			return p, true
		}
	}
	return nil, false
}
