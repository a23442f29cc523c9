package negotiate_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/logctx"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/writetest"
)

// script5 picks agent_1..agent_5, all participate, no gaps.
func script5() *writetest.Scripted {
	s := writetest.NewScripted()
	s.Filter = func(in *llm.FilterInput) string {
		return writetest.CandidatesReply(in, "agent_1", "agent_2", "agent_3", "agent_4", "agent_5")
	}
	s.Offer = func(*llm.OfferInput) string { return writetest.OfferReply(negotiation.OfferDecisionParticipate) }
	s.Gaps = func(*llm.GapInput) string { return writetest.GapsReply() }
	return s
}

// perRound scripts feedback by round: answers[round-1][agent index].
func perRound(answers ...[]negotiation.FeedbackType) func(*llm.FeedbackInput) string {
	return func(in *llm.FeedbackInput) string {
		r := min(in.Round, len(answers)) - 1
		i := int(in.Profile.AgentID[len("agent_")]-'0') - 1
		return writetest.FeedbackReply(answers[r][i])
	}
}

const (
	A = negotiation.FeedbackAccept
	N = negotiation.FeedbackNegotiate
	W = negotiation.FeedbackWithdraw
	R = negotiation.FeedbackReject
)

func TestThresholdBranches(t *testing.T) {
	tests := []struct {
		name      string
		maxRounds int
		answers   [][]negotiation.FeedbackType
		status    negotiation.ChannelStatus
		rounds    int
		errors    []string // the codes of the towow.error.occurred recorded
		check     func(t *testing.T, c *negotiation.Channel)
	}{
		{name: "80% accept finalizes in round 1", answers: [][]negotiation.FeedbackType{{A, A, A, A, N}},
			status: negotiation.ChannelStatusFinalized, rounds: 1},
		{name: "60% goes to round 2, then finalizes", answers: [][]negotiation.FeedbackType{{A, A, A, N, N}, {A, A, A, A, A}},
			status: negotiation.ChannelStatusFinalized, rounds: 2,
			check: func(t *testing.T, c *negotiation.Channel) {
				if c.FinalProposal.Version != 2 || c.FinalProposal.AdjustmentSummary == nil {
					t.Errorf("final proposal v%d, adjustment %v", c.FinalProposal.Version, c.FinalProposal.AdjustmentSummary)
				}
			}},
		{name: "under 50% fails; reject and withdraw count against", answers: [][]negotiation.FeedbackType{{A, A, R, W, N}},
			status: negotiation.ChannelStatusFailed, rounds: 1, errors: []string{"TOWOW_PROPOSAL_007"},
			check: func(t *testing.T, c *negotiation.Channel) {
				if c.Failure.Reason != negotiation.FailureLowAcceptance || c.Failure.ErrorCode != "TOWOW_PROPOSAL_007" || !c.Withdrawn["agent_4"] {
					t.Errorf("failure %+v withdrawn %v", c.Failure, c.Withdrawn)
				}
			}},
		{name: "the last round between thresholds force-finalizes", maxRounds: 3,
			answers: [][]negotiation.FeedbackType{{A, A, A, N, N}},
			status:  negotiation.ChannelStatusForceFinalized, rounds: 3, errors: []string{"TOWOW_PROPOSAL_004"},
			check: func(t *testing.T, c *negotiation.Channel) {
				if !slices.Equal(slices.Sorted(slices.Values(c.Confirmed)), []string{"agent_1", "agent_2", "agent_3"}) ||
					!slices.Equal(slices.Sorted(slices.Values(c.Optional)), []string{"agent_4", "agent_5"}) {
					t.Errorf("confirmed %v optional %v", c.Confirmed, c.Optional)
				}
				if c.FinalProposal.Type != negotiation.ProposalTypeCompromise {
					t.Errorf("final proposal type %q", c.FinalProposal.Type)
				}
			}},
		{name: "five rounds by default before force-finalize", answers: [][]negotiation.FeedbackType{{A, A, A, N, N}},
			status: negotiation.ChannelStatusForceFinalized, rounds: 5, errors: []string{"TOWOW_PROPOSAL_004"}},
		{name: "a withdrawn agent leaves the later rounds", answers: [][]negotiation.FeedbackType{{A, A, A, N, W}, {A, A, A, A, A}},
			status: negotiation.ChannelStatusFinalized, rounds: 2,
			check: func(t *testing.T, c *negotiation.Channel) {
				if slices.Contains(c.RoundMembers(), "agent_5") {
					t.Errorf("withdrawn agent_5 still asked in round %d: %v", c.Round, c.RoundMembers())
				}
				for _, a := range c.FinalProposal.Assignments {
					if a.AgentID == "agent_5" {
						t.Error("withdrawn agent_5 assigned in the final proposal")
					}
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := script5()
			s.Feedback = perRound(tc.answers...)
			rules := negotiation.DefaultRules()
			if tc.maxRounds > 0 {
				rules.MaxRounds = tc.maxRounds
			}
			h := writetest.New(t, writetest.Opts{Provider: s, Rules: rules, Profiles: writetest.TestProfiles(5)})
			sub, err := h.C.SubmitDemand(context.Background(), "u1", "需要5位摄影师")
			if err != nil {
				t.Fatal(err)
			}
			out := h.Wait(sub.DemandID, 30*time.Second)
			c := out.Channel
			if c == nil {
				t.Fatalf("no channel: %+v\n%s", out.Demand.Failure, h.Timeline(sub.DemandID))
			}
			if c.Status != tc.status || c.Round != tc.rounds {
				t.Fatalf("status %v round %d, want %s after %d rounds:\n%s", c.Status, c.Round, tc.status, tc.rounds, h.Timeline(sub.DemandID))
			}
			evals := 0
			for _, e := range h.Events(sub.DemandID) {
				if e.Type == negotiation.EventFeedbackEvaluated {
					evals++
				}
			}
			if evals != tc.rounds {
				t.Errorf("%d evaluations for %d rounds", evals, tc.rounds)
			}
			// The builtin brain's aggregation of these scripted offers
			// falls back (recorded as TOWOW_PROPOSAL_001); the rounds'
			// codes are what this test is about.
			codes := slices.DeleteFunc(h.ErrorsOf(sub.DemandID), func(c string) bool { return c == "TOWOW_PROPOSAL_001" })
			if !slices.Equal(codes, tc.errors) {
				t.Errorf("errors recorded %v, want %v", codes, tc.errors)
			}
			if tc.check != nil {
				tc.check(t, c)
			}
			h.Check(sub.DemandID)
		})
	}
}

func TestNoCandidates(t *testing.T) {
	s := writetest.NewScripted()
	s.Understand = func(*llm.UnderstandInput) string {
		return `{"surface_demand":"找潜水教练","capability_tags":["潜水教练"],"needs":[{"role":"潜水教练","capability_tags":["潜水教练"],"count":1}],"confidence":"high"}`
	}
	var filterCalls atomic.Int32
	s.Filter = func(in *llm.FilterInput) string { filterCalls.Add(1); return writetest.CandidatesReply(in) }
	h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(3)})
	sub, err := h.C.SubmitDemand(context.Background(), "u1", "需要一位会说斯瓦希里语的潜水教练")
	if err != nil {
		t.Fatal(err)
	}
	out := h.Wait(sub.DemandID, 20*time.Second)
	f := out.Demand.Failure
	if out.Channel != nil || f == nil || f.ErrorCode != "TOWOW_FILTER_001" || f.Reason != negotiation.FailureNoCandidates || f.Suggestion == "" {
		t.Fatalf("outcome %+v / %+v", out.Demand.Failure, out.Channel)
	}
	if codes := h.ErrorsOf(sub.DemandID); !slices.Equal(codes, []string{"TOWOW_FILTER_001"}) {
		t.Fatalf("errors recorded %v", codes)
	}
	h.Check(sub.DemandID)
	// Nobody carries the need's tag: the SQL stage shortlists nobody, so
	// prompt 2 is not called and the demand is rejected, naming the need.
	if r := out.Demand.Rejection; r == nil || r.Reason != negotiation.RejectNoMatch || !slices.Equal(r.UnservedNeeds, []string{"潜水教练"}) {
		t.Fatalf("rejection %+v", r)
	}
	if n := filterCalls.Load(); n != 0 {
		t.Fatalf("prompt 2 called %d times on an empty shortlist", n)
	}
	for _, e := range h.Events(sub.DemandID) {
		if strings.HasPrefix(e.StreamID, "channel-") {
			t.Fatalf("a channel was created: %s", e.Type)
		}
	}
}

