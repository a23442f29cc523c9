package negotiation

import (
	"reflect"
	"testing"
)

func TestDiffPlans(t *testing.T) {
	venue := Assignment{AgentID: "a1", Role: "场地提供者", Need: "场地", Responsibility: "提供会议室"}
	speaker := Assignment{AgentID: "a2", Role: "演讲嘉宾", Need: "嘉宾", Responsibility: "30分钟分享"}
	host := Assignment{AgentID: "a3", Role: "主持", Responsibility: "串场"}
	longer := speaker
	longer.Responsibility = "60分钟分享"
	longer.Dependencies = []string{"a1"}
	plan := func(gaps []string, as ...Assignment) *Proposal { return &Proposal{Assignments: as, Gaps: gaps} }
	tests := []struct {
		name        string
		left, right *Proposal
		added       []string
		removed     []string
		changed     map[string][]string
		closed      []string
		opened      []string
	}{
		{name: "the same plan", left: plan(nil, venue, speaker), right: plan(nil, speaker, venue)},
		{name: "no plans", left: nil, right: nil},
		{name: "one withdrew, another came", left: plan(nil, venue, speaker), right: plan([]string{"嘉宾"}, venue, host),
			added: []string{"a3"}, removed: []string{"a2"}, opened: []string{"嘉宾"}},
		{name: "other terms", left: plan([]string{"主持"}, venue, speaker), right: plan(nil, venue, longer),
			changed: map[string][]string{"a2": {"responsibility", "dependencies"}}, closed: []string{"主持"}},
		{name: "from no plan", left: nil, right: plan(nil, venue), added: []string{"a1"}},
		{name: "to no plan", left: plan([]string{"x"}, venue), right: nil, removed: []string{"a1"}, closed: []string{"x"}},
		{name: "an agent twice counts once", left: plan(nil, venue, venue), right: plan(nil, host, host), added: []string{"a3"}, removed: []string{"a1"}},
	}
	ids := func(as []Assignment) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.AgentID)
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := DiffPlans(tt.left, tt.right)
			changed := map[string][]string{}
			for _, c := range d.Changed {
				changed[c.AgentID] = c.Fields
			}
			if tt.changed == nil {
				tt.changed = map[string][]string{}
			}
			if !reflect.DeepEqual(ids(d.Added), tt.added) || !reflect.DeepEqual(ids(d.Removed), tt.removed) ||
				!reflect.DeepEqual(changed, tt.changed) || !reflect.DeepEqual(nilIfEmpty(d.GapsClosed), tt.closed) ||
				!reflect.DeepEqual(nilIfEmpty(d.GapsOpened), tt.opened) {
				t.Fatalf("%+v", d)
			}
			if same := len(tt.added)+len(tt.removed)+len(tt.changed)+len(tt.closed)+len(tt.opened) == 0; d.Same() != same {
				t.Fatalf("Same() = %v", d.Same())
			}
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
