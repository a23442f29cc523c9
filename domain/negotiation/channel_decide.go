package negotiation

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
)

// Decisions on a channel. Each returns the events to append, in order, or a
// typed *Error (nothing to append). A step that has already happened returns
// (nil, nil): retried and duplicated jobs are harmless.

// builder collects events while tracking the status they lead to, so a
// decision can chain several transitions and have each checked against the
// state machine.
type builder struct {
	c      *Channel
	status ChannelStatus
	events []event.Payload
	err    error
}

func (c *Channel) build() *builder { return &builder{c: c, status: c.Status} }

func (b *builder) add(p ...event.Payload) *builder {
	if b.err == nil {
		b.events = append(b.events, p...)
	}
	return b
}

func (b *builder) to(s ChannelStatus, reason string) *builder {
	if b.err != nil {
		return b
	}
	if !CanTransition(b.status, s) {
		b.err = event.Errorf(ErrInvalidTransition, "channel %s cannot go from %s to %s", b.c.ID, b.status, s)
		return b
	}
	b.events = append(b.events, &ChannelStatusChanged{ChannelID: b.c.ID, OldStatus: b.status, NewStatus: s, Reason: reason})
	b.status = s
	return b
}

// done returns the events collected, or the first error. A negotiation
// completed by them closes its channel: towow.channel.closed follows every
// towow.negotiation.completed, with the terminal status and, for a
// failure, its reason.
func (b *builder) done() ([]event.Payload, error) {
	if b.err != nil {
		return nil, b.err
	}
	for i := 0; i < len(b.events); i++ {
		nc, ok := b.events[i].(*NegotiationCompleted)
		if !ok {
			continue
		}
		reason := string(nc.Status)
		for _, e := range b.events {
			if f, ok := e.(*NegotiationFailed); ok {
				reason = string(f.Reason)
			}
		}
		b.events = slices.Insert(b.events, i+1, event.Payload(&ChannelClosed{ChannelID: nc.ChannelID, Status: nc.Status, Reason: reason}))
		i++
	}
	return b.events, nil
}

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

// Broadcast sends the demand to every candidate (an invitation each) and
// opens offer collection.
func (c *Channel) Broadcast(d Demand) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Status != ChannelStatusCreated {
		return nil, nil
	}
	b := c.build().to(ChannelStatusBroadcasting, "broadcast_started")
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

// secondsSinceCreated is how long the channel has been open at now, in
// whole seconds (0 for a channel whose creation time is not recorded).
func (c *Channel) secondsSinceCreated(now time.Time) int {
	if c.CreatedAt.IsZero() || now.Before(c.CreatedAt) {
		return 0
	}
	return int(now.Sub(c.CreatedAt) / time.Second)
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
	b := c.build().add(&OfferSubmitted{ChannelID: c.ID, DisplayName: displayName, Offer: o})
	if len(c.Offers)+1 == len(c.Candidates) {
		c.closeCollection(b, "all_offers_received", len(c.ActiveParticipants())+btoi(o.Decision != OfferDecisionDecline))
	}
	return b.done()
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

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func validateOffer(o Offer) error {
	switch o.Decision {
	case OfferDecisionParticipate, OfferDecisionDecline:
	case OfferDecisionConditional:
		if len(o.Conditions) == 0 {
			return event.Errorf(ErrInvalidAnswer, "a conditional offer needs at least one condition")
		}
	default:
		return event.Errorf(ErrInvalidAnswer, "decision %q: want participate, decline or conditional", o.Decision)
	}
	if o.Decision != OfferDecisionDecline && strings.TrimSpace(o.Contribution) == "" {
		return event.Errorf(ErrInvalidAnswer, "an offer to participate needs a contribution")
	}
	return nil
}

func (c *Channel) closeCollection(b *builder, reason string, participants int) {
	b.to(ChannelStatusAggregating, reason)
	b.add(&AggregationStarted{ChannelID: c.ID, DemandID: c.DemandID, OffersCount: participants})
}

// OfferTimeout closes offer collection with the offers that arrived.
func (c *Channel) OfferTimeout() ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Status != ChannelStatusCollecting {
		return nil, nil
	}
	b := c.build().add(&OfferTimeout{ChannelID: c.ID, DemandID: c.DemandID, OffersCount: len(c.Offers),
		MissingAgents: c.MissingOffers()})
	c.closeCollection(b, "offer_timeout", len(c.ActiveParticipants()))
	return b.done()
}

