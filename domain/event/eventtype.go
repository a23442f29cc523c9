package event

import "strings"

// EventType names one kind of event, e.g. "towow.demand.submitted".
//
// Every event type has the shape "towow.<noun>.<verb>" (see [EventType.Valid])
// and is registered in the catalog (see [Spec]).
type EventType string

// EventTypePrefix starts every ToWow event type. It keeps ToWow events apart
// from other systems' events.
const EventTypePrefix = "towow."

// String returns the event type name.
func (t EventType) String() string { return string(t) }

// Valid reports whether t has the shape of a ToWow event type:
// [EventTypePrefix] followed by exactly two dot-separated segments, each a
// lowercase letter followed by lowercase letters, digits or underscores
// ("towow.channel.invite_sent"). It does not consult the catalog; use [Spec]
// to know whether t is a registered type.
func (t EventType) Valid() bool {
	rest, ok := strings.CutPrefix(string(t), EventTypePrefix)
	if !ok {
		return false
	}
	segments := strings.Split(rest, ".")
	if len(segments) != 2 {
		return false
	}
	for _, s := range segments {
		if !validSegment(s) {
			return false
		}
	}
	return true
}

// validSegment reports whether s may be one dot-separated segment of an
// event type name: lower-case ASCII letters, digits and underscores,
// starting with a letter.
func validSegment(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// JoinNames lists named values (event types, node types, change types) for
// an error message: "a, b, c".
func JoinNames[T ~string](ts []T) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
