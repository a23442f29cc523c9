package negotiate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/writetest"
)

// negotiateSample runs the sample demand to its end on a fresh harness and
// returns the harness, the demand's id and how it ended.
func negotiateSample(t *testing.T) (*writetest.Harness, string, writetest.Outcome) {
	t.Helper()
	h := writetest.New(t, writetest.Opts{})
	sub, err := h.C.SubmitDemand(context.Background(), "u1", writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	return h, sub.DemandID, h.Wait(sub.DemandID, 60*time.Second)
}

func TestSampleDemandEndToEnd(t *testing.T) {
	h, id, out := negotiateSample(t)
	t.Logf("timeline:\n%s", h.Timeline(id))
	if out.Channel == nil {
		t.Fatalf("demand failed: %+v", out.Demand.Failure)
	}
	c := out.Channel
	if !c.Status.IsTerminal() || c.FinalProposal == nil {
		t.Fatalf("status %s, final proposal %v", c.Status, c.FinalProposal)
	}
	profiles, _ := h.Dir.Active(context.Background())
	known := map[string]bool{}
	for _, p := range profiles {
		known[p.AgentID] = true
	}
	if len(c.FinalProposal.Assignments) == 0 {
		t.Fatal("final proposal has no assignments")
	}
	for _, a := range c.FinalProposal.Assignments {
		if !known[a.AgentID] {
			t.Fatalf("assignment names unknown agent %q", a.AgentID)
		}
	}
	h.Check(id)
}

// TestChannelOpensBroadcasting: the filter's step opens the channel and
// broadcasts the demand in one commit (the same causing step), and the
// candidates are asked next: no step of its own stands between the filter
// and the offers.
func TestChannelOpensBroadcasting(t *testing.T) {
	h, id, _ := negotiateSample(t)
	cause := map[event.EventType]string{}
	for _, ev := range h.Events(id) {
		if _, seen := cause[ev.Type]; !seen {
			cause[ev.Type] = ev.Metadata.CausationID
		}
	}
	filtered := cause[negotiation.EventFilterCompleted]
	if !strings.Contains(filtered, "towow.filter_candidates") {
		t.Fatalf("the filter's result was caused by %q, not the filter's step", filtered)
	}
	for _, ty := range []event.EventType{negotiation.EventChannelCreated, negotiation.EventDemandBroadcast, negotiation.EventChannelInviteSent} {
		if cause[ty] != filtered {
			t.Errorf("%s caused by %q, the filter's result by %q: not one commit", ty, cause[ty], filtered)
		}
	}
	if strings.Contains(cause[negotiation.EventOfferSubmitted], "towow.broadcast") || cause[negotiation.EventOfferSubmitted] == "" {
		t.Errorf("the first offer was caused by %q", cause[negotiation.EventOfferSubmitted])
	}
}

// TestSubNegotiationTellsItsParentAsItEnds: the commit that completes a
// sub-negotiation also records its end in the parent channel
// (towow.subnet.completed, right after), so the parent needs no step of
// its own to hear of it.
func TestSubNegotiationTellsItsParentAsItEnds(t *testing.T) {
	h, id, _ := negotiateSample(t)
	ended := map[string]eventstore.RecordedEvent{} // sub-channel id → its completion
	told := 0
	for _, ev := range h.Events(id) {
		p, err := ev.Decode()
		if err != nil {
			t.Fatal(err)
		}
		switch p := p.(type) {
		case *negotiation.NegotiationCompleted:
			if p.ChannelID != negotiation.ChannelIDFor(id) {
				ended[p.ChannelID] = ev
			}
		case *negotiation.SubnetCompleted:
			done, ok := ended[p.SubChannelID]
			switch {
			case !ok:
				t.Errorf("the parent heard of %s before it ended", p.SubChannelID)
			case ev.Metadata.CausationID != done.Metadata.CausationID || ev.Position <= done.Position:
				t.Errorf("%s ended at %d (caused by %s), the parent heard of it at %d (caused by %s): not the same commit",
					p.SubChannelID, done.Position, done.Metadata.CausationID, ev.Position, ev.Metadata.CausationID)
			}
			told++
		}
	}
	if len(ended) == 0 || told != len(ended) {
		t.Fatalf("%d sub-negotiations ended, the parent heard of %d: the sample demand should spawn one", len(ended), told)
	}
}
