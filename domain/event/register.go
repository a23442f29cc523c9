package event

import "fmt"

// registry indexes the registered specs by type. Each context fills it from
// its init function, so it is complete before main or any test runs; it is
// only read afterwards.
var registry = map[EventType]EventSpec{}

// Register adds the specs of one context's event types to the catalog. A
// context calls it once, from an init function. It panics on a malformed
// spec or on a type registered twice, so a bad catalog stops the program at
// start-up.
func Register(specs ...EventSpec) {
	for _, s := range specs {
		if err := checkSpec(s); err != nil {
			panic(fmt.Sprintf("event: invalid event catalog: %v", err))
		}
		if _, dup := registry[s.Type]; dup {
			panic("event: invalid event catalog: duplicate event type " + string(s.Type))
		}
		registry[s.Type] = s
	}
}
