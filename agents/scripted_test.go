package agents_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// scripted is an LLM provider whose answers the test decides: a script
// function per prompt returns the raw reply (the JSON shape a model is asked
// for), or "" to let the builtin brain answer. It is a stand-in for the
// model, not for any part of the system under test.
type scripted struct {
	base       llm.Provider
	understand func(*llm.UnderstandInput) string
	filter     func(*llm.FilterInput) string
	offer      func(*llm.OfferInput) string
	aggregate  func(*llm.AggregateInput) string
	feedback   func(*llm.FeedbackInput) string
	gaps       func(*llm.GapInput) string
	recursion  func(*llm.RecursionInput) string
	// fail makes every call fail (LLM down).
	fail atomic.Bool
	// block, when set for a key, blocks that call until ctx ends (a crash
	// between the LLM call and the commit); blocked counts such calls.
	mu      sync.Mutex
	block   map[llm.PromptKey]bool
	blocked chan llm.PromptKey
	calls   atomic.Int64
}

func newScripted() *scripted {
	return &scripted{base: builtin.New(), block: map[llm.PromptKey]bool{}, blocked: make(chan llm.PromptKey, 100)}
}

func (s *scripted) Name() string  { return "scripted" }
func (s *scripted) Model() string { return "script-v1" }

var errLLMDown = errors.New("llm down: 503 service unavailable")

func (s *scripted) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	s.calls.Add(1)
	if s.fail.Load() {
		return llm.Response{}, errLLMDown
	}
	s.mu.Lock()
	block := s.block[req.Key]
	s.mu.Unlock()
	if block {
		s.blocked <- req.Key
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}
	text := ""
	switch in := req.Input.(type) {
	case *llm.UnderstandInput:
		if s.understand != nil {
			text = s.understand(in)
		}
	case *llm.FilterInput:
		if s.filter != nil {
			text = s.filter(in)
		}
	case *llm.OfferInput:
		if s.offer != nil {
			text = s.offer(in)
		}
	case *llm.AggregateInput:
		if s.aggregate != nil {
			text = s.aggregate(in)
		}
	case *llm.FeedbackInput:
		if s.feedback != nil {
			text = s.feedback(in)
		}
	case *llm.GapInput:
		if s.gaps != nil {
			text = s.gaps(in)
		}
	case *llm.RecursionInput:
		if s.recursion != nil {
			text = s.recursion(in)
		}
	}
	if text == "" {
		return s.base.Complete(ctx, req)
	}
	return llm.Response{Text: text, Model: s.Model()}, nil
}

func (s *scripted) setBlock(k llm.PromptKey, on bool) {
	s.mu.Lock()
	s.block[k] = on
	s.mu.Unlock()
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Raw replies in the shapes of 001 §3.3.

func offerReply(decision domain.OfferDecision, conditions ...string) string {
	return mustJSON(map[string]any{"decision": decision, "contribution": "我可以负责这部分工作", "conditions": conditions,
		"reasoning": "scripted", "decline_reason": "", "confidence": 80})
}

func feedbackReply(t domain.FeedbackType) string {
	req := ""
	if t == domain.FeedbackNegotiate {
		req = "希望调整时间"
	}
	return mustJSON(map[string]any{"feedback_type": t, "reasoning": "scripted " + string(t), "adjustment_request": req,
		"concerns": []string{}, "confidence": 80})
}

// needReply is a prompt 4 proposal assigning every offer to need: beyond
// the need's count the willing are alternates.
func needReply(in *llm.AggregateInput, need string) string {
	var as []map[string]any
	for _, o := range in.Offers {
		as = append(as, map[string]any{"agent_id": o.AgentID, "role": need, "need": need, "responsibility": o.Contribution})
	}
	return mustJSON(map[string]any{"summary": "scripted plan", "objective": need, "assignments": as, "rationale": "scripted",
		"gaps": []string{}, "confidence": "high"})
}

func gapsReply(gapTypes ...string) string {
	gaps := []map[string]any{}
	for _, g := range gapTypes {
		gaps = append(gaps, map[string]any{"gap_type": g, "importance": 80, "reason": "需要" + g, "suggested_capability_tags": []string{"摄影"}})
	}
	return mustJSON(map[string]any{"is_complete": len(gaps) == 0, "analysis": "scripted", "gaps": gaps})
}

func recursionReply(gapTypes ...string) string {
	subs := []map[string]any{}
	for _, g := range gapTypes {
		subs = append(subs, map[string]any{"gap_type": g, "description": "寻找" + g, "capability_tags": []string{"摄影"}, "priority": "high"})
	}
	return mustJSON(map[string]any{"should_recurse": len(subs) > 0, "condition_1_met": true, "condition_1_analysis": "x",
		"condition_2_met": true, "condition_2_analysis": "x", "condition_3_met": true, "condition_3_analysis": "x", "sub_demands": subs})
}

// candidatesReply picks exactly the given agents.
func candidatesReply(in *llm.FilterInput, ids ...string) string {
	var picked []map[string]any
	for _, p := range in.Profiles {
		for _, id := range ids {
			if p.AgentID == id {
				picked = append(picked, map[string]any{"agent_id": id, "display_name": p.UserName, "reason": "scripted",
					"match_type": "explicit", "confidence": 0.9})
			}
		}
	}
	return mustJSON(map[string]any{"analysis": "scripted", "definitely_related": picked, "possibly_related": []any{},
		"total_candidates": len(picked)})
}

// testProfiles are n twin profiles a1..an (tag 摄影), plus the external
// agents named.
func testProfiles(n int, external ...string) []domain.AgentProfile {
	var out []domain.AgentProfile
	mk := func(id string, mode domain.AgentMode) domain.AgentProfile {
		return domain.AgentProfile{AgentID: id, UserName: "Agent " + id, ProfileSummary: "测试用的数字分身 " + id,
			Location: "北京", Tags: []string{"摄影", "活动策划"}, Mode: mode}
	}
	for i := 1; i <= n; i++ {
		out = append(out, mk(fmt.Sprintf("agent_%d", i), ""))
	}
	for _, id := range external {
		out = append(out, mk(id, domain.AgentModeExternal))
	}
	return out
}

func agentsOffer(d domain.OfferDecision) domain.OfferAnswer {
	return domain.OfferAnswer{Decision: d, Contribution: "我来负责", Reasoning: "external"}
}