// Propose distributes the first proposal (prompt 4) and opens round 1.
func (c *Channel) Propose(p Proposal, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Proposal != nil || c.Status.IsTerminal() {
		return nil, nil
	}
	if c.Status != ChannelStatusAggregating {
		return nil, event.Errorf(ErrInvalidTransition, "channel %s is %s: no proposal can be made before offers close", c.ID, c.Status)
	}
	members := c.ActiveParticipants()
	if len(members) == 0 {
		return nil, event.Errorf(ErrInvalidTransition, "channel %s has no participants to propose to", c.ID)
	}
	p = c.stamp(p, 1, now, members)
	return c.build().
		add(&NegotiationRoundStarted{ChannelID: c.ID, DemandID: c.DemandID, Round: 1, MaxRounds: c.Rules.MaxRounds}).
		to(ChannelStatusProposalSent, "proposal_ready").
		add(&ProposalDistributed{ChannelID: c.ID, DemandID: c.DemandID, Proposal: p, Round: 1}).
		to(ChannelStatusNegotiating, "proposal_distributed").
		done()
}

// stamp sets the engine-owned fields of a proposal and keeps only
// assignments of the given members (an LLM may not assign anyone else).
func (c *Channel) stamp(p Proposal, version int, now time.Time, members []string) Proposal {
	p.ProposalID, p.DemandID, p.Version, p.CreatedAt = ProposalID(c.ID, version), c.DemandID, version, now
	if p.Type == "" {
		p.Type = ProposalTypeNormal
	}
	keep := func(list []Assignment, skip []Assignment) []Assignment {
		var kept []Assignment
		for _, a := range list {
			if slices.Contains(members, a.AgentID) && !slices.ContainsFunc(skip, func(b Assignment) bool { return b.AgentID == a.AgentID }) {
				if a.DisplayName == "" {
					a.DisplayName = c.DisplayName(a.AgentID)
				}
				kept = append(kept, a)
			}
		}
		return kept
	}
	p.Assignments = keep(p.Assignments, nil)
	p.Alternates = keep(p.Alternates, p.Assignments)
	return p
}

// replaceWithdrawn fills, in the adjusted proposal p, each place a
// withdrawn participant of the current proposal leaves in its need with the
// first alternate of that need who is still in (the remaining willing
// candidates of that need), taking over the role and duties; the
// adjustment summary says who replaced whom. Only when no alternate is
// left does the place stay empty (gap identification then finds it). An
// adjusted proposal that names no alternates keeps the current ones.
func (c *Channel) replaceWithdrawn(p Proposal) Proposal {
	if len(p.Alternates) == 0 { // an adjustment that does not name them keeps them standing by
		p.Alternates = c.Proposal.Alternates
	}
	active := c.ActiveParticipants()
	has := func(list []Assignment, id string) bool {
		return slices.ContainsFunc(list, func(a Assignment) bool { return a.AgentID == id })
	}
	for _, w := range c.Proposal.Assignments {
		if !c.Withdrawn[w.AgentID] || w.Need == "" {
			continue
		}
		slots, filled := 0, 0 // the need's places in the current proposal; those p fills with someone still in
		for _, a := range c.Proposal.Assignments {
			if a.Need == w.Need {
				slots++
			}
		}
		for _, a := range p.Assignments {
			if a.Need == w.Need && slices.Contains(active, a.AgentID) {
				filled++
			}
		}
		if filled >= slots {
			continue
		}
		for _, alt := range slices.Concat(p.Alternates, c.Proposal.Alternates) {
			if alt.Need != w.Need || !slices.Contains(active, alt.AgentID) || has(p.Assignments, alt.AgentID) {
				continue
			}
			p.Assignments = append(slices.Clone(p.Assignments), Assignment{AgentID: alt.AgentID, DisplayName: alt.DisplayName,
				Role: w.Role, Need: w.Need, Responsibility: w.Responsibility, Dependencies: w.Dependencies, ConditionsAccepted: alt.ConditionsAccepted,
				Notes: strings.TrimSpace("接替退出的" + c.DisplayName(w.AgentID) + "。" + alt.Notes)})
			p.Alternates = slices.DeleteFunc(slices.Clone(p.Alternates), func(a Assignment) bool { return a.AgentID == alt.AgentID })
			if filled+1 >= slots {
				p.Gaps = slices.DeleteFunc(slices.Clone(p.Gaps), func(g string) bool { return g == w.Need })
			}
			if p.AdjustmentSummary == nil {
				p.AdjustmentSummary = &AdjustmentSummary{Round: c.Round}
			}
			p.AdjustmentSummary.ChangesMade = append(p.AdjustmentSummary.ChangesMade, ProposalChange{Aspect: "替补",
				Before: c.DisplayName(w.AgentID) + "（" + w.Role + "）", After: c.DisplayName(alt.AgentID) + "（" + w.Role + "）",
				Reason: c.DisplayName(w.AgentID) + "退出，由同一需求的候补人选接替"})
			break
		}
	}
	return p
}

