package negotiation

import (
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestTreeEnd: a tree ends when its root and every sub-demand ended, with
// the root's outcome; a channel's failure alone, or a root completed
// while a sub-negotiation still runs, does not end it.
func TestTreeEnd(t *testing.T) {
	const root, sub = "d-root", "d-root-s0"
	submitted := func(id string) event.Payload { return &DemandSubmitted{DemandID: id} }
	completed := func(id string, s ChannelStatus) event.Payload {
		return &NegotiationCompleted{DemandID: id, ChannelID: ChannelIDFor(id), Status: s}
	}
	channelFailed := func(id string, r FailureReason) event.Payload {
		return &NegotiationFailed{DemandID: id, ChannelID: ChannelIDFor(id), Reason: r}
	}
	demandFailed := func(id string, r FailureReason) event.Payload { return &NegotiationFailed{DemandID: id, Reason: r} }
	for _, c := range []struct {
		name   string
		events []event.Payload
		ended  bool
		status ChannelStatus
		reason FailureReason
	}{
		{"nothing yet", nil, false, "", ""},
		{"submitted", []event.Payload{submitted(root)}, false, "", ""},
		{"root finalized", []event.Payload{submitted(root), completed(root, ChannelStatusFinalized)}, true, ChannelStatusFinalized, ""},
		{"root force-finalized", []event.Payload{submitted(root), completed(root, ChannelStatusForceFinalized)}, true, ChannelStatusForceFinalized, ""},
		{"root rejected before a channel", []event.Payload{submitted(root), demandFailed(root, FailureDemandRejected)}, true, ChannelStatusFailed, FailureDemandRejected},
		{"root channel failed, not completed yet", []event.Payload{submitted(root), channelFailed(root, FailureNoParticipants)}, false, "", ""},
		{"root channel failed and completed", []event.Payload{submitted(root), channelFailed(root, FailureNoParticipants),
			completed(root, ChannelStatusFailed)}, true, ChannelStatusFailed, FailureNoParticipants},
		{"a sub-negotiation failed, the root finalized", []event.Payload{submitted(root), submitted(sub), channelFailed(sub, FailureLowAcceptance),
			completed(sub, ChannelStatusFailed), completed(root, ChannelStatusFinalized)}, true, ChannelStatusFinalized, ""},
		{"the root completed while a sub-negotiation runs", []event.Payload{submitted(root), submitted(sub),
			completed(root, ChannelStatusFinalized)}, false, ChannelStatusFinalized, ""},
		{"then the sub-negotiation ended", []event.Payload{submitted(root), submitted(sub),
			completed(root, ChannelStatusFinalized), completed(sub, ChannelStatusFailed)}, true, ChannelStatusFinalized, ""},
		{"a sub-demand stuck before its channel", []event.Payload{submitted(root), submitted(sub),
			demandFailed(sub, FailureStuckTimeout), completed(root, ChannelStatusForceFinalized)}, true, ChannelStatusForceFinalized, ""},
		{"only the sub-demand ended", []event.Payload{submitted(root), submitted(sub), completed(sub, ChannelStatusFinalized)}, false, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			te := NewTreeEnd(root)
			for _, p := range c.events {
				te.Apply(p)
			}
			status, reason := te.Outcome()
			if te.Ended() != c.ended || status != c.status || reason != c.reason {
				t.Fatalf("ended %v, outcome %q %q; want %v %q %q", te.Ended(), status, reason, c.ended, c.status, c.reason)
			}
		})
	}
	for _, typ := range TreeEndTypes {
		if _, err := event.DecodePayload(typ, 1, []byte("{}")); err != nil {
			t.Errorf("TreeEndTypes names %s, which the catalog does not decode: %v", typ, err)
		}
	}
}
