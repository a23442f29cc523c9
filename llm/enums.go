package llm

import (
	"strings"

	"github.com/towow/towow/domain"
)

// Enum synonym tables, keyed by enumKey (lower case, no spaces or
// punctuation). A value not in its table is a validation failure.

var offerDecisions = map[string]domain.OfferDecision{
	"participate": domain.OfferDecisionParticipate, "participating": domain.OfferDecisionParticipate,
	"participation": domain.OfferDecisionParticipate, "participated": domain.OfferDecisionParticipate,
	"join": domain.OfferDecisionParticipate, "yes": domain.OfferDecisionParticipate,
	"accept": domain.OfferDecisionParticipate, "参与": domain.OfferDecisionParticipate,
	"参加": domain.OfferDecisionParticipate, "加入": domain.OfferDecisionParticipate,
	"接受": domain.OfferDecisionParticipate, "同意": domain.OfferDecisionParticipate,
	"愿意参与": domain.OfferDecisionParticipate,

	"decline": domain.OfferDecisionDecline, "declined": domain.OfferDecisionDecline,
	"no": domain.OfferDecisionDecline, "refuse": domain.OfferDecisionDecline,
	"reject": domain.OfferDecisionDecline, "拒绝": domain.OfferDecisionDecline,
	"不参与": domain.OfferDecisionDecline, "婉拒": domain.OfferDecisionDecline,
	"谢绝": domain.OfferDecisionDecline, "放弃": domain.OfferDecisionDecline,

	"conditional": domain.OfferDecisionConditional, "conditionally": domain.OfferDecisionConditional,
	"conditionalparticipate": domain.OfferDecisionConditional, "有条件": domain.OfferDecisionConditional,
	"有条件参与": domain.OfferDecisionConditional, "条件参与": domain.OfferDecisionConditional,
}

var feedbackTypes = map[string]domain.FeedbackType{
	"accept": domain.FeedbackAccept, "accepted": domain.FeedbackAccept, "agree": domain.FeedbackAccept,
	"yes": domain.FeedbackAccept, "ok": domain.FeedbackAccept, "同意": domain.FeedbackAccept,
	"接受": domain.FeedbackAccept, "认可": domain.FeedbackAccept,

	"negotiate": domain.FeedbackNegotiate, "negotiation": domain.FeedbackNegotiate,
	"negotiating": domain.FeedbackNegotiate, "adjust": domain.FeedbackNegotiate,
	"modify": domain.FeedbackNegotiate, "counter": domain.FeedbackNegotiate,
	"协商": domain.FeedbackNegotiate, "调整": domain.FeedbackNegotiate,
	"修改": domain.FeedbackNegotiate, "讨价还价": domain.FeedbackNegotiate,

	"withdraw": domain.FeedbackWithdraw, "withdrawn": domain.FeedbackWithdraw,
	"withdrawal": domain.FeedbackWithdraw, "quit": domain.FeedbackWithdraw,
	"leave": domain.FeedbackWithdraw, "退出": domain.FeedbackWithdraw,
	"拒绝": domain.FeedbackWithdraw, "放弃": domain.FeedbackWithdraw,

	"reject": domain.FeedbackReject, "rejected": domain.FeedbackReject,
}

// taskStatuses are the words a reply to prompt 10 may use for its status.
var taskStatuses = map[string]domain.TaskStatus{
	"done": domain.TaskDone, "completed": domain.TaskDone, "complete": domain.TaskDone,
	"finished": domain.TaskDone, "success": domain.TaskDone, "succeeded": domain.TaskDone,
	"delivered": domain.TaskDone, "ok": domain.TaskDone, "完成": domain.TaskDone,
	"已完成": domain.TaskDone, "完成了": domain.TaskDone, "做完": domain.TaskDone,
	"已做完": domain.TaskDone, "办妥": domain.TaskDone, "已办妥": domain.TaskDone,
	"交付": domain.TaskDone, "已交付": domain.TaskDone, "成功": domain.TaskDone,

	"problem": domain.TaskProblem, "problems": domain.TaskProblem, "issue": domain.TaskProblem,
	"blocked": domain.TaskProblem, "failed": domain.TaskProblem, "failure": domain.TaskProblem,
	"fail": domain.TaskProblem, "error": domain.TaskProblem, "cannot": domain.TaskProblem,
	"cant": domain.TaskProblem, "notdone": domain.TaskProblem, "incomplete": domain.TaskProblem,
	"问题": domain.TaskProblem, "有问题": domain.TaskProblem, "无法": domain.TaskProblem,
	"无法完成": domain.TaskProblem, "未完成": domain.TaskProblem, "没完成": domain.TaskProblem,
	"失败": domain.TaskProblem, "受阻": domain.TaskProblem, "阻塞": domain.TaskProblem,
	"遇到问题": domain.TaskProblem,
}