// FailNoParticipants ends a channel whose offers closed with nobody willing
// to take part, with prompt 9's compromise as the last word.
func (c *Channel) FailNoParticipants(compromise Proposal, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Status.IsTerminal() {
		return nil, nil
	}
	if c.Status != ChannelStatusAggregating || len(c.ActiveParticipants()) > 0 {
		return nil, event.Errorf(ErrInvalidTransition, "channel %s is %s with %d participants", c.ID, c.Status, len(c.ActiveParticipants()))
	}
	reason, code, msg := FailureNoParticipants, ErrNoParticipants, fmt.Sprintf("all %d invited agents that answered declined", len(c.Offers))
	if len(c.Offers) == 0 {
		reason, code, msg = FailureNoResponsesTimeout, ErrNoOffers, fmt.Sprintf("none of the %d invited agents offered within %d s",
			len(c.Candidates), c.Rules.OfferTimeoutSeconds)
	}
	compromise.Type = ProposalTypeCompromise
	compromise = c.stamp(compromise, 1, now, nil)
	f := &NegotiationFailed{ChannelID: c.ID, DemandID: c.DemandID, Reason: reason, LastProposal: &compromise}
	if len(compromise.Suggestions) > 0 {
		f.Suggestion = compromise.Suggestions[0]
	}
	return c.fail(c.build(), code, f, msg)
}

// fail ends the channel with f, coded code (its towow.error.occurred says
// message), and completes it.
func (c *Channel) fail(b *builder, code *event.Error, f *NegotiationFailed, message string) ([]event.Payload, error) {
	return c.failInto(b, code, f, message).done()
}

// failInto adds to b the failure f coded code, its towow.error.occurred,
// the move to failed and the completion.
func (c *Channel) failInto(b *builder, code *event.Error, f *NegotiationFailed, message string) *builder {
	return b.add(failed(code, f, message)...).to(ChannelStatusFailed, string(f.Reason)).
		add(&NegotiationCompleted{ChannelID: c.ID, DemandID: c.DemandID, Status: ChannelStatusFailed,
			FinalProposal: f.LastProposal, RoundsTaken: c.Round})
}

