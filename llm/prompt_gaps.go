package llm

import (
	"cmp"

	"github.com/towow/towow/domain/negotiation"
)

// PromptGaps is the key of prompt 7 缺口识别.
const PromptGaps PromptKey = "gap_identify"

// Gaps is prompt 7 (缺口识别): which capabilities the willing offers still
// lack, against the demand. It is asked as soon as the offers are in, so
// sub-negotiations can start while the rounds run.
var Gaps = define(Prompt[GapInput, GapsReply, GapResult]{
	key:         PromptGaps,
	system:      "你是 ToWow 的缺口识别系统。对照需求检查愿意参与者的回应，找出仍然缺失的能力，以有效 JSON 格式输出。",
	maxTokens:   1500,
	temperature: 0.3,
	replyKeys:   []string{"is_complete", "gaps"},
	validate:    validateGaps,
	fallback:    fallbackGaps,
	template: `# 缺口识别任务

## 原始需求
{{if .Demand.SurfaceDemand}}{{.Demand.SurfaceDemand}}{{else}}未说明{{end}}

### 需求详情
` + "```json" + `
{{json .Demand}}
` + "```" + `

### 用户原始输入
{{.RawInput}}

## 愿意参与者的回应
` + "```json" + `
{{json .Offers}}
` + "```" + `

## 识别任务

1. 对照需求的能力标签、人数和上下文，检查愿意参与者的回应是否覆盖了所有关键环节（每位参与者按其回应中的角色计）。
2. 找出仍然缺失的能力，包括需求没有明说、但这类事通常需要的环节。
3. 每个缺口给出重要性（0-100 的整数）、原因和建议的能力标签。
4. 如果回应已经覆盖完整，is_complete 为 true，gaps 为空列表。

## 输出要求

请以 JSON 格式输出：

` + "```json" + `
{
  "is_complete": false,
  "analysis": "分析过程",
  "gaps": [
    {
      "gap_type": "摄影师",
      "importance": 70,
      "reason": "需要记录活动内容",
      "description": "缺口说明：缺什么、补上之后方案会怎样",
      "suggested_capability_tags": ["摄影", "活动拍摄"]
    }
  ]
}
` + "```" + `
`,
})

// GapInput is prompt 7's input: the demand and the offers of every agent
// who offered to take part. It holds nothing the rounds change, so the
// same negotiation asks the same question whenever it is asked.
type GapInput struct {
	Demand   negotiation.Understanding `json:"demand"`
	RawInput string                    `json:"raw_input"`
	Offers   []OfferView               `json:"offers"`
}

// GapResult is prompt 7's validated output (importance clamped to 0-100).
type GapResult struct {
	IsComplete bool              `json:"is_complete"`
	Analysis   string            `json:"analysis"`
	Gaps       []negotiation.Gap `json:"gaps"`
}

// GapsReply is prompt 7's reply (缺口识别).
type GapsReply struct {
	IsComplete Scalar         `json:"is_complete"` // a boolean
	Analysis   Text           `json:"analysis"`
	Gaps       List[ReplyGap] `json:"gaps"`
}

// ReplyGap is one gap of prompt 7's reply. A bare string is taken for its
// gap type.
type ReplyGap struct {
	GapType                 Text     `json:"gap_type"`
	Importance              Scalar   `json:"importance"` // 0-100
	Reason                  Text     `json:"reason"`
	SuggestedCapabilityTags TextList `json:"suggested_capability_tags"`
	Description             Text     `json:"description,omitempty"` // what is missing and what filling it changes
}

// UnmarshalJSON accepts a gap object or a bare gap type.
func (g *ReplyGap) UnmarshalJSON(b []byte) error {
	type plain ReplyGap
	return decodeObjectOrString(b, (*plain)(g), func(s string) { g.GapType = Text(s) })
}

// maxGaps bounds the gaps of a reply.
const maxGaps = 10

// defaultGapImportance is the importance of a gap that states none.
const defaultGapImportance = 50

// validateGaps validates prompt 7's reply. Gaps need a gap_type (one gap per
// type); importance is clamped to 0-100. is_complete is as stated, except
// that it is true when no gap remains (nothing to fill) and defaults to "no
// gaps" when absent. A complete proposal may still list minor gaps.
func validateGaps(raw *GapsReply, _ *GapInput) (GapResult, error) {
	out := GapResult{Analysis: clip(string(raw.Analysis), maxTextRunes), Gaps: []negotiation.Gap{}}
	seen := map[string]bool{}
	for _, g := range raw.Gaps {
		gt := clip(string(g.GapType), maxShortRunes)
		if gt == "" || seen[gt] {
			continue
		}
		seen[gt] = true
		imp := defaultGapImportance
		if g.Importance.IsNum {
			imp = percent(g.Importance.Num)
		}
		out.Gaps = append(out.Gaps, negotiation.Gap{
			GapType:                 gt,
			Importance:              imp,
			Reason:                  clip(string(g.Reason), maxTextRunes),
			SuggestedCapabilityTags: cleanList(g.SuggestedCapabilityTags, maxShortRunes, maxTagItems),
			Description:             cmp.Or(clip(string(g.Description), maxTextRunes), clip(string(g.Reason), maxTextRunes)),
		})
		if len(out.Gaps) == maxGaps {
			break
		}
	}
	complete, ok := boolOf(raw.IsComplete)
	if !ok {
		complete = len(out.Gaps) == 0
	}
	if len(out.Gaps) == 0 {
		complete = true
	}
	out.IsComplete = complete
	return out, nil
}

// fallbackGaps: no gaps, complete.
func fallbackGaps(*GapInput) GapResult {
	return GapResult{IsComplete: true, Analysis: "fallback: " + fallbackReason + ", no gaps identified", Gaps: []negotiation.Gap{}}
}
