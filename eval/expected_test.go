package eval

import (
	"slices"
	"testing"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/quality"
)

func TestFit(t *testing.T) {
	profiles := map[string]struct {
		tags []string
		loc  string
	}{
		"venue-hz": {[]string{"场地提供"}, "杭州"}, "venue-bj": {[]string{"场地提供"}, "北京"},
		"sound-hz": {[]string{"音响设备"}, "杭州"}, "sound-sh": {[]string{"音响设备"}, "上海"},
		"writer": {[]string{"文案写作"}, "远程"},
	}
	profile := func(id string) ([]string, string) { return profiles[id].tags, profiles[id].loc }
	venue := negotiation.Need{Role: "场地", CapabilityTags: []string{"场地提供"}, Count: 1}
	sound := negotiation.Need{Role: "音响师", CapabilityTags: []string{"音响设备"}, Count: 2}
	magician := negotiation.Need{Role: "魔术师", Count: 1}
	plan := func(ids ...string) []negotiation.Assignment {
		var out []negotiation.Assignment
		for _, id := range ids {
			out = append(out, negotiation.Assignment{AgentID: id})
		}
		return out
	}
	agents := []string{"venue-hz", "venue-bj", "sound-hz", "sound-sh", "writer"}
	everyNeed := []negotiation.Need{venue, sound}
	tests := []struct {
		name    string
		s       Scenario
		plan    []negotiation.Assignment
		willing []string
		read    []negotiation.Need // nil: every need of s
		want    Fit
	}{
		{"filled in the city", Scenario{Needs: []negotiation.Need{venue, sound}, City: "杭州"},
			plan("venue-hz", "sound-hz", "sound-sh"), []string{"venue-hz", "venue-bj", "sound-hz", "sound-sh"}, nil,
			Fit{Places: 3, Filled: 3}},
		{"a venue from Beijing while Hangzhou's offered", Scenario{Needs: []negotiation.Need{venue}, City: "杭州"},
			plan("venue-bj"), []string{"venue-hz", "venue-bj"}, nil, Fit{Places: 1, Filled: 1, CityMisses: 1}},
		{"from elsewhere when nobody in the city offered", Scenario{Needs: []negotiation.Need{venue}, City: "杭州"},
			plan("venue-bj"), []string{"venue-bj"}, nil, Fit{Places: 1, Filled: 1}},
		{"no city asked", Scenario{Needs: []negotiation.Need{venue}},
			plan("venue-bj"), []string{"venue-hz", "venue-bj"}, nil, Fit{Places: 1, Filled: 1}},
		{"an assignee who serves no need fills nothing", Scenario{Needs: []negotiation.Need{venue, sound}},
			plan("writer", "sound-sh"), nil, nil, Fit{Places: 3, Filled: 1, Unasked: 1, Missed: Missed{Unoffered: 2}}},
		{"one assignee fills one place", Scenario{Needs: []negotiation.Need{{Role: "场地", CapabilityTags: []string{"场地提供"}, Count: 2}}},
			plan("venue-hz"), nil, nil, Fit{Places: 2, Filled: 1, Missed: Missed{Unoffered: 1}}},
		{"a need the network lacks is apart", Scenario{Needs: []negotiation.Need{venue, magician}},
			plan("venue-hz"), nil, nil, Fit{Places: 1, Filled: 1, Lacking: 1}},
		{"no plan", Scenario{Needs: []negotiation.Need{venue}}, nil, nil, nil, Fit{Places: 1, Missed: Missed{Unoffered: 1}}},
		{"beyond a need's count: not unasked", Scenario{Needs: []negotiation.Need{venue}},
			plan("venue-hz", "venue-bj"), nil, nil, Fit{Places: 1, Filled: 1}},
		{"missed: not read", Scenario{Needs: []negotiation.Need{venue, sound}},
			plan("venue-hz"), []string{"venue-hz", "sound-hz"}, []negotiation.Need{venue},
			Fit{Places: 3, Filled: 1, Missed: Missed{Unread: 2}}},
		{"missed: read by its tag under another role", Scenario{Needs: []negotiation.Need{venue}},
			nil, nil, []negotiation.Need{{Role: "会场", CapabilityTags: []string{"场地提供"}, Count: 1}},
			Fit{Places: 1, Missed: Missed{Unoffered: 1}}},
		{"missed: more than the network holds, then one who offered left out", Scenario{Needs: []negotiation.Need{{Role: "音响师", CapabilityTags: []string{"音响设备"}, Count: 4}}},
			plan("sound-hz"), []string{"sound-hz", "sound-sh"}, nil,
			Fit{Places: 4, Filled: 1, Missed: Missed{Scarce: 2, LeftOut: 1}}},
		{"missed: one who offered and was left out", Scenario{Needs: everyNeed},
			plan("sound-hz", "sound-sh"), []string{"sound-hz", "sound-sh", "venue-bj"}, nil,
			Fit{Places: 3, Filled: 2, Missed: Missed{LeftOut: 1}}},
		{"missed: too few offered", Scenario{Needs: everyNeed},
			plan("venue-hz", "sound-hz"), []string{"venue-hz", "sound-hz"}, nil,
			Fit{Places: 3, Filled: 2, Missed: Missed{Unoffered: 1}}},
		{"a willing agent left out counts once", Scenario{Needs: []negotiation.Need{venue, {Role: "会场", CapabilityTags: []string{"场地提供"}, Count: 1}}},
			nil, []string{"venue-bj"}, nil, Fit{Places: 2, Missed: Missed{LeftOut: 1, Unoffered: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := tt.read
			if read == nil {
				read = tt.s.Needs
			}
			got := fit(tt.s, tree{plan: tt.plan, willing: tt.willing, read: read, agents: agents, profile: profile})
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestSetOf: the split is fixed by the id alone and cuts the untuned
// scenarios about in half; a tuned one is always in dev.
func TestSetOf(t *testing.T) {
	s := Scenario{ID: "meetup-zh"}
	if SetOf(s) != SetOf(s) {
		t.Fatal("the split is not a function of the id")
	}
	dev, tunedDev := 0, 0
	for i := range 200 {
		s := Scenario{ID: "scenario-" + string(rune('a'+i%26)) + string(rune('a'+i/26))}
		if SetOf(s) == SetDev {
			dev++
		}
		s.Tuned = true
		if SetOf(s) == SetDev {
			tunedDev++
		}
	}
	if dev < 70 || dev > 130 || tunedDev != 200 {
		t.Errorf("%d of 200 ids in dev, %d of 200 tuned ones", dev, tunedDev)
	}
}

// TestWillingIn: who offered to take part and stayed; a decline or a
// withdrawal leaves the agent out.
func TestWillingIn(t *testing.T) {
	offer := func(id string, d negotiation.OfferDecision) quality.Event {
		return quality.Event{Payload: &negotiation.OfferSubmitted{Offer: negotiation.Offer{AgentID: id, OfferAnswer: negotiation.OfferAnswer{Decision: d}}}}
	}
	events := []quality.Event{
		offer("a", negotiation.OfferDecisionParticipate), offer("b", negotiation.OfferDecisionConditional),
		offer("c", negotiation.OfferDecisionDecline), offer("d", negotiation.OfferDecisionParticipate),
		{Payload: &negotiation.AgentWithdrawn{AgentID: "d"}}, offer("a", negotiation.OfferDecisionParticipate),
	}
	if got := willingIn(events); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("willing %v, want [a b]", got)
	}
}
