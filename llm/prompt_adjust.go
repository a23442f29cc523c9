package llm

import (
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/towow/towow/domain/negotiation"
)

// PromptAdjust is the key of prompt 6 方案调整.
const PromptAdjust PromptKey = "proposal_adjustment"

// Adjust is prompt 6 (方案调整): the proposal revised after the
// participants' feedback, assigning only those still in the negotiation.
var Adjust = define(Prompt[AdjustInput, AdjustReply, ProposalResult]{
	key:         PromptAdjust,
	system:      "你是 ToWow 的方案调整系统。根据参与者反馈优化协作方案，以有效 JSON 格式输出。",
	maxTokens:   4000,
	temperature: 0.4,
	funcs: template.FuncMap{
		"sub":          func(a, b int) int { return a - b },
		"feedbackList": feedbackList,
		"countType":    countFeedback,
	},
	replyKeys: slices.Concat(proposalKeys, []string{"adjustment_summary"}),
	validate:  validateAdjust,
	fallback:  fallbackAdjust,
	template: `# 方案调整任务

## 原始需求
{{if .Demand.SurfaceDemand}}{{.Demand.SurfaceDemand}}{{else}}未说明{{end}}

## 当前方案（第 {{sub .Round 1}} 轮）
` + "```json" + `
{{json .Current}}
` + "```" + `

## 反馈汇总
- 接受: {{countType .Feedbacks "accept"}} 人
- 希望调整: {{countType .Feedbacks "negotiate"}} 人
- 拒绝/退出: {{countType .Feedbacks "against"}} 人

## 调整请求详情

### 希望调整的反馈
` + "```json" + `
{{json (feedbackList .Feedbacks "negotiate")}}
` + "```" + `

### 拒绝/退出的反馈
` + "```json" + `
{{json (feedbackList .Feedbacks "against")}}
` + "```" + `

## 仍在协商中的参与者
调整后的方案只能分配给以下参与者（已退出的参与者必须从 assignments 中移除）：
` + "```json" + `
{{json .Participants}}
` + "```" + `

## 调整原则

1. **优先解决共性问题**：多人提出的问题优先处理
2. **平衡各方利益**：调整不应损害已接受方的利益
3. **保持方案可行**：调整后的方案仍应可执行
4. **透明说明变更**：清晰说明做了什么调整及原因
5. **条件是否接受**：每个分配写明 conditions_accepted：该参与者响应中的条件是否已全部纳入调整后的方案
6. **成功标准与风险**：保留或更新 success_criteria（可检验的成功标准）和 risks（主要风险及应对）

## 输出要求

请输出调整后的完整方案（保持原方案 JSON 结构），并添加调整说明：

` + "```json" + `
{
  "summary": "调整后的方案摘要",
  "objective": "方案目标",
  "assignments": [
    {
      "agent_id": "xxx",
      "display_name": "Bob",
      "role": "场地提供者",
      "responsibility": "提供场地，负责茶歇",
      "dependencies": [],
      "notes": "备注",
      "conditions_accepted": true
    }
  ],
  "timeline": {
    "start_date": "2026-02-15",
    "milestones": [
      {"name": "里程碑", "date": "2026-02-10", "deliverable": "交付物"}
    ]
  },
  "rationale": "调整理由",
  "success_criteria": ["怎样算这件事办成了"],
  "risks": ["可能出问题的地方及应对"],
  "gaps": ["缺口"],
  "confidence": "high|medium|low",
  "adjustment_summary": {
    "round": {{.Round}},
    "changes_made": [
      {"aspect": "调整方面", "before": "调整前", "after": "调整后", "reason": "原因"}
    ],
    "requests_addressed": ["已处理的请求"],
    "requests_declined": [
      {"request": "未处理的请求", "reason": "原因"}
    ]
  }
}
` + "```" + `
`,
})

