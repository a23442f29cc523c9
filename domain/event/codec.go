package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// Errors returned by [EncodePayload] and [DecodePayload], wrapped with
// context; test for them with errors.Is.
var (
	// ErrUnknownEventType: the event type is not registered in the catalog.
	ErrUnknownEventType = errors.New("unknown event type")
	// ErrUnknownSchemaVersion: the schema version is neither the current one
	// of the event type nor one an upcaster chain leads up from.
	ErrUnknownSchemaVersion = errors.New("unknown schema version")
	// ErrInvalidPayload: the payload is not a JSON object matching the
	// registered struct, or a Go value that cannot be encoded as one.
	ErrInvalidPayload = errors.New("invalid event payload")
)

// EncodePayload encodes p as a JSON object and returns it with its event
// type and current schema version, ready to be stored (put the version in
// [Metadata].SchemaVersion). p must be a non-nil pointer to the payload type
// registered for p.EventType().
func EncodePayload(p Payload) (EventType, int, []byte, error) {
	if p == nil {
		return "", 0, nil, fmt.Errorf("domain: encode payload: %w: nil payload", ErrInvalidPayload)
	}
	t := p.EventType()
	spec, ok := registry[t]
	if !ok {
		return "", 0, nil, fmt.Errorf("domain: encode payload: %w %q", ErrUnknownEventType, t)
	}
	if want := reflect.TypeOf(spec.New()); reflect.TypeOf(p) != want {
		return "", 0, nil, fmt.Errorf("domain: encode %s payload: %w: got %T, want %v", t, ErrInvalidPayload, p, want)
	}
	if reflect.ValueOf(p).IsNil() {
		return "", 0, nil, fmt.Errorf("domain: encode %s payload: %w: nil %T", t, ErrInvalidPayload, p)
	}
	data, err := json.Marshal(p)
	if err != nil {
		return "", 0, nil, fmt.Errorf("domain: encode %s payload: %w: %w", t, ErrInvalidPayload, err)
	}
	return t, spec.SchemaVersion, data, nil
}

// DecodePayload decodes the JSON object data, stored at schemaVersion, into
// the payload type registered for t, upcasting it first if schemaVersion is
// older than the current version. It returns a pointer, e.g.
// *DemandSubmitted.
//
// Decoding is strict. It rejects an unknown type ([ErrUnknownEventType]), an
// unknown version ([ErrUnknownSchemaVersion]), and ([ErrInvalidPayload])
// data that is not a JSON object (including null), that has a field the
// struct does not have, a value of the wrong JSON type, or anything after
// the object. Unknown fields are rejected rather than ignored because the
// schema version governs every change of shape: a field this build does not
// know means data written by a newer schema that this build would silently
// lose, which must not happen in an event store. (As everywhere in
// encoding/json, object keys match field names case-insensitively and
// absent fields keep their zero value.)
func DecodePayload(t EventType, schemaVersion int, data []byte) (Payload, error) {
	spec, ok := registry[t]
	if !ok {
		return nil, fmt.Errorf("domain: decode payload: %w %q", ErrUnknownEventType, t)
	}
	if err := spec.checkVersion(schemaVersion); err != nil {
		return nil, err
	}
	if !isJSONObject(data) {
		return nil, fmt.Errorf("domain: decode %s v%d payload: %w: not a JSON object", t, schemaVersion, ErrInvalidPayload)
	}
	data, err := spec.upcast(schemaVersion, data)
	if err != nil {
		return nil, err
	}
	p := spec.New()
	if err := decodeStrict(data, p); err != nil {
		return nil, fmt.Errorf("domain: decode %s v%d payload: %w", t, schemaVersion, err)
	}
	return p, nil
}

// decodeStrict decodes the single JSON object data into v, rejecting
// unknown fields and trailing data.
func decodeStrict(data []byte, v any) error {
	if !isJSONObject(data) {
		return fmt.Errorf("%w: not a JSON object", ErrInvalidPayload)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: trailing data after the JSON object", ErrInvalidPayload)
	}
	return nil
}

// isJSONObject reports whether data, after leading JSON whitespace, starts
// an object. The decoder checks the rest.
func isJSONObject(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) > 0 && data[0] == '{'
}
