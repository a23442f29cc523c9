package builtin

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Aggregate, aggregate) }

// roleRe finds the role an offer names ("作为摄影师，…").
var roleRe = regexp.MustCompile(`作为([^，,。；;：:\s（(]+)`)

// offerTag is the demand tag an offer contributes and its role name.
func offerTag(o llm.OfferView, d demand) (tag, role string) {
	if m := roleRe.FindStringSubmatch(o.Contribution); m != nil {
		if ts := tagOfRole(m[1]); len(ts) > 0 {
			return ts[0], roleOf(ts[0])
		}
	}
	found := tagsInText(o.Contribution + " " + o.Reasoning)
	for _, t := range found {
		if d.hasTag(t) {
			return t, roleOf(t)
		}
	}
	if len(found) > 0 {
		return found[0], roleOf(found[0])
	}
	return "", "协作成员"
}

// responsibilityExtra is what a role does besides its contribution.
var responsibilityExtra = map[string]string{
	"场地提供": "活动前一天完成场地确认与布置",
	"演讲嘉宾": "活动前一周提交分享主题和提纲",
	"活动策划": "统筹整体流程，协调各方分工",
	"主持":   "活动前熟悉议程并参加彩排",
	"摄影":   "活动后按时交付照片",
	"摄像":   "活动后交付原始素材",
	"餐饮服务": "按最终人数备餐，负责餐后清理",
	"音响设备": "活动前完成设备调试",
	"志愿者":  "活动开始前一小时到场",
	"市场推广": "活动前两周开始宣传",
}

// dependsOn lists the tags a role waits for.
var dependsOn = map[string][]string{
	"演讲嘉宾": {"场地提供", "活动策划"}, "摄影": {"场地提供"}, "摄像": {"场地提供"},
	"餐饮服务": {"场地提供"}, "音响设备": {"场地提供"}, "主持": {"活动策划"}, "志愿者": {"活动策划"},
	"直播": {"音响设备", "摄像"}, "视频剪辑": {"摄像", "摄影"}, "前端开发": {"UI设计", "产品经理"},
	"后端开发": {"产品经理"}, "UI设计": {"产品经理"}, "印刷物料": {"平面设计"}, "市场推广": {"文案写作", "平面设计"},
}

// planned is one assignment being built, with its tag and the extra tags
// it also covers.
type planned struct {
	a    llm.ReplyAssignment
	tag  string
	also []string
}

// covers reports whether the assignment covers tag.
func (p planned) covers(tag string) bool { return p.tag == tag || contains(p.also, tag) }

