// Package domain is the pure domain model of ToWow, the LLM-driven
// multi-agent negotiation backend.
//
// It holds:
//
//   - The event catalog: every fact the system records in its event store,
//     named by an [EventType] ("towow.<noun>.<verb>") and carried by a typed
//     [Payload] struct, registered once in registry.go ([Catalog],
//     [EncodePayload], [DecodePayload], schema versions and upcasters).
//   - The aggregates that decide which events to emit and evolve by them
//     (decide/evolve): [DemandState] (submission, understanding, filtering),
//     [Channel] (the negotiation's state machine: offers, rounds, the
//     80 %/50 % thresholds of [Rules], force-finalize, gaps and
//     sub-negotiations; [Channel.OpenTaskFor] says what an agent is asked
//     for now) and [AgentState] (the agent directory: register, update,
//     deactivate, reactivate, tokens). Their tests are given-events /
//     when-command / then-events tables.
//   - The answers, declared once: [OfferAnswer] and [FeedbackAnswer] (what
//     an agent decides; the LLM prompts return them, the external agents'
//     API bodies embed them, [Offer] and [ProposalFeedback] record them)
//     and [Understanding] (prompt 1's reading of a demand).
//   - Values and validation: proposals, assignments, gaps, agent profiles
//     ([ParseProfiles], [NormalizeProfile]), ids and streams
//     ([ChannelIDFor], [DemandStream]), typed errors with TOWOW_* codes
//     ([Error]), and the plain results the command side returns
//     ([DemandSubmission], [AgentChange], [ProfilesRegistered]).
//
// The package is deliberately free of infrastructure: it imports only the Go
// standard library and performs no I/O, reads no clock and uses no
// randomness. Identifiers, timestamps and actors are supplied by the caller.
//
// # Sources
//
// Event names and JSON field names are the original design's, verbatim:
// every event type is towow.<area>.<what happened> (docs/design.md states
// the rules they record). The prototype's short names (channel.created,
// plan.distributed, ...) are not event types; [Canonical] maps them onto
// the towow.* names.
//
// An event's id, time and author are not part of any payload: they belong
// to the stored event's envelope (event id, recorded time) and to its
// [Metadata] (Actor).
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
