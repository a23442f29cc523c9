package llm

import (
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/domain"
)

// Fallback results (001 §6.2.1 FALLBACK_RESPONSES), one per prompt. Each is
// built deterministically from the input alone, so that a negotiation can
// go on — more plainly — while the LLM is unavailable.

// fallbackReason is the reason recorded where a fallback declines something.
const fallbackReason = "LLM unavailable"

// genericTag is the capability tag of a demand nothing else matched.
const genericTag = "通用协作"

// keywordTags maps words of a demand (Chinese and English, lower case) to
// capability tags, in the order the tags are reported.
var keywordTags = []struct {
	tag   string
	words []string
}{
	{"场地", []string{"场地", "会场", "场所", "空间", "会议室", "venue", "space", "room"}},
	{"演讲嘉宾", []string{"嘉宾", "演讲", "讲者", "分享", "讲师", "speaker", "talk", "guest"}},
	{"主持", []string{"主持", "host", "emcee", "mc "}},
	{"摄影", []string{"摄影", "拍照", "拍摄", "照片", "photo", "camera"}},
	{"视频制作", []string{"视频", "录像", "直播", "video", "stream"}},
	{"设计", []string{"设计", "海报", "视觉", "design", "poster"}},
	{"宣传推广", []string{"宣传", "推广", "营销", "传播", "marketing", "promotion", "promote"}},
	{"餐饮", []string{"餐饮", "茶歇", "餐食", "咖啡", "catering", "food", "coffee"}},
	{"技术开发", []string{"开发", "程序", "编程", "developer", "engineer", "coding"}},
	{"产品", []string{"产品", "product"}},
	{"翻译", []string{"翻译", "translat"}},
	{"志愿者", []string{"志愿者", "volunteer"}},
	{"赞助", []string{"赞助", "资金", "sponsor", "funding"}},
	{"活动策划", []string{"策划", "组织活动", "活动", "event", "meetup", "聚会"}},
}

// matchKeywordTags returns the capability tags whose keywords occur in text.
func matchKeywordTags(text string) []string {
	text = strings.ToLower(text)
	var tags []string
	for _, kt := range keywordTags {
		for _, w := range kt.words {
			if strings.Contains(text, w) {
				tags = append(tags, kt.tag)
				break
			}
		}
	}
	return tags
}

// fallbackTags returns the capability tags of a demand without the LLM: the
// tags the input carries (a sub-demand's), else keyword matches of the raw
// input, else the generic tag.
func fallbackTags(in *UnderstandInput) []string {
	if tags := cleanList(in.CapabilityTags, maxShortRunes, maxTagItems); len(tags) > 0 {
		return tags
	}
	if tags := matchKeywordTags(in.RawInput + " " + in.GapType); len(tags) > 0 {
		return tags
	}
	return []string{genericTag}
}

// fallbackUnderstand: the raw input (first 100 runes) as surface demand,
// fallback tags, low confidence.
func fallbackUnderstand(in *UnderstandInput) domain.Understanding {
	return domain.Understanding{
		SurfaceDemand:  clip(in.RawInput, 100),
		CapabilityTags: fallbackTags(in),
		Confidence:     domain.ConfidenceLow,
	}
}

// tagsOverlap counts the demand tags matched by a profile's tags (equal
// ignoring case, or one containing the other) and returns them.
func tagsOverlap(demandTags, profileTags []string) []string {
	var hit []string
	for _, dt := range demandTags {
		d := strings.ToLower(strings.TrimSpace(dt))
		if d == "" || d == strings.ToLower(genericTag) {
			continue
		}
		for _, pt := range profileTags {
			p := strings.ToLower(strings.TrimSpace(pt))
			if p != "" && (p == d || strings.Contains(p, d) || strings.Contains(d, p)) {
				hit = append(hit, strings.TrimSpace(dt))
				break
			}
		}
	}
	return hit
}

