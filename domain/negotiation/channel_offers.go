package negotiation

import (
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
)

// The offers phase: a channel is created with its candidates, broadcast
// to them, and collects their offers until the last one arrives (or the
// offer timeout, in channel_deadlines.go); then aggregation starts.

// CreateChannel opens a channel for an accepted demand.
type CreateChannel struct {
	ChannelID, DemandID, RootDemandID string
	ParentChannelID, ParentDemandID   string
	Depth                             int
	Candidates                        []Candidate
	Rules                             Rules
	// Now is when the channel opens.
	Now time.Time
}

// Create decides CreateChannel on a channel stream that must be new.
func (c *Channel) Create(cmd CreateChannel) ([]event.Payload, error) {
	switch {
	case c.Exists():
		return nil, nil
	case len(cmd.Candidates) == 0:
		return nil, event.Errorf(ErrNoCandidates, "a channel needs at least one candidate")
	case hasDuplicateAgent(cmd.Candidates):
		return nil, event.Errorf(ErrInvalidAnswer, "a candidate is listed twice")
	case cmd.Rules.MaxRounds < 1:
		return nil, event.Errorf(ErrInvalidTransition, "max rounds must be at least 1")
	}
	ids := make([]string, len(cmd.Candidates))
	for i, cand := range cmd.Candidates {
		ids[i] = cand.AgentID
	}
	r := cmd.Rules
	return []event.Payload{&ChannelCreated{
		ChannelID: cmd.ChannelID, DemandID: cmd.DemandID, ParticipantsCount: len(ids), InvitedAgents: ids,
		ParentChannel: cmd.ParentChannelID, ParentDemandID: cmd.ParentDemandID, RootDemandID: cmd.RootDemandID,
		RecursionDepth: cmd.Depth, Candidates: cmd.Candidates,
		MaxRounds: r.MaxRounds, OfferTimeoutSeconds: r.OfferTimeoutSeconds, FeedbackTimeoutSeconds: r.FeedbackTimeoutSeconds,
		StuckTimeoutSeconds: r.StuckTimeoutSeconds, MaxDepth: r.MaxDepth, AcceptPercent: r.AcceptPercent, FailPercent: r.FailPercent,
		CreatedAt: cmd.Now.UTC(),
	}}, nil
}

func hasDuplicateAgent(cs []Candidate) bool {
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.AgentID] {
			return true
		}
		seen[c.AgentID] = true
	}
	return false
}

// Broadcast sends the demand to every candidate (an invitation each) and
// opens offer collection.
func (c *Channel) Broadcast(d Demand) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Status != ChannelStatusCreated {
		return nil, nil
	}
	b := build(c).to(ChannelStatusBroadcasting, "broadcast_started")
	b.add(&DemandBroadcast{ChannelID: c.ID, DemandID: c.DemandID, RecipientsCount: len(c.Candidates),
		RequesterID: d.RequesterID, SurfaceDemand: d.SurfaceDemand, CapabilityTags: d.CapabilityTags,
		LocationHint: locationOf(d), Urgency: urgencyOf(d)})
	for _, cand := range c.Candidates {
		b.add(&ChannelInviteSent{ChannelID: c.ID, DemandID: c.DemandID, AgentID: cand.AgentID, DisplayName: cand.DisplayName,
			DemandSummary: d.SurfaceDemand, Reason: cand.Reason, Broadcast: true})
	}
	for _, cand := range c.Candidates {
		b.add(&OfferRequested{ChannelID: c.ID, DemandID: c.DemandID, AgentID: cand.AgentID, Round: 1,
			FilterReason: cand.Reason, MatchScore: cand.RelevanceScore})
	}
	return b.to(ChannelStatusCollecting, "broadcast_complete").done()
}

// urgencyOf is the demand's urgency as its understanding gave it; normal
// when it gave none.
func urgencyOf(d Demand) Urgency {
	if d.Context != nil && d.Context.Urgency.Valid() {
		return d.Context.Urgency
	}
	return UrgencyNormal
}

func locationOf(d Demand) string {
	if d.Context != nil {
		return d.Context.Location
	}
	return ""
}

// SubmitOffer records an invited agent's offer. When it is the last missing
// offer, collection closes and aggregation starts.
func (c *Channel) SubmitOffer(o Offer, displayName string, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if !c.invited[o.AgentID] {
		return nil, event.Errorf(ErrNotInvited, "agent %s was not invited to channel %s", o.AgentID, c.ID)
	}
	if _, dup := c.Offers[o.AgentID]; dup {
		return nil, event.Errorf(ErrDuplicate, "agent %s already offered in channel %s", o.AgentID, c.ID)
	}
	if c.Status != ChannelStatusCollecting {
		return nil, event.Errorf(ErrOffersClosed, "channel %s is %s, not collecting offers", c.ID, c.Status)
	}
	if err := validateOffer(o); err != nil {
		return nil, err
	}
	o.DemandID, o.SubmittedAt = c.DemandID, now
	if o.OfferID == "" {
		o.OfferID = "offer-" + strings.TrimPrefix(c.ID, "collab-") + "-" + o.AgentID
	}
	if displayName == "" {
		displayName = c.DisplayName(o.AgentID)
	}
	b := build(c).add(&OfferSubmitted{ChannelID: c.ID, DisplayName: displayName, Offer: o})
	if len(c.Offers)+1 == len(c.Candidates) {
		b.closeCollection("all_offers_received", len(c.ActiveParticipants())+btoi(o.Decision.Participates()))
	}
	return b.done()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func validateOffer(o Offer) error {
	switch o.Decision {
	case OfferDecisionParticipate, OfferDecisionDecline, OfferDecisionNoAnswer:
	case OfferDecisionConditional:
		if len(o.Conditions) == 0 {
			return event.Errorf(ErrInvalidAnswer, "a conditional offer needs at least one condition")
		}
	default:
		return event.Errorf(ErrInvalidAnswer, "decision %q: want participate, decline or conditional", o.Decision)
	}
	if o.Decision.Participates() && strings.TrimSpace(o.Contribution) == "" {
		return event.Errorf(ErrInvalidAnswer, "an offer to participate needs a contribution")
	}
	return nil
}

// closeCollection ends offer collection for reason and starts aggregation
// of the offers of participants agents.
func (b *builder) closeCollection(reason string, participants int) {
	b.to(ChannelStatusAggregating, reason)
	b.add(&AggregationStarted{ChannelID: b.c.ID, DemandID: b.c.DemandID, OffersCount: participants})
}
