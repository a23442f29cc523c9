package llm

import (
	"fmt"
	"strings"

	"github.com/towow/towow/domain/negotiation"
)

// PromptRecursion is the key of prompt 8 递归判断.
const PromptRecursion PromptKey = "recursion_decision"

// Recursion is prompt 8 (递归判断): whether to open sub-negotiations for the
// proposal's gaps, judged on three conditions (the demand's satisfaction,
// the stakeholders, cost against benefit), and for which gaps.
var Recursion = define(Prompt[RecursionInput, RecursionReply, RecursionResult]{
	key:         PromptRecursion,
	system:      "你是 ToWow 的递归决策系统。判断是否需要为方案缺口发起子协商，以有效 JSON 格式输出。",
	maxTokens:   1500,
	temperature: 0.3,
	replyKeys:   []string{"should_recurse", "sub_demands"},
	validate:    validateRecursion,
	fallback:    fallbackRecursion,
	template: `# 递归判断任务

## 原始需求
{{if .Demand.SurfaceDemand}}{{.Demand.SurfaceDemand}}{{else}}未说明{{end}}

### 需求详情
` + "```json" + `
{{json .Demand}}
` + "```" + `

## 识别出的缺口
` + "```json" + `
{{json .Gaps}}
` + "```" + `

## 愿意参与者的回应
` + "```json" + `
{{json .Offers}}
` + "```" + `

## 递归深度
当前协商深度：{{.Depth}}{{if .MaxDepth}}（允许的最大深度：{{.MaxDepth}}）{{end}}

## 判断条件

只有同时满足以下三个条件时，才为缺口发起子协商：
1. **需求满足度**：愿意参与者的回应明显无法满足需求，缺口会影响需求的实现。
2. **利益相关方**：网络中很可能有具备相应能力、愿意参与的协作者。
3. **成本效益**：发起子协商的收益大于其成本（按本次协商的规模估计，一次子协商约 {{.EstimatedCost.Tokens}} tokens、{{.EstimatedCost.TimeSeconds}} 秒）。

## 输出要求

子需求最多 3 个，每个子需求的 gap_type 必须原样使用上面缺口列表中的 gap_type。
如果不需要递归，should_recurse 为 false，sub_demands 为空列表。

请以 JSON 格式输出：

` + "```json" + `
{
  "should_recurse": true,
  "condition_1_met": true,
  "condition_1_analysis": "满足度分析",
  "condition_2_met": true,
  "condition_2_analysis": "利益相关方分析",
  "condition_3_met": true,
  "condition_3_analysis": "成本效益分析",
  "sub_demands": [
    {
      "gap_type": "摄影师",
      "description": "寻找摄影师",
      "capability_tags": ["摄影"],
      "priority": "high"
    }
  ]
}
` + "```" + `
`,
})

// RecursionInput is prompt 8's input.
type RecursionInput struct {
	Demand   negotiation.Understanding `json:"demand"`
	RawInput string                    `json:"raw_input"`
	Gaps     []negotiation.Gap         `json:"gaps"`
	Offers   []OfferView               `json:"offers"`    // who offered to take part (the gaps are what they leave)
	Depth    int                       `json:"depth"`     // depth of the channel deciding (0 = root)
	MaxDepth int                       `json:"max_depth"` // sub-negotiations allowed while Depth < MaxDepth
	// EstimatedCost is what a sub-negotiation is expected to cost, for the
	// cost-benefit condition: the engine measures it on the deciding
	// channel.
	EstimatedCost negotiation.SubnetCost `json:"estimated_cost"`
}

// RecursionResult is prompt 8's validated output: at most 3 sub-demands,
// each naming the gap it fills; none when ShouldRecurse is false.
type RecursionResult struct {
	ShouldRecurse bool   `json:"should_recurse"`
	Analysis      string `json:"analysis"` // the three conditions' analyses, joined
	// Conditions are the three conditions one by one (demand satisfaction,
	// stakeholders, cost against benefit).
	Conditions []negotiation.RecursionCondition `json:"conditions,omitempty"`
	SubDemands []SubDemandResult                `json:"sub_demands"`
}

