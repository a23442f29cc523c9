package llm

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"

	"github.com/towow/towow/domain/negotiation"
)

// PromptFeedback is the key of prompt 5 方案反馈.
const PromptFeedback PromptKey = "proposal_feedback"

// Feedback is prompt 5 (方案反馈): one participant's twin reviewing the
// current proposal: accept, negotiate (with its request) or withdraw.
var Feedback = define(Prompt[FeedbackInput, FeedbackReply, negotiation.FeedbackAnswer]{
	key:         PromptFeedback,
	system:      "你是数字分身系统，代表用户评估协作方案。以有效 JSON 格式输出。",
	maxTokens:   800,
	temperature: 0.5,
	replyKeys:   []string{"feedback_type"},
	validate:    validateFeedback,
	fallback:    fallbackFeedback,
	template: `# 方案评审任务

## 你的身份
你是 **{{name .Profile}}** 的数字分身。
你需要代表用户评估这个协作方案。

## 你的档案
{{profile .Profile}}

## 协作方案（第 {{.Round}} 轮{{if .MaxRounds}}，最多 {{.MaxRounds}} 轮{{end}}）
` + "```json" + `
{{json .Proposal}}
` + "```" + `

## 你在方案中的角色分配
{{if .MyAssignment}}` + "```json" + `
{{json .MyAssignment}}
` + "```" + `{{else}}未分配具体角色{{end}}

## 你之前的响应
` + "```json" + `
{{json .MyOffer}}
` + "```" + `

## 评审任务

请评估这个方案是否可以接受，考虑：
1. 你的角色分配是否合理？
2. 职责是否在你的能力范围内？
3. 时间安排是否可行？
4. 是否有任何顾虑或条件？

## 输出要求

请以 JSON 格式输出你的反馈：

` + "```json" + `
{
  "feedback_type": "accept | negotiate | withdraw",
  "reasoning": "你做出这个评估的理由（50字以内）",
  "adjustment_request": "如果是 negotiate，说明希望如何调整",
  "proposed_changes": [{"field": "要改的地方，如 timeline.start_date 或 我的 responsibility", "value": "希望改成什么", "reason": "原因"}],
  "concerns": ["如果有顾虑，列出每一个"],
  "confidence": 80
}
` + "```" + `

## 反馈类型说明

- **accept**: 接受方案，愿意按分配的角色参与
- **negotiate**: 基本同意，但希望调整某些方面
- **withdraw**: 退出协作（角色不合适、时间冲突等）

注意：请站在 {{name .Profile}} 的角度评估。
`,
})

// FeedbackInput is prompt 5's input: one participant's twin reviewing the
// current proposal.
type FeedbackInput struct {
	Profile      negotiation.AgentProfile  `json:"agent_profile"`
	Demand       negotiation.Understanding `json:"demand"`
	Proposal     negotiation.Proposal      `json:"proposal"`
	MyAssignment *negotiation.Assignment   `json:"my_assignment,omitempty"`
	// MyOffer is the agent's own offer (its conditions matter when judging).
	MyOffer   OfferView `json:"my_offer"`
	Round     int       `json:"round"`
	MaxRounds int       `json:"max_rounds"`
}

// FeedbackReply is prompt 5's reply (方案反馈).
type FeedbackReply struct {
	FeedbackType      Text     `json:"feedback_type"` // accept | negotiate | withdraw
	Reasoning         Text     `json:"reasoning"`
	AdjustmentRequest Text     `json:"adjustment_request"`
	Concerns          TextList `json:"concerns"`
	Confidence        Scalar   `json:"confidence"` // 0-100
	// ProposedChanges: an object {"<field>": "<new value>", "reason": "…"}
	// or a list of {"field", "value" (or "new_value"), "reason"}.
	ProposedChanges ReplyChanges `json:"proposed_changes,omitzero"`
}

// ReplyChanges is prompt 5's proposed_changes in either of its shapes.
type ReplyChanges []ReplyProposedChange

// ReplyProposedChange is one proposed change of prompt 5's reply.
type ReplyProposedChange struct {
	Field    Text `json:"field"`
	Value    Text `json:"value"`
	NewValue Text `json:"new_value,omitempty"`
	Reason   Text `json:"reason"`
}

