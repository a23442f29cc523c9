package llm

import (
	"strings"

	"github.com/towow/towow/domain/negotiation"
)

// PromptAggregate is the key of prompt 4 方案聚合.
const PromptAggregate PromptKey = "proposal_aggregation"

// Aggregate is prompt 4 (方案聚合): the proposal made from the offers,
// assigning only agents that offered.
var Aggregate = define(Prompt[AggregateInput, AggregateReply, ProposalResult]{
	key:         PromptAggregate,
	system:      "你是 ToWow 的方案聚合系统。根据各参与者的响应生成可执行的协作方案，以有效 JSON 格式输出。",
	maxTokens:   3000,
	temperature: 0.4,
	replyKeys:   proposalKeys,
	validate:    validateAggregate,
	fallback:    fallbackAggregate,
	template: `# 方案聚合任务

## 原始需求
{{if .Demand.SurfaceDemand}}{{.Demand.SurfaceDemand}}{{else}}未说明{{end}}

### 需求详情
` + "```json" + `
{{json .Demand}}
` + "```" + `

### 用户原始输入
{{.RawInput}}

## 收到的响应（共 {{len .Offers}} 个）
` + "```json" + `
{{json .Offers}}
` + "```" + `

## 聚合原则

1. **人尽其才**：根据每个参与者的贡献分配角色和具体职责，每个参与者最多一个角色。
2. **尊重条件**：有条件参与（conditional）的响应，方案应尽量满足其条件，无法满足的写在 notes 中。
3. **择优安排**：同一职责有多人响应时，优先安排 match_reason 和 relevance_score 显示更合适的人（例如与需求同城、不必远途往返），其余愿意参与的人写入 alternates 作为候补。
4. **只用已响应的人**：assignments 中的 agent_id 必须原样使用上面响应中的值。
5. **可执行**：给出时间线和里程碑；需求中仍未覆盖的能力写入 gaps。
6. **条件是否接受**：每个分配写明 conditions_accepted：该参与者响应中的条件是否全部纳入了方案（没有条件的写 true；只纳入了一部分或还待商量的写 false，并在 notes 中说明）。
7. **成功标准与风险**：success_criteria 写 2-4 条可以检验的成功标准，risks 写 1-3 条主要风险及应对；还需要向用户确认的写入 open_questions。

## 输出要求

请以 JSON 格式输出方案：

` + "```json" + `
{
  "summary": "方案概述",
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
  "alternates": [
    {"agent_id": "yyy", "display_name": "Carol", "role": "场地提供者", "responsibility": "候补：提供场地"}
  ],
  "timeline": {
    "start_date": "2026-02-15",
    "milestones": [
      {"name": "里程碑", "date": "2026-02-10", "deliverable": "交付物"}
    ]
  },
  "rationale": "选择理由",
  "success_criteria": ["怎样算这件事办成了"],
  "risks": ["可能出问题的地方及应对"],
  "open_questions": ["还需要和用户确认的问题"],
  "gaps": ["缺口"],
  "confidence": "high|medium|low"
}
` + "```" + `
`,
})

// AggregateInput is prompt 4's input. Offers holds only participate and
// conditional offers.
type AggregateInput struct {
	Demand   negotiation.Understanding `json:"demand"`
	RawInput string                    `json:"raw_input"`
	Offers   []OfferView               `json:"offers"`
}

// AggregateReply is prompt 4's reply (方案聚合): a proposal.
type AggregateReply struct {
	Summary     Text                  `json:"summary"`
	Objective   Text                  `json:"objective"`
	Assignments List[ReplyAssignment] `json:"assignments"`
	// Alternates are willing agents beyond a need's count: named, not
	// assigned.
	Alternates List[ReplyAssignment] `json:"alternates,omitempty"`
	Timeline   Object[ReplyTimeline] `json:"timeline"`
	Rationale  Text                  `json:"rationale"`
	Gaps       TextList              `json:"gaps"`
	Confidence Scalar                `json:"confidence"` // high | medium | low
	// SuccessCriteria and Risks are asked of prompts 4 and 6,
	// OpenQuestions of prompt 4.
	SuccessCriteria TextList `json:"success_criteria,omitempty"`
	Risks           TextList `json:"risks,omitempty"`
	OpenQuestions   TextList `json:"open_questions,omitempty"`
}

// validateAggregate validates prompt 4's reply: a normal proposal assigning
// only agents that made an offer.
func validateAggregate(raw *AggregateReply, in *AggregateInput) (ProposalResult, error) {
	allowed := newAllowed()
	for _, o := range in.Offers {
		if o.Decision.Participates() {
			allowed.addOffer(o)
		}
	}
	p, err := buildProposal(raw, allowed, &in.Demand, negotiation.ProposalTypeNormal)
	if err != nil {
		return ProposalResult{}, err
	}
	return ProposalResult{Proposal: p}, nil
}

// fallbackAggregate ("简化方案"): one assignment per non-declining offer,
// its role and responsibility from the agent's contribution, the summary
// from the demand.
func fallbackAggregate(in *AggregateInput) ProposalResult {
	p := negotiation.Proposal{
		Type:        negotiation.ProposalTypeNormal,
		Summary:     defaultSummary(&in.Demand, negotiation.ProposalTypeNormal),
		Objective:   clip(in.Demand.SurfaceDemand, maxTextRunes),
		Assignments: []negotiation.Assignment{},
		Rationale:   "fallback: " + fallbackReason + ", one assignment per offer",
		Confidence:  negotiation.ConfidenceLow,
	}
	seen := map[string]bool{}
	for _, o := range in.Offers {
		id := strings.TrimSpace(o.AgentID)
		if id == "" || seen[id] || !o.Decision.Participates() {
			continue
		}
		seen[id] = true
		p.Assignments = append(p.Assignments, negotiation.Assignment{
			AgentID:            id,
			DisplayName:        strings.TrimSpace(o.DisplayName),
			Role:               roleFrom(o.Contribution),
			Responsibility:     clip(o.Contribution, maxTextRunes),
			ConditionsAccepted: !o.setsConditions(), // nobody read them
		})
	}
	return ProposalResult{Proposal: p}
}