// SubmitFeedback records a round member's feedback on the current proposal.
// round 0 means "the current round". When it is the last missing feedback,
// the round is evaluated (now is when that happens).
func (c *Channel) SubmitFeedback(f ProposalFeedback, round int, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if _, dup := c.Feedback[f.AgentID]; dup && (round == 0 || round == c.Round) {
		return nil, event.Errorf(ErrDuplicate, "agent %s already gave feedback in round %d", f.AgentID, c.Round)
	}
	if !c.AwaitingFeedback() {
		return nil, event.Errorf(ErrFeedbackClosed, "channel %s is %s: no proposal awaits feedback", c.ID, c.Status)
	}
	if round != 0 && round != c.Round {
		return nil, event.Errorf(ErrWrongRound, "feedback for round %d, but round %d is open", round, c.Round)
	}
	if !slices.Contains(c.roundMembers, f.AgentID) {
		return nil, event.Errorf(ErrNotParticipant, "agent %s is not a participant of round %d", f.AgentID, c.Round)
	}
	switch f.FeedbackType {
	case FeedbackAccept, FeedbackWithdraw, FeedbackReject:
	case FeedbackNegotiate:
		if strings.TrimSpace(f.AdjustmentRequest) == "" {
			return nil, event.Errorf(ErrInvalidAnswer, "negotiate feedback needs an adjustment request")
		}
	default:
		return nil, event.Errorf(ErrInvalidAnswer, "feedback type %q: want accept, negotiate or withdraw", f.FeedbackType)
	}
	f.ChannelID, f.DemandID, f.ProposalVersion, f.Round = c.ID, c.DemandID, c.Proposal.Version, c.Round
	b := c.build().add(&f)
	if f.FeedbackType == FeedbackWithdraw {
		b.add(&AgentWithdrawn{ChannelID: c.ID, DemandID: c.DemandID, AgentID: f.AgentID,
			DisplayName: c.DisplayName(f.AgentID), Reason: f.Reasoning})
	}
	all := append(c.FeedbackList(), f)
	if len(all) == len(c.roundMembers) {
		c.evaluate(b, all, now)
	}
	return b.done()
}

// FeedbackTimeoutReason is recorded for feedback that did not arrive in
// time and counts as accept: a silent participant does not block a round.
const FeedbackTimeoutReason = "反馈超时，默认接受"

// FeedbackTimeout counts the missing feedback of round as accept and
// evaluates the round (now is when).
func (c *Channel) FeedbackTimeout(round int, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if !c.AwaitingFeedback() || round != c.Round {
		return nil, nil
	}
	b := c.build()
	all := c.FeedbackList()
	for _, id := range c.MissingFeedback() {
		f := ProposalFeedback{ChannelID: c.ID, DemandID: c.DemandID, AgentID: id, ProposalVersion: c.Proposal.Version,
			Round: c.Round, FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackAccept, Reasoning: FeedbackTimeoutReason}}
		b.add(&f)
		all = append(all, f)
	}
	c.evaluate(b, all, now)
	return b.done()
}

// evaluate applies the round thresholds (finalize, fail, another round or
// force-finalize) to a complete round; now is when.
func (c *Channel) evaluate(b *builder, fbs []ProposalFeedback, now time.Time) {
	var t Tally
	var accepted, negotiating []string
	for _, f := range fbs {
		t.Add(f.FeedbackType)
		switch f.FeedbackType {
		case FeedbackAccept:
			accepted = append(accepted, f.AgentID)
		case FeedbackNegotiate:
			negotiating = append(negotiating, f.AgentID)
		}
	}
	// A withdrawal an alternate of the same need will fill before the next
	// round does not count against the round: the replacement
	// answers next round. With such replacements pending, an agreement
	// waits for them (unless this is the last round).
	replaced := c.replaceable(fbs)
	t.Rejects -= replaced
	decision := t.Decide(c.Round, c.Rules)
	if replaced > 0 && decision == RoundFinalize && c.Round < c.Rules.MaxRounds {
		decision = RoundNext
	}
	b.add(&FeedbackEvaluated{ChannelID: c.ID, Accepts: t.Accepts, Rejects: t.Rejects, Negotiates: t.Negotiates,
		Replaced: replaced, AcceptRate: t.AcceptRate(), Round: c.Round, Decision: decision})
	switch decision {
	case RoundFinalize:
		// The final proposal keeps only the agents still in: who accepted
		// or still negotiates (not who withdrew or rejected).
		members := slices.Concat(accepted, negotiating)
		final := *c.Proposal
		final.Assignments = nil
		for _, a := range c.Proposal.Assignments {
			if slices.Contains(members, a.AgentID) {
				final.Assignments = append(final.Assignments, a)
			}
		}
		b.add(&ProposalFinalized{ChannelID: c.ID, DemandID: c.DemandID, FinalProposal: final,
			ParticipantsCount: len(members), RoundsTaken: c.Round, Participants: members,
			TotalDurationSeconds: c.secondsSinceCreated(now)})
		b.to(ChannelStatusFinalized, "consensus")
	case RoundFail:
		reason, code := FailureLowAcceptance, ErrLowAcceptance
		msg := fmt.Sprintf("round %d: accept rate %.2f under the fail threshold (%d accepts, %d against, %d negotiating)",
			c.Round, t.AcceptRate(), t.Accepts, t.Rejects, t.Negotiates)
		if t.Total() == 0 {
			reason, code = FailureNoFeedback, ErrNoFeedback
			msg = fmt.Sprintf("round %d of %d ended without any feedback that counts", c.Round, c.Rules.MaxRounds)
		}
		last := *c.Proposal
		c.failInto(b, code, &NegotiationFailed{ChannelID: c.ID, DemandID: c.DemandID, Reason: reason, LastProposal: &last}, msg)
	case RoundNext:
		b.add(&NegotiationRoundStarted{ChannelID: c.ID, DemandID: c.DemandID, Round: c.Round + 1, MaxRounds: c.Rules.MaxRounds})
		b.add(&ProposalAdjusting{ChannelID: c.ID, DemandID: c.DemandID, Round: c.Round + 1})
	case RoundForceFinalize:
		// The compromise (prompt 9) comes in ForceFinalize.
		b.add(occurred(ErrMaxRounds, fmt.Sprintf("round %d of %d ended with accept rate %.2f, between the thresholds: force-finalizing",
			c.Round, c.Rules.MaxRounds, t.AcceptRate()), c.ID, c.DemandID))
	}
}

