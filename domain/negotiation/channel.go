package negotiation

import (
	"slices"
	"time"

	"github.com/towow/towow/domain/event"
)

// Channel is a negotiation channel folded from its stream.
type Channel struct {
	ID, DemandID, RootDemandID string
	ParentChannelID            string
	ParentDemandID             string
	Depth                      int
	Rules                      Rules
	Status                     ChannelStatus
	// CreatedAt is when the channel opened (zero in older logs).
	CreatedAt time.Time

	Candidates     []Candidate      // invited agents, in invitation order
	invited        map[string]bool  // agent id → invited
	Offers         map[string]Offer // agent id → offer
	OfferOrder     []string         // agent ids in the order their offers arrived
	names          map[string]string
	OffersTimedOut bool

	Round            int                         // current round, 1-based; 0 before the first proposal
	Proposal         *Proposal                   // the proposal under review (or last reviewed)
	awaitingProposal bool                        // a round started; its proposal is not out yet
	roundMembers     []string                    // who must answer the current round
	Feedback         map[string]ProposalFeedback // current round, by agent
	// LastRoundFeedback is the feedback of the round before the current
	// one (what prompt 6 adjusts to), in round-member order.
	LastRoundFeedback []ProposalFeedback
	Withdrawn         map[string]bool
	LastEvaluation    *FeedbackEvaluated
	pendingForce      bool // force-finalize decided; compromise awaited

	FinalProposal *Proposal
	RoundsTaken   int
	Failure       *NegotiationFailed
	Confirmed     []string // force-finalize: accepted
	Optional      []string // force-finalize: still negotiating

	GapsDone  bool
	Gaps      []Gap
	Subnets   []SubnetTriggered           // in trigger order
	subResult map[string]*SubnetCompleted // sub channel id → result
	Completed bool
	// MergedPlan is the completion's merged plan (nil without
	// sub-negotiations that added to it).
	MergedPlan *Proposal
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
		c.Candidates = e.Candidates
		c.invited, c.names = map[string]bool{}, map[string]string{}
		for _, cand := range e.Candidates {
			c.invited[cand.AgentID] = true
			c.names[cand.AgentID] = cand.DisplayName
		}
		c.Offers, c.Feedback, c.Withdrawn = map[string]Offer{}, map[string]ProposalFeedback{}, map[string]bool{}
		c.subResult = map[string]*SubnetCompleted{}
	case *ChannelStatusChanged:
		c.Status = e.NewStatus
	case *OfferSubmitted:
		c.Offers[e.AgentID] = e.Offer
		c.OfferOrder = append(c.OfferOrder, e.AgentID)
		if e.DisplayName != "" {
			c.names[e.AgentID] = e.DisplayName
		}
	case *OfferTimeout:
		c.OffersTimedOut = true
	case *NegotiationRoundStarted:
		if e.Round > 1 {
			c.LastRoundFeedback = c.FeedbackList()
		}
		c.Round = e.Round
		c.awaitingProposal = true
		c.Feedback = map[string]ProposalFeedback{}
	case *ProposalDistributed:
		prop := e.Proposal
		c.Proposal = &prop
		c.awaitingProposal = false
		c.roundMembers = c.ActiveParticipants()
		if len(prop.Alternates) > 0 { // alternates stand by: only who is assigned answers
			c.roundMembers = slices.DeleteFunc(c.roundMembers, func(id string) bool {
				return !slices.ContainsFunc(prop.Assignments, func(a Assignment) bool { return a.AgentID == id })
			})
		}
	case *ProposalFeedback:
		c.Feedback[e.AgentID] = *e
	case *AgentWithdrawn:
		c.Withdrawn[e.AgentID] = true
	case *ChannelRulesChanged:
		c.Rules = e.Rules
	case *ChannelInviteSent:
		if c.invited != nil && !c.invited[e.AgentID] { // a candidate added after the channel opened
			c.Candidates = append(slices.Clip(c.Candidates), Candidate{AgentID: e.AgentID, DisplayName: e.DisplayName, Reason: e.Reason})
			c.invited[e.AgentID] = true
			if e.DisplayName != "" {
				c.names[e.AgentID] = e.DisplayName
			}
		}
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
	case *GapIdentified:
		c.GapsDone, c.Gaps = true, e.Gaps
	case *SubnetTriggered:
		c.Subnets = append(c.Subnets, *e)
	case *SubnetCompleted:
		r := *e
		c.subResult[e.SubChannelID] = &r
	case *NegotiationCompleted:
		c.Completed = true
		c.MergedPlan = e.MergedPlan
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

// DisplayName is the agent's display name as known to the channel.
func (c *Channel) DisplayName(agentID string) string {
	if n := c.names[agentID]; n != "" {
		return n
	}
	return agentID
}

// Invited reports whether the agent was invited.
func (c *Channel) Invited(agentID string) bool { return c.invited[agentID] }

// MissingOffers lists invited agents that have not offered, in invitation
// order.
func (c *Channel) MissingOffers() []string {
	var out []string
	for _, cand := range c.Candidates {
		if _, ok := c.Offers[cand.AgentID]; !ok {
			out = append(out, cand.AgentID)
		}
	}
	return out
}

// ActiveParticipants are the agents whose offer was participate or
// conditional and who have not withdrawn, in offer order.
func (c *Channel) ActiveParticipants() []string {
	var out []string
	for _, id := range c.OfferOrder {
		o := c.Offers[id]
		if (o.Decision == OfferDecisionParticipate || o.Decision == OfferDecisionConditional) && !c.Withdrawn[id] {
			out = append(out, id)
		}
	}
	return out
}

// RoundMembers are the agents asked for feedback in the current round.
func (c *Channel) RoundMembers() []string { return slices.Clone(c.roundMembers) }

// MissingFeedback lists the current round's members that have not answered.
func (c *Channel) MissingFeedback() []string {
	var out []string
	for _, id := range c.roundMembers {
		if _, ok := c.Feedback[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

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

// AwaitingAggregation reports whether offers are closed and the first
// proposal (prompt 4) or the no-participant compromise (prompt 9) is awaited.
func (c *Channel) AwaitingAggregation() bool { return c.Status == ChannelStatusAggregating }

// AwaitingForceFinalize reports whether the last round ended in partial
// agreement and the compromise (prompt 9) is awaited.
func (c *Channel) AwaitingForceFinalize() bool {
	return c.Status == ChannelStatusNegotiating && c.pendingForce
}

// Agreed reports whether the negotiation ended in (partial) agreement.
func (c *Channel) Agreed() bool {
	return c.Status == ChannelStatusFinalized || c.Status == ChannelStatusForceFinalized
}

// AwaitingGaps reports whether gap identification (prompt 7) is due.
func (c *Channel) AwaitingGaps() bool { return c.Agreed() && !c.GapsDone && !c.Completed }

// AwaitingRecursion reports whether the recursion decision (prompt 8) is
// due: gaps were found, no sub-negotiation was triggered yet, and the
// channel is not complete.
func (c *Channel) AwaitingRecursion() bool {
	return c.Agreed() && c.GapsDone && len(c.Gaps) > 0 && len(c.Subnets) == 0 && !c.Completed
}

// SubnetResult returns the result of a sub-negotiation, nil while it runs.
func (c *Channel) SubnetResult(subChannelID string) *SubnetCompleted {
	return c.subResult[subChannelID]
}

// FeedbackList is the current round's feedback in round-member order.
func (c *Channel) FeedbackList() []ProposalFeedback {
	var out []ProposalFeedback
	for _, id := range c.roundMembers {
		if f, ok := c.Feedback[id]; ok {
			out = append(out, f)
		}
	}
	return out
}
