package builtin

import (
	"math"
	"sort"
	"strconv"
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Offer, offer) }

// genericConditions are conditions any agent may attach to an offer.
var genericConditions = []string{
	"需要报销交通费",
	"需提前一周确认时间",
	"需要在活动中展示我的作品",
	"只能参与下午场",
	"希望在宣传材料中署名致谢",
	"需要提前拿到完整议程",
	"最多只能投入半天时间",
	"希望能带一位助手一起参与",
}

// tagConditions are conditions that fit a contribution.
var tagConditions = map[string][]string{
	"场地提供": {"场地需在晚上9点前清场", "需要活动方负责场地清洁", "场地费用需按成本分摊"},
	"演讲嘉宾": {"演讲时长不超过30分钟", "需要提前了解听众背景", "需要安排在上半场发言"},
	"活动策划": {"需要主办方提前确认预算", "需要至少两名志愿者配合"},
	"摄影":   {"需要在活动中展示我的作品", "照片需署名发布", "需要报销器材运输费"},
	"摄像":   {"需要提前踩点确认机位", "成片需署名"},
	"餐饮服务": {"需提前三天确认人数", "需要收取食材成本费"},
	"主持":   {"需要提前拿到完整议程", "需要一次彩排"},
	"音响设备": {"需要提前两小时进场调试", "需要报销设备运输费"},
	"前端开发": {"需要先确认需求文档", "需要分阶段付款"},
	"后端开发": {"需要先确认需求文档", "需要分阶段付款"},
	"翻译":   {"需要提前拿到演讲稿", "需要收取翻译费"},
}

// declineReasons are generic reasons to decline.
var declineReasons = []string{
	"近期项目排期已满，抽不出时间",
	"那段时间已有其他安排",
	"预算可能覆盖不了我的基本成本",
	"最近在出差，无法保证投入",
	"家里有事，这段时间不便参与",
}

// contributionTemplates describe what a person with a tag offers.
var contributionTemplates = map[string]string{
	"场地提供": "提供{city}的活动场地{size}，并协助布置",
	"演讲嘉宾": "做一场关于{topic}的分享（约30分钟），并参与问答",
	"活动策划": "负责活动流程设计和现场统筹",
	"主持":   "串联各个环节、把控现场节奏",
	"摄影":   "全程跟拍，活动后3天内交付精修照片",
	"摄像":   "录制活动全程视频",
	"视频剪辑": "剪辑一支活动回顾短视频",
	"直播":   "搭建线上直播并负责推流",
	"平面设计": "设计活动海报和主视觉",
	"UI设计": "完成界面与交互设计",
	"前端开发": "负责前端页面开发",
	"后端开发": "负责后端接口与数据库开发",
	"AI研究": "提供AI技术方案与咨询",
	"数据分析": "负责数据整理并输出分析报告",
	"产品经理": "梳理需求并输出产品方案",
	"餐饮服务": "提供茶歇与餐饮{size}",
	"翻译":   "提供中英文现场翻译",
	"音响设备": "提供音响、麦克风和投影设备并现场调试",
	"市场推广": "负责宣传和报名推广",
	"文案写作": "撰写宣传文案和回顾文章",
	"法律咨询": "审核合同并提供法律意见",
	"财务":   "负责预算管理和费用报销",
	"志愿者":  "负责签到、引导和现场秩序",
	"印刷物料": "制作易拉宝、胸牌等物料",
	"交通接送": "负责嘉宾接送和交通协调",
}

// willingness is how much an agent wants to take part (0..1).
func willingness(m match) float64 {
	w := 0.1
	switch {
	case len(m.tags) > 0:
		w = 0.8
	case len(m.inferred) > 0:
		w = 0.5
	case len(m.interests) > 0:
		w = 0.3
	}
	switch m.loc {
	case locSame:
		w += 0.1
	case locOpen:
		w += 0.05
	case locRemote:
		w += []float64{0, -0.15, -0.35}[m.locality()]
	case locFar:
		w += []float64{-0.05, -0.25, -0.5}[m.locality()]
	}
	if m.conflict != "" {
		w -= 0.25
	}
	if m.avail.busy {
		w -= 0.25
	}
	if m.avail.flexible {
		w += 0.05
	}
	if len(m.interests) > 0 {
		w += 0.05
	}
	return clamp(w, 0.02, 0.95)
}

// offer answers prompt 3.
func offer(in *llm.OfferInput) llm.OfferReply {
	d := fromUnderstanding(in.Demand, in.RawInput)
	p := in.Profile
	m := matchProfile(p, d)
	seed := []string{d.seed(), p.AgentID, "offer"}
	w := willingness(m)
	pDecline := 0.03 + 0.5*math.Pow(1-w, 1.5)
	pCond := 0.15 + 0.12*(1-w)
	u := unit(seed...)

	primary := m.primary()
	if primary == "" && d.event != "" {
		// Drawn in by interest in the topic: helps out on site.
		primary = "志愿者"
	}
	if primary == "" {
		primary = firstProfileTag(p)
	}
	role := roleOf(primary)
	out := llm.OfferReply{Conditions: []string{}}
	switch {
	case u < pDecline:
		why := declineReason(p, d, m, seed)
		out.Decision = "decline"
		out.DeclineReason = llm.Text(why)
		out.Reasoning = llm.Text("综合考虑时间、地点和专长后决定不参与：" + why)
		out.Confidence = llm.IntScalar(between(60, 90, append(seed, "conf")...))
		return out
	case u < pDecline+pCond || m.conflict != "":
		out.Decision = "conditional"
		out.Conditions = conditionsFor(primary, m, seed)
		out.Confidence = llm.IntScalar(between(55, 80, append(seed, "conf")...))
	default:
		out.Decision = "participate"
		out.Confidence = llm.IntScalar(between(70, 95, append(seed, "conf")...))
	}
	out.Contribution = llm.Text(contribution(p, d, primary, role, m))
	reasoning := offerReasoning(d, m, primary)
	if out.Decision == "conditional" {
		reasoning += "，但有" + strconv.Itoa(len(out.Conditions)) + "个前提条件需要确认"
	}
	out.Reasoning = llm.Text(reasoning)
	return out
}

