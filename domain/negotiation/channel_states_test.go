package negotiation

import (
	"testing"

	"github.com/towow/towow/domain/event"
)

func TestCanTransition(t *testing.T) {
	all := []ChannelStatus{ChannelStatusCreated, ChannelStatusBroadcasting, ChannelStatusCollecting, ChannelStatusAggregating,
		ChannelStatusProposalSent, ChannelStatusNegotiating, ChannelStatusFinalized, ChannelStatusForceFinalized, ChannelStatusFailed}
	allowed := map[[2]ChannelStatus]bool{
		{ChannelStatusCreated, ChannelStatusBroadcasting}:       true,
		{ChannelStatusBroadcasting, ChannelStatusCollecting}:    true,
		{ChannelStatusCollecting, ChannelStatusAggregating}:     true,
		{ChannelStatusAggregating, ChannelStatusProposalSent}:   true,
		{ChannelStatusProposalSent, ChannelStatusNegotiating}:   true,
		{ChannelStatusNegotiating, ChannelStatusProposalSent}:   true,
		{ChannelStatusNegotiating, ChannelStatusFinalized}:      true,
		{ChannelStatusNegotiating, ChannelStatusForceFinalized}: true,
	}
	for _, from := range all {
		for _, to := range all {
			want := allowed[[2]ChannelStatus{from, to}] || (to == ChannelStatusFailed && !from.IsTerminal())
			if got := CanTransition(from, to); got != want {
				t.Errorf("%s → %s: %v, want %v", from, to, got, want)
			}
		}
	}
}

// TestStatusChangesFollowTheStateMachine walks a long negotiation and checks
// every recorded transition is allowed.
func TestStatusChangesFollowTheStateMachine(t *testing.T) {
	g := inLastRound(5).feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept, FeedbackNegotiate, FeedbackNegotiate).
		then(func(c *Channel) ([]event.Payload, error) { return c.ForceFinalize(proposalFor(agents(5)...), t0) }).
		then(func(c *Channel) ([]event.Payload, error) { return c.IdentifyGaps(nil, true, "") })
	status := ChannelStatus("")
	for _, e := range g.events {
		if s, ok := e.(*ChannelStatusChanged); ok {
			if s.OldStatus != status && status != "" || !CanTransition(s.OldStatus, s.NewStatus) {
				t.Fatalf("transition %s → %s after %s", s.OldStatus, s.NewStatus, status)
			}
			status = s.NewStatus
		}
		if _, ok := e.(*ChannelCreated); ok {
			status = ChannelStatusCreated
		}
	}
	c := fold(g.events...)
	if c.Status != ChannelStatusForceFinalized || c.Round != 5 || !c.Completed {
		t.Fatalf("status %s round %d completed %v", c.Status, c.Round, c.Completed)
	}
}

func TestChannelStatusIsTerminal(t *testing.T) {
	terminal := map[ChannelStatus]bool{
		ChannelStatusFinalized: true, ChannelStatusForceFinalized: true, ChannelStatusFailed: true,
	}
	for _, s := range []ChannelStatus{
		ChannelStatusCreated, ChannelStatusBroadcasting, ChannelStatusCollecting, ChannelStatusAggregating,
		ChannelStatusProposalSent, ChannelStatusNegotiating, ChannelStatusFinalized,
		ChannelStatusForceFinalized, ChannelStatusFailed,
	} {
		if s.IsTerminal() != terminal[s] {
			t.Errorf("%s.IsTerminal() = %v", s, s.IsTerminal())
		}
	}
}