// TestLLMDown: every call fails; the breaker opens after 3 failures, every
// prompt falls back, the calls are recorded, and the negotiation still ends
// in a terminal state.
func TestLLMDown(t *testing.T) {
	s := writetest.NewScripted()
	s.Fail.Store(true)
	var logs syncBuffer
	h := writetest.New(t, writetest.Opts{Provider: s, LLMCfg: func(c *llm.Config) {
		c.RecoveryTimeout = time.Minute
		c.Logger = slog.New(logctx.NewHandler(slog.NewTextHandler(&logs, nil)))
	}})
	sub, err := h.C.SubmitDemand(context.Background(), "u1", writetest.SampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	out := h.Wait(sub.DemandID, 30*time.Second)
	// Every fallback answers: the understanding and the candidates by
	// keyword match, every offer "no answer" (not a decline: nobody said
	// no), so the channel fails naming the model, with the fallback
	// compromise.
	if out.Channel == nil || out.Channel.Status != negotiation.ChannelStatusFailed || out.Channel.Failure.Reason != negotiation.FailureModelUnavailable ||
		out.Channel.Failure.ErrorCode != "TOWOW_LLM_001" {
		t.Fatalf("outcome %+v:\n%s", out.Channel, h.Timeline(sub.DemandID))
	}
	// The understanding's and the filter's fallbacks are recorded with
	// their codes (recoverable: the negotiation went on), then the failure.
	if codes := h.ErrorsOf(sub.DemandID); !slices.Equal(codes, []string{"TOWOW_DEMAND_003", "TOWOW_FILTER_002", "TOWOW_LLM_001"}) {
		t.Fatalf("errors recorded %v:\n%s", codes, h.Timeline(sub.DemandID))
	}
	calls, fallbacks, open := 0, 0, 0
	for _, e := range h.Events(sub.DemandID) {
		if c := e.Metadata.LLMCall; c != nil {
			calls++
			if c.FallbackUsed {
				fallbacks++
			}
			if c.Outcome == event.LLMOutcomeBreakerOpen {
				open++
			}
		}
	}
	if calls == 0 || fallbacks != calls || open == 0 {
		t.Fatalf("%d recorded calls, %d fallbacks, %d refused by the open breaker", calls, fallbacks, open)
	}
	if got := s.Calls.Load(); got > 3 {
		t.Fatalf("the provider was called %d times; the breaker should stop it after 3", got)
	}
	if h.LLM.BreakerState() != "open" {
		t.Fatalf("breaker %s", h.LLM.BreakerState())
	}
	h.Check(sub.DemandID)
	// Every fallback warning names its step and its demand or channel; a
	// twin's names its agent too (the step's context carries them).
	warnings := 0
	for _, line := range strings.Split(logs.String(), "\n") {
		if !strings.Contains(line, "using fallback") {
			continue
		}
		warnings++
		if !strings.Contains(line, "job_kind=towow.") || !strings.Contains(line, "job_id=") ||
			!(strings.Contains(line, "demand_id="+sub.DemandID) || strings.Contains(line, "channel_id="+sub.ChannelID)) {
			t.Fatalf("warning without the step's ids: %s", line)
		}
		if strings.Contains(line, "job_kind=towow.twin_") && !strings.Contains(line, "agent_id=") {
			t.Fatalf("twin warning without its agent: %s", line)
		}
	}
	if warnings == 0 {
		t.Fatal("no fallback warning logged")
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestSubNegotiation(t *testing.T) {
	s := script5()
	s.Feedback = perRound([]negotiation.FeedbackType{A, A, A, A, A})
	s.Gaps = func(in *llm.GapInput) string {
		if strings.Contains(in.RawInput, "摄影") && !strings.Contains(in.RawInput, "寻找") {
			return writetest.GapsReply("摄影师")
		}
		return writetest.GapsReply()
	}
	s.Recursion = func(*llm.RecursionInput) string { return writetest.RecursionReply("摄影师") }
	s.Filter = func(in *llm.FilterInput) string {
		if len(in.Exclude) > 0 { // the sub-demand: the parent's candidates are excluded
			return writetest.CandidatesReply(in, "agent_6", "agent_7")
		}
		return writetest.CandidatesReply(in, "agent_1", "agent_2", "agent_3", "agent_4", "agent_5")
	}
	s.Feedback = func(*llm.FeedbackInput) string { return writetest.FeedbackReply(A) }
	h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(7)})
	sub, err := h.C.SubmitDemand(context.Background(), "u1", "需要摄影团队")
	if err != nil {
		t.Fatal(err)
	}
	out := h.Wait(sub.DemandID, 30*time.Second)
	c := out.Channel
	if c.Status != negotiation.ChannelStatusFinalized || len(c.Subnets) != 1 {
		t.Fatalf("status %s subnets %d:\n%s", c.Status, len(c.Subnets), h.Timeline(sub.DemandID))
	}
	res := c.SubnetResult(c.Subnets[0].SubChannelID)
	if res == nil || !res.Success || res.Result == nil {
		t.Fatalf("sub result %+v", res)
	}
	child, _ := h.Channel(context.Background(), c.Subnets[0].SubChannelID)
	if child.Depth != 1 || child.ParentChannelID != c.ID || child.RootDemandID != sub.DemandID || !child.Completed {
		t.Fatalf("child %+v", child)
	}
	// The parent's result includes the child's.
	var done *negotiation.NegotiationCompleted
	for _, e := range h.Events(sub.DemandID) {
		if e.Type == negotiation.EventNegotiationCompleted && e.StreamID == negotiation.ChannelStream(c.ID) {
			p, _ := e.Decode()
			done = p.(*negotiation.NegotiationCompleted)
		}
	}
	if done == nil || len(done.SubResults) != 1 || done.SubResults[0].SubChannelID != child.ID ||
		done.SubResults[0].Result == nil || done.SubResults[0].Result.Summary != child.FinalProposal.Summary {
		t.Fatalf("parent completion %+v", done)
	}
	h.Check(sub.DemandID)
}

func TestMaxDepthRecordsSubnet001(t *testing.T) {
	s := script5()
	s.Feedback = perRound([]negotiation.FeedbackType{A, A, A, A, A})
	s.Gaps = func(*llm.GapInput) string { return writetest.GapsReply("摄影师") }
	rules := negotiation.DefaultRules()
	rules.MaxDepth = 0
	h := writetest.New(t, writetest.Opts{Provider: s, Rules: rules, Profiles: writetest.TestProfiles(5)})
	sub, _ := h.C.SubmitDemand(context.Background(), "u1", "需要摄影团队")
	out := h.Wait(sub.DemandID, 30*time.Second)
	if len(out.Channel.Subnets) != 0 {
		t.Fatal("a sub-negotiation was spawned beyond the maximum depth")
	}
	found := false
	for _, e := range h.Events(sub.DemandID) {
		if e.Type == negotiation.EventErrorOccurred && strings.Contains(string(e.Payload), "TOWOW_SUBNET_001") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no TOWOW_SUBNET_001 recorded:\n%s", h.Timeline(sub.DemandID))
	}
	h.Check(sub.DemandID)
}

// tinyTimeouts are rules for timeout tests.
func tinyTimeouts() negotiation.Rules {
	r := negotiation.DefaultRules()
	r.OfferTimeoutSeconds, r.FeedbackTimeoutSeconds = 1, 1
	return r
}

func TestOfferTimeout(t *testing.T) {
	s := script5()
	s.Filter = func(in *llm.FilterInput) string { return writetest.CandidatesReply(in, "agent_1", "agent_2", "ext_1") }
	s.Feedback = func(*llm.FeedbackInput) string { return writetest.FeedbackReply(A) }
	h := writetest.New(t, writetest.Opts{Provider: s, Rules: tinyTimeouts(), Profiles: writetest.TestProfiles(2, "ext_1")})
	sub, _ := h.C.SubmitDemand(context.Background(), "u1", "需要摄影师")
	out := h.Wait(sub.DemandID, 30*time.Second)
	c := out.Channel
	if !c.OffersTimedOut || c.Status != negotiation.ChannelStatusFinalized || len(c.Offers) != 2 {
		t.Fatalf("timed out %v status %s offers %d", c.OffersTimedOut, c.Status, len(c.Offers))
	}
	for _, e := range h.Events(sub.DemandID) {
		if e.Type == negotiation.EventOfferTimeout && !strings.Contains(string(e.Payload), `"missing_agents": ["ext_1"]`) {
			t.Fatalf("offer timeout %s", e.Payload)
		}
	}
	h.Check(sub.DemandID)
}

func TestNoOffersBeforeTheTimeout(t *testing.T) {
	s := script5()
	s.Filter = func(in *llm.FilterInput) string { return writetest.CandidatesReply(in, "ext_1", "ext_2") }
	h := writetest.New(t, writetest.Opts{Provider: s, Rules: tinyTimeouts(), Profiles: writetest.TestProfiles(0, "ext_1", "ext_2")})
	sub, _ := h.C.SubmitDemand(context.Background(), "u1", "需要摄影师")
	c := h.Wait(sub.DemandID, 30*time.Second).Channel
	if c.Status != negotiation.ChannelStatusFailed || c.Failure.Reason != negotiation.FailureNoResponsesTimeout || c.Failure.ErrorCode != "TOWOW_CHANNEL_009" ||
		c.Failure.LastProposal == nil || c.Failure.LastProposal.Type != negotiation.ProposalTypeCompromise {
		t.Fatalf("status %s failure %+v", c.Status, c.Failure)
	}
	if codes := h.ErrorsOf(sub.DemandID); !slices.Equal(codes, []string{"TOWOW_CHANNEL_009"}) {
		t.Fatalf("errors recorded %v", codes)
	}
	h.Check(sub.DemandID)
}

func TestFeedbackTimeoutCountsAsAccept(t *testing.T) {
	s := script5()
	s.Filter = func(in *llm.FilterInput) string {
		return writetest.CandidatesReply(in, "agent_1", "agent_2", "agent_3", "agent_4", "ext_1")
	}
	s.Feedback = func(*llm.FeedbackInput) string { return writetest.FeedbackReply(A) }
	h := writetest.New(t, writetest.Opts{Provider: s, Rules: tinyTimeouts(), Profiles: writetest.TestProfiles(4, "ext_1")})
	ctx := context.Background()
	sub, _ := h.C.SubmitDemand(ctx, "u1", "需要摄影师")
	// The external agent offers through the command, then never answers.
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := h.C.SubmitOffer(ctx, sub.ChannelID, "ext_1", writetest.AgentsOffer(negotiation.OfferDecisionParticipate))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("external offer: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	c := h.Wait(sub.DemandID, 30*time.Second).Channel
	f, ok := c.Feedback["ext_1"]
	if c.Status != negotiation.ChannelStatusFinalized || !ok || f.FeedbackType != A || f.Reasoning != negotiation.FeedbackTimeoutReason {
		t.Fatalf("status %s, ext_1 feedback %+v", c.Status, f)
	}
	h.Check(sub.DemandID)
}

func TestStuckChannelFails(t *testing.T) {
	s := script5()
	s.Filter = func(in *llm.FilterInput) string { return writetest.CandidatesReply(in, "ext_1") }
	rules := negotiation.DefaultRules()
	rules.StuckTimeoutSeconds = 1 // offers would time out only after 300 s
	h := writetest.New(t, writetest.Opts{Provider: s, Rules: rules, Profiles: writetest.TestProfiles(0, "ext_1")})
	sub, _ := h.C.SubmitDemand(context.Background(), "u1", "需要摄影师")
	c := h.Wait(sub.DemandID, 30*time.Second).Channel
	if c.Status != negotiation.ChannelStatusFailed || c.Failure.Reason != negotiation.FailureStuckTimeout || c.Failure.ErrorCode != "TOWOW_CHANNEL_003" {
		t.Fatalf("status %s failure %+v", c.Status, c.Failure)
	}
	if codes := h.ErrorsOf(sub.DemandID); !slices.Equal(codes, []string{"TOWOW_CHANNEL_003"}) {
		t.Fatalf("errors recorded %v", codes)
	}
	h.Check(sub.DemandID)
}

// TestStuckChannelFailsBuiltin: the same with the builtin brain choosing
// the candidates (the one external agent, who never answers).
func TestStuckChannelFailsBuiltin(t *testing.T) {
	rules := negotiation.DefaultRules()
	rules.StuckTimeoutSeconds = 1
	h := writetest.New(t, writetest.Opts{Rules: rules, Profiles: writetest.TestProfiles(0, "ext_1")})
	sub, err := h.C.SubmitDemand(context.Background(), "u1", "需要一位摄影师拍活动照片")
	if err != nil {
		t.Fatal(err)
	}
	out := h.Wait(sub.DemandID, 30*time.Second)
	if out.Channel == nil {
		t.Fatalf("no channel: %+v\n%s", out.Demand.Failure, h.Timeline(sub.DemandID))
	}
	if c := out.Channel; c.Status != negotiation.ChannelStatusFailed || c.Failure.ErrorCode != "TOWOW_CHANNEL_003" {
		t.Fatalf("status %s failure %+v", c.Status, c.Failure)
	}
	if codes := h.ErrorsOf(sub.DemandID); !slices.Equal(codes, []string{"TOWOW_CHANNEL_003"}) {
		t.Fatalf("errors recorded %v", codes)
	}
	h.Check(sub.DemandID)
}

// TestNoFeedbackInTheLastRound: the one assignee withdraws and an
// alternate of the same need stands by, so nothing counts in the only
// round: the negotiation fails with no_feedback, TOWOW_PROPOSAL_003.
func TestNoFeedbackInTheLastRound(t *testing.T) {
	s := script5()
	s.Understand = func(*llm.UnderstandInput) string {
		return `{"surface_demand":"找一位摄影师","capability_tags":["摄影"],"needs":[{"role":"摄影师","capability_tags":["摄影"],"count":1}],"confidence":"high"}`
	}
	s.Filter = func(in *llm.FilterInput) string { return writetest.CandidatesReply(in, "agent_1", "agent_2") }
	s.Aggregate = func(in *llm.AggregateInput) string { return writetest.NeedReply(in, "摄影师") }
	s.Feedback = func(*llm.FeedbackInput) string { return writetest.FeedbackReply(W) }
	rules := negotiation.DefaultRules()
	rules.MaxRounds = 1
	h := writetest.New(t, writetest.Opts{Provider: s, Rules: rules, Profiles: writetest.TestProfiles(2)})
	sub, _ := h.C.SubmitDemand(context.Background(), "u1", "需要一位摄影师")
	c := h.Wait(sub.DemandID, 30*time.Second).Channel
	if c == nil || c.Proposal == nil || len(c.Proposal.Alternates) == 0 {
		t.Fatalf("no proposal with an alternate:\n%s", h.Timeline(sub.DemandID))
	}
	if c.Status != negotiation.ChannelStatusFailed || c.Failure.Reason != negotiation.FailureNoFeedback || c.Failure.ErrorCode != "TOWOW_PROPOSAL_003" {
		t.Fatalf("status %s failure %+v:\n%s", c.Status, c.Failure, h.Timeline(sub.DemandID))
	}
	if codes := h.ErrorsOf(sub.DemandID); !slices.Equal(codes, []string{"TOWOW_PROPOSAL_003"}) {
		t.Fatalf("errors recorded %v", codes)
	}
	h.Check(sub.DemandID)
}

// TestTC1FiftyPercentRound: a round at 50 % acceptance (bob accepts,
// alice negotiates) is between the thresholds, so the channel goes to
// round 2, and once the round's adjusted proposal is out the channel is in
// round 2 with status PROPOSAL_SENT. Here the channel is
// PROPOSAL_SENT for round 2 in the very commit that distributes the
// adjusted proposal (proposal_adjusted, before proposal.distributed), then
// NEGOTIATING while it awaits the feedback (proposal_distributed), as after
// every distribution; feedback is evaluated only on a NEGOTIATING channel,
// so the round-2 feedback could not be evaluated if the channel stayed
// PROPOSAL_SENT.
// Between the round-1 evaluation and the adjusted proposal (prompt 6 runs
// outside any transaction) the channel is still NEGOTIATING, already in
// round 2. The test asserts the root channel's whole sequence of status
// changes (with reasons), evaluations, round starts and distributions, and
// the state itself: the channel folded up to round 2's
// proposal.distributed is PROPOSAL_SENT in round 2.
func TestTC1FiftyPercentRound(t *testing.T) {
	s := script5()
	s.Filter = func(in *llm.FilterInput) string { return writetest.CandidatesReply(in, "agent_1", "agent_2") }
	s.Feedback = perRound([]negotiation.FeedbackType{A, N}, []negotiation.FeedbackType{A, A}) // bob, alice
	h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(2)})
	sub, err := h.C.SubmitDemand(context.Background(), "u1", "需要2位摄影师")
	if err != nil {
		t.Fatal(err)
	}
	out := h.Wait(sub.DemandID, 30*time.Second)
	if out.Channel == nil || out.Channel.Status != negotiation.ChannelStatusFinalized || out.Channel.Round != 2 {
		t.Fatalf("outcome %+v:\n%s", out.Channel, h.Timeline(sub.DemandID))
	}
	var seq []string
	var tc1 *negotiation.Channel // the channel as of round 2's proposal.distributed
	c := &negotiation.Channel{}
	for _, e := range h.Events(sub.DemandID) {
		if e.StreamID != negotiation.ChannelStream(sub.ChannelID) {
			continue
		}
		p, err := e.Decode()
		if err != nil {
			t.Fatal(err)
		}
		c.Apply(p)
		switch p := p.(type) {
		case *negotiation.ChannelStatusChanged:
			seq = append(seq, fmt.Sprintf("%s→%s (%s)", p.OldStatus, p.NewStatus, p.Reason))
		case *negotiation.FeedbackEvaluated:
			seq = append(seq, fmt.Sprintf("evaluated round %d: %s at %.2f", p.Round, p.Decision, p.AcceptRate))
		case *negotiation.NegotiationRoundStarted:
			seq = append(seq, fmt.Sprintf("round %d started", p.Round))
		case *negotiation.ProposalDistributed:
			seq = append(seq, fmt.Sprintf("proposal v%d distributed for round %d", p.Proposal.Version, p.Round))
			if p.Round == 2 {
				snapshot := *c
				tc1 = &snapshot
			}
		}
	}
	want := []string{
		"created→broadcasting (broadcast_started)",
		"broadcasting→collecting (broadcast_complete)",
		"collecting→aggregating (all_offers_received)",
		"round 1 started",
		"aggregating→proposal_sent (proposal_ready)",
		"proposal v1 distributed for round 1",
		"proposal_sent→negotiating (proposal_distributed)",
		"evaluated round 1: next_round at 0.50", // 1 accept, 1 negotiate
		"round 2 started",
		"negotiating→proposal_sent (proposal_adjusted)", // PROPOSAL_SENT for round 2 …
		"proposal v2 distributed for round 2",           // … as the adjusted proposal goes out
		"proposal_sent→negotiating (proposal_distributed)",
		"evaluated round 2: finalize at 1.00",
		"negotiating→finalized (consensus)",
	}
	if !slices.Equal(seq, want) {
		t.Fatalf("root channel sequence\n got %q\nwant %q", seq, want)
	}
	if tc1 == nil || tc1.Round != 2 || tc1.Status != negotiation.ChannelStatusProposalSent {
		t.Fatalf("as of round 2's proposal, want round 2 and proposal_sent, got %+v", tc1)
	}
	h.Check(sub.DemandID)
}