// fallbackFilter ("返回 mock 候选人"): the profiles whose tags overlap the
// demand's capability tags, most overlapping first, then those in the
// demand's location, then input order; excluded agents skipped; at most
// MaxCandidates; none when nothing overlaps.
func fallbackFilter(in *FilterInput) FilterResult {
	type scored struct {
		p     domain.AgentProfile
		hits  []string
		local bool
	}
	excluded := map[string]bool{}
	for _, id := range in.Exclude {
		excluded[strings.TrimSpace(id)] = true
	}
	loc := strings.TrimSpace(in.Demand.Context.Location)
	var all []scored
	seen := map[string]bool{}
	for _, p := range in.Profiles {
		id := strings.TrimSpace(p.AgentID)
		if id == "" || excluded[id] || seen[id] {
			continue
		}
		seen[id] = true
		hits := tagsOverlap(in.Demand.CapabilityTags, p.Tags)
		if len(hits) == 0 {
			continue
		}
		pl := strings.TrimSpace(p.Location)
		local := loc != "" && pl != "" && (strings.Contains(loc, pl) || strings.Contains(pl, loc))
		all = append(all, scored{p: p, hits: hits, local: local})
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		if len(a.hits) != len(b.hits) {
			return len(b.hits) - len(a.hits)
		}
		switch {
		case a.local && !b.local:
			return -1
		case b.local && !a.local:
			return 1
		}
		return 0
	})
	out := FilterResult{
		Analysis:   "fallback: LLM unavailable, candidates chosen by capability tag overlap",
		Candidates: []Candidate{},
	}
	for _, s := range all {
		if len(out.Candidates) == maxCandidates(in) {
			break
		}
		out.Candidates = append(out.Candidates, Candidate{
			AgentID:     strings.TrimSpace(s.p.AgentID),
			DisplayName: strings.TrimSpace(s.p.UserName),
			Reason:      "fallback: tag match " + strings.Join(s.hits, ", "),
			MatchType:   "explicit",
			Confidence:  0.5,
		})
	}
	return out
}

// fallbackOffer: decline (001: response_generation → decline).
func fallbackOffer(*OfferInput) domain.OfferAnswer {
	return domain.OfferAnswer{
		Decision:      domain.OfferDecisionDecline,
		Reasoning:     "fallback: " + fallbackReason,
		DeclineReason: fallbackReason,
	}
}

// fallbackAggregate ("简化方案"): one assignment per non-declining offer,
// its role and responsibility from the agent's contribution, the summary
// from the demand.
func fallbackAggregate(in *AggregateInput) ProposalResult {
	p := domain.Proposal{
		Type:        domain.ProposalTypeNormal,
		Summary:     defaultSummary(&in.Demand, domain.ProposalTypeNormal),
		Objective:   clip(in.Demand.SurfaceDemand, maxTextRunes),
		Assignments: []domain.Assignment{},
		Rationale:   "fallback: " + fallbackReason + ", one assignment per offer",
		Confidence:  domain.ConfidenceLow,
	}
	seen := map[string]bool{}
	for _, o := range in.Offers {
		id := strings.TrimSpace(o.AgentID)
		if id == "" || seen[id] || o.Decision == domain.OfferDecisionDecline {
			continue
		}
		seen[id] = true
		p.Assignments = append(p.Assignments, domain.Assignment{
			AgentID:            id,
			DisplayName:        strings.TrimSpace(o.DisplayName),
			Role:               roleFrom(o.Contribution),
			Responsibility:     clip(o.Contribution, maxTextRunes),
			ConditionsAccepted: !o.setsConditions(), // nobody read them
		})
	}
	return ProposalResult{Proposal: p}
}

// fallbackFeedback: accept (004 _mock_feedback).
func fallbackFeedback(*FeedbackInput) domain.FeedbackAnswer {
	return domain.FeedbackAnswer{FeedbackType: domain.FeedbackAccept, Reasoning: "fallback"}
}

