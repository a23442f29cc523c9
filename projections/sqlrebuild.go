package projections

import (
	"fmt"

	"github.com/towow/towow/domain/event"
)

// sqlPayloadVersion is the payload schema version the SQL rebuilds (each
// Model's Rebuild: RebuildDemands, RebuildChannels, ..., in queries/) read:
// they take the stored JSON as it is, with no upcaster. A model whose event
// types moved on refuses its SQL rebuild until the SQL learns the new
// shape. The live folds store some payload members as recorded too (a
// proposal, an agent's profile), as the SQL does: a new schema version of
// those types must update both.
const sqlPayloadVersion = 1

// checkSQLPayloads returns an error unless every type in types is at
// sqlPayloadVersion with no upcaster, so that the stored payloads, read
// directly by SQL, are what Apply decodes.
func checkSQLPayloads(types []event.EventType) error {
	for _, t := range types {
		spec, ok := event.Spec(t)
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
