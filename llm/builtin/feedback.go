package builtin

import (
	"slices"
	"strconv"
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Feedback, feedback) }

// Feedback (prompt 5) has no memory of earlier rounds: an agent judges the
// current proposal against its own offer, and its seeded temperament
// (how picky or stubborn it is) stays the same from round to round.

// timeRequests are the adjustments an agent without conditions may ask for.
var timeRequests = []string{
	"希望把我负责的环节安排在下午",
	"希望提前一周确定最终时间",
	"希望明确我的工作量和交付时间",
	"希望增加一次线上沟通会对齐分工",
	"希望把我的到场时间推迟一小时",
}

// stubbornRequests are what a stubborn agent keeps asking for in later
// rounds, one per round.
var stubbornRequests = []string{
	"希望进一步明确分工边界，避免临时加活",
	"希望把我的环节再调整到更合适的时段",
	"希望主办方承担我的全部交通费用",
	"希望在宣传中给我更显著的署名",
	"希望减少我负责的工作量",
	"希望增加一次现场彩排",
}

// withdrawReasons explain a withdrawal in the first round.
var withdrawReasons = []string{
	"方案中的分工和我的预期差距较大，决定退出",
	"时间上临时有冲突，无法继续参与",
	"评估后发现工作量超出我能投入的范围",
}

// stubbornUntil is the last round in which the agent keeps negotiating
// whatever the proposal says (0 for most agents).
func stubbornUntil(d demand, agent string) int {
	switch u := unit(d.seed(), agent, "stubborn"); {
	case u < 0.03:
		return 99
	case u < 0.055:
		return 3
	case u < 0.08:
		return 2
	}
	return 0
}

// mentioned reports whether text reflects s: it contains s, or most of
// s's two-character pieces (a paraphrase by a real model).
func mentioned(s, text string) bool {
	s = strings.TrimSpace(s)
	if s == "" || strings.Contains(text, s) {
		return true
	}
	r := []rune(s)
	if len(r) < 4 {
		return false
	}
	hit := 0
	for i := 0; i+1 < len(r); i++ {
		if strings.Contains(text, string(r[i:i+2])) {
			hit++
		}
	}
	return float64(hit) >= 0.7*float64(len(r)-1)
}