// AdjustInput is prompt 6's input. Participants are the agents still in
// the negotiation (withdrawn agents removed); the adjusted proposal may only
// assign them.
type AdjustInput struct {
	Demand       negotiation.Understanding `json:"demand"`
	RawInput     string                    `json:"raw_input"`
	Current      negotiation.Proposal      `json:"current_proposal"`
	Feedbacks    []FeedbackView            `json:"feedbacks"`
	Round        int                       `json:"round"` // the round the adjusted proposal is for
	MaxRounds    int                       `json:"max_rounds"`
	Participants []OfferView               `json:"participants"`
}

// AdjustReply is prompt 6's reply (方案调整): prompt 4's proposal plus
// the adjustment summary.
type AdjustReply struct {
	AggregateReply
	AdjustmentSummary Object[ReplyAdjustment] `json:"adjustment_summary"`
}

// ReplyAdjustment is the adjustment summary of prompt 6's reply.
type ReplyAdjustment struct {
	Round             Scalar              `json:"round"` // a number
	ChangesMade       List[ReplyChange]   `json:"changes_made"`
	RequestsAddressed TextList            `json:"requests_addressed"`
	RequestsDeclined  List[ReplyDeclined] `json:"requests_declined"`
}

// ReplyChange is one change of an adjustment summary. A bare string is
// taken for its aspect.
type ReplyChange struct {
	Aspect Text `json:"aspect"`
	Before Text `json:"before"`
	After  Text `json:"after"`
	Reason Text `json:"reason"`
}

// UnmarshalJSON accepts a change object or a bare description.
func (c *ReplyChange) UnmarshalJSON(b []byte) error {
	type plain ReplyChange
	return decodeObjectOrString(b, (*plain)(c), func(s string) { c.Aspect = Text(s) })
}

// ReplyDeclined is one declined request of an adjustment summary. A bare
// string is taken for the request.
type ReplyDeclined struct {
	Request Text `json:"request"`
	Reason  Text `json:"reason"`
}

// UnmarshalJSON accepts a declined-request object or a bare request.
func (d *ReplyDeclined) UnmarshalJSON(b []byte) error {
	type plain ReplyDeclined
	return decodeObjectOrString(b, (*plain)(d), func(s string) { d.Request = Text(s) })
}

// feedbackItem is one feedback as prompt 6 lists it.
type feedbackItem struct {
	AgentID           string   `json:"agent_id"`
	AdjustmentRequest string   `json:"adjustment_request"`
	Concerns          []string `json:"concerns"`
	Reasoning         string   `json:"reasoning"`
}

// isAgainst reports whether a feedback counts against the proposal
// (reject or withdraw).
func isAgainst(t negotiation.FeedbackType) bool {
	return t != negotiation.FeedbackAccept && t != negotiation.FeedbackNegotiate
}

// feedbackList returns the feedbacks of one kind ("accept", "negotiate",
// or "against" for reject and withdraw) as prompt 6 lists them.
func feedbackList(fbs []FeedbackView, kind string) []feedbackItem {
	items := []feedbackItem{}
	for _, f := range fbs {
		if (kind == "against" && isAgainst(f.FeedbackType)) || string(f.FeedbackType) == kind {
			concerns := f.Concerns
			if concerns == nil {
				concerns = []string{}
			}
			items = append(items, feedbackItem{AgentID: f.AgentID, AdjustmentRequest: f.AdjustmentRequest, Concerns: concerns, Reasoning: f.Reasoning})
		}
	}
	return items
}

// countFeedback counts the feedbacks of one kind (see feedbackList).
func countFeedback(fbs []FeedbackView, kind string) int {
	return len(feedbackList(fbs, kind))
}

