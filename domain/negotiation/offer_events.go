package negotiation

import "github.com/towow/towow/domain/event"

// OfferRequested is the payload of [EventOfferRequested]: what the
// ChannelAdmin asks each invited agent (the demand, why it was chosen and
// how well it fits).
type OfferRequested struct {
	ChannelID    string `json:"channel_id"`
	DemandID     string `json:"demand_id"`
	AgentID      string `json:"agent_id"` // the agent asked for an offer
	Round        int    `json:"round"`
	FilterReason string `json:"filter_reason,omitempty" personal:"true"`
	MatchScore   int    `json:"match_score,omitempty"` // 0-100
}

// EventType implements [event.Payload].
func (*OfferRequested) EventType() event.EventType { return EventOfferRequested }

// OfferSubmitted is the payload of [EventOfferSubmitted]: the [Offer]
// plus the channel and the agent's display name. The Offer's fields are
// inlined in JSON.
type OfferSubmitted struct {
	ChannelID   string `json:"channel_id"`
	DisplayName string `json:"display_name,omitempty" personal:"true"`
	Offer
}

// EventType implements [event.Payload].
func (*OfferSubmitted) EventType() event.EventType { return EventOfferSubmitted }

// OfferTimeout is the payload of [EventOfferTimeout]: the offer window
// (300 s by default) closed and the channel goes on with the offers that
// arrived: how many, and who did not answer.
type OfferTimeout struct {
	ChannelID     string   `json:"channel_id"`
	DemandID      string   `json:"demand_id"`
	OffersCount   int      `json:"offers_count"`             // offers received in time
	MissingAgents []string `json:"missing_agents,omitempty"` // agents that did not answer
}

// EventType implements [event.Payload].
func (*OfferTimeout) EventType() event.EventType { return EventOfferTimeout }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[OfferRequested]("An agent was asked to answer a demand with an offer."),
		event.NewSpec[OfferSubmitted]("An agent answered a demand: participate, decline or conditional."),
		event.NewSpec[OfferTimeout]("The offer window closed; the channel goes on with the offers received."),
	)
}