// feedback answers prompt 5.
func feedback(in *llm.FeedbackInput) llm.FeedbackReply {
	// FeedbackInput carries no raw text: the understood demand stands in.
	d := fromUnderstanding(in.Demand, "")
	p := in.Profile
	agent := orDefault(p.AgentID, in.MyOffer.AgentID)
	name := orDefault(displayName(p), in.MyOffer.DisplayName)
	m := matchProfile(p, d)
	round := max(in.Round, 1)
	r := strconv.Itoa(round)
	seed := func(parts ...string) []string { return append([]string{d.seed(), agent, "feedback"}, parts...) }

	my := in.MyAssignment
	if my == nil {
		for i := range in.Proposal.Assignments {
			if in.Proposal.Assignments[i].AgentID == agent {
				my = &in.Proposal.Assignments[i]
				break
			}
		}
	}
	var text string
	if my != nil {
		text = my.Responsibility + " " + my.Notes
	}
	mine := func(s string) bool {
		return (name != "" && strings.Contains(s, name)) || (agent != "" && strings.Contains(s, agent))
	}
	var declinedMine []string
	if as := in.Proposal.AdjustmentSummary; as != nil {
		for _, a := range as.RequestsAddressed {
			if mine(a) {
				text += " " + a
			}
		}
		for _, dr := range as.RequestsDeclined {
			if mine(dr.Request) {
				declinedMine = append(declinedMine, dr.Request)
			}
		}
	}
	var unmet []string
	for _, c := range in.MyOffer.Conditions {
		if !mentioned(c, text) {
			unmet = append(unmet, c)
		}
	}
	role := "参与者"
	if my != nil && my.Role != "" {
		role = my.Role
	}
	stubborn := stubbornUntil(d, agent)
	out := llm.FeedbackReply{Concerns: []string{}}
	negotiate := func(req, why string, concerns ...string) llm.FeedbackReply {
		out.FeedbackType = "negotiate"
		out.AdjustmentRequest = llm.Text(req)
		out.ProposedChanges = llm.ReplyChanges{{Field: llm.Text(role + "的分工"), Value: llm.Text(req), Reason: llm.Text(why)}}
		out.Reasoning = llm.Text(why)
		out.Concerns = nonNil(concerns)
		out.Confidence = llm.IntScalar(between(55, 75, seed(r, "conf")...))
		return out
	}

	// Withdrawals happen in the first two rounds only.
	if round == 1 {
		pw := 0.03
		if !m.strong() {
			pw += 0.05
		}
		if m.conflict != "" {
			pw += 0.05
		}
		if unit(seed("withdraw")...) < pw {
			out.FeedbackType = "withdraw"
			reason := pick(withdrawReasons, seed("withdraw-why")...)
			if m.conflict != "" {
				reason = m.conflict + "，" + "无法按方案时间参与，决定退出"
			} else if m.loc == locFar && m.physical() {
				reason = "往返" + d.city + "的成本太高，决定退出"
			}
			out.Reasoning = llm.Text(reason)
			out.Concerns = []string{reason}
			out.Confidence = llm.IntScalar(between(60, 85, seed("conf")...))
			return out
		}
	}
	if round == 2 && len(declinedMine) > 0 && unit(seed("withdraw-2")...) < 0.25 {
		out.FeedbackType = "withdraw"
		out.Reasoning = "我提出的调整请求没有被采纳，决定退出"
		out.Concerns = []string{declinedMine[0]}
		out.Confidence = llm.IntScalar(between(60, 80, seed("conf")...))
		return out
	}

	if my == nil && slices.ContainsFunc(in.Proposal.Alternates, func(a neg.Assignment) bool { return a.AgentID == agent }) {
		out.FeedbackType = "accept"
		out.Reasoning = "名额已满，我同意作为候补人选，有人退出时可以顶上"
		out.Confidence = llm.IntScalar(between(70, 90, seed(r, "conf")...))
		return out
	}
	if my == nil {
		tag := m.primary()
		if tag == "" {
			tag = firstProfileTag(p)
		}
		return negotiate("请在方案中为我安排明确的分工（我可以担任"+roleOf(orDefault(tag, "协作成员"))+"）",
			"方案里没有我的具体分工", "分工缺失")
	}
	if len(unmet) > 0 {
		why := "方案没有体现我参与的前提条件"
		if round > 1 {
			why = "上一轮提出的条件仍未在方案中落实"
		}
		return negotiate("希望在方案中明确："+strings.Join(unmet, "；"), why, unmet...)
	}
	if len(declinedMine) > 0 && unit(seed(r, "insist")...) < 0.6 {
		return negotiate("希望重新考虑我的请求（"+strings.TrimPrefix(declinedMine[0], name+"：")+"）",
			"上一轮的请求被暂缓，我仍然希望调整", "请求被暂缓")
	}
	if round <= stubborn {
		if round == 1 {
			return negotiate(pick(timeRequests, seed("time")...), "整体可以接受，但安排上还有需要调整的地方")
		}
		return negotiate(pick(stubbornRequests, seed(r, "again")...), "调整方向是对的，但还没有完全满足我的诉求",
			"对分工细节仍有保留")
	}
	if round == 1 {
		// An agent raises a scheduling point more readily when the proposal
		// looks settled (few other open conditions) than when many points
		// are already open.
		if unit(seed("time")...) < clamp(0.15-openShare(in.Proposal, agent), 0.02, 0.15) {
			return negotiate(pick(timeRequests, seed("time")...), "整体可以接受，但时间安排需要微调")
		}
	}

	out.FeedbackType = "accept"
	switch {
	case round > 1 && len(in.MyOffer.Conditions) > 0:
		out.Reasoning = llm.Text("我的条件已在方案中体现，接受" + role + "的分工")
	case round > 1:
		out.Reasoning = llm.Text("调整后的方案可行，接受" + role + "的分工")
	default:
		out.Reasoning = llm.Text(role + "的分工符合我的专长，时间安排可行")
	}
	if len(declinedMine) > 0 {
		out.Concerns = []string{"部分请求未被采纳：" + declinedMine[0]}
	} else if unit(seed(r, "concern")...) < 0.25 {
		out.Concerns = []string{pick([]string{"希望尽早确认最终时间", "希望提前拿到参与者名单", "需要确认现场对接人"}, seed(r, "which")...)}
	}
	out.Confidence = llm.IntScalar(between(75, 95, seed(r, "conf")...))
	return out
}

// openShare is the share of the other assignments whose notes still show
// open conditions ("条件待确认", "其余条件待协商").
func openShare(p neg.Proposal, self string) float64 {
	open, n := 0, 0
	for _, a := range p.Assignments {
		if a.AgentID == self {
			continue
		}
		n++
		if strings.Contains(a.Notes, "待确认") || strings.Contains(a.Notes, "待协商") {
			open++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(open) / float64(n)
}
