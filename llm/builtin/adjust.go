package builtin

import (
	"cmp"
	"regexp"
	"strconv"
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Adjust, adjust) }

// declineAdjustReasons explain why an adjustment request was not granted.
var declineAdjustReasons = []string{
	"与其他参与者已确认的时间安排冲突，本轮暂无法调整",
	"会明显增加整体成本，需要需求方进一步确认",
	"涉及的环节已经定稿，改动会影响其他人的分工",
}

// roundNoteRe strips the previous round's note from a rationale.
var roundNoteRe = regexp.MustCompile(`；第\d+轮根据.*$`)

// adjust answers prompt 6.
func adjust(in *llm.AdjustInput) llm.AdjustReply {
	d := fromUnderstanding(in.Demand, in.RawInput)
	round := max(in.Round, 1)
	maxRounds := in.MaxRounds
	if maxRounds <= 0 {
		maxRounds = 5
	}
	participants := map[string]llm.OfferView{}
	for _, p := range in.Participants {
		participants[p.AgentID] = p
	}
	withdrawn := map[string]bool{}
	for _, f := range in.Feedbacks {
		if f.FeedbackType == neg.FeedbackWithdraw || f.FeedbackType == neg.FeedbackReject {
			withdrawn[f.AgentID] = true
		}
	}
	cur := in.Current
	sum := llm.ReplyAdjustment{Round: llm.IntScalar(round), ChangesMade: []llm.ReplyChange{}, RequestsAddressed: []string{}, RequestsDeclined: []llm.ReplyDeclined{}}

	var kept, left []llm.ReplyAssignment
	for _, a := range fromDomain(cur.Assignments) {
		_, isParticipant := participants[string(a.AgentID)]
		if withdrawn[string(a.AgentID)] || (len(participants) > 0 && !isParticipant) {
			sum.ChangesMade = append(sum.ChangesMade, llm.ReplyChange{
				Aspect: "参与者", Before: a.DisplayName + "担任" + a.Role, After: "移除该分工",
				Reason: a.DisplayName + "已退出协商",
			})
			left = append(left, a)
			continue
		}
		kept = append(kept, a)
	}
	// Who left a need is replaced by the first alternate of that need still
	// in (the aggregation ranked them by fit), who takes over the role with
	// the duties it offered itself, as the channel would; the alternate
	// stops standing by.
	alternates := fromDomain(cur.Alternates)
	for _, w := range left {
		if w.Need == "" {
			continue
		}
		for i, alt := range alternates {
			_, in := participants[string(alt.AgentID)]
			if alt.Need != w.Need || !in || withdrawn[string(alt.AgentID)] || hasAssignment(kept, string(alt.AgentID)) {
				continue
			}
			kept = append(kept, llm.ReplyAssignment{AgentID: alt.AgentID, DisplayName: alt.DisplayName, Role: w.Role, Need: w.Need,
				Responsibility: cmp.Or(alt.Responsibility, w.Responsibility), Dependencies: w.Dependencies, ConditionsAccepted: alt.ConditionsAccepted,
				Notes: llm.Text(strings.TrimSpace("接替退出的" + string(w.DisplayName) + "。" + string(alt.Notes)))})
			sum.ChangesMade = append(sum.ChangesMade, llm.ReplyChange{
				Aspect: "替补", Before: w.DisplayName + "担任" + w.Role, After: alt.DisplayName + "担任" + w.Role,
				Reason: w.DisplayName + "已退出，由同一需求的候补接替",
			})
			alternates = append(alternates[:i:i], alternates[i+1:]...)
			break
		}
	}
	for _, p := range in.Participants {
		if len(d.needs) > 0 {
			break // with needs, the others are alternates: the channel replaces who withdrew from them
		}
		if withdrawn[p.AgentID] || !p.Decision.Participates() || hasAssignment(kept, p.AgentID) {
			continue
		}
		tag, role := offerTag(p, d)
		a := llm.ReplyAssignment{
			AgentID: llm.Text(p.AgentID), DisplayName: llm.Text(orDefault(p.DisplayName, p.AgentID)), Role: llm.Text(role),
			Responsibility: llm.Text(responsibility(p, tag)), Dependencies: []string{},
		}
		a.ConditionsAccepted = llm.BoolScalar(p.Decision != neg.OfferDecisionConditional)
		if len(p.Conditions) > 0 {
			a.Notes = llm.Text("已接受条件：" + strings.Join(p.Conditions, "；"))
			a.ConditionsAccepted = llm.BoolScalar(true)
		}
		kept = append(kept, a)
		sum.ChangesMade = append(sum.ChangesMade, llm.ReplyChange{
			Aspect: "参与者", Before: "未分配", After: a.DisplayName + llm.Text("担任"+role), Reason: "为尚未分工的参与者安排角色",
		})
	}

	for _, f := range in.Feedbacks {
		if f.FeedbackType != neg.FeedbackNegotiate || withdrawn[f.AgentID] {
			continue
		}
		i := assignmentIndex(kept, f.AgentID)
		if i < 0 {
			continue
		}
		name := orDefault(f.DisplayName, string(kept[i].DisplayName))
		req := strings.TrimSpace(f.AdjustmentRequest)
		if req == "" {
			req = orDefault(strings.TrimSpace(f.Reasoning), "调整分工安排")
		}
		entry := name + "：" + req
		if round < maxRounds && unit(d.seed(), f.AgentID, strconv.Itoa(round), "decline-request") < 0.12 {
			sum.RequestsDeclined = append(sum.RequestsDeclined, llm.ReplyDeclined{
				Request: llm.Text(entry), Reason: llm.Text(pick(declineAdjustReasons, d.seed(), f.AgentID, strconv.Itoa(round), "why")),
			})
			continue
		}
		before := orDefault(string(kept[i].Notes), "（无备注）")
		kept[i].Notes = appendNote(kept[i].Notes, "第"+strconv.Itoa(round)+"轮已采纳："+req)
		kept[i].ConditionsAccepted = llm.BoolScalar(true) // what the agent still asked for is in now
		sum.ChangesMade = append(sum.ChangesMade, llm.ReplyChange{
			Aspect: llm.Text(name + "的分工"), Before: llm.Text(before), After: kept[i].Notes, Reason: llm.Text("回应" + name + "的协商请求"),
		})
		sum.RequestsAddressed = append(sum.RequestsAddressed, entry)
	}

	var plan []planned
	for _, a := range kept {
		p := planned{a: a}
		if ts := tagOfRole(string(a.Role)); len(ts) > 0 {
			p.tag, p.also = ts[0], ts[1:]
		}
		plan = append(plan, p)
	}
	var roles []string
	out := llm.AdjustReply{AdjustmentSummary: llm.ObjectOf(sum)}
	out.Assignments = make([]llm.ReplyAssignment, 0, len(kept))
	for _, p := range plan {
		out.Assignments = append(out.Assignments, p.a)
		if !contains(roles, string(p.a.Role)) {
			roles = append(roles, string(p.a.Role))
		}
	}
	base, objective := summarize(d, len(kept), roles)
	out.Summary = llm.Text("第" + strconv.Itoa(round) + "轮调整后：" + base)
	out.Objective = llm.Text(orDefault(cur.Objective, objective))
	out.Timeline = llm.ObjectOf(timelineFromDomain(cur.Timeline, d))
	out.Rationale = llm.Text(roundNoteRe.ReplaceAllString(orDefault(cur.Rationale, "按专长分工"), "") +
		"；第" + strconv.Itoa(round) + "轮根据" + strconv.Itoa(len(in.Feedbacks)) + "条反馈调整：采纳" +
		strconv.Itoa(len(sum.RequestsAddressed)) + "项请求，暂缓" + strconv.Itoa(len(sum.RequestsDeclined)) + "项")
	out.Gaps = nonNil(uncoveredTags(d, plan))
	if len(d.needs) > 0 { // the needs short of people
		out.Gaps = []string{}
		for _, n := range d.needs {
			got := 0
			for _, a := range kept {
				if string(a.Need) == n.Role || string(a.Role) == n.Role {
					got++
				}
			}
			if got < n.Count {
				out.Gaps = append(out.Gaps, n.Role)
			}
		}
		for _, a := range alternates {
			if !withdrawn[string(a.AgentID)] {
				out.Alternates = append(out.Alternates, a)
			}
		}
	}
	out.Confidence = proposalConfidence(len(kept), len(out.Gaps))
	out.SuccessCriteria = nonNil(cur.SuccessCriteria)
	if len(out.SuccessCriteria) == 0 {
		out.SuccessCriteria = successCriteria(d)
	}
	out.Risks = planRisks(d, out.Gaps, unsettledConditions(out.Assignments))
	return out
}

// hasAssignment reports whether agent has an assignment.
func hasAssignment(as []llm.ReplyAssignment, agent string) bool {
	return assignmentIndex(as, agent) >= 0
}

// assignmentIndex is the index of agent's assignment, or -1.
func assignmentIndex(as []llm.ReplyAssignment, agent string) int {
	for i, a := range as {
		if string(a.AgentID) == agent {
			return i
		}
	}
	return -1
}
