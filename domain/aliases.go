package domain

import "maps"

// aliases maps the names used by the design documents for the prototype
// (short names without the prefix, and the OpenAgents message types of
// document 000) onto the canonical towow.* event types. Only names with an
// unambiguous counterpart are listed.
var aliases = map[string]EventType{
	// 002 §〇: design-document name → technical name.
	"demand.broadcast": EventDemandBroadcast,
	"filter.completed": EventFilterCompleted,
	"channel.created":  EventChannelCreated,
	"offer.submitted":  EventOfferSubmitted,
	"plan.distributed": EventProposalDistributed,
	"agent.response":   EventProposalFeedback,
	"subnet.triggered": EventSubnetTriggered,
	"plan.finalized":   EventProposalFinalized,

	// 002 §一: names of the event overview table.
	"proposal.distributed": EventProposalDistributed,

	// 000 §3 and §4.2: SSE names emitted by the OpenAgents prototype.
	"demand.failed":          EventDemandRejected,
	"channel.status_changed": EventChannelStatusChanged,
	"channel.finalized":      EventProposalFinalized,
	"channel.failed":         EventNegotiationFailed,
	"agent.invited":          EventChannelInviteSent,
	"proposal.submitted":     EventOfferSubmitted,
	"invite.declined":        EventOfferSubmitted,
	"feedback.submitted":     EventProposalFeedback,

	// 000 §4.2: prototype message types that carried a towow. prefix but
	// are not event types of this catalog.
	"towow.demand.new":           EventDemandSubmitted,
	"towow.demand.subnet":        EventSubnetTriggered,
	"towow.invite":               EventChannelInviteSent,
	"towow.proposal.submitted":   EventOfferSubmitted,
	"towow.feedback.submitted":   EventProposalFeedback,
	"towow.invite.declined":      EventOfferSubmitted,
	"towow.proposal.aggregating": EventAggregationStarted, // 002 §2.1, superseded by 001 §4.6
}

// Canonical returns the catalog event type for name: name itself when it is
// a registered event type, or the towow.* type that a design-document alias
// (e.g. "channel.created", "plan.distributed", "towow.demand.new") maps onto.
// It reports false for unknown names.
func Canonical(name string) (EventType, bool) {
	if _, ok := registry[EventType(name)]; ok {
		return EventType(name), true
	}
	t, ok := aliases[name]
	return t, ok
}

// Aliases returns a copy of the alias table used by [Canonical], from a
// design-document name to its towow.* event type, for documentation.
func Aliases() map[string]EventType {
	return maps.Clone(aliases)
}
