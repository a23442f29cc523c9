package event_test

import (
	"reflect"
	"testing"

	"github.com/towow/towow/domain/event/eventtest"
	"github.com/towow/towow/domain/negotiation"
)

func TestUnderstoodRecordsTheUnderstanding(t *testing.T) {
	u := negotiation.Understanding{
		SurfaceDemand:     "想在北京办一场AI主题聚会",
		DeepUnderstanding: *eventtest.Deep,
		CapabilityTags:    []string{"场地提供", "演讲嘉宾"},
		Needs:             []negotiation.Need{{Role: "场地提供者", CapabilityTags: []string{"场地提供"}, Count: 1}, {Role: "演讲嘉宾", CapabilityTags: []string{"演讲嘉宾"}, Count: 2}},
		Context:           *eventtest.Context,
		Uncertainties:     []string{"具体日期未定"},
		Confidence:        negotiation.ConfidenceHigh,
	}
	got := u.Understood("d-abc12345")
	var want *negotiation.DemandUnderstood
	for _, p := range eventtest.Payloads {
		if e, ok := p.(*negotiation.DemandUnderstood); ok {
			want = e
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Understood = %+v, want %+v", got, want)
	}
	if back := got.Understanding(); !reflect.DeepEqual(back, u) {
		t.Errorf("Understanding() = %+v, want %+v", back, u)
	}
}