// validateAdjust validates prompt 6's reply: a normal proposal assigning
// only the remaining participants, with an adjustment summary whose round is
// the input's.
func validateAdjust(raw *AdjustReply, in *AdjustInput) (ProposalResult, error) {
	allowed := newAllowed()
	for _, o := range in.Participants {
		allowed.addOffer(o)
	}
	p, err := buildProposal(&raw.AggregateReply, allowed, &in.Demand, negotiation.ProposalTypeNormal)
	if err != nil {
		return ProposalResult{}, err
	}
	adj := raw.AdjustmentSummary.V
	sum := &negotiation.AdjustmentSummary{
		Round:             in.Round,
		RequestsAddressed: cleanList(adj.RequestsAddressed, maxTextRunes, maxListItems),
	}
	for _, c := range adj.ChangesMade {
		ch := negotiation.ProposalChange{
			Aspect: clip(string(c.Aspect), maxShortRunes),
			Before: clip(string(c.Before), maxTextRunes),
			After:  clip(string(c.After), maxTextRunes),
			Reason: clip(string(c.Reason), maxTextRunes),
		}
		if ch != (negotiation.ProposalChange{}) && len(sum.ChangesMade) < maxListItems {
			sum.ChangesMade = append(sum.ChangesMade, ch)
		}
	}
	for _, d := range adj.RequestsDeclined {
		dr := negotiation.DeclinedRequest{Request: clip(string(d.Request), maxTextRunes), Reason: clip(string(d.Reason), maxTextRunes)}
		if dr.Request != "" && len(sum.RequestsDeclined) < maxListItems {
			sum.RequestsDeclined = append(sum.RequestsDeclined, dr)
		}
	}
	p.AdjustmentSummary = sum
	return ProposalResult{Proposal: p}, nil
}

// fallbackAdjust ("返回原方案"): the current proposal without the agents
// that left (those not among Participants), every negotiate request
// declined, the engine's fields (id, demand, version, time) cleared.
func fallbackAdjust(in *AdjustInput) ProposalResult {
	p := in.Current
	p.ProposalID, p.DemandID, p.Version = "", "", 0
	p.CreatedAt = time.Time{}
	p.Type = negotiation.ProposalTypeNormal
	if strings.TrimSpace(p.Summary) == "" {
		p.Summary = defaultSummary(&in.Demand, p.Type)
	}
	if c, ok := lookupEnum(confidenceLevels, string(p.Confidence)); ok {
		p.Confidence = c
	} else {
		p.Confidence = negotiation.ConfidenceLow
	}
	stay := map[string]bool{}
	for _, o := range in.Participants {
		stay[strings.TrimSpace(o.AgentID)] = true
	}
	p.Assignments = []negotiation.Assignment{}
	for _, a := range in.Current.Assignments {
		if stay[strings.TrimSpace(a.AgentID)] {
			a.Dependencies = slices.Clone(a.Dependencies)
			p.Assignments = append(p.Assignments, a)
		}
	}
	p.Gaps = slices.Clone(p.Gaps)
	p.OpenQuestions = slices.Clone(p.OpenQuestions)
	p.SuccessCriteria = slices.Clone(p.SuccessCriteria)
	p.Risks = slices.Clone(p.Risks)
	p.Compromises = slices.Clone(p.Compromises)
	p.Unresolved = slices.Clone(p.Unresolved)
	p.Suggestions = slices.Clone(p.Suggestions)
	if p.Timeline != nil {
		tl := *p.Timeline
		tl.Milestones = slices.Clone(tl.Milestones)
		p.Timeline = &tl
	}
	sum := &negotiation.AdjustmentSummary{Round: in.Round}
	for _, f := range in.Feedbacks {
		if f.FeedbackType != negotiation.FeedbackNegotiate {
			continue
		}
		req := strings.TrimSpace(f.AdjustmentRequest)
		if req == "" {
			req = strings.TrimSpace(f.Reasoning)
		}
		if req == "" {
			req = "（" + strings.TrimSpace(f.AgentID) + " 的调整请求）"
		}
		sum.RequestsDeclined = append(sum.RequestsDeclined, negotiation.DeclinedRequest{Request: req, Reason: fallbackReason})
	}
	p.AdjustmentSummary = sum
	return ProposalResult{Proposal: p}
}
