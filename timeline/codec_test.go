package timeline

import (
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		name string
		want event.EventType
		ok   bool
	}{
		{"towow.channel.created", negotiation.EventChannelCreated, true},
		{"channel.created", negotiation.EventChannelCreated, true},
		{"plan.distributed", negotiation.EventProposalDistributed, true},
		{"agent.response", negotiation.EventProposalFeedback, true},
		{"plan.finalized", negotiation.EventProposalFinalized, true},
		{"towow.proposal.aggregating", negotiation.EventAggregationStarted, true},
		{"nonsense", "", false},
	}
	for _, tt := range tests {
		got, ok := Canonical(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Canonical(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	for alias, target := range Aliases() {
		if _, ok := event.Spec(target); !ok {
			t.Errorf("alias %q → %q: target not registered", alias, target)
		}
		if _, ok := event.Spec(event.EventType(alias)); ok {
			t.Errorf("alias %q shadows a registered type", alias)
		}
	}
	a := Aliases()
	delete(a, "channel.created")
	if _, ok := Canonical("channel.created"); !ok {
		t.Error("Aliases() does not return a copy")
	}
}