// aggregate answers prompt 4.
func aggregate(in *llm.AggregateInput) llm.AggregateReply {
	d := fromUnderstanding(in.Demand, in.RawInput)
	var plan []planned
	seen := map[string]bool{}
	for _, o := range in.Offers {
		if o.AgentID == "" || seen[o.AgentID] || !o.Decision.Participates() {
			continue
		}
		seen[o.AgentID] = true
		tag, role := offerTag(o, d)
		a := llm.ReplyAssignment{
			AgentID:        llm.Text(o.AgentID),
			DisplayName:    llm.Text(orDefault(o.DisplayName, o.AgentID)),
			Role:           llm.Text(role),
			Responsibility: llm.Text(responsibility(o, tag)),
			Dependencies:   []string{},
		}
		notes, accepted := conditionNotes(o, d)
		a.Notes, a.ConditionsAccepted = llm.Text(notes), llm.BoolScalar(accepted)
		plan = append(plan, planned{a: a, tag: tag})
	}
	// Someone who offered to help with a second role takes it when nobody
	// else covers it ("也可以兼顾音响设备支持的工作").
	for _, t := range uncoveredTags(d, plan) {
		for i := range plan {
			if strings.Contains(string(plan[i].a.Responsibility), "兼顾"+roleOf(t)) {
				plan[i].also = append(plan[i].also, t)
				plan[i].a.Role += llm.Text("、" + roleOf(t))
				break
			}
		}
	}
	var alternates []llm.ReplyAssignment
	var needGaps []string
	if len(d.needs) > 0 {
		plan, alternates, needGaps = fitNeeds(plan, d.needs, in.Offers, d.seed())
	}
	linkDependencies(plan)

	out := llm.AggregateReply{Assignments: make([]llm.ReplyAssignment, 0, len(plan)), Gaps: []string{}, Alternates: alternates}
	var roles []string
	for _, p := range plan {
		out.Assignments = append(out.Assignments, p.a)
		if !contains(roles, string(p.a.Role)) {
			roles = append(roles, string(p.a.Role))
		}
	}
	out.Gaps = nonNil(uncoveredTags(d, plan))
	if len(d.needs) > 0 {
		out.Gaps = nonNil(needGaps)
	}
	out.Timeline = llm.ObjectOf(timeline(d))
	summary, objective := summarize(d, len(plan), roles)
	out.Summary, out.Objective = llm.Text(summary), llm.Text(objective)
	conditional := 0
	for _, o := range in.Offers {
		if o.Decision == neg.OfferDecisionConditional && seen[o.AgentID] {
			conditional++
		}
	}
	rationale := "优先安排标签直接匹配、地点可行的参与者，按各自专长分工"
	if conditional > 0 {
		rationale += "；" + strconv.Itoa(conditional) + "位有条件参与者的条件已部分写入备注，其余待反馈时确认"
	}
	if len(out.Gaps) > 0 {
		rationale += "；" + quoteAll(out.Gaps) + "暂无人承担"
	}
	out.Rationale = llm.Text(rationale)
	out.Confidence = proposalConfidence(len(plan), len(out.Gaps))
	out.SuccessCriteria = successCriteria(d)
	out.Risks = planRisks(d, out.Gaps, unsettledConditions(out.Assignments))
	out.OpenQuestions = nonNil(openQuestions(d))
	return out
}

// fitNeeds assigns per need, in the needs' order: the offers whose tag
// serves a need take it (the better fits first, see below), up to its
// count, under the need's role. A need still short then takes a willing
// agent left over who offered to cover it as well ("也可以兼顾餐饮服务"),
// rather than going without. Willing offers beyond a count, or serving no
// need, become alternates; a need short of its count is a gap, named by
// its role.
func fitNeeds(plan []planned, needs []neg.Need, offers []llm.OfferView, seed string) (kept []planned, alternates []llm.ReplyAssignment, gaps []string) {
	// Who takes a place does not depend on when the offers arrived: the
	// better fit first (the matchmaker's relevance score, in bands of ten:
	// it rates where an agent is as well as what it does, so someone in
	// the demand's city comes before someone who would have to travel),
	// then who participates without conditions, then a seeded draw (a
	// model's taste).
	conditional, band := map[string]bool{}, map[string]int{}
	for _, o := range offers {
		conditional[o.AgentID] = o.Decision == neg.OfferDecisionConditional
		band[o.AgentID] = o.Relevance / 10
	}
	plan = slices.Clone(plan)
	slices.SortStableFunc(plan, func(a, b planned) int {
		ia, ib := string(a.a.AgentID), string(b.a.AgentID)
		if band[ia] != band[ib] {
			return cmp.Compare(band[ib], band[ia])
		}
		if conditional[ia] != conditional[ib] {
			if conditional[ia] {
				return 1
			}
			return -1
		}
		return cmp.Compare(unit(seed, ia, "pick"), unit(seed, ib, "pick"))
	})
	need := make([]int, len(plan)) // the need each planned agent serves or stands by for; -1 none
	placed := make([]bool, len(plan))
	got := make([]int, len(needs))
	for i := range plan {
		need[i] = -1
	}
	for j, n := range needs {
		for _, i := range byTagOf(plan, n) {
			if need[i] >= 0 {
				continue
			}
			need[i] = j
			if got[j] < n.Count {
				got[j]++
				placed[i] = true
			}
		}
	}
	for j, n := range needs {
		for i, p := range plan {
			if got[j] < n.Count && !placed[i] && n.Serves(p.also) {
				need[i], placed[i] = j, true
				got[j]++
				plan[i].a.Responsibility = llm.Text(alsoDuties(p, n))
			}
		}
	}
	for i, p := range plan {
		if need[i] >= 0 {
			p.a.Need = llm.Text(needs[need[i]].Role)
		}
		if placed[i] {
			p.a.Role = llm.Text(needs[need[i]].Role)
			kept = append(kept, p)
		} else {
			alternates = append(alternates, p.a)
		}
	}
	// Kept and alternates in the needs' order, as the proposal reads.
	byNeed := func(a llm.ReplyAssignment) int {
		return slices.IndexFunc(needs, func(n neg.Need) bool { return n.Role == string(a.Need) })
	}
	slices.SortStableFunc(kept, func(a, b planned) int { return cmp.Compare(rank(byNeed(a.a)), rank(byNeed(b.a))) })
	slices.SortStableFunc(alternates, func(a, b llm.ReplyAssignment) int { return cmp.Compare(rank(byNeed(a)), rank(byNeed(b))) })
	for j, n := range needs {
		if got[j] < n.Count {
			gaps = append(gaps, n.Role)
		}
	}
	return kept, alternates, gaps
}