// Decision is the record of r for the channel's events, with the cost
// estimate the prompt was given.
func (r RecursionResult) Decision(cost negotiation.SubnetCost) *negotiation.RecursionDecision {
	return &negotiation.RecursionDecision{ShouldRecurse: r.ShouldRecurse, Conditions: r.Conditions, EstimatedCost: &cost}
}

// SubDemandResult is one sub-demand of prompt 8.
type SubDemandResult struct {
	GapType string                `json:"gap_type"`
	Demand  negotiation.SubDemand `json:"demand"`
}

// RecursionReply is prompt 8's reply (递归判断): the decision, the three
// conditions (conditionNames) with their analyses, and the sub-demands.
type RecursionReply struct {
	ShouldRecurse      Scalar               `json:"should_recurse"` // a boolean
	Condition1Met      Scalar               `json:"condition_1_met"`
	Condition1Analysis Text                 `json:"condition_1_analysis"`
	Condition2Met      Scalar               `json:"condition_2_met"`
	Condition2Analysis Text                 `json:"condition_2_analysis"`
	Condition3Met      Scalar               `json:"condition_3_met"`
	Condition3Analysis Text                 `json:"condition_3_analysis"`
	SubDemands         List[ReplySubDemand] `json:"sub_demands"`
}

// ReplySubDemand is one sub-demand of prompt 8's reply. A bare string is
// taken for its description.
type ReplySubDemand struct {
	GapType        Text     `json:"gap_type"`
	Description    Text     `json:"description"`
	CapabilityTags TextList `json:"capability_tags"`
	Priority       Text     `json:"priority"` // high | medium | low
}

// UnmarshalJSON accepts a sub-demand object or a bare description.
func (s *ReplySubDemand) UnmarshalJSON(b []byte) error {
	type plain ReplySubDemand
	return decodeObjectOrString(b, (*plain)(s), func(v string) { s.Description = Text(v) })
}

var priorities = map[string]string{
	"high": "high", "高": "high", "urgent": "high", "紧急": "high",
	"medium": "medium", "中": "medium", "中等": "medium", "normal": "medium", "普通": "medium",
	"low": "low", "低": "low",
}

// maxSubDemands bounds the sub-demands of a reply.
const maxSubDemands = 3

// conditionNames label in Analysis the three conditions a sub-negotiation
// needs: the gap matters to the demand, someone may fill it, and filling it
// is worth its cost.
var conditionNames = [3]string{"需求满足度", "利益相关方", "成本效益"}

