// Package domain is the pure domain model of ToWow, the LLM-driven
// multi-agent negotiation backend.
//
// For now it holds the event catalog: every fact the system records in its
// event store, named by an [EventType] ("towow.<noun>.<verb>") and carried by
// a typed [Payload] struct. The aggregates (Demand, Channel, ...) that decide
// which events to emit will be added to this package later.
//
// The package is deliberately free of infrastructure: it imports only the Go
// standard library and performs no I/O, reads no clock and uses no
// randomness. Identifiers, timestamps and actors are supplied by the caller.
//
// # Sources
//
// Event names and JSON field names are taken verbatim from the (Chinese)
// design documents: the towow.* enum and payload models of document 002
// (§〇, §2.1, §2.2), the data structures and SSE event list of document 001
// (§4, §4.6; v3, the newer document, wins where the two disagree), and the
// multi-round events of document 004 (towow.feedback.evaluated,
// towow.negotiation.round_started, towow.negotiation.force_finalized).
// The short names of document 000 (channel.created, plan.distributed, ...)
// are not event types; [Canonical] maps them onto the towow.* names.
//
// The BasePayload fields of document 002 (event_id, timestamp, source_agent)
// are not part of any payload: they belong to the stored event's envelope
// (event id, recorded time) and to its [Metadata] (Actor).
//
// # Encoding and versions
//
// Each event type is registered once, in registry.go, with its payload type
// and current schema version; see [Spec], [Catalog], [EncodePayload] and
// [DecodePayload]. Payloads are JSON objects with snake_case fields. Any
// change to the JSON shape of a payload, even adding an optional field,
// bumps its schema version; older stored versions are upgraded on read by
// upcasters registered on the [EventSpec].
package domain
