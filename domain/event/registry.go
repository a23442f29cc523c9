package event

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Upcaster rewrites the JSON object of one schema version of a payload into
// the JSON object of the next version (v → v+1).
type Upcaster func(data []byte) ([]byte, error)

// EventSpec describes one registered event type.
//
// # Changing a payload
//
// Any change to a payload's JSON shape, even a new optional field, is a new
// schema version, because [DecodePayload] rejects unknown fields. To make
// one: change the struct, replace its event.NewSpec entry (in the init of
// the file that declares the type) by an EventSpec literal with the next
// SchemaVersion, and add Upcasters[old] — a function that rewrites the JSON of
// the old version into the new one (add the field's default, rename a key,
// ...). Stored events keep their version; DecodePayload runs the chain of
// upcasters from the stored version up to the current one before decoding,
// so code only ever sees the current struct. A version without a complete
// chain is rejected with [ErrUnknownSchemaVersion].
type EventSpec struct {
	// Type is the event type name.
	Type EventType
	// SchemaVersion is the current version of the payload schema; events are
	// encoded at this version.
	SchemaVersion int
	// Summary is a one-line English description, for generated docs.
	Summary string
	// New returns a new, zero payload of the registered type (a pointer,
	// e.g. *DemandSubmitted).
	New func() Payload
	// Upcasters maps an older version v to the function that upgrades the
	// JSON of version v to version v+1. Nil while SchemaVersion is 1.
	Upcasters map[int]Upcaster
}

// KnownVersions returns, in ascending order, the schema versions
// [DecodePayload] accepts for this type: the current one and every older
// one that a complete chain of upcasters leads up from.
func (s EventSpec) KnownVersions() []int {
	versions := []int{s.SchemaVersion}
	for v := s.SchemaVersion - 1; v >= 1 && s.Upcasters[v] != nil; v-- {
		versions = append(versions, v)
	}
	slices.Reverse(versions)
	return versions
}

// checkVersion returns an [ErrUnknownSchemaVersion] error unless v is one
// of s.KnownVersions().
func (s EventSpec) checkVersion(v int) error {
	known := s.KnownVersions()
	if !slices.Contains(known, v) {
		return fmt.Errorf("domain: decode %s payload: %w %d (known versions: %s)",
			s.Type, ErrUnknownSchemaVersion, v, joinInts(known))
	}
	return nil
}

// upcast brings data from schema version v, which must be known, up to
// s.SchemaVersion.
func (s EventSpec) upcast(v int, data []byte) ([]byte, error) {
	for ; v < s.SchemaVersion; v++ {
		up, err := s.Upcasters[v](data)
		if err != nil {
			return nil, fmt.Errorf("domain: upcast %s payload from v%d to v%d: %w", s.Type, v, v+1, err)
		}
		data = up
	}
	return data, nil
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// NewSpec returns the version 1 spec of payload type T; the event type is
// taken from T itself, so Type and New cannot disagree.
func NewSpec[T any, PT interface {
	*T
	Payload
}](summary string) EventSpec {
	return EventSpec{
		Type:          PT(new(T)).EventType(),
		SchemaVersion: 1,
		Summary:       summary,
		New:           func() Payload { return PT(new(T)) },
	}
}

// checkSpec validates one catalog entry before it is registered: a valid
// type name, a schema version, a summary and a payload constructor whose
// payload reports the same type, and upcasters only for earlier versions.
func checkSpec(s EventSpec) error {
	switch {
	case !s.Type.Valid():
		return fmt.Errorf("malformed event type %q", s.Type)
	case s.SchemaVersion < 1:
		return fmt.Errorf("%s: schema version %d < 1", s.Type, s.SchemaVersion)
	case s.Summary == "":
		return fmt.Errorf("%s: empty summary", s.Type)
	case s.New == nil || s.New() == nil:
		return fmt.Errorf("%s: no payload constructor", s.Type)
	case s.New().EventType() != s.Type:
		return fmt.Errorf("%s: payload %T reports type %s", s.Type, s.New(), s.New().EventType())
	}
	for v, up := range s.Upcasters {
		if v < 1 || v >= s.SchemaVersion || up == nil {
			return fmt.Errorf("%s: bad upcaster for version %d", s.Type, v)
		}
	}
	return nil
}

// Spec returns the registered spec of t.
func Spec(t EventType) (EventSpec, bool) {
	s, ok := registry[t]
	s.Upcasters = maps.Clone(s.Upcasters)
	return s, ok
}

// Catalog returns every registered spec, sorted by Type, for documentation
// generation.
func Catalog() []EventSpec {
	out := make([]EventSpec, 0, len(registry))
	for _, s := range registry {
		s.Upcasters = maps.Clone(s.Upcasters)
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b EventSpec) int { return strings.Compare(string(a.Type), string(b.Type)) })
	return out
}
