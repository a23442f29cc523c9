// Package negotiation is the negotiation context of the ToWow domain: a
// demand ([DemandState]: submission, understanding, filtering), its
// channel ([Channel]: offers, rounds, the accept and fail thresholds of
// [Rules], force-finalize, gaps and sub-negotiations), proposals and
// needs, forks of a negotiation tree, and the agent directory
// ([AgentState]: profiles, tokens, presence). Each aggregate decides which
// events to emit and evolves by them; it registers its event types in the
// catalog of package event.
//
// A [Channel] is the largest aggregate, so it is kept in parts: its state
// in small types it embeds (the roster of candidates, offers and
// withdrawals; the round under way; the gaps and sub-negotiations that
// run beside the rounds once the offers are in), each with its own queries, the fold of all its
// events in one Apply; its decisions as methods grouped by phase, one
// file each: offers, proposals, rounds, sub-negotiations and deadlines. The helpers a
// decision shares (stamping a proposal, evaluating a round, merging the
// plan, building the events) are functions of the channel or methods of
// the event builder, not methods of the Channel, whose method set stays
// its commands and its queries.
//
// The package is pure: it imports only the Go standard library and the
// event catalog, performs no I/O, reads no clock and uses no randomness.
// Identifiers, timestamps and actors are supplied by the caller.
package negotiation
