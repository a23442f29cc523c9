// Package event is the event catalog of the ToWow domain: the name of every
// fact the system records ([EventType], "towow.<noun>.<verb>"), the typed
// [Payload] it carries, the JSON codec ([EncodePayload], [DecodePayload]),
// schema versions and upcasters ([EventSpec]), the [Metadata] stored with
// every event, and the coded [Error] every context returns.
//
// Each context registers its own event types from an init function
// ([Register]); the catalog holds no context's types itself. Decoding is
// strict: an unknown type, an unknown schema version or an unknown field
// fails loudly. Any change to a payload's JSON shape bumps its schema
// version, and older stored versions are upgraded on read by the
// upcasters of its spec.
//
// The package imports only the Go standard library and performs no I/O.
package event
