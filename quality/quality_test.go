package quality

import (
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

var t0 = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

// tree builds the events of a negotiation up to a point: a demand needing
// two speakers and a venue, three invited, an agreement assigning two of
// them (one speaker, one venue) and a third assigned to no need.
func events(upTo int) []Event {
	d, c := "d1", negotiation.ChannelIDFor("d1")
	needs := []negotiation.Need{{Role: "演讲嘉宾", CapabilityTags: []string{"演讲嘉宾"}, Count: 2}, {Role: "场地", CapabilityTags: []string{"场地提供"}, Count: 1}}
	plan := negotiation.Proposal{Assignments: []negotiation.Assignment{{AgentID: "s1", Role: "演讲嘉宾", Need: "演讲嘉宾"},
		{AgentID: "v1", Role: "场地", Need: "场地", ConditionsAccepted: false}, {AgentID: "z", Role: "摄影师"}}}
	call := &event.LLMCall{InputTokens: 100, OutputTokens: 20}
	all := []Event{
		{StreamID: negotiation.DemandStream(d), Payload: &negotiation.DemandSubmitted{DemandID: d}, RecordedAt: t0},
		{StreamID: negotiation.DemandStream(d), Payload: &negotiation.DemandUnderstood{DemandID: d, Needs: needs}, LLMCall: call, RecordedAt: t0},
		{StreamID: negotiation.DemandStream(d), Payload: &negotiation.FilterCompleted{DemandID: d, Candidates: []negotiation.Candidate{
			{AgentID: "s1", RelevanceScore: 90}, {AgentID: "v1", RelevanceScore: 40}, {AgentID: "z", RelevanceScore: 10}}}, LLMCall: call, RecordedAt: t0},
		{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.ChannelCreated{ChannelID: c, DemandID: d, InvitedAgents: []string{"s1", "v1", "z", "w"}}, RecordedAt: t0},
		{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.OfferSubmitted{ChannelID: c, Offer: negotiation.Offer{AgentID: "v1",
			OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionConditional}}}, RecordedAt: t0},
		{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.ProposalFeedback{ChannelID: c, AgentID: "s1", FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackAccept}}, RecordedAt: t0},
		{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.ProposalFeedback{ChannelID: c, AgentID: "v1", FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackAccept}}, RecordedAt: t0},
		{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.FeedbackEvaluated{ChannelID: c, Round: 2, AcceptRate: 0.667}, RecordedAt: t0},
		{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.ProposalFinalized{ChannelID: c, FinalProposal: plan}, RecordedAt: t0.Add(3 * time.Second)},
		{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.NegotiationCompleted{ChannelID: c, DemandID: d, Status: negotiation.ChannelStatusFinalized,
			FinalProposal: &plan}, RecordedAt: t0.Add(5 * time.Second)},
	}
	return all[:upTo]
}

func TestScore(t *testing.T) {
	tags := func(id string) []string {
		return map[string][]string{"s1": {"演讲嘉宾"}, "v1": {"摄影"}, "z": {"摄影"}}[id]
	}
	r := Score("d1", events(10), tags)
	s := r.Root
	want := Scores{Needs: 2, Places: 3, Assignees: 3, NeedCoverage: 0.667, Padding: 1, Relevance: 0.333, IrrelevantAssignees: 2, Rounds: 2,
		FinalAcceptRate: 0.667, Stability: 0.333, WelfareUtilitarian: 0.467, WelfareNash: 0.33,
		LLM: LLMCost{Calls: 2, InputTokens: 200, OutputTokens: 40}, TimeToAgreementMS: 3000}
	if !r.Final || r.Status != "finalized" || s != want {
		t.Fatalf("got  %+v\nwant %+v", s, want)
	}
	if r.Tree.TimeToAgreementMS != 5000 || r.Placed["w"] != 0 || r.Placed["s1"] != 1 || len(r.Placed) != 4 {
		t.Fatalf("tree %+v placed %v", r.Tree, r.Placed)
	}
	// While it runs: the scores so far, not final.
	if r := Score("d1", events(5), tags); r.Final || r.Status != "processing" || r.Root.Assignees != 0 || r.Root.NeedCoverage != 0 {
		t.Fatalf("running: %+v", r)
	}
}

