package negotiate_test

import (
	"context"
	"testing"
	"time"

	"github.com/towow/towow/writetest"
)

func TestSampleDemandEndToEnd(t *testing.T) {
	h := writetest.New(t, writetest.Opts{})
	sub, err := h.C.SubmitDemand(context.Background(), "u1", writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	out := h.Wait(sub.DemandID, 60*time.Second)
	t.Logf("timeline:\n%s", h.Timeline(sub.DemandID))
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
	h.Check(sub.DemandID)
}
