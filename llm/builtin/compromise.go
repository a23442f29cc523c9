package builtin

import (
	"strconv"
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Compromise, compromise) }

// compromiseResolutions settle a disputed request.
var compromiseResolutions = []string{
	"部分采纳：在不影响其他人分工的前提下调整",
	"改为活动前与主办方单独确认",
	"由主办方承担相应成本，其余安排不变",
}

// compromise answers prompt 9.
func compromise(in *llm.CompromiseInput) llm.CompromiseReply {
	d := fromUnderstanding(in.Demand, in.RawInput)
	withdrawn := map[string]bool{}
	for _, f := range in.Feedbacks {
		if f.FeedbackType == neg.FeedbackWithdraw || f.FeedbackType == neg.FeedbackReject {
			withdrawn[f.AgentID] = true
		}
	}
	out := llm.CompromiseReply{Type: "compromise", Assignments: []llm.ReplyAssignment{}, Compromises: []llm.ReplyCompromise{},
		Unresolved: []string{}, Suggestions: []string{}}
	for _, a := range fromDomain(in.Available) {
		if !withdrawn[string(a.AgentID)] && !hasAssignment(out.Assignments, string(a.AgentID)) {
			out.Assignments = append(out.Assignments, a)
		}
	}
	if len(in.Available) == 0 {
		for _, o := range in.Offers {
			if !o.Decision.Participates() || withdrawn[o.AgentID] || hasAssignment(out.Assignments, o.AgentID) {
				continue
			}
			tag, role := offerTag(o, d)
			out.Assignments = append(out.Assignments, llm.ReplyAssignment{
				AgentID: llm.Text(o.AgentID), DisplayName: llm.Text(orDefault(o.DisplayName, o.AgentID)), Role: llm.Text(role),
				Responsibility: llm.Text(responsibility(o, tag)), Dependencies: []string{}, Notes: llm.Text(strings.Join(o.Conditions, "；")),
			})
		}
	}

	for _, f := range in.Feedbacks {
		if f.FeedbackType != neg.FeedbackNegotiate || !hasAssignment(out.Assignments, f.AgentID) {
			continue
		}
		req := orDefault(f.AdjustmentRequest, f.Reasoning)
		name := orDefault(f.DisplayName, f.AgentID)
		out.Compromises = append(out.Compromises, llm.ReplyCompromise{
			Issue:      llm.Text(name + "：" + req),
			Resolution: llm.Text(pick(compromiseResolutions, d.seed(), f.AgentID, "resolution")),
			Rationale:  llm.Text("兼顾整体进度与" + name + "的诉求，避免方案再次推翻"),
		})
	}
	for _, o := range in.Offers {
		if o.Decision != neg.OfferDecisionConditional || !hasAssignment(out.Assignments, o.AgentID) || len(o.Conditions) == 0 {
			continue
		}
		name := orDefault(o.DisplayName, o.AgentID)
		out.Compromises = append(out.Compromises, llm.ReplyCompromise{
			Issue:      llm.Text(name + "的参与条件：" + strings.Join(o.Conditions, "；")),
			Resolution: "接受条件，由主办方在筹备中落实",
			Rationale:  "保留该参与者比重新寻找替代人选成本更低",
		})
	}
	if len(out.Compromises) == 0 && len(out.Assignments) > 0 {
		out.Compromises = append(out.Compromises, llm.ReplyCompromise{
			Issue: "现有资源不足以完整满足需求", Resolution: "缩小规模，先保证核心环节", Rationale: "先办成，再逐步完善",
		})
	}

	for _, g := range in.Gaps {
		out.Unresolved = append(out.Unresolved, g.GapType+"："+orDefault(g.Reason, "暂无人承担"))
	}
	covered := coveredTags(out.Assignments)
	for _, t := range d.tags {
		if !contains(covered, t) && !gapListed(in.Gaps, t) {
			out.Unresolved = append(out.Unresolved, roleOf(t)+"：暂无人承担")
		}
	}
	declined := 0
	for _, o := range in.Offers {
		if o.Decision == neg.OfferDecisionDecline && declined < 5 {
			declined++
			out.Unresolved = append(out.Unresolved, orDefault(o.DisplayName, o.AgentID)+"未能参与："+orDefault(o.Reasoning, "未说明原因"))
		}
	}
	for _, f := range in.Feedbacks {
		if withdrawn[f.AgentID] {
			out.Unresolved = append(out.Unresolved, orDefault(f.DisplayName, f.AgentID)+"已退出："+orDefault(f.Reasoning, "未说明原因"))
		}
	}

	if len(out.Assignments) == 0 || in.Reason == "no_participants" || in.Reason == "no_offers" {
		out.Suggestions = append(out.Suggestions, "扩大筛选范围，邀请周边城市或可以远程参与的伙伴")
	}
	for i, g := range in.Gaps {
		if i == 2 {
			break
		}
		out.Suggestions = append(out.Suggestions, "针对"+quote(g.GapType)+"单独发布一个需求，或考虑付费外包")
	}
	if d.date != "" {
		out.Suggestions = append(out.Suggestions, "把时间从"+d.date+"调整到更多人方便的日子")
	} else {
		out.Suggestions = append(out.Suggestions, "尽早确定具体时间，方便参与者安排")
	}
	if d.event != "" {
		out.Suggestions = append(out.Suggestions, "先办一场小规模的试水"+d.event+"，积累口碑后再扩大")
	}
	if d.budget != "" {
		out.Suggestions = append(out.Suggestions, "适当提高预算（目前"+d.budget+"），覆盖交通等成本")
	}

	n := strconv.Itoa(len(out.Assignments))
	switch in.Reason {
	case "no_participants":
		out.Summary = "目前没有合适的参与者，以下为降级方案和调整建议"
	case "no_offers":
		out.Summary = llm.Text("候选人都未能确认参与，以下为基于现有资源的降级方案（" + n + "人）")
	default:
		out.Summary = llm.Text("协商未能达成充分共识，以下为基于已确认资源的妥协方案（" + n + "人）")
	}
	out.Confidence = llm.StringScalar("low")
	if len(out.Assignments) >= 2 && in.Reason == "partial_agreement" {
		out.Confidence = llm.StringScalar("medium")
	}
	return out
}

// gapListed reports whether a gap for tag is already in gaps.
func gapListed(gs []neg.Gap, tag string) bool {
	for _, g := range gs {
		if contains(normalizeTag(g.GapType), tag) || contains(normalizeTags(g.SuggestedCapabilityTags), tag) {
			return true
		}
	}
	return false
}
