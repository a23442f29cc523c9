package negotiation

import (
	"reflect"
	"testing"
)

func TestNormalizeNeeds(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []Need
		want []Need
	}{
		{"counts clamped, role from tag", []Need{{CapabilityTags: []string{" 摄影 "}, Count: 0}, {Role: "主持人", CapabilityTags: []string{"主持"}, Count: 99}},
			[]Need{{Role: "摄影", CapabilityTags: []string{"摄影"}, Count: 1}, {Role: "主持人", CapabilityTags: []string{"主持"}, Count: MaxNeedCount}}},
		{"tag from role, empty dropped", []Need{{Role: "律师"}, {Role: " ", CapabilityTags: []string{""}}},
			[]Need{{Role: "律师", CapabilityTags: []string{"律师"}, Count: 1}}},
		{"same role merged", []Need{{Role: "嘉宾", CapabilityTags: []string{"演讲嘉宾"}, Count: 1}, {Role: "嘉宾", CapabilityTags: []string{"AI研究", "演讲嘉宾"}, Count: 3}},
			[]Need{{Role: "嘉宾", CapabilityTags: []string{"演讲嘉宾", "AI研究"}, Count: 3}}},
		{"nothing", nil, nil},
	} {
		if got := NormalizeNeeds(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
	many := make([]Need, 20)
	for i := range many {
		many[i] = Need{Role: string(rune('a' + i))}
	}
	if got := NormalizeNeeds(many); len(got) != MaxNeeds {
		t.Errorf("%d needs kept, want %d", len(got), MaxNeeds)
	}
}

func TestNeedsOfOlderUnderstanding(t *testing.T) {
	got := NeedsOf(Understanding{CapabilityTags: []string{"场地提供", "演讲嘉宾"}})
	want := []Need{{Role: "场地提供", CapabilityTags: []string{"场地提供"}, Count: 1}, {Role: "演讲嘉宾", CapabilityTags: []string{"演讲嘉宾"}, Count: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if !want[0].Serves([]string{"x", "场地提供"}) || want[0].Serves([]string{"演讲嘉宾"}) {
		t.Error("Serves")
	}
}

// TestUnclearAndUnmatchedDemands: given a submitted demand, when prompt 1
// finds no needs, then it is understood, rejected (unclear) and failed in
// one decision; when filtering finds nobody, it is rejected (no match)
// with the needs nobody serves.
func TestUnclearAndUnmatchedDemands(t *testing.T) {
	given := func() *DemandState {
		d := &DemandState{}
		d.Apply(&DemandSubmitted{DemandID: "d1", UserID: "u", RawInput: "x"})
		return d
	}
	evs, err := given().Understand(Understanding{SurfaceDemand: "x", Uncertainties: []string{"要做什么？"}, Confidence: ConfidenceLow})
	if err != nil || len(evs) != 4 {
		t.Fatalf("%v %+v", err, evs)
	}
	rej, ok := evs[1].(*DemandRejected)
	failed, ok2 := evs[2].(*NegotiationFailed)
	if !ok || !ok2 || rej.Reason != RejectUnclear || rej.Suggestion == "" || !reflect.DeepEqual(rej.Questions, []string{"要做什么？"}) ||
		failed.Reason != FailureDemandRejected || failed.ErrorCode != "TOWOW_DEMAND_001" {
		t.Fatalf("%+v %+v", evs[1], evs[2])
	}

	d := given()
	evs, _ = d.Understand(Understanding{SurfaceDemand: "s", Needs: []Need{{Role: "赞助商", CapabilityTags: []string{"赞助"}, Count: 1}}})
	if len(evs) != 1 {
		t.Fatalf("a demand with needs: %+v", evs)
	}
	d.Apply(evs[0])
	evs, _ = d.Filtered(nil, "collab-d1", 100, 3)
	if len(evs) != 4 {
		t.Fatalf("%+v", evs)
	}
	if rej, ok := evs[1].(*DemandRejected); !ok || rej.Reason != RejectNoMatch || !reflect.DeepEqual(rej.UnservedNeeds, []string{"赞助商"}) {
		t.Fatalf("%+v", evs[1])
	}
	if f, ok := evs[2].(*NegotiationFailed); !ok || f.Reason != FailureNoCandidates {
		t.Fatalf("%+v", evs[2])
	}
}

func TestCoverage(t *testing.T) {
	needs := []Need{{Role: "演讲嘉宾", CapabilityTags: []string{"演讲嘉宾"}, Count: 2}, {Role: "场地", CapabilityTags: []string{"场地提供"}, Count: 1}}
	for _, tc := range []struct {
		as   []Assignment
		want float64
	}{
		{nil, 0},
		{[]Assignment{{Need: "演讲嘉宾"}, {Need: "演讲嘉宾"}, {Need: "演讲嘉宾"}, {Role: "场地"}}, 1}, // a third speaker fills nothing more
		{[]Assignment{{Need: "演讲嘉宾"}, {Role: "摄影师"}}, 1.0 / 3},
		{[]Assignment{{Need: "摄影师", Role: "场地"}}, 0}, // the need it names wins over its role
	} {
		if got := Coverage(needs, tc.as); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.as, got, tc.want)
		}
	}
	if Coverage(nil, nil) != 1 {
		t.Error("nothing asked: coverage 1")
	}
}

// TestShortfall: a gap's need count less the willing agents who serve it,
// at least one; nothing for a gap that names no need.
func TestShortfall(t *testing.T) {
	needs := []Need{{Role: "演讲嘉宾", CapabilityTags: []string{"演讲嘉宾"}, Count: 3}, {Role: "摄影师", CapabilityTags: []string{"摄影"}, Count: 1}}
	tests := []struct {
		name    string
		willing [][]string
		role    string
		want    int
	}{
		{"nobody willing", nil, "演讲嘉宾", 3},
		{"one of three", [][]string{{"演讲嘉宾", "AI"}, {"场地提供"}}, "演讲嘉宾", 2},
		{"all covered still asks for one", [][]string{{"摄影"}, {"摄影"}}, "摄影师", 1},
		{"an implied need", [][]string{{"摄影"}}, "餐饮", 0},
	}
	for _, tc := range tests {
		if got := Shortfall(needs, tc.willing, tc.role); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