// byTagOf lists the indexes of the planned offers whose tag serves n, in
// the order of n's tags, plan's order within one tag: a need's first tag
// is what its role mainly is (a judge is a speaker first, a product
// manager last), so someone who offered as that comes first.
func byTagOf(plan []planned, n neg.Need) []int {
	var out []int
	for _, t := range n.CapabilityTags {
		for i, p := range plan {
			if p.tag == t {
				out = append(out, i)
			}
		}
	}
	return out
}

// alsoDuties are the duties of an agent placed on a need it offered to
// cover besides its own role: that need's work, with what it offered
// first for context.
func alsoDuties(p planned, n neg.Need) string {
	tag := p.also[slices.IndexFunc(p.also, func(t string) bool { return n.Serves([]string{t}) })]
	own, _, _ := strings.Cut(string(p.a.Responsibility), "；")
	r := "兼顾" + roleOf(tag) + "的工作（本职：" + own + "）"
	if extra := responsibilityExtra[tag]; extra != "" {
		r += "；" + extra
	}
	return r
}

// rank orders a need's index, none (-1) last.
func rank(i int) int {
	if i < 0 {
		return math.MaxInt
	}
	return i
}

// responsibility is an assignment's duties: the offered contribution
// without its role prefix, plus the role's usual extra duty.
func responsibility(o llm.OfferView, tag string) string {
	r := strings.TrimSpace(o.Contribution)
	if m := roleRe.FindStringIndex(r); m != nil && m[0] == 0 {
		r = strings.TrimLeft(r[m[1]:], "，,、 ")
	}
	if r == "" {
		r = "在" + orDefault(tag, "相关") + "方面提供支持"
	}
	if extra := responsibilityExtra[tag]; extra != "" {
		r += "；" + extra
	}
	return r
}

// conditionNotes reflects the conditions of a conditional offer only
// partly, as a busy organiser would: usually only the first of several
// conditions is accepted, a single condition a bit less than half of the
// time. accepted says whether every condition went into the proposal.
func conditionNotes(o llm.OfferView, d demand) (notes string, accepted bool) {
	if len(o.Conditions) == 0 {
		if o.Decision == neg.OfferDecisionConditional {
			return "条件待确认", false
		}
		return "", true
	}
	u := unit(d.seed(), o.AgentID, "accept-condition")
	if len(o.Conditions) >= 2 {
		if u < 0.3 {
			return "已接受条件：" + strings.Join(o.Conditions, "；"), true
		}
		return "已接受条件：" + o.Conditions[0] + "；其余条件待协商", false
	}
	if u < 0.45 {
		return "已接受条件：" + o.Conditions[0], true
	}
	return "条件待确认", false
}