// replaceable counts the round's withdrawals that replaceWithdrawn will
// fill: an assignee of a need with an alternate of that need still in
// (each alternate fills one place).
func (c *Channel) replaceable(fbs []ProposalFeedback) int {
	if c.Proposal == nil || len(c.Proposal.Alternates) == 0 {
		return 0
	}
	leaving := map[string]bool{}
	for _, f := range fbs {
		if f.FeedbackType == FeedbackWithdraw {
			leaving[f.AgentID] = true
		}
	}
	active := c.ActiveParticipants()
	used := map[string]bool{}
	n := 0
	for _, a := range c.Proposal.Assignments {
		if !leaving[a.AgentID] || a.Need == "" {
			continue
		}
		for _, alt := range c.Proposal.Alternates {
			if alt.Need == a.Need && !used[alt.AgentID] && !leaving[alt.AgentID] && slices.Contains(active, alt.AgentID) {
				used[alt.AgentID] = true
				n++
				break
			}
		}
	}
	return n
}

// Adjust distributes the adjusted proposal (prompt 6) of the round that
// just started.
func (c *Channel) Adjust(p Proposal, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if !c.AwaitingAdjustment() {
		if c.Status == ChannelStatusNegotiating || c.Status.IsTerminal() {
			return nil, nil // distributed already, or over
		}
		return nil, event.Errorf(ErrInvalidTransition, "channel %s is %s: no round awaits an adjusted proposal", c.ID, c.Status)
	}
	members := c.ActiveParticipants()
	p = c.stamp(c.replaceWithdrawn(p), c.Proposal.Version+1, now, members)
	return c.build().
		to(ChannelStatusProposalSent, "proposal_adjusted").
		add(&ProposalDistributed{ChannelID: c.ID, DemandID: c.DemandID, Proposal: p, Round: c.Round}).
		to(ChannelStatusNegotiating, "proposal_distributed").
		done()
}

// ForceFinalize ends a negotiation whose last round stayed between the
// thresholds, with prompt 9's compromise as the final proposal: who
// accepted is confirmed, who still negotiates is optional.
func (c *Channel) ForceFinalize(compromise Proposal, now time.Time) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Status.IsTerminal() {
		return nil, nil
	}
	if !c.AwaitingForceFinalize() {
		return nil, event.Errorf(ErrInvalidTransition, "channel %s is %s and has not reached its last round", c.ID, c.Status)
	}
	var confirmed, optional []string
	for _, f := range c.FeedbackList() {
		switch f.FeedbackType {
		case FeedbackAccept:
			confirmed = append(confirmed, f.AgentID)
		case FeedbackNegotiate:
			optional = append(optional, f.AgentID)
		}
	}
	compromise.Type = ProposalTypeCompromise
	compromise = c.stamp(compromise, c.Proposal.Version+1, now, append(slices.Clone(confirmed), optional...))
	rate := 0.0
	if c.LastEvaluation != nil {
		rate = c.LastEvaluation.AcceptRate
	}
	return c.build().
		add(&NegotiationForceFinalized{ChannelID: c.ID, DemandID: c.DemandID, FinalProposal: compromise,
			ConfirmedParticipants: confirmed, OptionalParticipants: optional, RoundsTaken: c.Round, AcceptRate: rate}).
		to(ChannelStatusForceFinalized, "max_rounds").
		done()
}

