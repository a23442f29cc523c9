package negotiation

import (
	"time"

	"github.com/towow/towow/domain/event"
)

// Channel is a negotiation channel folded from its stream. Its state is in
// four parts: who is invited, what they offered and who withdrew (the
// roster), the round under way (roundState), the outcome (final proposal
// or failure) and what follows an agreement: gaps, sub-negotiations and
// the completion (subnetTree). The parts are embedded, so their fields and queries read
// as the channel's own (c.Offers, c.Round, c.Gaps, c.ActiveParticipants()).
//
// The decisions, one method per command, are grouped by phase:
// channel_offers.go (create, broadcast, offers), channel_proposals.go
// (proposals and adjustments), channel_rounds.go (feedback and the round
// outcome), channel_subnets.go (gaps, sub-negotiations, the completion)
// and channel_deadlines.go (offer and feedback timeouts, the stuck
// deadline). Each returns the events to append, in order, or a typed
// *event.Error (nothing to append). A step that has already happened
// returns (nil, nil): retried and duplicated jobs are harmless.
type Channel struct {
	ID, DemandID, RootDemandID string
	ParentChannelID            string
	ParentDemandID             string
	Depth                      int
	Rules                      Rules
	Status                     ChannelStatus
	// CreatedAt is when the channel opened (zero in older logs).
	CreatedAt time.Time

	roster
	roundState

	FinalProposal *Proposal
	RoundsTaken   int
	Failure       *NegotiationFailed
	Confirmed     []string // force-finalize: accepted
	Optional      []string // force-finalize: still negotiating

	subnetTree
}

// Exists reports whether the channel was created.
func (c *Channel) Exists() bool { return c.ID != "" }

// Apply evolves the channel by one event of its stream.
func (c *Channel) Apply(p event.Payload) {
	switch e := p.(type) {
	case *ChannelCreated:
		c.ID, c.DemandID, c.RootDemandID = e.ChannelID, e.DemandID, e.RootDemandID
		if c.RootDemandID == "" {
			c.RootDemandID = e.DemandID
		}
		c.ParentChannelID, c.ParentDemandID, c.Depth = e.ParentChannel, e.ParentDemandID, e.RecursionDepth
		c.Rules = Rules{MaxRounds: e.MaxRounds, OfferTimeoutSeconds: e.OfferTimeoutSeconds,
			FeedbackTimeoutSeconds: e.FeedbackTimeoutSeconds, StuckTimeoutSeconds: e.StuckTimeoutSeconds, MaxDepth: e.MaxDepth,
			AcceptPercent: e.AcceptPercent, FailPercent: e.FailPercent}
		c.Status, c.CreatedAt = ChannelStatusCreated, e.CreatedAt
		c.roster.open(e.Candidates)
		c.Feedback = map[string]ProposalFeedback{}
		c.subResult = map[string]*SubnetCompleted{}
	case *ChannelStatusChanged:
		c.Status = e.NewStatus
	case *OfferSubmitted:
		c.roster.offered(e.Offer, e.DisplayName)
	case *OfferTimeout:
		c.OffersTimedOut = true
	case *NegotiationRoundStarted:
		c.roundState.start(e.Round)
	case *ProposalDistributed:
		c.roundState.distribute(e.Proposal, c.ActiveParticipants())
		c.subnetTree.proposed(c.Proposal)
	case *ProposalFeedback:
		c.Feedback[e.AgentID] = *e
	case *AgentWithdrawn:
		c.Withdrawn[e.AgentID] = true
	case *ChannelRulesChanged:
		c.Rules = e.Rules
	case *ChannelInviteSent:
		c.roster.invite(e)
	case *FeedbackEvaluated:
		c.LastEvaluation = e
		c.pendingForce = e.Decision == RoundForceFinalize
	case *ProposalFinalized:
		prop := e.FinalProposal
		c.FinalProposal, c.RoundsTaken = &prop, e.RoundsTaken
	case *NegotiationForceFinalized:
		prop := e.FinalProposal
		c.FinalProposal, c.RoundsTaken = &prop, e.RoundsTaken
		c.Confirmed, c.Optional = e.ConfirmedParticipants, e.OptionalParticipants
		c.pendingForce = false
	case *NegotiationFailed:
		c.Failure = e
		c.pendingForce = false
	default:
		c.subnetTree.apply(p, c.Proposal)
	}
}

// AgreedPlan is the plan a completed, agreed negotiation tree carries
// out: the merged plan when sub-negotiations added to it, else the final
// proposal; nil before the completion or without an agreement.
func (c *Channel) AgreedPlan() *Proposal {
	if !c.Completed || !c.Agreed() {
		return nil
	}
	if c.MergedPlan != nil {
		return c.MergedPlan
	}
	return c.FinalProposal
}

// AwaitingAggregation reports whether offers are closed and the first
// proposal (prompt 4) or the no-participant compromise (prompt 9) is awaited.
func (c *Channel) AwaitingAggregation() bool { return c.Status == ChannelStatusAggregating }

// AwaitingFeedback reports whether the current round's proposal is out and
// feedback is being collected.
func (c *Channel) AwaitingFeedback() bool {
	return c.Status == ChannelStatusNegotiating && !c.awaitingProposal && !c.pendingForce && c.Proposal != nil
}

// AwaitingAdjustment reports whether a new round started and its adjusted
// proposal (prompt 6) is awaited.
func (c *Channel) AwaitingAdjustment() bool {
	return c.Status == ChannelStatusNegotiating && c.awaitingProposal
}

// AwaitingForceFinalize reports whether the last round ended in partial
// agreement and the compromise (prompt 9) is awaited.
func (c *Channel) AwaitingForceFinalize() bool {
	return c.Status == ChannelStatusNegotiating && c.pendingForce
}

// Agreed reports whether the negotiation ended in (partial) agreement.
func (c *Channel) Agreed() bool {
	return c.Status == ChannelStatusFinalized || c.Status == ChannelStatusForceFinalized
}

// OffersClosed reports whether the offers are in and the channel has not
// failed: it is aggregating, negotiating or agreed.
func (c *Channel) OffersClosed() bool {
	switch c.Status {
	case ChannelStatusAggregating, ChannelStatusProposalSent, ChannelStatusNegotiating,
		ChannelStatusFinalized, ChannelStatusForceFinalized:
		return c.Failure == nil
	}
	return false
}

// AwaitingGaps reports whether gap identification (prompt 7) is due: as
// soon as the offers are in, while the rounds run (a channel agreed
// before its gap analysis, as in older logs, still has it due).
func (c *Channel) AwaitingGaps() bool { return c.OffersClosed() && !c.GapsDone && !c.Completed }

// AwaitingRecursion reports whether the recursion decision (prompt 8) is
// due: gaps were found below the maximum depth, it was not decided yet,
// and the channel has neither failed nor completed.
func (c *Channel) AwaitingRecursion() bool {
	return c.OffersClosed() && c.GapsDone && len(c.Gaps) > 0 && c.Depth < c.Rules.MaxDepth &&
		len(c.Subnets) == 0 && !c.Declined && !c.Completed
}