func TestGini(t *testing.T) {
	for _, tc := range []struct {
		counts []int
		want   float64
	}{{nil, 0}, {[]int{0, 0}, 0}, {[]int{2, 2, 2}, 0}, {[]int{0, 0, 0, 4}, 0.75}, {[]int{1, 3}, 0.25}} {
		if got := Gini(tc.counts); got != tc.want {
			t.Errorf("Gini(%v) = %v, want %v", tc.counts, got, tc.want)
		}
	}
}

// TestLLMCostReused: an answer reused from an earlier recorded call
// counts as reused, not as a provider call, and spends no tokens.
func TestLLMCostReused(t *testing.T) {
	evs := events(10)
	evs[2].LLMCall = &event.LLMCall{InputTokens: 100, OutputTokens: 20, Reused: true}
	r := Score("d1", evs, func(string) []string { return nil })
	want := LLMCost{Calls: 1, InputTokens: 100, OutputTokens: 20, Reused: 1}
	if r.Root.LLM != want || r.Tree.LLM != want {
		t.Fatalf("root %+v tree %+v, want %+v", r.Root.LLM, r.Tree.LLM, want)
	}
	if m := Mean([]Scores{r.Root, r.Root}); m.LLM.Reused != 2 || m.LLM.Calls != 2 {
		t.Fatalf("mean %+v", m.LLM)
	}
}

// TestLLMCostIsTheNegotiations: the calls of the workflow an agreement
// became (its tasks, its conversation) are not the negotiation's cost.
func TestLLMCostIsTheNegotiations(t *testing.T) {
	call := &event.LLMCall{PromptKey: "x", Provider: "builtin", InputTokens: 10, OutputTokens: 5, Outcome: event.LLMOutcomeOK}
	evs := []Event{
		{StreamID: negotiation.DemandStream("d-1"), LLMCall: call, Payload: &negotiation.DemandUnderstood{DemandID: "d-1"}},
		{StreamID: "workflow-wf-d-1", LLMCall: call, Payload: &negotiation.DemandUnderstood{DemandID: "d-1"}},
	}
	if r := Score("d-1", evs, nil); r.Tree.LLM.Calls != 1 || r.Tree.LLM.InputTokens != 10 {
		t.Fatalf("tree cost %+v", r.Tree.LLM)
	}
}

// TestNoAnswersShare: the share of a channel's answers (offers and last
// feedback) that were a twin's no answer; none without answers.
func TestNoAnswersShare(t *testing.T) {
	c := negotiation.ChannelIDFor("d1")
	evs := events(10)
	for _, a := range []struct {
		id string
		d  negotiation.OfferDecision
	}{{"s1", negotiation.OfferDecisionParticipate}, {"z", negotiation.OfferDecisionNoAnswer}, {"w", negotiation.OfferDecisionNoAnswer}} {
		evs = append(evs[:4:4], append([]Event{{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.OfferSubmitted{ChannelID: c,
			Offer: negotiation.Offer{AgentID: a.id, OfferAnswer: negotiation.OfferAnswer{Decision: a.d}}}, RecordedAt: t0}}, evs[4:]...)...)
	}
	evs = append(evs[:len(evs)-3:len(evs)-3], append([]Event{{StreamID: negotiation.ChannelStream(c), Payload: &negotiation.ProposalFeedback{
		ChannelID: c, AgentID: "z", FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackNoAnswer}}, RecordedAt: t0}}, evs[len(evs)-3:]...)...)
	// Offers s1, z, w, v1 (2 of 4 no answer); last feedback s1, v1, z (1 of 3): 3 of 7.
	if got := Score("d1", evs, func(string) []string { return nil }).Root.NoAnswers; got != 0.429 {
		t.Fatalf("no answers %v, want 0.429", got)
	}
	if got := Score("d1", events(3), nil).Root.NoAnswers; got != 0 {
		t.Fatalf("without answers: %v", got)
	}
}