// TestTreeBudgetHoldsRecursion: prompt 8 asks for a sub-negotiation, but
// the tree's token budget is spent: none is opened, and the
// towow.subnet.declined records why (the budget, what was spent, the
// estimate); the channel completes.
func TestTreeBudgetHoldsRecursion(t *testing.T) {
	s := script5()
	s.Feedback = func(*llm.FeedbackInput) string { return writetest.FeedbackReply(A) }
	s.Gaps = func(*llm.GapInput) string { return writetest.GapsReply("摄影师") }
	s.Recursion = func(*llm.RecursionInput) string { return writetest.RecursionReply("摄影师") }
	h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(7),
		Write: func(c *app.WriteConfig) { c.TreeTokenBudget = 1 }})
	sub, err := h.C.SubmitDemand(context.Background(), "u1", "需要摄影团队")
	if err != nil {
		t.Fatal(err)
	}
	c := h.Wait(sub.DemandID, 30*time.Second).Channel
	if len(c.Subnets) != 0 || !c.Completed {
		t.Fatalf("subnets %d completed %v:\n%s", len(c.Subnets), c.Completed, h.Timeline(sub.DemandID))
	}
	var hold *negotiation.BudgetHold
	for _, e := range h.Events(sub.DemandID) {
		if e.Type == negotiation.EventSubnetDeclined {
			p, _ := e.Decode()
			if d := p.(*negotiation.SubnetDeclined).Decision; d != nil {
				hold = d.Budget
			}
		}
	}
	if hold == nil || hold.Limit != 1 || hold.Asked != 1 || hold.Kept != 0 || hold.Spent <= 1 || hold.PerSubnet <= 0 {
		t.Fatalf("the declined recursion's budget hold: %+v", hold)
	}
	h.Check(sub.DemandID)
}

