package negotiation

// Rules are a channel's negotiation rules, fixed when the channel is created
// (recorded in towow.channel.created) so later decisions and replays use the
// same ones.
type Rules struct {
	MaxRounds              int `json:"max_rounds"`               // at most this many proposal rounds (default 5)
	OfferTimeoutSeconds    int `json:"offer_timeout_seconds"`    // offer collection window; then go on with the offers that arrived (default 300)
	FeedbackTimeoutSeconds int `json:"feedback_timeout_seconds"` // feedback window per round; a missing feedback counts as accept (default 120)
	StuckTimeoutSeconds    int `json:"stuck_timeout_seconds"`    // a non-terminal channel older than this fails as stuck (default 600)
	MaxDepth               int `json:"max_depth"`                // sub-negotiations allowed while depth < MaxDepth (default 1)
	// AcceptPercent and FailPercent are the round thresholds: a round whose
	// accept rate reaches AcceptPercent finalizes, one below FailPercent
	// fails (0: the design's 80 and 50; a fork's change_rule sets them).
	AcceptPercent int `json:"accept_percent,omitempty"`
	FailPercent   int `json:"fail_percent,omitempty"`
}

// thresholds are the accept and fail percentages in force (the design's
// 80 and 50 when unset).
func (r Rules) thresholds() (accept, fail int) {
	accept, fail = r.AcceptPercent, r.FailPercent
	if accept == 0 {
		accept = 80
	}
	if fail == 0 {
		fail = 50
	}
	return accept, fail
}

// DefaultRules are the design's values.
func DefaultRules() Rules {
	return Rules{MaxRounds: 5, OfferTimeoutSeconds: 300, FeedbackTimeoutSeconds: 120, StuckTimeoutSeconds: 600, MaxDepth: 1,
		AcceptPercent: 80, FailPercent: 50}
}

// MaxSubnets is the most sub-negotiations one channel may spawn: one per
// gap, at most three.
const MaxSubnets = 3

// Tally counts one round's feedback. reject and withdraw both count
// against the proposal.
type Tally struct {
	Accepts, Rejects, Negotiates int
	// NoAnswers are members whose twin could not answer (the model
	// failed).
	NoAnswers int
}

// Total is the number of feedbacks counted (answers: no answer is not
// counted here).
func (t Tally) Total() int { return t.Accepts + t.Rejects + t.Negotiates }

// AcceptRate is accepts / (total + no answers): a member who gave no
// answer did not accept (0 when there is nothing).
func (t Tally) AcceptRate() float64 {
	if t.Total()+t.NoAnswers == 0 {
		return 0
	}
	return float64(t.Accepts) / float64(t.Total()+t.NoAnswers)
}

// MostlyNoAnswer reports whether more than half of the members gave no
// answer: the model, not the members, would decide such a round.
func (t Tally) MostlyNoAnswer() bool { return t.NoAnswers > 0 && t.NoAnswers*2 > t.Total()+t.NoAnswers }

// Add counts one feedback.
func (t *Tally) Add(f FeedbackType) {
	switch f {
	case FeedbackAccept:
		t.Accepts++
	case FeedbackNegotiate:
		t.Negotiates++
	case FeedbackNoAnswer:
		t.NoAnswers++
	default: // reject, withdraw
		t.Rejects++
	}
}

// Decide applies the round thresholds to a round's tally, by the
// rules r (r.MaxRounds, r.AcceptPercent, r.FailPercent; shown here with
// the design's values): accept rate >= 0.8 → finalize; < 0.5 → fail; otherwise the next round, or
// force-finalize when round is the last one. No feedback at all → the next
// round, or fail after the last round. A round below 0.5 in which nobody rejected or withdrew — everyone who did
// not accept asks for changes — goes on to the next round instead of
// failing (with per-need assignment a round often has one or two members,
// and one request for a later start must not end the negotiation); in the
// last round it force-finalizes if anyone accepted, and fails otherwise.
// A member whose twin gave no answer (the model failed) counts in the
// total and never as an acceptance; a round most of whose members gave
// none is not decided on them: the next round, or after the last one a
// failure that names the model as the cause.
// The comparisons are done in integers (4 of 5 is exactly 0.8).
func (t Tally) Decide(round int, r Rules) RoundOutcome {
	total, maxRounds := t.Total()+t.NoAnswers, r.MaxRounds
	accept, fail := r.thresholds()
	switch {
	case t.MostlyNoAnswer() && round < maxRounds:
		return RoundNext
	case t.MostlyNoAnswer():
		return RoundFail
	case total == 0 && round < maxRounds:
		return RoundNext
	case total == 0:
		return RoundFail
	case t.Accepts*100 >= total*accept:
		return RoundFinalize
	case t.Accepts*100 < total*fail && t.Rejects == 0 && round < maxRounds:
		return RoundNext
	case t.Accepts*100 < total*fail && (t.Rejects > 0 || t.Accepts == 0):
		return RoundFail
	case round >= maxRounds:
		return RoundForceFinalize
	default:
		return RoundNext
	}
}

// transitions is the channel state machine: the states each state may
// move to (created → broadcasting → collecting → aggregating →
// proposal_sent → negotiating, then finalized, force_finalized, failed or
// another round). Any non-terminal state may also fail (stuck
// channel, see CanTransition).
var transitions = map[ChannelStatus][]ChannelStatus{
	ChannelStatusCreated:      {ChannelStatusBroadcasting},
	ChannelStatusBroadcasting: {ChannelStatusCollecting},
	ChannelStatusCollecting:   {ChannelStatusAggregating},
	ChannelStatusAggregating:  {ChannelStatusProposalSent},
	ChannelStatusProposalSent: {ChannelStatusNegotiating},
	ChannelStatusNegotiating:  {ChannelStatusProposalSent, ChannelStatusFinalized, ChannelStatusForceFinalized},
}

// CanTransition reports whether a channel may move from one status to
// another. Terminal statuses move nowhere; every other status may fail.
func CanTransition(from, to ChannelStatus) bool {
	if from.IsTerminal() {
		return false
	}
	if to == ChannelStatusFailed {
		return true
	}
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}
