package writetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// Scripted is an LLM provider whose answers the test decides: a script
// function per prompt returns the raw reply (the JSON shape a model is asked
// for), or "" to let the builtin brain answer. It is a stand-in for the
// model, not for any part of the system under test.
type Scripted struct {
	base llm.Provider
	// Understand … Recursion script one prompt each (nil: the builtin
	// brain answers).
	Understand func(*llm.UnderstandInput) string
	Filter     func(*llm.FilterInput) string
	Offer      func(*llm.OfferInput) string
	Aggregate  func(*llm.AggregateInput) string
	Feedback   func(*llm.FeedbackInput) string
	Gaps       func(*llm.GapInput) string
	Recursion  func(*llm.RecursionInput) string
	// Fail makes every call fail (LLM down).
	Fail atomic.Bool
	// block, when set for a key (SetBlock), blocks that call until ctx
	// ends (a crash between the LLM call and the commit); Blocked receives
	// each such call's key. Calls counts the calls.
	mu      sync.Mutex
	block   map[llm.PromptKey]bool
	Blocked chan llm.PromptKey
	Calls   atomic.Int64
}

// NewScripted returns a provider that lets the builtin brain answer every
// prompt until a script is set.
func NewScripted() *Scripted {
	return &Scripted{base: builtin.New(), block: map[llm.PromptKey]bool{}, Blocked: make(chan llm.PromptKey, 100)}
}

// Name implements llm.Provider.
func (s *Scripted) Name() string { return "scripted" }

// Model implements llm.Provider.
func (s *Scripted) Model() string { return "script-v1" }

var errLLMDown = errors.New("llm down: 503 service unavailable")

// Complete implements llm.Provider: the script's reply, or the builtin
// brain's.
func (s *Scripted) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	s.Calls.Add(1)
	if s.Fail.Load() {
		return llm.Response{}, errLLMDown
	}
	s.mu.Lock()
	block := s.block[req.Key]
	s.mu.Unlock()
	if block {
		s.Blocked <- req.Key
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}
	text := ""
	switch in := req.Input.(type) {
	case *llm.UnderstandInput:
		if s.Understand != nil {
			text = s.Understand(in)
		}
	case *llm.FilterInput:
		if s.Filter != nil {
			text = s.Filter(in)
		}
	case *llm.OfferInput:
		if s.Offer != nil {
			text = s.Offer(in)
		}
	case *llm.AggregateInput:
		if s.Aggregate != nil {
			text = s.Aggregate(in)
		}
	case *llm.FeedbackInput:
		if s.Feedback != nil {
			text = s.Feedback(in)
		}
	case *llm.GapInput:
		if s.Gaps != nil {
			text = s.Gaps(in)
		}
	case *llm.RecursionInput:
		if s.Recursion != nil {
			text = s.Recursion(in)
		}
	}
	if text == "" {
		return s.base.Complete(ctx, req)
	}
	return llm.Response{Text: text, Model: s.Model()}, nil
}

// SetBlock makes the calls of prompt k block (on) or answer (off).
func (s *Scripted) SetBlock(k llm.PromptKey, on bool) {
	s.mu.Lock()
	s.block[k] = on
	s.mu.Unlock()
}

// MustJSON encodes v, panicking on error.
func MustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Raw replies in the shapes the prompts ask for.

// OfferReply is a prompt 3 reply.
func OfferReply(decision negotiation.OfferDecision, conditions ...string) string {
	return MustJSON(map[string]any{"decision": decision, "contribution": "我可以负责这部分工作", "conditions": conditions,
		"reasoning": "scripted", "decline_reason": "", "confidence": 80})
}

// FeedbackReply is a prompt 5 reply.
func FeedbackReply(t negotiation.FeedbackType) string {
	req := ""
	if t == negotiation.FeedbackNegotiate {
		req = "希望调整时间"
	}
	return MustJSON(map[string]any{"feedback_type": t, "reasoning": "scripted " + string(t), "adjustment_request": req,
		"concerns": []string{}, "confidence": 80})
}

// NeedReply is a prompt 4 proposal assigning every offer to need: beyond
// the need's count the willing are alternates.
func NeedReply(in *llm.AggregateInput, need string) string {
	var as []map[string]any
	for _, o := range in.Offers {
		as = append(as, map[string]any{"agent_id": o.AgentID, "role": need, "need": need, "responsibility": o.Contribution})
	}
	return MustJSON(map[string]any{"summary": "scripted plan", "objective": need, "assignments": as, "rationale": "scripted",
		"gaps": []string{}, "confidence": "high"})
}

// GapsReply is a prompt 7 reply naming gapTypes (none: complete).
func GapsReply(gapTypes ...string) string {
	gaps := []map[string]any{}
	for _, g := range gapTypes {
		gaps = append(gaps, map[string]any{"gap_type": g, "importance": 80, "reason": "需要" + g, "suggested_capability_tags": []string{"摄影"}})
	}
	return MustJSON(map[string]any{"is_complete": len(gaps) == 0, "analysis": "scripted", "gaps": gaps})
}

// RecursionReply is a prompt 8 reply recursing on gapTypes.
func RecursionReply(gapTypes ...string) string {
	subs := []map[string]any{}
	for _, g := range gapTypes {
		subs = append(subs, map[string]any{"gap_type": g, "description": "寻找" + g, "capability_tags": []string{"摄影"}, "priority": "high"})
	}
	return MustJSON(map[string]any{"should_recurse": len(subs) > 0, "condition_1_met": true, "condition_1_analysis": "x",
		"condition_2_met": true, "condition_2_analysis": "x", "condition_3_met": true, "condition_3_analysis": "x", "sub_demands": subs})
}

// CandidatesReply picks exactly the given agents.
func CandidatesReply(in *llm.FilterInput, ids ...string) string {
	var picked []map[string]any
	for _, p := range in.Profiles {
		for _, id := range ids {
			if p.AgentID == id {
				picked = append(picked, map[string]any{"agent_id": id, "display_name": p.UserName, "reason": "scripted",
					"match_type": "explicit", "confidence": 0.9})
			}
		}
	}
	return MustJSON(map[string]any{"analysis": "scripted", "definitely_related": picked, "possibly_related": []any{},
		"total_candidates": len(picked)})
}

// TestProfiles are n twin profiles a1..an (tag 摄影), plus the external
// agents named.
func TestProfiles(n int, external ...string) []negotiation.AgentProfile {
	var out []negotiation.AgentProfile
	mk := func(id string, mode negotiation.AgentMode) negotiation.AgentProfile {
		return negotiation.AgentProfile{AgentID: id, UserName: "Agent " + id, ProfileSummary: "测试用的数字分身 " + id,
			Location: "北京", Tags: []string{"摄影", "活动策划"}, Mode: mode}
	}
	for i := 1; i <= n; i++ {
		out = append(out, mk(fmt.Sprintf("agent_%d", i), ""))
	}
	for _, id := range external {
		out = append(out, mk(id, negotiation.AgentModeExternal))
	}
	return out
}

// AgentsOffer is an external agent's offer with decision d.
func AgentsOffer(d negotiation.OfferDecision) negotiation.OfferAnswer {
	return negotiation.OfferAnswer{Decision: d, Contribution: "我来负责", Reasoning: "external"}
}
