package projections

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/internal/sqlcdb"
)

// sqlPayloadVersion is the payload schema version the SQL rebuilds
// (RebuildDemands, RebuildChannels, ..., in queries/) read: they take the
// stored JSON as it is, with no upcaster. A model whose event types moved
// on refuses its SQL rebuild until the SQL learns the new shape.
const sqlPayloadVersion = 1

// startSQLRebuild prepares tx for the SQL rebuild of a model folding types:
// it checks that SQL may read their payloads as stored (checkSQLPayloads)
// and has every statement of the transaction planned for its own head bound
// (a cached generic plan, after a few rebuilds on one connection, is several
// times slower).
func startSQLRebuild(ctx context.Context, tx pgx.Tx, types []domain.EventType) (*sqlcdb.Queries, error) {
	if err := checkSQLPayloads(types); err != nil {
		return nil, err
	}
	q := sqlcdb.New(tx)
	if err := q.UseCustomPlans(ctx); err != nil {
		return nil, fmt.Errorf("use custom plans: %w", err)
	}
	return q, nil
}

// checkSQLPayloads returns an error unless every type in types is at
// sqlPayloadVersion with no upcaster, so that the stored payloads, read
// directly by SQL, are what Apply decodes.
func checkSQLPayloads(types []domain.EventType) error {
	for _, t := range types {
		spec, ok := domain.Spec(t)
		if !ok {
			return fmt.Errorf("event type %s is not registered", t)
		}
		if spec.SchemaVersion != sqlPayloadVersion || len(spec.Upcasters) > 0 {
			return fmt.Errorf("%s payloads are at schema version %d: the SQL rebuild reads version %d only (update it)",
				t, spec.SchemaVersion, sqlPayloadVersion)
		}
	}
	return nil
}

// reencode returns the JSON raw decoded into a T and encoded again: what
// Apply stores for a payload field of type T (json.Marshal of the decoded
// struct). The SQL rebuilds copy such fields as stored and hand back the
// few values that may differ from this (a field missing, a null, an
// omitempty zero value, a time not in Go's form: for proposals, the SQL
// function towow_proposal_unlike_go in migrations/), to be rewritten.
func reencode[T any](raw json.RawMessage) (json.RawMessage, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("decode %T: %w", v, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", v, err)
	}
	return out, nil
}