// successCriteria are the checks that tell whether the plan worked
// (prompts 4 and 6): the event held as described, every role
// staffed, the budget kept.
func successCriteria(d demand) []string {
	what := orDefault(strings.TrimPrefix(d.short(), "这场"), "这件事")
	first := what + "按计划完成"
	if d.date != "" {
		first = what + "在" + d.date + "如期举行"
	}
	if d.attendees > 0 {
		first += "，到场约" + strconv.Itoa(d.attendees) + "人"
	}
	out := []string{first, "每项分工都有确认的负责人，并按时间线交付"}
	if d.budget != "" {
		out = append(out, "总花费控制在"+d.budget+"以内")
	}
	return out
}

// planRisks are the plan's main risks as its state shows them: roles
// nobody took, conditions not settled, a date not fixed.
func planRisks(d demand, gaps []string, unsettled int) []string {
	var out []string
	if len(gaps) > 0 {
		out = append(out, quoteAll(gaps)+"暂无人承担，需要另找人或调整方案")
	}
	if unsettled > 0 {
		out = append(out, strconv.Itoa(unsettled)+"位参与者的参与条件尚未全部确认，可能在反馈中提出调整")
	}
	if d.date == "" {
		out = append(out, "日期未定，参与者的档期可能冲突")
	}
	if len(out) == 0 {
		out = append(out, "临近执行时个别参与者可能临时变动，需预留备选")
	}
	return out
}

