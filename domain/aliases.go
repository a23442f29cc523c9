package domain

import "maps"

// aliases maps the names used by the design documents for the prototype
// (short names without the prefix, and the OpenAgents prototype's message
// types) onto the canonical towow.* event types. Only names with an
// unambiguous counterpart are listed.
var aliases = map[string]EventType{
	// The design's business names → technical names.
	"demand.broadcast": EventDemandBroadcast,
	"filter.completed": EventFilterCompleted,
	"channel.created":  EventChannelCreated,
	"offer.submitted":  EventOfferSubmitted,
	"plan.distributed": EventProposalDistributed,
	"agent.response":   EventProposalFeedback,
	"subnet.triggered": EventSubnetTriggered,
	"plan.finalized":   EventProposalFinalized,

	// Names used in the design's event overview.
	"proposal.distributed": EventProposalDistributed,

	// SSE names emitted by the OpenAgents prototype.
	"demand.failed":          EventDemandRejected,
	"channel.status_changed": EventChannelStatusChanged,
	"channel.finalized":      EventProposalFinalized,
	"channel.failed":         EventNegotiationFailed,
	"agent.invited":          EventChannelInviteSent,
	"proposal.submitted":     EventOfferSubmitted,
	"invite.declined":        EventOfferSubmitted,
	"feedback.submitted":     EventProposalFeedback,

	// Prototype message types that carried a towow. prefix but
	// are not event types of this catalog.
	"towow.demand.new":           EventDemandSubmitted,
	"towow.demand.subnet":        EventSubnetTriggered,
	"towow.invite":               EventChannelInviteSent,
	"towow.proposal.submitted":   EventOfferSubmitted,
	"towow.feedback.submitted":   EventProposalFeedback,
	"towow.invite.declined":      EventOfferSubmitted,
	"towow.proposal.aggregating": EventAggregationStarted, // the older name of towow.aggregation.started

	// The prototype's message that creates a channel, and the ChannelAdmin's
	// notice of each offer received, with its progress (the UserAgent's
	// same-named notice of a final proposal is the bridge's
	// proposal.distributed).
	"channel.init":      EventChannelCreated,
	"proposal.received": EventOfferSubmitted,
}

// bridgeRoutes is the prototype bridge's default mapping: each prototype
// event name (resolved through the alias table by [Canonical]) and the SSE
// event its frontend receives for it. An event type listed twice gives two
// frames, in this order. The last route is not the prototype's: a
// channel's last undecided round ends with a force-finalized compromise,
// which completes the channel as a consensus does.
var bridgeRoutes = []BridgeRoute{
	{From: "channel.init", Event: "channel_created"},
	{From: "channel.status_changed", Event: "channel_status"},
	{From: "channel.finalized", Event: "channel_completed"},
	{From: "channel.failed", Event: "channel_failed"},
	{From: "towow.proposal.submitted", Event: "agent_response"},
	{From: "towow.feedback.submitted", Event: "agent_feedback"},
	{From: "proposal.received", Event: "negotiation_progress"},
	{From: "proposal.distributed", Event: "proposal_sent"},
	{From: "subnet.triggered", Event: "subnet_created"},
	{From: string(EventNegotiationForceFinalized), Event: "channel_completed"},
}

// BridgeRoute is one line of the SSE bridge's mapping: the
// prototype's event name, the towow.* event type it names, and the bridge
// event sent for it.
type BridgeRoute struct {
	From  string    // the prototype's name, e.g. "channel.status_changed"
	Type  EventType // the catalog type From resolves to
	Event string    // the bridge event, e.g. "channel_status"
}

// BridgeRoutes returns the SSE bridge's mapping, in the prototype's order, each
// route with the towow.* type its prototype name resolves to.
func BridgeRoutes() []BridgeRoute {
	out := make([]BridgeRoute, len(bridgeRoutes))
	for i, r := range bridgeRoutes {
		r.Type, _ = Canonical(r.From)
		out[i] = r
	}
	return out
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
