package llm

import (
	"github.com/towow/towow/domain/negotiation"
)

// PromptOffer is the key of prompt 3 响应生成.
const PromptOffer PromptKey = "response_generation"

// Offer is prompt 3 (响应生成): one agent's twin deciding whether to answer
// a demand (participate, decline, or participate on conditions) and what
// it would contribute.
var Offer = define(Prompt[OfferInput, OfferReply, negotiation.OfferAnswer]{
	key:         PromptOffer,
	system:      "你是数字分身系统，代表用户决定是否响应协作需求。以有效 JSON 格式输出。",
	maxTokens:   800,
	temperature: 0.5,
	replyKeys:   []string{"decision"},
	validate:    validateOffer,
	fallback:    fallbackOffer,
	template: `# 需求响应任务

## 你的身份
你是 **{{name .Profile}}** 的数字分身。
你需要代表用户决定是否参与这个协作需求。

## 你的档案
{{profile .Profile}}

## 协作需求
{{.Demand.SurfaceDemand}}

### 需求详情
` + "```json" + `
{{json .Demand}}
` + "```" + `

### 用户原始输入
{{.RawInput}}

## 你被选中的原因
{{if .FilterReason}}{{.FilterReason}}{{else}}未说明{{end}}

## 决策任务

请站在 {{name .Profile}} 的角度判断：
1. 这个需求是否在你的能力范围内？
2. 你的时间和所在地是否允许？
3. 你能具体贡献什么？
4. 是否需要附加条件才能参与？

## 输出要求

请以 JSON 格式输出你的响应：

` + "```json" + `
{
  "decision": "participate|decline|conditional",
  "contribution": "贡献描述",
  "conditions": ["条件列表"],
  "reasoning": "决策理由",
  "decline_reason": "拒绝原因（如果 decline）",
  "confidence": 80
}
` + "```" + `

## 决策类型说明

- **participate**: 愿意参与，说明具体贡献
- **conditional**: 有条件参与，在 conditions 中列出每个条件
- **decline**: 不参与，在 decline_reason 中说明原因

注意：confidence 为 0-100 的整数。
`,
})

// OfferInput is prompt 3's input: one agent's twin answering the demand.
type OfferInput struct {
	Profile      negotiation.AgentProfile  `json:"agent_profile"`
	Demand       negotiation.Understanding `json:"demand"`
	RawInput     string                    `json:"raw_input"`
	FilterReason string                    `json:"filter_reason"`
}

// OfferReply is prompt 3's reply (响应生成).
type OfferReply struct {
	Decision      Text     `json:"decision"` // participate | decline | conditional
	Contribution  Text     `json:"contribution"`
	Conditions    TextList `json:"conditions"`
	Reasoning     Text     `json:"reasoning"`
	DeclineReason Text     `json:"decline_reason"`
	Confidence    Scalar   `json:"confidence"` // 0-100
}

var offerDecisions = map[string]negotiation.OfferDecision{
	"participate": negotiation.OfferDecisionParticipate, "participating": negotiation.OfferDecisionParticipate,
	"participation": negotiation.OfferDecisionParticipate, "participated": negotiation.OfferDecisionParticipate,
	"join": negotiation.OfferDecisionParticipate, "yes": negotiation.OfferDecisionParticipate,
	"accept": negotiation.OfferDecisionParticipate, "参与": negotiation.OfferDecisionParticipate,
	"参加": negotiation.OfferDecisionParticipate, "加入": negotiation.OfferDecisionParticipate,
	"接受": negotiation.OfferDecisionParticipate, "同意": negotiation.OfferDecisionParticipate,
	"愿意参与": negotiation.OfferDecisionParticipate,

	"decline": negotiation.OfferDecisionDecline, "declined": negotiation.OfferDecisionDecline,
	"no": negotiation.OfferDecisionDecline, "refuse": negotiation.OfferDecisionDecline,
	"reject": negotiation.OfferDecisionDecline, "拒绝": negotiation.OfferDecisionDecline,
	"不参与": negotiation.OfferDecisionDecline, "婉拒": negotiation.OfferDecisionDecline,
	"谢绝": negotiation.OfferDecisionDecline, "放弃": negotiation.OfferDecisionDecline,

	"conditional": negotiation.OfferDecisionConditional, "conditionally": negotiation.OfferDecisionConditional,
	"conditionalparticipate": negotiation.OfferDecisionConditional, "有条件": negotiation.OfferDecisionConditional,
	"有条件参与": negotiation.OfferDecisionConditional, "条件参与": negotiation.OfferDecisionConditional,
}

// validateOffer validates prompt 3's reply. The decision is required.
// Conditions are kept only for conditional (a conditional offer without
// conditions is a participate); decline_reason only for decline (reasoning
// if absent); a participate/conditional offer needs a contribution
// (reasoning if absent).
func validateOffer(raw *OfferReply, _ *OfferInput) (negotiation.OfferAnswer, error) {
	decision, ok := lookupEnum(offerDecisions, string(raw.Decision))
	if !ok {
		return negotiation.OfferAnswer{}, invalid("unknown decision %q", raw.Decision)
	}
	out := negotiation.OfferAnswer{
		Decision:     decision,
		Contribution: clip(string(raw.Contribution), maxTextRunes),
		Reasoning:    clip(string(raw.Reasoning), maxTextRunes),
		Confidence:   confidencePercent(raw.Confidence),
	}
	switch decision {
	case negotiation.OfferDecisionDecline:
		out.DeclineReason = clip(string(raw.DeclineReason), maxTextRunes)
		if out.DeclineReason == "" {
			out.DeclineReason = out.Reasoning
		}
	default:
		if decision == negotiation.OfferDecisionConditional {
			out.Conditions = cleanList(raw.Conditions, maxTextRunes, maxListItems)
			if len(out.Conditions) == 0 {
				out.Decision = negotiation.OfferDecisionParticipate
			}
		}
		if out.Contribution == "" {
			out.Contribution = out.Reasoning
		}
		if out.Contribution == "" {
			return negotiation.OfferAnswer{}, invalid("%s without contribution", decision)
		}
	}
	return out, nil
}

// fallbackOffer: no answer. A twin that cannot be asked commits its
// person to nothing, and declines nothing either: a channel whose offers
// are mostly no answers fails naming the model, not the agents.
func fallbackOffer(*OfferInput) negotiation.OfferAnswer {
	return negotiation.OfferAnswer{
		Decision:  negotiation.OfferDecisionNoAnswer,
		Reasoning: "fallback: " + fallbackReason,
	}
}
