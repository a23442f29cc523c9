package event

import "testing"

// RegisterForTest replaces the registry entry of s.Type for one test.
func RegisterForTest(t *testing.T, s EventSpec) {
	t.Helper()
	if err := checkSpec(s); err != nil {
		t.Fatal(err)
	}
	old, had := registry[s.Type]
	registry[s.Type] = s
	t.Cleanup(func() {
		if had {
			registry[s.Type] = old
		} else {
			delete(registry, s.Type)
		}
	})
}

// CheckSpec and ValidSegment expose the catalog's entry and name checks
// to the external tests.
var (
	CheckSpec    = checkSpec
	ValidSegment = validSegment
)