// UnmarshalJSON accepts a list of changes, one change object, or an
// object of field → new value with an optional "reason"; anything else
// (null, a bare string) is no change.
func (c *ReplyChanges) UnmarshalJSON(b []byte) error {
	*c = nil
	var list []ReplyProposedChange
	if json.Unmarshal(b, &list) == nil {
		*c = list
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil {
		return nil
	}
	if _, ok := obj["field"]; ok {
		var one ReplyProposedChange
		if json.Unmarshal(b, &one) == nil {
			*c = ReplyChanges{one}
		}
		return nil
	}
	var reason Text
	if r, ok := obj["reason"]; ok {
		_ = json.Unmarshal(r, &reason)
	}
	keys := slices.Sorted(maps.Keys(obj))
	for _, k := range keys {
		if k == "reason" {
			continue
		}
		var v Text
		_ = json.Unmarshal(obj[k], &v)
		*c = append(*c, ReplyProposedChange{Field: Text(k), Value: v, Reason: reason})
	}
	return nil
}

var feedbackTypes = map[string]negotiation.FeedbackType{
	"accept": negotiation.FeedbackAccept, "accepted": negotiation.FeedbackAccept, "agree": negotiation.FeedbackAccept,
	"yes": negotiation.FeedbackAccept, "ok": negotiation.FeedbackAccept, "同意": negotiation.FeedbackAccept,
	"接受": negotiation.FeedbackAccept, "认可": negotiation.FeedbackAccept,

	"negotiate": negotiation.FeedbackNegotiate, "negotiation": negotiation.FeedbackNegotiate,
	"negotiating": negotiation.FeedbackNegotiate, "adjust": negotiation.FeedbackNegotiate,
	"modify": negotiation.FeedbackNegotiate, "counter": negotiation.FeedbackNegotiate,
	"协商": negotiation.FeedbackNegotiate, "调整": negotiation.FeedbackNegotiate,
	"修改": negotiation.FeedbackNegotiate, "讨价还价": negotiation.FeedbackNegotiate,

	"withdraw": negotiation.FeedbackWithdraw, "withdrawn": negotiation.FeedbackWithdraw,
	"withdrawal": negotiation.FeedbackWithdraw, "quit": negotiation.FeedbackWithdraw,
	"leave": negotiation.FeedbackWithdraw, "退出": negotiation.FeedbackWithdraw,
	"拒绝": negotiation.FeedbackWithdraw, "放弃": negotiation.FeedbackWithdraw,

	"reject": negotiation.FeedbackReject, "rejected": negotiation.FeedbackReject,
}

// validateFeedback validates prompt 5's reply. feedback_type is required;
// adjustment_request is kept only for negotiate, where it falls back to the
// reasoning, then to the first concern (none of them: invalid).
func validateFeedback(raw *FeedbackReply, _ *FeedbackInput) (negotiation.FeedbackAnswer, error) {
	ft, ok := lookupEnum(feedbackTypes, string(raw.FeedbackType))
	if !ok {
		return negotiation.FeedbackAnswer{}, invalid("unknown feedback_type %q", raw.FeedbackType)
	}
	out := negotiation.FeedbackAnswer{
		FeedbackType: ft,
		Reasoning:    clip(string(raw.Reasoning), maxTextRunes),
		Concerns:     cleanList(raw.Concerns, maxTextRunes, maxListItems),
		Confidence:   confidencePercent(raw.Confidence),
	}
	for _, ch := range raw.ProposedChanges {
		pc := negotiation.ProposedChange{Field: clip(string(ch.Field), maxShortRunes),
			Value: clip(string(cmp.Or(ch.Value, ch.NewValue)), maxTextRunes), Reason: clip(string(ch.Reason), maxTextRunes)}
		if pc.Field != "" && len(out.ProposedChanges) < maxListItems {
			out.ProposedChanges = append(out.ProposedChanges, pc)
		}
	}
	if ft == negotiation.FeedbackNegotiate {
		out.AdjustmentRequest = clip(string(raw.AdjustmentRequest), maxTextRunes)
		if out.AdjustmentRequest == "" {
			out.AdjustmentRequest = out.Reasoning
		}
		if out.AdjustmentRequest == "" && len(out.Concerns) > 0 {
			out.AdjustmentRequest = out.Concerns[0]
		}
		if out.AdjustmentRequest == "" {
			return negotiation.FeedbackAnswer{}, invalid("negotiate without adjustment_request")
		}
	}
	return out, nil
}

// fallbackFeedback: no answer. A twin that cannot be asked accepts
// nothing in its person's name: the round counts it against the accept
// rate, and a round most of whose members gave none is not decided on
// them.
func fallbackFeedback(*FeedbackInput) negotiation.FeedbackAnswer {
	return negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackNoAnswer, Reasoning: "fallback: " + fallbackReason}
}
