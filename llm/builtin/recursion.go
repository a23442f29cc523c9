package builtin

import (
	"cmp"
	"sort"
	"strconv"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Recursion, recursion) }

// recursion answers prompt 8.
func recursion(in *llm.RecursionInput) llm.RecursionReply {
	d := fromUnderstanding(in.Demand, in.RawInput)
	var important []neg.Gap
	for _, g := range in.Gaps {
		if g.Importance >= 60 {
			important = append(important, g)
		}
	}
	sort.SliceStable(important, func(i, j int) bool { return important[i].Importance > important[j].Importance })
	if len(important) > 3 {
		important = important[:3]
	}
	types := make([]string, len(important))
	for i, g := range important {
		types[i] = g.GapType
	}
	out := llm.RecursionReply{SubDemands: []llm.ReplySubDemand{}}

	met1 := len(important) > 0
	if met1 {
		out.Condition1Analysis = llm.Text("当前方案存在" + strconv.Itoa(len(important)) + "个重要缺口（" + joinCN(types) +
			"），不补齐会明显降低需求满足度")
	} else {
		out.Condition1Analysis = "没有重要度达到60的缺口，当前方案已基本满足需求"
	}

	var tagsOK []bool
	allTags := []string{}
	for _, g := range important {
		ts := normalizeTags(g.SuggestedCapabilityTags)
		if len(ts) == 0 {
			ts = normalizeTag(g.GapType)
		}
		ok := false
		for _, t := range ts {
			if _, known := tagIndex[t]; known {
				ok = true
			}
			if !contains(allTags, t) {
				allTags = append(allTags, t)
			}
		}
		tagsOK = append(tagsOK, ok)
	}
	met2 := len(important) > 0
	for _, ok := range tagsOK {
		met2 = met2 && ok
	}
	switch {
	case len(important) == 0:
		out.Condition2Analysis = "没有需要额外利益相关方参与的缺口"
	case met2:
		out.Condition2Analysis = llm.Text("网络中有具备" + quoteAll(allTags) + "能力的其他Agent，可以通过子协商引入")
	default:
		out.Condition2Analysis = llm.Text("部分缺口（" + joinCN(types) + "）没有明确的能力标签，难以找到合适的利益相关方")
	}

	met3 := in.Depth < in.MaxDepth
	if met3 {
		out.Condition3Analysis = llm.Text("当前深度" + strconv.Itoa(in.Depth) + "，最大深度" + strconv.Itoa(in.MaxDepth) +
			"；按本次协商的规模估计，一次子协商约需" + strconv.Itoa(cmp.Or(in.EstimatedCost.Tokens, 5000)) + " tokens、" +
			strconv.Itoa(cmp.Or(in.EstimatedCost.TimeSeconds, 30)) + "秒，相对补齐缺口的收益可以接受")
	} else {
		out.Condition3Analysis = llm.Text("已达到最大递归深度（" + strconv.Itoa(in.Depth) + "/" + strconv.Itoa(in.MaxDepth) +
			"），不再发起子协商，缺口留给妥协方案或需求方自行处理")
	}
	should := met1 && met2 && met3
	out.Condition1Met, out.Condition2Met, out.Condition3Met = llm.BoolScalar(met1), llm.BoolScalar(met2), llm.BoolScalar(met3)
	out.ShouldRecurse = llm.BoolScalar(should)
	if !should {
		return out
	}
	for _, g := range important {
		ts := normalizeTags(g.SuggestedCapabilityTags)
		if len(ts) == 0 {
			ts = normalizeTag(g.GapType)
		}
		prio := "medium"
		if g.Importance >= 75 {
			prio = "high"
		}
		out.SubDemands = append(out.SubDemands, llm.ReplySubDemand{
			GapType: llm.Text(g.GapType), Description: llm.Text(subDescription(d, g.GapType)), CapabilityTags: ts, Priority: llm.Text(prio),
		})
	}
	return out
}

// subDescription describes a sub-demand: "在北京为AI聚会寻找摄影师".
func subDescription(d demand, gapType string) string {
	target := "当前项目"
	if label := d.eventLabel(); label != "" {
		target = label
		if d.date != "" {
			target = d.date + "的" + label
		}
	}
	return d.place() + "为" + target + "寻找" + gapType
}
