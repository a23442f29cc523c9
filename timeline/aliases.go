package timeline

import (
	"maps"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

// aliases maps the names used by the design documents for the prototype
// (short names without the prefix, and the OpenAgents prototype's message
// types) onto the canonical towow.* event types. Only names with an
// unambiguous counterpart are listed.
var aliases = map[string]event.EventType{
	// The design's business names → technical names.
	"demand.broadcast": negotiation.EventDemandBroadcast,
	"filter.completed": negotiation.EventFilterCompleted,
	"channel.created":  negotiation.EventChannelCreated,
	"offer.submitted":  negotiation.EventOfferSubmitted,
	"plan.distributed": negotiation.EventProposalDistributed,
	"agent.response":   negotiation.EventProposalFeedback,
	"subnet.triggered": negotiation.EventSubnetTriggered,
	"plan.finalized":   negotiation.EventProposalFinalized,

	// Names used in the design's event overview.
	"proposal.distributed": negotiation.EventProposalDistributed,

	// SSE names emitted by the OpenAgents prototype.
	"demand.failed":          negotiation.EventDemandRejected,
	"channel.status_changed": negotiation.EventChannelStatusChanged,
	"channel.finalized":      negotiation.EventProposalFinalized,
	"channel.failed":         negotiation.EventNegotiationFailed,
	"agent.invited":          negotiation.EventChannelInviteSent,
	"proposal.submitted":     negotiation.EventOfferSubmitted,
	"invite.declined":        negotiation.EventOfferSubmitted,
	"feedback.submitted":     negotiation.EventProposalFeedback,

	// Prototype message types that carried a towow. prefix but
	// are not event types of this catalog.
	"towow.demand.new":           negotiation.EventDemandSubmitted,
	"towow.demand.subnet":        negotiation.EventSubnetTriggered,
	"towow.invite":               negotiation.EventChannelInviteSent,
	"towow.proposal.submitted":   negotiation.EventOfferSubmitted,
	"towow.feedback.submitted":   negotiation.EventProposalFeedback,
	"towow.invite.declined":      negotiation.EventOfferSubmitted,
	"towow.proposal.aggregating": negotiation.EventAggregationStarted, // the older name of towow.aggregation.started

	// The prototype's message that creates a channel, and the ChannelAdmin's
	// notice of each offer received, with its progress (the UserAgent's
	// same-named notice of a final proposal is the bridge's
	// proposal.distributed).
	"channel.init":      negotiation.EventChannelCreated,
	"proposal.received": negotiation.EventOfferSubmitted,
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
	{From: string(negotiation.EventNegotiationForceFinalized), Event: "channel_completed"},
}

// BridgeRoute is one line of the SSE bridge's mapping: the
// prototype's event name, the towow.* event type it names, and the bridge
// event sent for it.
type BridgeRoute struct {
	From  string          // the prototype's name, e.g. "channel.status_changed"
	Type  event.EventType // the catalog type From resolves to
	Event string          // the bridge event, e.g. "channel_status"
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
func Canonical(name string) (event.EventType, bool) {
	if _, ok := event.Spec(event.EventType(name)); ok {
		return event.EventType(name), true
	}
	t, ok := aliases[name]
	return t, ok
}

// Aliases returns a copy of the alias table used by [Canonical], from a
// design-document name to its towow.* event type, for documentation.
func Aliases() map[string]event.EventType {
	return maps.Clone(aliases)
}
