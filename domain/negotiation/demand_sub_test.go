package negotiation

import (
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestSubDemandFilteredBesideItsUnderstanding: a sub-demand's smart
// filtering may answer before or after its understanding; either way it is
// accepted once both are in, with the channel its id derives, and a
// rejection by either ends it.
func TestSubDemandFilteredBesideItsUnderstanding(t *testing.T) {
	submitted := func() *DemandState {
		d := &DemandState{}
		evs, err := d.Submit(SubmitDemand{DemandID: "d-p-1", UserID: "u1", RawInput: "在北京找一位摄影师",
			Parent: &SubDemandOrigin{RootDemandID: "d-p", ParentDemandID: "d-p", ParentChannelID: "collab-p", Depth: 1,
				GapType: "摄影师", CapabilityTags: []string{"摄影"}, NeedCount: 2}})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			d.Apply(e)
		}
		return d
	}
	understanding := Understanding{SurfaceDemand: "s", Needs: []Need{{Role: "摄影师", CapabilityTags: []string{"摄影"}, Count: 1}}}
	unclear := Understanding{SurfaceDemand: "s"}
	cands := []Candidate{{AgentID: "a1"}, {AgentID: "a2"}}
	understand := func(u Understanding) func(d *DemandState) ([]event.Payload, error) {
		return func(d *DemandState) ([]event.Payload, error) { return d.Understand(u) }
	}
	filter := func(c []Candidate) func(d *DemandState) ([]event.Payload, error) {
		return func(d *DemandState) ([]event.Payload, error) { return d.Filtered(c, "collab-p-1", 100, 5) }
	}
	tests := []struct {
		name    string
		steps   []func(d *DemandState) ([]event.Payload, error)
		then    [][]event.EventType // per step
		channel string
		failed  bool
	}{
		{name: "filtered first, accepted by its understanding",
			steps: []func(d *DemandState) ([]event.Payload, error){filter(cands), understand(understanding)},
			then:  [][]event.EventType{{EventFilterCompleted}, {EventDemandUnderstood, EventDemandAccepted}}, channel: "collab-p-1"},
		{name: "understood first, accepted by its filtering",
			steps: []func(d *DemandState) ([]event.Payload, error){understand(understanding), filter(cands)},
			then:  [][]event.EventType{{EventDemandUnderstood}, {EventFilterCompleted, EventDemandAccepted}}, channel: "collab-p-1"},
		{name: "nobody found before the understanding: rejected, the understanding comes too late",
			steps:  []func(d *DemandState) ([]event.Payload, error){filter(nil), understand(understanding)},
			then:   [][]event.EventType{{EventFilterCompleted, EventDemandRejected, EventNegotiationFailed, EventErrorOccurred}, nil},
			failed: true},
		{name: "filtered first, then understood as naming no need: rejected",
			steps: []func(d *DemandState) ([]event.Payload, error){filter(cands), understand(unclear)},
			then: [][]event.EventType{{EventFilterCompleted},
				{EventDemandUnderstood, EventDemandRejected, EventNegotiationFailed, EventErrorOccurred}},
			failed: true},
		{name: "a second filtering changes nothing",
			steps: []func(d *DemandState) ([]event.Payload, error){filter(cands), filter(cands)},
			then:  [][]event.EventType{{EventFilterCompleted}, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := submitted()
			for i, step := range tc.steps {
				evs, err := step(d)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if !slices.Equal(types(evs), tc.then[i]) {
					t.Fatalf("step %d: events %v, want %v", i, types(evs), tc.then[i])
				}
				for _, e := range evs {
					d.Apply(e)
				}
			}
			if d.ChannelID != tc.channel || (d.Failure != nil) != tc.failed {
				t.Errorf("channel %q failed %v; want %q, %v", d.ChannelID, d.Failure != nil, tc.channel, tc.failed)
			}
		})
	}
	d := submitted()
	u := d.GapUnderstanding(Understanding{Context: DemandContext{Location: "北京", ExpectedAttendees: 50}})
	if n := NeedsOf(u); len(n) != 1 || n[0].Role != "摄影师" || n[0].Count != 2 || u.Context.Location != "北京" {
		t.Errorf("gap understanding %+v", u)
	}
	root := &DemandState{}
	root.Apply(&DemandSubmitted{DemandID: "d-r", RawInput: "x"})
	if _, err := root.Filtered(cands, "collab-d-r", 100, 5); err == nil {
		t.Error("a root demand filtered before it is understood")
	}
}