// Stuck ends a channel that is still not complete at its stuck deadline
// (StuckTimeoutSeconds after it opened): a channel still negotiating fails; an agreed channel still
// waiting for its gap analysis, recursion decision or sub-negotiations
// completes with what it has, each unfinished sub-negotiation recorded as
// failed.
func (c *Channel) Stuck() ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if c.Completed {
		return nil, nil
	}
	if c.Status.IsTerminal() {
		b := c.build()
		done := c.completed()
		for _, s := range c.Subnets {
			if res := c.subResult[s.SubChannelID]; res != nil {
				done.SubResults = append(done.SubResults, *res)
				continue
			}
			r := SubnetCompleted{ParentChannelID: c.ID, SubChannelID: s.SubChannelID, SubDemandID: s.SubDemandID,
				Status: ChannelStatusFailed, FailureReason: string(FailureStuckTimeout)}
			b.add(&r)
			b.add(occurred(ErrChannelStuck, fmt.Sprintf("sub-negotiation %s had not ended at the stuck deadline (%d s): recorded as failed",
				s.SubChannelID, c.Rules.StuckTimeoutSeconds), c.ID, c.DemandID))
			done.SubResults = append(done.SubResults, r)
		}
		done.MergedPlan = c.mergedPlan(done.SubResults)
		return b.add(done).done()
	}
	f := &NegotiationFailed{ChannelID: c.ID, DemandID: c.DemandID, Reason: FailureStuckTimeout, LastProposal: c.Proposal,
		Suggestion: "协商长时间没有进展，已自动结束；可以稍后重新提交需求。"}
	return c.fail(c.build(), ErrChannelStuck, f, fmt.Sprintf("still %s in round %d at the stuck deadline (%d s)",
		c.Status, c.Round, c.Rules.StuckTimeoutSeconds))
}

// IdentifyGaps records prompt 7's gaps after an agreement. Without gaps the
// channel completes; at the maximum depth a sub-negotiation is not allowed,
// which is recorded as TOWOW_SUBNET_001, and the channel completes.
// complete and analysis are prompt 7's verdict and reasoning, recorded as
// they are.
func (c *Channel) IdentifyGaps(gaps []Gap, complete bool, analysis string) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if !c.AwaitingGaps() {
		return nil, nil
	}
	b := c.build().add(&GapIdentified{ChannelID: c.ID, DemandID: c.DemandID, Gaps: gaps, OverallCompletion: completion(gaps),
		IsComplete: complete, Analysis: analysis})
	switch {
	case len(gaps) == 0:
		b.add(c.completed())
	case c.Depth >= c.Rules.MaxDepth:
		b.add(occurred(ErrMaxDepth, fmt.Sprintf("gaps found at depth %d; sub-negotiations are limited to depth %d", c.Depth, c.Rules.MaxDepth),
			c.ID, c.DemandID))
		b.add(c.completed())
	}
	return b.done()
}

// completion estimates how complete a proposal is from its gaps' importance.
func completion(gaps []Gap) int {
	missing := 0
	for _, g := range gaps {
		missing += g.Importance / 4
	}
	return max(0, 100-missing)
}

// SubnetPlan is one sub-negotiation prompt 8 asks for.
type SubnetPlan struct {
	GapType   string
	SubDemand SubDemand
	// NeedCount is how many people the gap still needs (0: unknown, one
	// or more).
	NeedCount int
}

