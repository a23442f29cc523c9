package builtin

import (
	"strconv"
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Understand, understand) }

// understand answers prompt 1.
func understand(in *llm.UnderstandInput) llm.UnderstandReply {
	raw := simplified(strings.TrimSpace(in.RawInput))
	var d demand
	sub := in.GapType != "" || len(in.CapabilityTags) > 0
	if sub {
		d = demand{
			raw: raw, theme: themeOf(raw), attendees: attendeesIn(raw),
			date: dateIn(raw), budget: budgetIn(raw), sub: true,
		}
		d.city = cityIn(raw)
		if d.city == "" && isRemote(raw) {
			d.city = "远程"
		}
		d.tags = normalizeTags(in.CapabilityTags)
		if len(d.tags) == 0 {
			d.tags = normalizeTags([]string{in.GapType})
		}
		if len(d.tags) == 0 {
			d.tags = tagsInText(raw)
		}
	} else {
		d = analyzeRaw(raw)
	}
	var needs []neg.Need
	if sub {
		if len(d.tags) > 0 {
			needs = []neg.Need{{Role: orDefault(in.GapType, roleOf(d.tags[0])), CapabilityTags: d.tags, Count: 1}}
		}
	} else {
		needs = needsIn(raw, d.event)
	}
	if len(needs) == 0 { // nothing to ask anyone for: the engine rejects it
		return unclear(d)
	}
	if len(d.tags) == 0 { // needs the profile lexicon named: their tags are the demand's
		for _, n := range needs {
			for _, t := range n.CapabilityTags {
				if !contains(d.tags, t) {
					d.tags = append(d.tags, t)
				}
			}
		}
	}
	seed := d.seed()

	var out llm.UnderstandReply
	var deep llm.ReplyDeepUnderstanding
	out.CapabilityTags = d.tags
	for _, n := range needs {
		out.Needs = append(out.Needs, llm.ReplyNeed{Role: llm.Text(n.Role), CapabilityTags: n.CapabilityTags, Count: llm.IntScalar(n.Count)})
		for _, t := range n.CapabilityTags {
			if !contains(out.CapabilityTags, t) {
				out.CapabilityTags = append(out.CapabilityTags, t)
			}
		}
	}
	out.Context = llm.ObjectOf(llm.ReplyDemandContext{Location: llm.Text(d.city), ExpectedAttendees: llm.IntScalar(d.attendees),
		Date: llm.Text(d.date), Budget: llm.Text(d.budget), Urgency: llm.Text(urgencyIn(d.raw))})

	roles := make([]string, len(d.tags))
	for i, t := range d.tags {
		roles[i] = roleOf(t)
	}
	size := ""
	if d.attendees > 0 {
		size = "（约" + strconv.Itoa(d.attendees) + "人）"
	}
	switch {
	case sub:
		gap := in.GapType
		if gap == "" {
			gap = joinCN(roles)
		}
		out.SurfaceDemand = llm.Text(d.place() + "寻找" + joinCN(roles) + "，补齐上级方案中的「" + gap + "」缺口")
		deep.Motivation = llm.Text(subMotive + "「" + gap + "」，让整体方案可以落地")
		deep.EmotionalContext = "务实，希望尽快补齐缺口"
	case d.event != "":
		topic := ""
		if d.theme != "" {
			topic = d.theme + "主题"
		}
		out.SurfaceDemand = llm.Text(d.place() + "举办一场" + topic + d.event + size + "，需要" + joinCN(d.tags))
		deep.Motivation = llm.Text(pick([]string{
			"希望把对" + orDefault(d.theme, "同一话题") + "感兴趣的人聚到一起交流，拓展人脉",
			"想借这场" + d.event + "推动" + orDefault(d.theme, "话题") + "的线下交流，结识志同道合的朋友",
			"希望通过一次高质量的" + d.event + "建立自己在" + orDefault(d.theme, "圈子") + "里的影响力",
			"想为社区做点事，让大家有一个面对面分享" + orDefault(d.theme, "经验") + "的机会",
		}, seed, "motivation"))
		deep.EmotionalContext = llm.Text(pick(emotions, seed, "emotion"))
	default:
		out.SurfaceDemand = llm.Text(d.place() + "寻找" + joinCN(roles) + size + "：" + truncate(raw, 40))
		deep.Motivation = llm.Text(pick([]string{
			"手头资源不足，希望借助" + joinCN(roles) + "的专长把事情做好",
			"希望尽快找到可靠的" + roles[0] + "，推进手上的项目",
			"想找有经验的人合作，少走弯路",
		}, seed, "motivation"))
		deep.EmotionalContext = llm.Text(pick(emotions, seed, "emotion"))
	}
	deep.LikelyPreferences = preferences(d)
	if note := historyNote(in.UserContext); note != "" {
		deep.LikelyPreferences = append(deep.LikelyPreferences, note)
	}
	out.DeepUnderstanding = llm.ObjectOf(deep)

	var unc []string
	if d.city == "" {
		unc = append(unc, "地点未说明")
	}
	if d.date == "" {
		unc = append(unc, "具体时间未确定")
	}
	if d.attendees == 0 && d.event != "" {
		unc = append(unc, "参与人数未说明")
	}
	if d.budget == "" {
		unc = append(unc, "预算未说明")
	}
	out.Uncertainties = nonNil(unc)
	switch {
	case len(d.tags) >= 2 && d.city != "" && (d.date != "" || d.attendees > 0 || sub):
		out.Confidence = llm.StringScalar("high")
	default:
		out.Confidence = llm.StringScalar("medium")
	}
	return out
}

