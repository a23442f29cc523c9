// Package negotiation is the negotiation context of the ToWow domain: a
// demand ([DemandState]: submission, understanding, filtering), its
// channel ([Channel]: offers, rounds, the accept and fail thresholds of
// [Rules], force-finalize, gaps and sub-negotiations), proposals and
// needs, forks of a negotiation tree, and the agent directory
// ([AgentState]: profiles, tokens, presence). Each aggregate decides which
// events to emit and evolves by them; it registers its event types in the
// catalog of package event.
//
// The package is pure: it imports only the Go standard library and the
// event catalog, performs no I/O, reads no clock and uses no randomness.
// Identifiers, timestamps and actors are supplied by the caller.
package negotiation