// openQuestions are what the plan still needs to ask the requester
// (prompt 4's open_questions): the context the demand did not give.
func openQuestions(d demand) []string {
	var out []string
	if d.date == "" {
		out = append(out, "具体日期是哪天？")
	}
	if d.city == "" {
		out = append(out, "在哪个城市或地点进行？")
	}
	if d.event != "" && d.attendees == 0 {
		out = append(out, "预计有多少人参加？")
	}
	if d.budget == "" {
		out = append(out, "预算大约是多少？")
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// unsettledConditions counts the assignments whose conditions the
// proposal has not all taken in.
func unsettledConditions(as []llm.ReplyAssignment) int {
	n := 0
	for _, a := range as {
		if a.ConditionsAccepted.Present && a.ConditionsAccepted.IsBool && !a.ConditionsAccepted.Bool {
			n++
		}
	}
	return n
}

// linkDependencies points each assignment at the agents whose roles it
// waits for.
func linkDependencies(plan []planned) {
	for i := range plan {
		for _, dep := range dependsOn[plan[i].tag] {
			for j := range plan {
				if j != i && plan[j].tag == dep && !contains(plan[i].a.Dependencies, string(plan[j].a.AgentID)) {
					plan[i].a.Dependencies = append(plan[i].a.Dependencies, string(plan[j].a.AgentID))
					break
				}
			}
		}
	}
}

// uncoveredTags are the demand tags no planned assignment covers.
func uncoveredTags(d demand, plan []planned) []string {
	var out []string
	for _, t := range d.tags {
		found := false
		for _, p := range plan {
			if p.covers(t) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, t)
		}
	}
	return out
}

// summarize writes a proposal's summary and objective.
func summarize(d demand, n int, roles []string) (summary, objective string) {
	where := ""
	if d.city != "" && !d.remote() {
		where = "（" + d.city + "）"
	}
	name := strings.TrimPrefix(d.short(), "这场")
	if d.event == "" { // "杭州协作方案", not "协作（杭州）协作方案"
		name, where = strings.TrimPrefix(where, "（"), ""
		name = strings.TrimSuffix(name, "）")
	}
	if n == 0 {
		summary = name + where + "方案：暂无可用的参与者"
	} else {
		summary = name + where + "协作方案：" + strconv.Itoa(n) + "位参与者，分别担任" + joinCN(roles)
	}
	size := ""
	if d.attendees > 0 {
		size = "约" + strconv.Itoa(d.attendees) + "人的"
	}
	if d.event != "" {
		objective = d.place() + "办好一场" + size + strings.TrimPrefix(d.short(), "这场") + "，落实" + joinCN(d.tags)
	} else {
		objective = "找齐" + joinCN(d.tags) + "方面的合作者并按期交付"
	}
	return summary, objective
}

// proposalConfidence is "high", "medium" or "low".
func proposalConfidence(assigned, gaps int) llm.Scalar {
	switch {
	case assigned <= 1:
		return llm.StringScalar("low")
	case gaps == 0 && assigned >= 3:
		return llm.StringScalar("high")
	default:
		return llm.StringScalar("medium")
	}
}

// step is one milestone relative to the demand date.
type step struct {
	days      int
	name, out string
	rel       string // "前两周" …, "" for the day itself
}

var (
	eventSteps = []step{
		{-14, "确认分工与场地", "分工表与场地确认单", "前两周"},
		{-7, "宣传与报名", "宣传海报和报名名单", "前一周"},
		{0, "活动当天", "活动顺利举行", ""},
		{3, "复盘与资料整理", "照片、纪要和复盘报告", "后三天"},
	}
	workSteps = []step{
		{-14, "需求确认", "需求说明与分工", "前两周"},
		{-7, "执行与中期检查", "阶段成果", "前一周"},
		{0, "交付验收", "最终交付物", ""},
	}
)

// timeline plans milestones around the demand date.
func timeline(d demand) llm.ReplyTimeline {
	offsets := eventSteps
	if d.event == "" {
		offsets = workSteps
	}
	tl := llm.ReplyTimeline{StartDate: "待定", Milestones: []llm.ReplyMilestone{}}
	t, exact := parseDate(d.date)
	for i, o := range offsets {
		var date string
		switch {
		case exact:
			date = t.AddDate(0, 0, o.days).Format("2006-01-02")
		case d.date != "" && o.rel == "":
			date = d.date
		case d.date != "":
			date = d.date + o.rel
		case o.rel == "":
			date = "待定"
		default:
			date = "活动日" + o.rel
			if d.event == "" {
				date = "交付日" + o.rel
			}
		}
		if i == 0 {
			tl.StartDate = llm.Text(date)
		}
		tl.Milestones = append(tl.Milestones, llm.ReplyMilestone{Name: llm.Text(o.name), Date: llm.Text(date), Deliverable: llm.Text(o.out)})
	}
	return tl
}

// fromDomain converts the assignments of a proposal to raw assignments.
func fromDomain(as []neg.Assignment) []llm.ReplyAssignment {
	out := make([]llm.ReplyAssignment, 0, len(as))
	for _, a := range as {
		out = append(out, llm.ReplyAssignment{
			AgentID: llm.Text(a.AgentID), DisplayName: llm.Text(orDefault(a.DisplayName, a.AgentID)), Role: llm.Text(a.Role), Need: llm.Text(a.Need),
			Responsibility: llm.Text(a.Responsibility), Dependencies: nonNil(append([]string(nil), a.Dependencies...)), Notes: llm.Text(a.Notes),
			ConditionsAccepted: llm.BoolScalar(a.ConditionsAccepted),
		})
	}
	return out
}

// timelineFromDomain converts a proposal's timeline (nil → planned anew).
func timelineFromDomain(t *neg.Timeline, d demand) llm.ReplyTimeline {
	if t == nil {
		return timeline(d)
	}
	out := llm.ReplyTimeline{StartDate: llm.Text(t.StartDate), Milestones: []llm.ReplyMilestone{}}
	for _, m := range t.Milestones {
		out.Milestones = append(out.Milestones, llm.ReplyMilestone{Name: llm.Text(m.Name), Date: llm.Text(m.Date), Deliverable: llm.Text(m.Deliverable)})
	}
	return out
}

// coveredTags are the demand tags the assignments' roles cover.
func coveredTags(as []llm.ReplyAssignment) []string {
	var out []string
	for _, a := range as {
		ts := tagOfRole(string(a.Role))
		if len(ts) == 0 {
			ts = tagsInText(string(a.Role + " " + a.Responsibility))
			if len(ts) > 1 {
				ts = ts[:1]
			}
		}
		for _, t := range ts {
			if !contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// appendNote adds a sentence to notes.
func appendNote[S ~string](notes S, s string) S {
	if notes == "" {
		return S(s)
	}
	return notes + "；" + S(s)
}