// validateRecursion validates prompt 8's reply. should_recurse is required.
// It is forced false when a condition is stated as not met, or when the
// channel is already at the depth limit (MaxDepth > 0 and Depth ≥ MaxDepth).
// Each sub-demand must name one of the input's gaps (matched exactly,
// case-insensitively or by containment; without a gap_type, by its
// description, or the only gap); at most 3, one per gap. A reply that wants
// to recurse but names no fillable gap is invalid.
func validateRecursion(raw *RecursionReply, in *RecursionInput) (RecursionResult, error) {
	should, ok := boolOf(raw.ShouldRecurse)
	if !ok {
		return RecursionResult{}, invalid("should_recurse missing or not a boolean")
	}
	out := RecursionResult{SubDemands: []SubDemandResult{}}
	var parts []string
	for i, c := range []struct {
		met      Scalar
		analysis Text
	}{{raw.Condition1Met, raw.Condition1Analysis}, {raw.Condition2Met, raw.Condition2Analysis}, {raw.Condition3Met, raw.Condition3Analysis}} {
		met, stated := boolOf(c.met)
		if stated && !met {
			should = false
		}
		label := ""
		if stated {
			label = map[bool]string{true: "（满足）", false: "（不满足）"}[met]
		}
		if a := clip(string(c.analysis), maxTextRunes); a != "" || stated {
			parts = append(parts, fmt.Sprintf("条件%d %s%s：%s", i+1, conditionNames[i], label, a))
			rc := negotiation.RecursionCondition{Name: conditionNames[i], Analysis: a}
			if stated {
				rc.Met = &met
			}
			out.Conditions = append(out.Conditions, rc)
		}
	}
	out.Analysis = strings.Join(parts, "\n")
	if in.MaxDepth > 0 && in.Depth >= in.MaxDepth {
		should = false
	}
	if !should {
		return out, nil
	}
	seen := map[string]bool{}
	for _, sd := range raw.SubDemands {
		gap, ok := matchGap(in.Gaps, string(sd.GapType), string(sd.Description))
		if !ok || seen[gap.GapType] {
			continue
		}
		seen[gap.GapType] = true
		d := negotiation.SubDemand{
			Description:    clip(string(sd.Description), maxTextRunes),
			CapabilityTags: cleanList(sd.CapabilityTags, maxShortRunes, maxTagItems),
		}
		if d.Description == "" {
			d.Description = "为填补缺口「" + gap.GapType + "」寻找协作者"
		}
		if len(d.CapabilityTags) == 0 {
			d.CapabilityTags = cleanList(gap.SuggestedCapabilityTags, maxShortRunes, maxTagItems)
		}
		if len(d.CapabilityTags) == 0 {
			d.CapabilityTags = []string{gap.GapType}
		}
		if p := string(sd.Priority); p != "" {
			if d.Priority, ok = lookupEnum(priorities, p); !ok {
				return RecursionResult{}, invalid("unknown priority %q", p)
			}
		} else {
			d.Priority = priorityOf(gap.Importance)
		}
		out.SubDemands = append(out.SubDemands, SubDemandResult{GapType: gap.GapType, Demand: d})
		if len(out.SubDemands) == maxSubDemands {
			break
		}
	}
	if len(out.SubDemands) == 0 {
		return RecursionResult{}, invalid("should_recurse without a sub-demand for a known gap (%d given)", len(raw.SubDemands))
	}
	out.ShouldRecurse = true
	return out, nil
}

// matchGap finds the input gap a sub-demand fills. Without input gaps, the
// reply's own non-empty gap type is taken as is.
func matchGap(gaps []negotiation.Gap, gapType, description string) (negotiation.Gap, bool) {
	gapType = clip(gapType, maxShortRunes)
	if len(gaps) == 0 {
		return negotiation.Gap{GapType: gapType}, gapType != ""
	}
	if gapType != "" {
		for _, eq := range []func(a, b string) bool{
			func(a, b string) bool { return a == b },
			strings.EqualFold,
			func(a, b string) bool { return strings.Contains(a, b) || strings.Contains(b, a) },
		} {
			for _, g := range gaps {
				if t := strings.TrimSpace(g.GapType); t != "" && eq(t, gapType) {
					return g, true
				}
			}
		}
		return negotiation.Gap{}, false
	}
	for _, g := range gaps {
		if t := strings.TrimSpace(g.GapType); t != "" && strings.Contains(description, t) {
			return g, true
		}
	}
	if len(gaps) == 1 && strings.TrimSpace(gaps[0].GapType) != "" {
		return gaps[0], true
	}
	return negotiation.Gap{}, false
}

// priorityOf maps a gap importance to a sub-demand priority.
func priorityOf(importance int) string {
	switch {
	case importance >= 70:
		return "high"
	case importance >= 40:
		return "medium"
	}
	return "low"
}

// fallbackRecursion: no sub-negotiation.
func fallbackRecursion(*RecursionInput) RecursionResult {
	return RecursionResult{Analysis: "fallback: " + fallbackReason, SubDemands: []SubDemandResult{}}
}
