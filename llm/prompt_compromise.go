package llm

import (
	"slices"
	"strings"

	"github.com/towow/towow/domain/negotiation"
)

// PromptCompromise is the key of prompt 9 妥协方案.
const PromptCompromise PromptKey = "compromise"

// Compromise is prompt 9 (妥协方案): when no full agreement can be reached,
// the best plan from what is available, what it gives up and what else
// the requester could do.
var Compromise = define(Prompt[CompromiseInput, CompromiseReply, ProposalResult]{
	key:         PromptCompromise,
	system:      "你是 ToWow 的妥协方案系统。在无法达成完整共识时，基于现有资源给出妥协方案和替代建议，以有效 JSON 格式输出。",
	maxTokens:   3000,
	temperature: 0.4,
	replyKeys:   slices.Concat(proposalKeys, []string{"compromises", "suggestions"}),
	validate:    validateCompromise,
	fallback:    fallbackCompromise,
	template: `# 妥协方案任务

## 原始需求
{{if .Demand.SurfaceDemand}}{{.Demand.SurfaceDemand}}{{else}}未说明{{end}}

### 需求详情
` + "```json" + `
{{json .Demand}}
` + "```" + `

### 用户原始输入
{{.RawInput}}

## 需要妥协的原因
{{if eq .Reason "no_participants"}}没有 Agent 愿意参与（no_participants）{{else if eq .Reason "no_offers"}}没有收到任何响应（no_offers）{{else if eq .Reason "partial_agreement"}}达到最大轮次仍有分歧，只达成部分共识（partial_agreement）{{else}}{{.Reason}}{{end}}

## 可用资源（已确认的角色分配）
` + "```json" + `
{{json .Available}}
` + "```" + `

## 收到的全部响应（含拒绝）
` + "```json" + `
{{json .Offers}}
` + "```" + `

## 缺口
` + "```json" + `
{{json .Gaps}}
` + "```" + `

## 参与者反馈
` + "```json" + `
{{json .Feedbacks}}
` + "```" + `

## 妥协原则

1. **基于现有资源**：assignments 只能使用可用资源和愿意参与（participate / conditional）的 Agent，agent_id 原样使用。
2. **说明取舍**：每个争议点给出妥协方案和理由。
3. **诚实面对缺口**：无法妥协的问题写入 unresolved。
4. **给出出路**：在 suggestions 中给出替代建议（例如放宽需求、分阶段完成）。

## 输出要求

请以 JSON 格式输出：

` + "```json" + `
{
  "summary": "妥协方案概述",
  "type": "compromise",
  "assignments": [
    {
      "agent_id": "xxx",
      "display_name": "Bob",
      "role": "场地提供者",
      "responsibility": "提供场地，负责茶歇",
      "dependencies": [],
      "notes": "备注"
    }
  ],
  "compromises": [
    {
      "issue": "争议点",
      "resolution": "妥协方案",
      "rationale": "理由"
    }
  ],
  "unresolved": ["无法妥协的问题"],
  "suggestions": ["替代建议"],
  "confidence": "low|medium"
}
` + "```" + `
`,
})

// CompromiseInput is prompt 9's input: what is available when there are no
// participants, the offers ran out, or the rounds ended in partial
// agreement.
type CompromiseInput struct {
	Demand    negotiation.Understanding `json:"demand"`
	RawInput  string                    `json:"raw_input"`
	Available []negotiation.Assignment  `json:"available_resources"` // may be empty
	Offers    []OfferView               `json:"offers"`              // every offer, declines included
	Gaps      []negotiation.Gap         `json:"gaps"`
	Feedbacks []FeedbackView            `json:"feedbacks"`
	Reason    string                    `json:"reason"` // "no_participants", "no_offers", "partial_agreement"
}

// CompromiseReply is prompt 9's reply (妥协方案). The template does not
// ask for an objective, a timeline, a rationale or gaps, but a compromise
// is a proposal and a model may give them: they are read when present and
// not written when empty.
type CompromiseReply struct {
	Summary     Text                  `json:"summary"`
	Type        Text                  `json:"type"` // compromise
	Objective   Text                  `json:"objective,omitempty"`
	Assignments List[ReplyAssignment] `json:"assignments"`
	Timeline    Object[ReplyTimeline] `json:"timeline,omitzero"`
	Rationale   Text                  `json:"rationale,omitempty"`
	Gaps        TextList              `json:"gaps,omitempty"`
	Compromises List[ReplyCompromise] `json:"compromises"`
	Unresolved  TextList              `json:"unresolved"`
	Suggestions TextList              `json:"suggestions"`
	Confidence  Scalar                `json:"confidence"` // low | medium
}

