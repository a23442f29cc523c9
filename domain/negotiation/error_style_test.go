package negotiation

import (
	"testing"
	"unicode"
)

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

// checkErrorStyle fails t if err's message does not start in lowercase.
func checkErrorStyle(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || unicode.IsUpper(rune(msg[0])) {
		t.Errorf("error message %q should start in lowercase", msg)
	}
}