// TestTwinAnswersArrivingTogetherAreOneCommit: the offers of a stage that
// arrive within the gathering window of each other are committed together;
// answers further apart than the window are committed as each arrives.
func TestTwinAnswersArrivingTogetherAreOneCommit(t *testing.T) {
	tests := []struct {
		name    string
		gather  time.Duration
		spacing time.Duration // between one agent's answer and the next's
		commits int
	}{
		{"within the window", 3 * time.Second, 40 * time.Millisecond, 1},
		{"further apart than the window", 20 * time.Millisecond, 400 * time.Millisecond, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := script5()
			s.Offer = func(in *llm.OfferInput) string {
				i := int(in.Profile.AgentID[len("agent_")]-'0') - 1
				time.Sleep(time.Duration(i) * tc.spacing)
				return writetest.OfferReply(negotiation.OfferDecisionParticipate)
			}
			h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(5),
				Write: func(c *app.WriteConfig) { c.AnswerGather = tc.gather }})
			sub, err := h.C.SubmitDemand(context.Background(), "u1", "需要5位摄影师")
			if err != nil {
				t.Fatal(err)
			}
			h.Wait(sub.DemandID, 30*time.Second)
			// A transaction's events have consecutive positions; the next
			// transaction's are at least 65,536 minus its own count above.
			offers, commits, last := 0, 0, int64(-1)
			for _, ev := range h.Events(sub.DemandID) { // in position order
				if ev.Type != negotiation.EventOfferSubmitted {
					continue
				}
				if last < 0 || ev.Position-last > 1000 {
					commits++
				}
				offers, last = offers+1, ev.Position
			}
			if offers != 5 || commits != tc.commits {
				t.Errorf("%d offers in %d commits, want 5 in %d", offers, commits, tc.commits)
			}
		})
	}
}
