package negotiation

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
)

// Rounds: each round's members answer the proposal under review; when the
// last one has answered (or the feedback timeout, in
// channel_deadlines.go, answered for them) the round is evaluated against
// the thresholds: finalize, fail, another round, or, in the last round
// between the thresholds, force-finalize with the compromise.
// roundState is the round under way: its number, the proposal under
// review, who must answer it and what they answered, and what the last
// evaluation decided. A Channel embeds it.
type roundState struct {
	Round            int                         // current round, 1-based; 0 before the first proposal
	Proposal         *Proposal                   // the proposal under review (or last reviewed)
	awaitingProposal bool                        // a round started; its proposal is not out yet
	roundMembers     []string                    // who must answer the current round
	Feedback         map[string]ProposalFeedback // current round, by agent
	// LastRoundFeedback is the feedback of the round before the current
	// one (what prompt 6 adjusts to), in round-member order.
	LastRoundFeedback []ProposalFeedback
	LastEvaluation    *FeedbackEvaluated
	pendingForce      bool // force-finalize decided; compromise awaited
}

// start opens round n: its proposal is awaited and its feedback starts
// empty; the previous round's feedback is kept for the adjustment.
func (r *roundState) start(n int) {
	if n > 1 {
		r.LastRoundFeedback = r.FeedbackList()
	}
	r.Round = n
	r.awaitingProposal = true
	r.Feedback = map[string]ProposalFeedback{}
}

// distribute puts p under review by the active participants; when p has
// alternates, they stand by and only who is assigned answers.
func (r *roundState) distribute(p Proposal, active []string) {
	r.Proposal = &p
	r.awaitingProposal = false
	r.roundMembers = active
	if len(p.Alternates) > 0 {
		r.roundMembers = slices.DeleteFunc(r.roundMembers, func(id string) bool {
			return !slices.ContainsFunc(p.Assignments, func(a Assignment) bool { return a.AgentID == id })
		})
	}
}

// RoundMembers are the agents asked for feedback in the current round.
func (r *roundState) RoundMembers() []string { return slices.Clone(r.roundMembers) }

// MissingFeedback lists the current round's members that have not answered.
func (r *roundState) MissingFeedback() []string {
	var out []string
	for _, id := range r.roundMembers {
		if _, ok := r.Feedback[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// FeedbackList is the current round's feedback in round-member order.
func (r *roundState) FeedbackList() []ProposalFeedback {
	var out []ProposalFeedback
	for _, id := range r.roundMembers {
		if f, ok := r.Feedback[id]; ok {
			out = append(out, f)
		}
	}
	return out
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
	case FeedbackAccept, FeedbackWithdraw, FeedbackReject, FeedbackNoAnswer:
	case FeedbackNegotiate:
		if strings.TrimSpace(f.AdjustmentRequest) == "" {
			return nil, event.Errorf(ErrInvalidAnswer, "negotiate feedback needs an adjustment request")
		}
	default:
		return nil, event.Errorf(ErrInvalidAnswer, "feedback type %q: want accept, negotiate or withdraw", f.FeedbackType)
	}
	f.ChannelID, f.DemandID, f.ProposalVersion, f.Round = c.ID, c.DemandID, c.Proposal.Version, c.Round
	b := build(c).add(&f)
	if f.FeedbackType == FeedbackWithdraw {
		b.add(&AgentWithdrawn{ChannelID: c.ID, DemandID: c.DemandID, AgentID: f.AgentID,
			DisplayName: c.DisplayName(f.AgentID), Reason: f.Reasoning})
	}
	all := append(c.FeedbackList(), f)
	if len(all) == len(c.roundMembers) {
		evaluate(c, b, all, now)
	}
	return b.done()
}

// evaluate adds to b the outcome of c's current round, complete with the
// feedback fbs: the round thresholds decide finalize, fail, another round
// or force-finalize; now is when.
func evaluate(c *Channel, b *builder, fbs []ProposalFeedback, now time.Time) {
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
	replaced := replaceable(c, fbs)
	t.Rejects -= replaced
	decision := t.Decide(c.Round, c.Rules)
	if replaced > 0 && decision == RoundFinalize && c.Round < c.Rules.MaxRounds {
		decision = RoundNext
	}
	b.add(&FeedbackEvaluated{ChannelID: c.ID, Accepts: t.Accepts, Rejects: t.Rejects, Negotiates: t.Negotiates,
		Replaced: replaced, NoAnswers: t.NoAnswers, AcceptRate: t.AcceptRate(), Round: c.Round, Decision: decision})
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
			TotalDurationSeconds: secondsSince(c.CreatedAt, now)})
		b.to(ChannelStatusFinalized, "consensus").completeWhenDone()
	case RoundFail:
		reason, code := FailureLowAcceptance, ErrLowAcceptance
		msg := fmt.Sprintf("round %d: accept rate %.2f under the fail threshold (%d accepts, %d against, %d negotiating)",
			c.Round, t.AcceptRate(), t.Accepts, t.Rejects, t.Negotiates)
		switch {
		case t.MostlyNoAnswer():
			reason, code = FailureModelUnavailable, ErrModelUnavailable
			msg = fmt.Sprintf("round %d of %d: the model could not answer for %d of %d members", c.Round, c.Rules.MaxRounds,
				t.NoAnswers, t.Total()+t.NoAnswers)
		case t.Total() == 0:
			reason, code = FailureNoFeedback, ErrNoFeedback
			msg = fmt.Sprintf("round %d of %d ended without any feedback that counts", c.Round, c.Rules.MaxRounds)
		}
		last := *c.Proposal
		b.failInto(code, &NegotiationFailed{ChannelID: c.ID, DemandID: c.DemandID, Reason: reason, LastProposal: &last}, msg)
	case RoundNext:
		b.add(&NegotiationRoundStarted{ChannelID: c.ID, DemandID: c.DemandID, Round: c.Round + 1, MaxRounds: c.Rules.MaxRounds})
		b.add(&ProposalAdjusting{ChannelID: c.ID, DemandID: c.DemandID, Round: c.Round + 1})
	case RoundForceFinalize:
		// The compromise (prompt 9) comes in ForceFinalize.
		b.add(occurred(ErrMaxRounds, fmt.Sprintf("round %d of %d ended with accept rate %.2f, between the thresholds: force-finalizing",
			c.Round, c.Rules.MaxRounds, t.AcceptRate()), c.ID, c.DemandID))
	}
}

// secondsSince is how long from start to now, in whole seconds (0 when
// start is not recorded, as for a channel whose creation time is not, or
// after now).
func secondsSince(start, now time.Time) int {
	if start.IsZero() || now.Before(start) {
		return 0
	}
	return int(now.Sub(start) / time.Second)
}

// replaceable counts the withdrawals among c's round feedback fbs that
// replaceWithdrawn will fill: an assignee of a need with an alternate of
// that need still in (each alternate fills one place).
func replaceable(c *Channel, fbs []ProposalFeedback) int {
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
	compromise = stamp(c, compromise, c.Proposal.Version+1, now, append(slices.Clone(confirmed), optional...))
	rate := 0.0
	if c.LastEvaluation != nil {
		rate = c.LastEvaluation.AcceptRate
	}
	return build(c).
		add(&NegotiationForceFinalized{ChannelID: c.ID, DemandID: c.DemandID, FinalProposal: compromise,
			ConfirmedParticipants: confirmed, OptionalParticipants: optional, RoundsTaken: c.Round, AcceptRate: rate}).
		to(ChannelStatusForceFinalized, "max_rounds").
		completeWhenDone().
		done()
}
