package builtin

import (
	"math"
	"sort"
	"strconv"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Filter, filter) }

// defaultMaxCandidates is used when FilterInput.MaxCandidates is 0.
const defaultMaxCandidates = 12

// scored is one profile considered by the filter.
type scored struct {
	p     neg.AgentProfile
	m     match
	score float64
}

// filter answers prompt 2.
func filter(in *llm.FilterInput) llm.FilterReply {
	d := fromUnderstanding(in.Demand, in.RawInput)
	limit := in.MaxCandidates
	if limit <= 0 {
		limit = defaultMaxCandidates
	}
	excluded := map[string]bool{}
	for _, id := range in.Exclude {
		excluded[id] = true
	}
	var strong, partial []scored
	seen := map[string]bool{}
	for _, p := range in.Profiles {
		if p.AgentID == "" || excluded[p.AgentID] || seen[p.AgentID] {
			continue
		}
		seen[p.AgentID] = true
		m := matchProfile(p, d)
		// A little seeded jitter breaks ties the way a model's taste would.
		sc := scored{p, m, m.strength + 0.06*(unit(d.seed(), p.AgentID, "filter")-0.5)}
		switch {
		case m.strong():
			strong = append(strong, sc)
		case m.partial() && (len(d.needs) == 0 || len(m.tags) > 0): // with needs, only people who carry one
			partial = append(partial, sc)
		}
	}
	byScore := func(s []scored) {
		sort.SliceStable(s, func(i, j int) bool {
			if s[i].score != s[j].score {
				return s[i].score > s[j].score
			}
			return s[i].p.AgentID < s[j].p.AgentID
		})
	}
	byScore(partial)
	strong = roundRobin(strong, d.tags, byScore)

	// Keep a few places for partial matches: a real filter casts a slightly
	// wider net, and some of those people will decline.
	reserve := min(len(partial), max(2, limit/4))
	nStrong := min(len(strong), limit-reserve)
	nPartial := min(len(partial), limit-nStrong)

	out := llm.FilterReply{DefinitelyRelated: []llm.ReplyCandidate{}, PossiblyRelated: []llm.ReplyCandidate{}}
	for _, s := range strong[:nStrong] {
		out.DefinitelyRelated = append(out.DefinitelyRelated, candidate(s, d, true))
	}
	for _, s := range partial[:nPartial] {
		out.PossiblyRelated = append(out.PossiblyRelated, candidate(s, d, false))
	}
	out.TotalCandidates = llm.IntScalar(nStrong + nPartial)

	where := ""
	if d.city != "" {
		where = "（" + d.city + "）"
	}
	analysis := "需求需要" + quoteAll(d.tags) + where + "。共评估" + strconv.Itoa(len(seen)) +
		"位Agent：" + strconv.Itoa(len(strong)) + "位标签直接匹配且地点可行，" + strconv.Itoa(len(partial)) +
		"位部分匹配（异地、能力相近或兴趣相关）。按匹配度选出" + strconv.Itoa(nStrong) + "位明确相关、" +
		strconv.Itoa(nPartial) + "位可能相关的候选人。"
	if uncovered := uncoveredBy(d.tags, strong[:nStrong]); len(uncovered) > 0 {
		analysis += "注意：" + quoteAll(uncovered) + "暂无明确匹配的人选。"
	}
	out.Analysis = llm.Text(analysis)
	return out
}

// roundRobin orders strong matches so that every demand tag gets its best
// people first: the best for each tag in turn, then the second best …
func roundRobin(list []scored, tags []string, sortFn func([]scored)) []scored {
	buckets := make([][]scored, len(tags))
	var rest []scored
	for _, s := range list {
		i := indexOf(tags, s.m.primary())
		if i < 0 {
			rest = append(rest, s)
			continue
		}
		buckets[i] = append(buckets[i], s)
	}
	for i := range buckets {
		sortFn(buckets[i])
	}
	sortFn(rest)
	var out []scored
	for k := 0; ; k++ {
		added := false
		for i := range buckets {
			if k < len(buckets[i]) {
				out = append(out, buckets[i][k])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return append(out, rest...)
}

// uncoveredBy lists the tags no chosen candidate has.
func uncoveredBy(tags []string, chosen []scored) []string {
	var out []string
	for _, t := range tags {
		found := false
		for _, s := range chosen {
			if contains(s.m.tags, t) {
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

// indexOf is the index of s in list, or -1.
func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// candidate writes one chosen agent with a Chinese reason.
func candidate(s scored, d demand, definitely bool) llm.ReplyCandidate {
	m := s.m
	c := llm.ReplyCandidate{AgentID: llm.Text(s.p.AgentID), DisplayName: llm.Text(displayName(s.p))}
	var reason string
	switch {
	case len(m.tags) > 0:
		c.MatchType = "explicit"
		reason = "标签" + quoteAll(m.tags) + "与需求直接匹配"
	case len(m.inferred) > 0:
		c.MatchType = "inferred"
		if m.inferred[0] == "演讲嘉宾" && d.theme != "" {
			reason = "专长与" + d.theme + "主题相关，可作为" + quote("演讲嘉宾") + "人选"
		} else {
			reason = "简介中提到与" + quoteAll(m.inferred) + "相关的经验"
		}
	default:
		c.MatchType = "inferred"
		reason = "兴趣" + quoteAll(m.interests) + "与需求主题相关"
	}
	switch m.loc {
	case locSame:
		reason += "，常驻" + d.city + "，与需求同城"
	case locOpen:
		if m.city != "" {
			reason += "，常驻" + m.city
		}
	case locRemote:
		reason += "，可远程参与"
		if m.physical() {
			reason += "，但现场工作需确认能否到" + d.city
		}
	case locFar:
		if m.physical() {
			reason += "，但常驻" + orDefault(m.city, s.p.Location) + "，需确认能否到" + d.city
		} else {
			reason += "，常驻" + orDefault(m.city, s.p.Location) + "，可远程协作"
		}
	}
	if len(m.interests) > 0 && len(m.tags)+len(m.inferred) > 0 {
		reason += "；兴趣" + quoteAll(m.interests) + "与主题契合"
	}
	c.Reason = llm.Text(reason)
	conf := 0.4 + 0.25*s.score
	if definitely {
		conf = 0.7 + 0.25*s.score
	}
	c.Confidence = llm.NumberScalar(math.Round(clamp(conf, 0.3, 0.97)*100) / 100)
	return c
}
