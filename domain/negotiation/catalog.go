package negotiation

import "github.com/towow/towow/domain/event"

// init registers the event types of the negotiation context in the catalog.
func init() {
	event.Register(
		// Demand and filter.
		event.NewSpec[DemandSubmitted]("A user submitted a demand in their own words."),
		event.NewSpec[DemandUnderstood]("The demand was understood: surface demand, capability tags and confidence."),
		event.NewSpec[DemandBroadcast]("The demand was broadcast to the candidate agents of a channel."),
		event.NewSpec[DemandAccepted]("The demand was accepted for processing and assigned a channel."),
		event.NewSpec[DemandRejected]("The demand was rejected, e.g. because no suitable agent was found."),
		event.NewSpec[FilterStarted]("Smart filtering of the agents for a demand started."),
		event.NewSpec[FilterCompleted]("Smart filtering chose the candidate agents for a demand."),

		// Channel.
		event.NewSpec[ChannelCreated]("A negotiation channel was created for a demand or sub-demand."),
		event.NewSpec[ChannelInviteSent]("An agent was invited to a negotiation channel."),
		event.NewSpec[ChannelStatusChanged]("The channel state machine moved from one status to another."),
		event.NewSpec[ChannelClosed]("A negotiation channel was closed in a terminal status."),
		event.NewSpec[ChannelRulesChanged]("A fork's change_rule set a running channel's rules."),

		// Offers.
		event.NewSpec[OfferRequested]("An agent was asked to answer a demand with an offer."),
		event.NewSpec[OfferSubmitted]("An agent answered a demand: participate, decline or conditional."),
		event.NewSpec[OfferTimeout]("The offer window closed; the channel goes on with the offers received."),

		// Proposals.
		event.NewSpec[AggregationStarted]("Aggregation of the received offers into a proposal started."),
		event.NewSpec[ProposalDistributed]("A proposal was distributed to the participants for review."),
		event.NewSpec[ProposalFeedback]("A participant gave feedback on a proposal: accept, negotiate, withdraw or reject."),
		event.NewSpec[ProposalAdjusting]("The proposal is being adjusted to the feedback of the last round."),
		event.NewSpec[ProposalFinalized]("The negotiation reached consensus on a final proposal."),

		// Multi-round negotiation.
		event.NewSpec[FeedbackEvaluated]("The feedback of a round was counted and the next step decided."),
		event.NewSpec[NegotiationRoundStarted]("A new negotiation round started."),
		event.NewSpec[NegotiationForceFinalized]("The last round ended without consensus; the proposal was force-finalized."),
		event.NewSpec[NegotiationFailed]("The negotiation failed."),
		event.NewSpec[NegotiationCompleted]("A channel and all its sub-negotiations ended; carries the result of the tree."),
		event.NewSpec[NegotiationForked]("A negotiation tree was forked from another at a cursor of its history, with one change."),

		// Recursion.
		event.NewSpec[GapIdentified]("Gaps (missing capabilities) were identified in a proposal."),
		event.NewSpec[SubnetTriggered]("A sub-negotiation was started to fill a gap."),
		event.NewSpec[SubnetCompleted]("A sub-negotiation ended, successfully or not."),

		// Agents and system.
		event.NewSpec[AgentOnline]("An agent came online."),
		event.NewSpec[AgentOffline]("An agent went offline."),
		event.NewSpec[AgentWithdrawn]("An agent withdrew from a negotiation channel."),
		event.NewSpec[AgentRegistered]("An agent profile was registered."),
		event.NewSpec[AgentUpdated]("An agent's profile was replaced."),
		event.NewSpec[AgentDeactivated]("An agent was deactivated and is no longer invited."),
		event.NewSpec[AgentReactivated]("A deactivated agent was reactivated and may be invited again."),
		event.NewSpec[AgentTokenIssued]("An external agent was issued a new API token; earlier tokens stop working."),
		event.NewSpec[ErrorOccurred]("An error occurred."),
	)
}