var confidenceLevels = map[string]domain.Confidence{
	"high": domain.ConfidenceHigh, "h": domain.ConfidenceHigh, "高": domain.ConfidenceHigh,
	"medium": domain.ConfidenceMedium, "med": domain.ConfidenceMedium, "mid": domain.ConfidenceMedium,
	"moderate": domain.ConfidenceMedium, "m": domain.ConfidenceMedium, "中": domain.ConfidenceMedium,
	"中等":  domain.ConfidenceMedium,
	"low": domain.ConfidenceLow, "l": domain.ConfidenceLow, "低": domain.ConfidenceLow,
}

var matchTypes = map[string]string{
	"explicit": "explicit", "direct": "explicit", "显式": "explicit", "明确": "explicit", "直接": "explicit",
	"inferred": "inferred", "inference": "inferred", "implicit": "inferred", "推断": "inferred",
	"推理": "inferred", "隐式": "inferred", "间接": "inferred",
}

var priorities = map[string]string{
	"high": "high", "高": "high", "urgent": "high", "紧急": "high",
	"medium": "medium", "中": "medium", "中等": "medium", "normal": "medium", "普通": "medium",
	"low": "low", "低": "low",
}

// confidenceLevel normalises a high/medium/low confidence (prompts 1, 4,
// 9). Numbers are mapped by thresholds (0..1 or 0..100: ≥70 high, ≥40
// medium). An absent value gives def; an unknown word is not ok.
func confidenceLevel(f Scalar, def domain.Confidence) (domain.Confidence, bool) {
	switch {
	case !f.Present:
		return def, true
	case f.IsNum:
		switch p := percent(f.Num); {
		case p >= 70:
			return domain.ConfidenceHigh, true
		case p >= 40:
			return domain.ConfidenceMedium, true
		default:
			return domain.ConfidenceLow, true
		}
	case f.IsBool:
		return "", false
	case strings.TrimSpace(f.Str) == "":
		return def, true
	}
	return lookupEnum(confidenceLevels, f.Str)
}

// confidencePercent normalises a 0-100 confidence (prompts 3, 5): numbers
// (fractions scaled) clamped, high/medium/low mapped to 80/60/30, anything
// else 0 (unknown).
func confidencePercent(f Scalar) int {
	if f.IsNum {
		return percent(f.Num)
	}
	if level, ok := lookupEnum(confidenceLevels, f.Str); ok && f.Present && !f.IsBool {
		return map[domain.Confidence]int{domain.ConfidenceHigh: 80, domain.ConfidenceMedium: 60, domain.ConfidenceLow: 30}[level]
	}
	return 0
}

// confidenceFraction normalises prompt 2's 0..1 confidence: values above 1
// are taken as percentages; high/medium/low map to 0.9/0.6/0.3; absent or
// unknown gives def.
func confidenceFraction(f Scalar, def float64) float64 {
	if f.IsNum {
		return float64(percent(f.Num)) / 100
	}
	if level, ok := lookupEnum(confidenceLevels, f.Str); ok && f.Present && !f.IsBool {
		return map[domain.Confidence]float64{domain.ConfidenceHigh: 0.9, domain.ConfidenceMedium: 0.6, domain.ConfidenceLow: 0.3}[level]
	}
	return def
}