// Recurse records prompt 8's decision: it triggers up to MaxSubnets
// sub-negotiations (ids derived from the channel, so a retry cannot spawn
// twice), or completes the channel when there are none. The caller also
// submits each sub-demand (DemandState.Submit with SubDemandOrigin).
// decision, when given, is recorded on each towow.subnet.triggered, or on
// the completion when there are none.
func (c *Channel) Recurse(plans []SubnetPlan, decision *RecursionDecision) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	if !c.AwaitingRecursion() {
		return nil, nil
	}
	if len(plans) > 0 && c.Depth >= c.Rules.MaxDepth {
		return nil, event.Errorf(ErrMaxDepth, "channel %s is at depth %d of %d", c.ID, c.Depth, c.Rules.MaxDepth)
	}
	b := c.build()
	if len(plans) == 0 {
		done := c.completed()
		done.RecursionDecision = decision
		return b.add(done).done()
	}
	for i, p := range plans[:min(len(plans), MaxSubnets)] {
		sub := SubDemandID(c.DemandID, i)
		sd := p.SubDemand
		b.add(&SubnetTriggered{ParentChannelID: c.ID, ParentDemandID: c.DemandID, SubDemandID: sub,
			SubChannelID: ChannelIDFor(sub), GapType: p.GapType, RecursionDepth: c.Depth + 1, SubDemand: &sd, NeedCount: p.NeedCount,
			Decision: decision})
	}
	return b.done()
}

// SubnetDone records the end of a sub-negotiation; the last one completes
// the channel with every sub-result.
func (c *Channel) SubnetDone(r SubnetCompleted) ([]event.Payload, error) {
	if !c.Exists() {
		return nil, event.Errorf(ErrNotFound, "channel not created")
	}
	known := slices.ContainsFunc(c.Subnets, func(s SubnetTriggered) bool { return s.SubChannelID == r.SubChannelID })
	if !known {
		return nil, event.Errorf(ErrNotFound, "channel %s triggered no sub-negotiation %s", c.ID, r.SubChannelID)
	}
	if c.subResult[r.SubChannelID] != nil || c.Completed {
		return nil, nil
	}
	r.ParentChannelID = c.ID
	b := c.build().add(&r)
	pending := 0
	for _, s := range c.Subnets {
		if s.SubChannelID != r.SubChannelID && c.subResult[s.SubChannelID] == nil {
			pending++
		}
	}
	if pending == 0 {
		done := c.completed()
		for _, s := range c.Subnets {
			if res := c.subResult[s.SubChannelID]; res != nil {
				done.SubResults = append(done.SubResults, *res)
			} else {
				done.SubResults = append(done.SubResults, r)
			}
		}
		done.MergedPlan = c.mergedPlan(done.SubResults)
		b.add(done)
	}
	return b.done()
}

// mergedPlan is the one plan of a negotiation tree: the final
// proposal's assignments, then those of every sub-negotiation that agreed,
// each marked with the sub-channel it came from; the gaps a
// sub-negotiation filled are dropped (one it filled only in part, fewer
// assignees than its need count, stays a gap), and its alternates kept
// (marked too). Nil without a final proposal or without any agreed
// sub-negotiation (the final proposal is then the plan).
func (c *Channel) mergedPlan(subs []SubnetCompleted) *Proposal {
	if c.FinalProposal == nil {
		return nil
	}
	plan := *c.FinalProposal
	plan.Assignments = slices.Clone(plan.Assignments)
	plan.Alternates = slices.Clone(plan.Alternates)
	plan.Gaps = slices.Clone(plan.Gaps)
	merged := false
	for _, r := range subs {
		if !r.Success || r.Result == nil || len(r.Result.Assignments) == 0 {
			continue
		}
		merged = true
		for _, a := range r.Result.Assignments {
			a.SubChannelID = r.SubChannelID
			plan.Assignments = append(plan.Assignments, a)
		}
		for _, a := range r.Result.Alternates {
			a.SubChannelID = r.SubChannelID
			plan.Alternates = append(plan.Alternates, a)
		}
		for _, s := range c.Subnets {
			if s.SubChannelID == r.SubChannelID && len(r.Result.Assignments) >= max(1, s.NeedCount) {
				plan.Gaps = slices.DeleteFunc(plan.Gaps, func(g string) bool { return g == s.GapType })
			}
		}
	}
	if !merged {
		return nil
	}
	return &plan
}

func (c *Channel) completed() *NegotiationCompleted {
	return &NegotiationCompleted{ChannelID: c.ID, DemandID: c.DemandID, Status: c.Status,
		FinalProposal: c.FinalProposal, RoundsTaken: c.RoundsTaken}
}