// fallbackAdjust ("返回原方案"): the current proposal without the agents
// that left (those not among Participants), every negotiate request
// declined, the engine's fields (id, demand, version, time) cleared.
func fallbackAdjust(in *AdjustInput) ProposalResult {
	p := in.Current
	p.ProposalID, p.DemandID, p.Version = "", "", 0
	p.CreatedAt = time.Time{}
	p.Type = domain.ProposalTypeNormal
	if strings.TrimSpace(p.Summary) == "" {
		p.Summary = defaultSummary(&in.Demand, p.Type)
	}
	if c, ok := lookupEnum(confidenceLevels, string(p.Confidence)); ok {
		p.Confidence = c
	} else {
		p.Confidence = domain.ConfidenceLow
	}
	stay := map[string]bool{}
	for _, o := range in.Participants {
		stay[strings.TrimSpace(o.AgentID)] = true
	}
	p.Assignments = []domain.Assignment{}
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
	sum := &domain.AdjustmentSummary{Round: in.Round}
	for _, f := range in.Feedbacks {
		if f.FeedbackType != domain.FeedbackNegotiate {
			continue
		}
		req := strings.TrimSpace(f.AdjustmentRequest)
		if req == "" {
			req = strings.TrimSpace(f.Reasoning)
		}
		if req == "" {
			req = "（" + strings.TrimSpace(f.AgentID) + " 的调整请求）"
		}
		sum.RequestsDeclined = append(sum.RequestsDeclined, domain.DeclinedRequest{Request: req, Reason: fallbackReason})
	}
	p.AdjustmentSummary = sum
	return ProposalResult{Proposal: p}
}

// fallbackGaps: no gaps, complete.
func fallbackGaps(*GapInput) GapResult {
	return GapResult{IsComplete: true, Analysis: "fallback: " + fallbackReason + ", no gaps identified", Gaps: []domain.Gap{}}
}

// fallbackRecursion: no sub-negotiation.
func fallbackRecursion(*RecursionInput) RecursionResult {
	return RecursionResult{Analysis: "fallback: " + fallbackReason, SubDemands: []SubDemandResult{}}
}

// fallbackSuggestions are the alternatives a fallback compromise offers.
var fallbackSuggestions = []string{"放宽需求后重新发起", "缩小需求范围，分阶段完成", "稍后重试以获得完整的协作方案"}

// fallbackCompromise: a compromise assigning the available resources, the
// gaps' types unresolved, generic suggestions.
func fallbackCompromise(in *CompromiseInput) ProposalResult {
	p := domain.Proposal{
		Type:        domain.ProposalTypeCompromise,
		Summary:     defaultSummary(&in.Demand, domain.ProposalTypeCompromise),
		Objective:   clip(in.Demand.SurfaceDemand, maxTextRunes),
		Assignments: []domain.Assignment{},
		Rationale:   "fallback: " + fallbackReason + ", available resources only",
		Confidence:  domain.ConfidenceLow,
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

// fallbackTask: a problem, the assignee's twin could not be reached. It
// never says the task was done: only the person (or a working twin) can.
func fallbackTask(in *TaskInput) domain.TaskAnswer {
	who := profileName(in.Profile)
	if who == "" {
		who = strings.TrimSpace(in.Task.AssigneeID)
	}
	if who == "" {
		who = "负责人"
	}
	return domain.TaskAnswer{
		Status:  domain.TaskProblem,
		Problem: "无法联系" + who + "的数字分身，未能确认任务是否完成（fallback: " + fallbackReason + "）",
	}
}

// fallbackConverse: a reply saying the agent cannot work on the request
// now (the model is unavailable) and nothing was changed, in the person's
// language (Chinese unless the message has no Chinese character). It is
// never an action: no decision is taken without a working model.
func fallbackConverse(in *ConverseInput) domain.AgentStep {
	thought := "对话模型不可用，不采取任何行动（fallback: " + fallbackReason + "）"
	reply := "抱歉，我现在无法处理这个请求（对话模型暂时不可用），工作流没有任何改动，请稍后再试。"
	if m := strings.TrimSpace(in.Message); m != "" && !hasHan(m) {
		reply = "Sorry, I can't work on this request right now (the conversation model is unavailable); " +
			"nothing in the workflow was changed. Please try again later."
	}
	return domain.AgentStep{Thought: thought, Reply: reply}
}
