package negotiation

import (
	"fmt"
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
)

// perNeed is a proposal for a demand needing one venue (a1) and one
// speaker (a2), with a3 and a4 standing by as speakers.
func perNeed() Proposal {
	return Proposal{Summary: "plan", Assignments: []Assignment{
		{AgentID: "a1", Role: "场地提供者", Need: "场地提供者", Responsibility: "场地"},
		{AgentID: "a2", Role: "演讲嘉宾", Need: "演讲嘉宾", Responsibility: "分享 AI"},
	}, Alternates: []Assignment{{AgentID: "a3", Need: "演讲嘉宾"}, {AgentID: "a4", Need: "演讲嘉宾"}}, Gaps: []string{"演讲嘉宾"}}
}

// TestAlternatesStandByAndReplaceWithdrawn: given four willing agents and a
// per-need proposal, only the two assigned are asked for feedback; when
// the speaker withdraws, the next round's proposal gives the first
// alternate the speaker's place and duties, says so, and the need is no
// longer a gap; the alternate is then asked.
func TestAlternatesStandByAndReplaceWithdrawn(t *testing.T) {
	g := newGiven(4, DefaultRules()).collecting().offers(OfferDecisionParticipate, OfferDecisionParticipate,
		OfferDecisionParticipate, OfferDecisionParticipate)
	g.then(func(c *Channel) ([]event.Payload, error) { return c.Propose(perNeed(), t0) })
	if m := fold(g.events...).RoundMembers(); !slices.Equal(m, []string{"a1", "a2"}) {
		t.Fatalf("round members %v, want the assigned a1, a2", m)
	}
	g.feedback(FeedbackAccept, FeedbackWithdraw)
	// a2's withdrawal is one a3 will fill: not counted against the round,
	// and the agreement waits for the replacement's answer.
	if ev := find[*FeedbackEvaluated](g.events); ev.Replaced != 1 || ev.Rejects != 0 || ev.AcceptRate != 1 || ev.Decision != RoundNext {
		t.Fatalf("evaluation %+v", ev)
	}
	c := fold(g.events...)
	if c.Status != ChannelStatusNegotiating || c.Round != 2 || !c.AwaitingAdjustment() {
		t.Fatalf("after 1 of 2 accepts: %s round %d", c.Status, c.Round)
	}
	// The adjusted proposal (a model's) still lists a2 and no alternates.
	evs, err := c.Adjust(Proposal{Summary: "plan 2", Assignments: perNeed().Assignments, Gaps: []string{"演讲嘉宾"}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	p := find[*ProposalDistributed](evs).Proposal
	var got []string
	for _, a := range p.Assignments {
		got = append(got, a.AgentID+":"+a.Role+":"+a.Responsibility)
	}
	if !slices.Equal(got, []string{"a1:场地提供者:场地", "a3:演讲嘉宾:分享 AI"}) {
		t.Fatalf("assignments %v", got)
	}
	if len(p.Alternates) != 1 || p.Alternates[0].AgentID != "a4" || len(p.Gaps) != 0 {
		t.Fatalf("alternates %+v gaps %v", p.Alternates, p.Gaps)
	}
	if p.AdjustmentSummary == nil || len(p.AdjustmentSummary.ChangesMade) != 1 || p.AdjustmentSummary.ChangesMade[0].Aspect != "替补" {
		t.Fatalf("summary %+v", p.AdjustmentSummary)
	}
	g.events = append(g.events, evs...)
	if m := fold(g.events...).RoundMembers(); !slices.Equal(m, []string{"a1", "a3"}) {
		t.Fatalf("round 2 members %v", m)
	}
}

// TestNoAlternateLeavesTheGap: a withdrawn participant whose need has no
// alternate left stays a gap.
func TestNoAlternateLeavesTheGap(t *testing.T) {
	g := newGiven(2, DefaultRules()).collecting().offers(OfferDecisionParticipate, OfferDecisionParticipate)
	p := perNeed()
	p.Alternates = nil
	g.then(func(c *Channel) ([]event.Payload, error) { return c.Propose(p, t0) })
	g.feedback(FeedbackAccept, FeedbackWithdraw)
	evs, err := fold(g.events...).Adjust(Proposal{Summary: "plan 2", Assignments: p.Assignments[:1], Gaps: []string{"演讲嘉宾"}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if q := find[*ProposalDistributed](evs).Proposal; len(q.Assignments) != 1 || !slices.Equal(q.Gaps, []string{"演讲嘉宾"}) {
		t.Fatalf("%+v", q)
	}
}

// TestFitToNeeds: a reply's assignments held to the needs' counts.
func TestFitToNeeds(t *testing.T) {
	needs := []Need{{Role: "摄影师", CapabilityTags: []string{"摄影"}, Count: 1}, {Role: "餐饮", CapabilityTags: []string{"餐饮服务"}, Count: 2}}
	as := []Assignment{{AgentID: "p1", Role: "摄影师"}, {AgentID: "p2", Role: "摄影师"}, {AgentID: "x", Role: "数据分析师"},
		{AgentID: "c1", Role: "厨师", Need: "餐饮"}}
	kept, alt, gaps := FitToNeeds(needs, as, nil, nil)
	ids := func(l []Assignment) (out []string) {
		for _, a := range l {
			out = append(out, a.AgentID+"/"+a.Need)
		}
		return out
	}
	if !slices.Equal(ids(kept), []string{"p1/摄影师", "c1/餐饮"}) || !slices.Equal(ids(alt), []string{"p2/摄影师", "x/"}) ||
		!slices.Equal(gaps, []string{"餐饮"}) {
		t.Fatalf("kept %v alt %v gaps %v", ids(kept), ids(alt), gaps)
	}
	// Nobody serves a need: the reply stays as given rather than empty.
	kept, _, _ = FitToNeeds(needs, as[2:3], nil, nil)
	if len(kept) != 1 || kept[0].AgentID != "x" {
		t.Fatalf("%+v", kept)
	}
}

// TestMergedPlan: given an agreed negotiation with two sub-negotiations,
// when one agrees and one fails, then the completion carries one merged
// plan: the parent's assignments, then the agreed sub-negotiation's, each
// marked with its sub-channel, without the gap it filled.
func TestMergedPlan(t *testing.T) {
	g := withSubnets(DefaultRules(), 2)
	c := fold(g.events...)
	c.FinalProposal.Gaps = []string{"g0", "g1"} // as the proposal named them
	subs := c.Subnets
	evs, err := c.SubnetDone(SubnetCompleted{SubChannelID: subs[0].SubChannelID, Status: ChannelStatusFinalized, Success: true,
		Result: &Proposal{Assignments: []Assignment{{AgentID: "p1", Role: "摄影师"}}, Alternates: []Assignment{{AgentID: "p2"}}}})
	if err != nil || len(evs) != 1 {
		t.Fatalf("%v %+v", err, evs)
	}
	g.events = append(g.events, evs...)
	c = fold(g.events...)
	c.FinalProposal.Gaps = []string{"g0", "g1"}
	evs, err = c.SubnetDone(SubnetCompleted{SubChannelID: subs[1].SubChannelID, Status: ChannelStatusFailed})
	if err != nil {
		t.Fatal(err)
	}
	done := find[*NegotiationCompleted](evs)
	if done == nil || done.MergedPlan == nil {
		t.Fatalf("%+v", evs)
	}
	var got []string
	for _, a := range done.MergedPlan.Assignments {
		got = append(got, a.AgentID+"@"+a.SubChannelID)
	}
	want := []string{"a1@", "a2@", "p1@" + subs[0].SubChannelID}
	if !slices.Equal(got, want) || !slices.Equal(done.MergedPlan.Gaps, []string{"g1"}) ||
		len(done.MergedPlan.Alternates) != 1 || done.MergedPlan.Alternates[0].SubChannelID != subs[0].SubChannelID {
		t.Fatalf("merged %v (want %v), gaps %v, alternates %+v", got, want, done.MergedPlan.Gaps, done.MergedPlan.Alternates)
	}
	if len(done.FinalProposal.Assignments) != 2 {
		t.Fatalf("the final proposal changed: %+v", done.FinalProposal.Assignments)
	}
}

// TestMergedPlanPartialGap: given a sub-negotiation triggered for a gap
// that still needs some people, when it agrees with fewer assignees than
// that, then the gap stays in the merged plan; with as many or more (or
// an unknown count and at least one), the gap is dropped.
func TestMergedPlanPartialGap(t *testing.T) {
	tests := []struct {
		name      string
		needCount int
		assignees int
		wantGaps  []string
	}{
		{"filled in part", 3, 1, []string{"g0"}},
		{"filled", 3, 3, nil},
		{"more than asked", 2, 3, nil},
		{"count unknown (older events), one assignee", 0, 1, nil},
		{"one asked, one assigned", 1, 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := withGaps(DefaultRules()).then(func(c *Channel) ([]event.Payload, error) {
				return c.Recurse([]SubnetPlan{{GapType: "g0", NeedCount: tc.needCount}}, nil)
			})
			c := fold(g.events...)
			if c.Subnets[0].NeedCount != tc.needCount {
				t.Fatalf("triggered with need count %d, want %d", c.Subnets[0].NeedCount, tc.needCount)
			}
			c.FinalProposal.Gaps = []string{"g0"}
			merged := mergedAfter(t, c, assignees("p", Assignment{Role: "g0"}, tc.assignees))
			if !slices.Equal(merged.Gaps, tc.wantGaps) || len(merged.Assignments) != 2+tc.assignees {
				t.Fatalf("gaps %v (want %v), %d assignments", merged.Gaps, tc.wantGaps, len(merged.Assignments))
			}
		})
	}
}

// TestMergedPlanGapWidenedAfterTrigger: given a sub-negotiation triggered
// for one more volunteer while the proposal under review placed two, when
// one of those two withdraws in the next round and the channel agrees
// without them, then the sub-negotiation's one volunteer no longer closes
// the gap (the parent lost one since): the merged plan keeps it; two
// close it, and so does one when nobody withdrew.
func TestMergedPlanGapWidenedAfterTrigger(t *testing.T) {
	first := Proposal{Summary: "plan", Assignments: []Assignment{
		{AgentID: "a1", Role: "场地提供者", Need: "场地"},
		{AgentID: "a2", Role: "志愿者", Need: "志愿者"},
		{AgentID: "a3", Role: "志愿者", Need: "志愿者"},
	}, Gaps: []string{"志愿者"}}
	tests := []struct {
		name     string
		early    bool // triggered before the first proposal: what that proposal placed counts
		withdraw bool
		sub      int
		wantGaps []string
	}{
		{"one withdrew, the sub-negotiation found one", false, true, 1, []string{"志愿者"}},
		{"one withdrew, the sub-negotiation found two", false, true, 2, nil},
		{"nobody withdrew, the sub-negotiation found one", false, false, 1, nil},
		{"triggered before any proposal, one withdrew, one found", true, true, 1, []string{"志愿者"}},
		{"triggered before any proposal, nobody withdrew, one found", true, false, 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := OfferDecisionParticipate
			g := newGiven(3, DefaultRules()).collecting().offers(p, p, p)
			propose := func(c *Channel) ([]event.Payload, error) { return c.Propose(first, t0) }
			if !tc.early {
				g.then(propose)
			}
			g.then(func(c *Channel) ([]event.Payload, error) {
				return c.IdentifyGaps([]Gap{{GapType: "志愿者", Importance: 80}}, false, "")
			}).then(func(c *Channel) ([]event.Payload, error) {
				return c.Recurse([]SubnetPlan{{GapType: "志愿者", NeedCount: 1}}, nil)
			})
			if tc.early {
				g.then(propose)
			}
			if tc.withdraw {
				g.feedback(FeedbackAccept, FeedbackAccept, FeedbackWithdraw).then(func(c *Channel) ([]event.Payload, error) {
					return c.Adjust(Proposal{Summary: "plan 2", Assignments: first.Assignments[:2], Gaps: []string{"志愿者"}}, t0)
				}).feedback(FeedbackAccept, FeedbackAccept)
			} else {
				g.feedback(FeedbackAccept, FeedbackAccept, FeedbackAccept)
			}
			c := fold(g.events...)
			if c.Status != ChannelStatusFinalized || len(c.Subnets) != 1 {
				t.Fatalf("status %s, %d sub-negotiations", c.Status, len(c.Subnets))
			}
			merged := mergedAfter(t, c, assignees("v", Assignment{Role: "志愿者", Need: "志愿者"}, tc.sub))
			if !slices.Equal(merged.Gaps, tc.wantGaps) {
				t.Fatalf("merged gaps %v, want %v", merged.Gaps, tc.wantGaps)
			}
		})
	}
}

// assignees are n copies of like, with agent ids prefix0, prefix1, ….
func assignees(prefix string, like Assignment, n int) []Assignment {
	out := make([]Assignment, n)
	for i := range out {
		out[i] = like
		out[i].AgentID = fmt.Sprint(prefix, i)
	}
	return out
}

// mergedAfter ends c's first sub-negotiation agreed with as and returns
// the merged plan of the completion that follows.
func mergedAfter(t *testing.T, c *Channel, as []Assignment) *Proposal {
	t.Helper()
	evs, err := c.SubnetDone(SubnetCompleted{SubChannelID: c.Subnets[0].SubChannelID, Status: ChannelStatusFinalized,
		Success: true, Result: &Proposal{Assignments: as}})
	if err != nil {
		t.Fatal(err)
	}
	done := find[*NegotiationCompleted](evs)
	if done == nil || done.MergedPlan == nil {
		t.Fatalf("%+v", evs)
	}
	return done.MergedPlan
}
