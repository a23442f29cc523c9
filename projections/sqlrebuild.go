package projections

import (
	"encoding/json"
	"fmt"

	"github.com/towow/towow/domain"
)

// sqlPayloadVersion is the payload schema version the SQL rebuilds (each
// Model's Rebuild: RebuildDemands, RebuildChannels, ..., in queries/) read:
// they take the stored JSON as it is, with no upcaster. A model whose event
// types moved on refuses its SQL rebuild until the SQL learns the new
// shape.
const sqlPayloadVersion = 1

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