// unclear answers a demand that names nobody to ask for: no needs, no
// tags, low confidence, and what the user should add.
func unclear(d demand) llm.UnderstandReply {
	var out llm.UnderstandReply
	out.SurfaceDemand = llm.Text("需求不明确：" + truncate(d.raw, 40))
	out.DeepUnderstanding = llm.ObjectOf(llm.ReplyDeepUnderstanding{Motivation: "无法从描述中判断需要哪类协作者",
		LikelyPreferences: []string{}, EmotionalContext: "未知"})
	out.Context = llm.ObjectOf(llm.ReplyDemandContext{Location: llm.Text(d.city), ExpectedAttendees: llm.IntScalar(d.attendees),
		Date: llm.Text(d.date), Budget: llm.Text(d.budget), Urgency: llm.Text(urgencyIn(d.raw))})
	out.CapabilityTags = []string{}
	out.Needs = llm.List[llm.ReplyNeed]{}
	out.Uncertainties = []string{"需求描述中看不出需要什么样的协作者：请说明要做什么、需要哪些角色（例如场地、摄影师、餐饮、主持人）、人数、地点和时间"}
	out.Confidence = llm.StringScalar("low")
	return out
}

var emotions = []string{
	"期待，同时有一些时间上的压力",
	"积极，希望一次办成",
	"略有焦虑，担心找不到合适的人",
	"轻松，愿意根据情况灵活调整",
	"兴奋，对结果抱有较高期望",
}

// preferences lists what the requester probably wants (at most four).
func preferences(d demand) []string {
	var p []string
	for _, t := range d.tags {
		var s string
		switch t {
		case "场地提供":
			s = "场地交通便利"
			if d.attendees > 0 {
				s += "，可容纳约" + strconv.Itoa(d.attendees) + "人"
			}
		case "演讲嘉宾":
			s = "嘉宾在" + orDefault(d.theme, "相关") + "领域有实战经验，分享有干货"
		case "活动策划":
			s = "流程紧凑、互动性强"
		case "餐饮服务":
			s = "提供简单的茶歇和饮品即可"
		case "摄影", "摄像":
			s = "有活动跟拍经验，当天出片"
		case "前端开发", "后端开发":
			s = "能按时交付、代码可维护"
		default:
			s = roleOf(t) + "经验丰富、沟通顺畅"
		}
		if !contains(p, s) {
			p = append(p, s)
		}
		if len(p) == 3 {
			break
		}
	}
	if d.budget != "" {
		p = append(p, "总花费控制在"+d.budget+"以内")
	} else if d.city != "" && !d.remote() {
		p = append(p, "优先考虑"+d.city+"本地的合作者")
	}
	return p
}

// historyNote is what the builtin brain makes of the user's history
// (prompt 1's user_context): the latest earlier demand that reached an
// agreement, whose choices the user likely keeps, or else the latest one
// with how it ended; "" without history.
func historyNote(uc *llm.UserContext) string {
	if uc == nil || len(uc.EarlierDemands) == 0 {
		return ""
	}
	for _, d := range uc.EarlierDemands {
		if o := neg.ChannelStatus(d.Outcome); o == neg.ChannelStatusFinalized || o == neg.ChannelStatusForceFinalized {
			s := "延续用户之前的做法：「" + truncate(d.Text, 30) + "」" + d.OutcomeLabel()
			if len(d.Roles) > 0 {
				s += "（" + strings.Join(d.Roles, "、") + "）"
			}
			return s
		}
	}
	d := uc.EarlierDemands[0]
	return "用户之前提过：「" + truncate(d.Text, 30) + "」（" + d.OutcomeLabel() + "），这次换个思路"
}