// firstProfileTag is the profile's first vocabulary tag ("" if none).
func firstProfileTag(p neg.AgentProfile) string {
	for _, t := range normalizeTags(p.Tags) {
		return t
	}
	return ""
}

// conditionsFor draws one or two conditions (availability first).
func conditionsFor(tag string, m match, seed []string) []string {
	var conds []string
	switch {
	case m.conflict != "" && m.avail.weekdaysOnly:
		conds = append(conds, "希望把我的部分安排在工作日")
	case m.conflict != "" && m.avail.weekendsOnly:
		conds = append(conds, "只能在周末参与")
	case (m.loc == locFar || m.loc == locRemote) && m.physical():
		conds = append(conds, "需要报销往返交通和住宿费用")
	}
	pool := append(append([]string{}, tagConditions[tag]...), genericConditions...)
	n := 1
	if unit(append(seed, "ncond")...) < 0.3 {
		n = 2
	}
	for k := 0; len(conds) < n && k < 8; k++ {
		c := pick(pool, append(seed, "cond", strconv.Itoa(k))...)
		if !contains(conds, c) {
			conds = append(conds, c)
		}
	}
	return conds
}

// declineReason says why an agent declines, from what stands in the way.
func declineReason(p neg.AgentProfile, d demand, m match, seed []string) string {
	switch {
	case m.conflict != "":
		return m.conflict + "，时间对不上"
	case m.loc == locFar && m.locality() == siteBound:
		return "我的资源都在" + orDefault(m.city, p.Location) + "，没法在" + d.city + "提供" + orDefault(m.primary(), "支持")
	case m.loc == locFar && m.physical():
		return "我常驻" + orDefault(m.city, p.Location) + "，无法到" + d.city + "现场参与"
	case m.loc == locRemote && m.physical():
		return "我目前只能远程协作，无法到" + d.city + "现场"
	case m.avail.busy:
		return "近期工作较忙（" + p.Availability + "），无法保证投入"
	case len(m.tags) == 0 && unit(append(seed, "why")...) < 0.6:
		skills := quoteAll(normalizeTags(p.Tags))
		if skills == "" {
			skills = "我的方向"
		}
		return "这项需求与我的专长（" + skills + "）关联不大"
	}
	return pick(declineReasons, append(seed, "why")...)
}

// contribution describes what the agent offers, starting with its role
// ("作为摄影师，…") so that later prompts can tell the role.
func contribution(p neg.AgentProfile, d demand, tag, role string, m match) string {
	detail := capabilityDetail(p, tag)
	if detail == "" {
		detail = contributionTemplates[tag]
	}
	if detail == "" {
		detail = "在" + orDefault(tag, "力所能及的方面") + "方面提供支持"
	}
	size := ""
	if d.attendees > 0 {
		size = "（按约" + strconv.Itoa(d.attendees) + "人准备）"
	}
	topic := d.theme
	if topic == "" && len(p.Interests) > 0 {
		topic = p.Interests[0]
	}
	detail = strings.NewReplacer("{city}", orDefault(m.city, d.city), "{size}", size,
		"{topic}", orDefault(topic, "行业实践")).Replace(detail)
	s := "作为" + orDefault(role, "协作成员") + "，" + detail
	if len(m.tags) > 1 {
		s += "；也可以兼顾" + roleOf(m.tags[1]) + "的工作"
	}
	return s
}

// capabilityDetail is the profile's own description of tag, if any.
func capabilityDetail(p neg.AgentProfile, tag string) string {
	if tag == "" || len(p.Capabilities) == 0 {
		return ""
	}
	if v, ok := p.Capabilities[tag]; ok && v != "" {
		return v
	}
	keys := make([]string, 0, len(p.Capabilities))
	for k := range p.Capabilities {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if contains(tagOfRole(k), tag) && p.Capabilities[k] != "" {
			return p.Capabilities[k]
		}
	}
	return ""
}

// offerReasoning explains a positive decision.
func offerReasoning(d demand, m match, tag string) string {
	var parts []string
	switch {
	case len(m.tags) > 0:
		parts = append(parts, "我的标签"+quoteAll(m.tags)+"与需求匹配")
	case len(m.inferred) > 0:
		parts = append(parts, "我的经验与"+quote(tag)+"相关")
	default:
		parts = append(parts, "虽然不是我的专长，但可以来帮忙")
	}
	switch m.loc {
	case locSame:
		parts = append(parts, "同在"+d.city)
	case locRemote:
		parts = append(parts, "可以远程配合")
	case locFar:
		if m.physical() {
			parts = append(parts, "虽然不在"+d.city+"，但可以考虑过去")
		} else {
			parts = append(parts, "虽然不在"+d.city+"，但可以远程完成")
		}
	}
	if len(m.interests) > 0 {
		parts = append(parts, "也对"+quoteAll(m.interests)+"感兴趣")
	}
	if m.conflict != "" {
		parts = append(parts, "时间上需要协调")
	} else {
		parts = append(parts, "时间上基本可行")
	}
	return strings.Join(parts, "，")
}
