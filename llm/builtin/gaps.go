package builtin

import (
	"sort"
	"strconv"
	"strings"

	"github.com/towow/towow/llm"
)

func init() { register(llm.Gaps, gaps) }

// implicitEventNeeds are what an event usually needs without saying so, in
// the order they are considered (the first few are drawn by seed).
var implicitEventNeeds = []string{"摄影", "餐饮服务", "主持", "音响设备", "志愿者", "印刷物料"}

// implicitReasons say why an implicit need matters.
var implicitReasons = map[string]string{
	"摄影":   "活动需要有人拍照记录，便于会后传播和复盘",
	"餐饮服务": "活动时间较长，参与者需要茶歇和饮品",
	"主持":   "需要有人串联各个环节、控制节奏",
	"音响设备": "分享环节需要麦克风、音响和投影",
	"志愿者":  "现场签到和引导需要人手",
	"印刷物料": "需要胸牌、指引牌等现场物料",
}

// gaps answers prompt 7.
func gaps(in *llm.GapInput) llm.GapsReply {
	d := fromUnderstanding(in.Demand, in.RawInput)
	// The willing offers as prompt 4 would assign them.
	active := aggregate(&llm.AggregateInput{Demand: in.Demand, RawInput: in.RawInput, Offers: in.Offers}).Assignments
	covered := coveredTags(active)

	out := llm.GapsReply{Gaps: []llm.ReplyGap{}}
	for i, n := range d.needs { // every need against the assignments
		got := 0
		for _, a := range active {
			if string(a.Need) == n.Role || string(a.Role) == n.Role {
				got++
			}
		}
		if got >= n.Count {
			covered = append(covered, n.CapabilityTags...)
			continue
		}
		reason := "需求需要" + strconv.Itoa(n.Count) + "位" + n.Role + "，愿意参与的只有" + strconv.Itoa(got) + "位"
		if got == 0 {
			reason = "需求明确需要" + quote(n.Role) + "，但愿意参与的人中没有人负责"
		}
		imp := between(70, 90, d.seed(), n.Role, "gap")
		if i == 0 {
			imp = max(imp, 80)
		}
		out.Gaps = append(out.Gaps, llm.ReplyGap{GapType: llm.Text(n.Role), Importance: llm.IntScalar(imp), Reason: llm.Text(reason),
			SuggestedCapabilityTags: n.CapabilityTags})
	}
	for i, t := range d.tags {
		if contains(covered, t) || len(d.needs) > 0 {
			continue
		}
		reason := "需求明确需要" + quote(t) + "，但愿意参与的人中没有人负责"
		imp := between(70, 90, d.seed(), t, "gap")
		if i == 0 {
			imp = max(imp, 80)
		}
		out.Gaps = append(out.Gaps, llm.ReplyGap{GapType: llm.Text(roleOf(t)), Importance: llm.IntScalar(imp), Reason: llm.Text(reason),
			SuggestedCapabilityTags: []string{t}})
	}
	implicit := 0
	if d.event != "" && !d.sub {
		var pool []string
		for _, t := range implicitEventNeeds {
			if !contains(covered, t) && !d.hasTag(t) {
				pool = append(pool, t)
			}
		}
		// Draw the first implicit need among the three most common ones.
		if len(pool) > 0 {
			k := int(hash64(d.seed(), "implicit") % uint64(min(3, len(pool))))
			pool[0], pool[k] = pool[k], pool[0]
			big := d.attendees == 0 || d.attendees >= 20
			imp := between(60, 80, d.seed(), pool[0], "gap")
			if !big {
				imp = between(45, 58, d.seed(), pool[0], "gap")
			}
			out.Gaps = append(out.Gaps, llm.ReplyGap{GapType: llm.Text(roleOf(pool[0])), Importance: llm.IntScalar(imp),
				Reason: llm.Text(implicitReasons[pool[0]]), SuggestedCapabilityTags: []string{pool[0]}})
			implicit++
			if len(pool) > 1 && unit(d.seed(), "second-implicit") < 0.4 {
				t := pool[1]
				out.Gaps = append(out.Gaps, llm.ReplyGap{GapType: llm.Text(roleOf(t)), Importance: llm.IntScalar(between(50, 65, d.seed(), t, "gap")),
					Reason: llm.Text(implicitReasons[t]), SuggestedCapabilityTags: []string{t}})
				implicit++
			}
		}
	}
	sort.SliceStable(out.Gaps, func(i, j int) bool { return out.Gaps[i].Importance.Num > out.Gaps[j].Importance.Num })
	for i, g := range out.Gaps {
		out.Gaps[i].Description = llm.Text("方案还缺" + quote(string(g.GapType)) + "：可以邀请具备" + quoteAll(g.SuggestedCapabilityTags) + "能力的协作者补上")
	}
	complete := len(out.Gaps) == 0
	out.IsComplete = llm.BoolScalar(complete)

	var got []string
	for _, t := range d.tags {
		if contains(covered, t) {
			got = append(got, t)
		}
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(active)) + "位愿意参与的协作者覆盖了需求中的" + strconv.Itoa(len(got)) + "/" + strconv.Itoa(len(d.tags)) + "项能力")
	if len(got) > 0 {
		b.WriteString("（" + quoteAll(got) + "）")
	}
	b.WriteString("。")
	if implicit > 0 {
		b.WriteString("作为" + d.event + "，还有未明说但通常需要的环节。")
	}
	if complete {
		b.WriteString("没有发现明显缺口。")
	} else {
		types := make([]string, len(out.Gaps))
		for i, g := range out.Gaps {
			types[i] = string(g.GapType) + "（" + strconv.Itoa(int(g.Importance.Num)) + "）"
		}
		b.WriteString("缺口：" + joinCN(types) + "。")
	}
	out.Analysis = llm.Text(b.String())
	return out
}