// proposal is the proposal part of the reply, as prompt 4 gives it.
func (r *CompromiseReply) proposal() *AggregateReply {
	return &AggregateReply{Summary: r.Summary, Objective: r.Objective, Assignments: r.Assignments, Timeline: r.Timeline,
		Rationale: r.Rationale, Gaps: r.Gaps, Confidence: r.Confidence}
}

// ReplyCompromise is one compromise of prompt 9's reply. A bare string is
// taken for its issue.
type ReplyCompromise struct {
	Issue      Text `json:"issue"`
	Resolution Text `json:"resolution"`
	Rationale  Text `json:"rationale"`
}

// UnmarshalJSON accepts a compromise object or a bare issue.
func (c *ReplyCompromise) UnmarshalJSON(b []byte) error {
	type plain ReplyCompromise
	return decodeObjectOrString(b, (*plain)(c), func(s string) { c.Issue = Text(s) })
}

// validateCompromise validates prompt 9's reply: a compromise proposal
// assigning only agents of the available resources or of non-declining
// offers. Its confidence is at most medium: a compromise is never a
// confident plan.
func validateCompromise(raw *CompromiseReply, in *CompromiseInput) (ProposalResult, error) {
	allowed := newAllowed()
	for _, a := range in.Available {
		allowed.addOffer(OfferView{AgentID: a.AgentID, DisplayName: a.DisplayName, Contribution: a.Responsibility})
	}
	for _, o := range in.Offers {
		if o.Decision.Participates() {
			allowed.addOffer(o)
		}
	}
	p, err := buildProposal(raw.proposal(), allowed, &in.Demand, negotiation.ProposalTypeCompromise)
	if err != nil {
		return ProposalResult{}, err
	}
	if p.Confidence == negotiation.ConfidenceHigh {
		p.Confidence = negotiation.ConfidenceMedium
	}
	for _, c := range raw.Compromises {
		cp := negotiation.Compromise{
			Issue:      clip(string(c.Issue), maxTextRunes),
			Resolution: clip(string(c.Resolution), maxTextRunes),
			Rationale:  clip(string(c.Rationale), maxTextRunes),
		}
		if cp.Issue != "" && len(p.Compromises) < maxListItems {
			p.Compromises = append(p.Compromises, cp)
		}
	}
	p.Unresolved = cleanList(raw.Unresolved, maxTextRunes, maxListItems)
	p.Suggestions = cleanList(raw.Suggestions, maxTextRunes, maxListItems)
	return ProposalResult{Proposal: p}, nil
}

// fallbackSuggestions are the alternatives a fallback compromise offers.
var fallbackSuggestions = []string{"放宽需求后重新发起", "缩小需求范围，分阶段完成", "稍后重试以获得完整的协作方案"}

// fallbackCompromise: a compromise assigning the available resources, the
// gaps' types unresolved, generic suggestions.
func fallbackCompromise(in *CompromiseInput) ProposalResult {
	p := negotiation.Proposal{
		Type:        negotiation.ProposalTypeCompromise,
		Summary:     defaultSummary(&in.Demand, negotiation.ProposalTypeCompromise),
		Objective:   clip(in.Demand.SurfaceDemand, maxTextRunes),
		Assignments: []negotiation.Assignment{},
		Rationale:   "fallback: " + fallbackReason + ", available resources only",
		Confidence:  negotiation.ConfidenceLow,
		Suggestions: slices.Clone(fallbackSuggestions),
	}
	seen := map[string]bool{}
	for _, a := range in.Available {
		id := strings.TrimSpace(a.AgentID)
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		a.AgentID = id
		a.Dependencies = slices.Clone(a.Dependencies)
		p.Assignments = append(p.Assignments, a)
	}
	for _, g := range in.Gaps {
		if t := strings.TrimSpace(g.GapType); t != "" && !slices.Contains(p.Unresolved, t) {
			p.Unresolved = append(p.Unresolved, t)
		}
	}
	return ProposalResult{Proposal: p}
}
