package eventstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/towow/towow/domain/event"
)

// ExpectedVersion is the optimistic-concurrency condition of an append: a
// stream version (n >= 1 means "the stream is exactly at n"), NoStream or
// AnyVersion.
type ExpectedVersion int64

const (
	// AnyVersion skips the version check.
	AnyVersion ExpectedVersion = -1
	// NoStream requires that the stream has no events yet.
	NoStream ExpectedVersion = 0
)

// String renders the condition for error messages.
func (v ExpectedVersion) String() string {
	switch {
	case v == AnyVersion:
		return "any"
	case v == NoStream:
		return "no stream"
	case v < 0:
		return "invalid(" + strconv.FormatInt(int64(v), 10) + ")"
	default:
		return strconv.FormatInt(int64(v), 10)
	}
}

// EventData is an event to append.
type EventData struct {
	// ID identifies the event for idempotency. If zero, AppendTx assigns a
	// UUIDv7; set it yourself when a retry must not append twice.
	ID       uuid.UUID
	Type     event.EventType
	Payload  json.RawMessage // a JSON object
	Metadata event.Metadata  // SchemaVersion 0: the catalog's current version (1 for unregistered types)
}

// NewEvent encodes a typed domain payload into EventData, setting the
// metadata's schema version from the event catalog.
func NewEvent(id uuid.UUID, p event.Payload, md event.Metadata) (EventData, error) {
	t, v, data, err := event.EncodePayload(p)
	if err != nil {
		return EventData{}, fmt.Errorf("encode event: %w", err)
	}
	md.SchemaVersion = v
	return EventData{ID: id, Type: t, Payload: data, Metadata: md}, nil
}

// RecordedEvent is an event as stored.
type RecordedEvent struct {
	Position      int64 // global cursor: ordered by transaction id, then append order (see the package doc)
	EventID       uuid.UUID
	StreamID      string
	StreamVersion int64
	Type          event.EventType
	Payload       json.RawMessage
	Metadata      event.Metadata
	RecordedAt    time.Time
}

// Decode decodes the payload through the event catalog, using the stored
// schema version.
func (e RecordedEvent) Decode() (event.Payload, error) {
	p, err := event.DecodePayload(e.Type, e.Metadata.SchemaVersion, e.Payload)
	if err != nil {
		return nil, fmt.Errorf("event %s at position %d: %w", e.EventID, e.Position, err)
	}
	return p, nil
}

// MaxStreamIDLength is the longest accepted stream id, in bytes.
const MaxStreamIDLength = 200

var eventTypeRE = regexp.MustCompile(`^towow(\.[a-z0-9_]+)+$`)

// validEventType mirrors the events_event_type_check constraint.
func validEventType(t event.EventType) bool { return eventTypeRE.MatchString(string(t)) }

// validateAppend checks an append call before it reaches the database and
// fills in defaults (ids, schema versions). It returns the encoded metadata.
func (s *Store) validateAppend(streamID string, expected ExpectedVersion, events []EventData) ([]json.RawMessage, error) {
	switch {
	case streamID == "":
		return nil, &InvalidEventError{Index: -1, Reason: "stream id is empty"}
	case len(streamID) > MaxStreamIDLength:
		return nil, &InvalidEventError{Index: -1, Reason: fmt.Sprintf("stream id is %d bytes, over the %d-byte limit", len(streamID), MaxStreamIDLength)}
	case len(events) == 0:
		return nil, &InvalidEventError{Index: -1, Reason: "no events to append"}
	case expected < AnyVersion:
		return nil, &InvalidEventError{Index: -1, Reason: "expected version " + expected.String()}
	}
	seen := make(map[uuid.UUID]int, len(events))
	metas := make([]json.RawMessage, len(events))
	for i := range events {
		e := &events[i]
		if e.ID == uuid.Nil {
			id, err := uuid.NewV7()
			if err != nil {
				return nil, fmt.Errorf("generate event id: %w", err)
			}
			e.ID = id
		}
		if j, dup := seen[e.ID]; dup {
			return nil, &InvalidEventError{Index: i, Reason: fmt.Sprintf("event id %s repeats event #%d", e.ID, j)}
		}
		seen[e.ID] = i
		if !validEventType(e.Type) {
			return nil, &InvalidEventError{Index: i, Reason: fmt.Sprintf("event type %q must be %q followed by dot-separated lowercase words", e.Type, event.EventTypePrefix)}
		}
		if len(e.Payload) > s.opts.MaxPayloadBytes {
			return nil, &InvalidEventError{Index: i, Reason: fmt.Sprintf("payload is %d bytes, over the %d-byte limit", len(e.Payload), s.opts.MaxPayloadBytes)}
		}
		if !isJSONObject(e.Payload) {
			return nil, &InvalidEventError{Index: i, Reason: "payload is not a JSON object"}
		}
		if e.Metadata.SchemaVersion == 0 {
			// A registered type is stored at the catalog's current version
			// (NewEvent sets it too); an unregistered one at 1.
			e.Metadata.SchemaVersion = 1
			if spec, ok := event.Spec(e.Type); ok {
				e.Metadata.SchemaVersion = spec.SchemaVersion
			}
		}
		if e.Metadata.SchemaVersion < 0 {
			return nil, &InvalidEventError{Index: i, Reason: fmt.Sprintf("schema version %d is negative", e.Metadata.SchemaVersion)}
		}
		md, err := json.Marshal(e.Metadata)
		if err != nil {
			return nil, &InvalidEventError{Index: i, Reason: "metadata: " + err.Error()}
		}
		if hasEscapedNUL(md) {
			return nil, &InvalidEventError{Index: i, Reason: "metadata contains a NUL character"}
		}
		metas[i] = md
	}
	return metas, nil
}

// isJSONObject reports whether b is one valid JSON object (surrounding
// whitespace allowed). PostgreSQL's jsonb also rejects \u0000 in strings, so
// that is refused here too, before the database.
func isJSONObject(b []byte) bool {
	t := bytes.TrimSpace(b)
	if len(t) < 2 || t[0] != '{' || !json.Valid(t) {
		return false
	}
	return !hasEscapedNUL(t)
}

// hasEscapedNUL reports whether valid JSON text contains the escape \u0000
// (preceded by an even number of backslashes, so not an escaped backslash
// followed by the letters "u0000").
func hasEscapedNUL(b []byte) bool {
	for i := bytes.Index(b, []byte(`\u0000`)); i >= 0; {
		n := 0
		for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return true
		}
		next := bytes.Index(b[i+1:], []byte(`\u0000`))
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}
