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

	// 000 §3.2 and §3.5: the OpenAgents message that creates a channel, and
	// the ChannelAdmin's notice of each offer received, with its progress
	// (§3.3; the UserAgent's same-named notice of a final proposal is the
	// bridge's proposal.distributed).
	"channel.init":      EventChannelCreated,
	"proposal.received": EventOfferSubmitted,
}

// bridgeRoutes is 000 §3.5's DEFAULT_MAPPINGS: each prototype event name
// (resolved through the alias table by [Canonical]) and the SSE event its
// frontend receives for it (000 §4.3). An event type listed twice gives
// two frames, in this order. The last route is not in 000: 004 (v4) ends a
// channel's last undecided round with a compromise, force-finalized, which
// completes the channel as a consensus does.
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

// BridgeRoute is one line of the SSE bridge's mapping (000 §3.5): the
// prototype's event name, the towow.* event type it names, and the bridge
// event sent for it.
type BridgeRoute struct {
	From  string    // the name in 000, e.g. "channel.status_changed"
	Type  EventType // the catalog type From resolves to
	Event string    // the bridge event, e.g. "channel_status"
}

// BridgeRoutes returns the SSE bridge's mapping, in 000 §3.5's order, each
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
