package llm

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/towow/towow/domain/negotiation"
)

// PromptUnderstand is the key of prompt 1 需求理解.
const PromptUnderstand PromptKey = "demand_understanding"

// Understand is prompt 1 (需求理解): what a demand asks for, its surface and
// its motivation, the capability tags and the needs (roles with their tags
// and counts), its context and what is still unclear.
var Understand = define(Prompt[UnderstandInput, UnderstandReply, negotiation.Understanding]{
	key:         PromptUnderstand,
	system:      "你是 ToWow 的需求理解系统。分析用户的原始需求，提炼表面需求、深层动机、所需能力和上下文，以有效 JSON 格式输出。",
	maxTokens:   1500,
	temperature: 0.3,
	replyKeys:   []string{"surface_demand", "capability_tags", "deep_understanding"},
	validate:    validateUnderstand,
	fallback:    fallbackUnderstand,
	template: `# 需求理解任务

## 用户原始输入
{{.RawInput}}

## 用户
用户 ID：{{.UserID}}
{{- if .GapType}}

## 子需求背景
这是为填补上级协商方案中的缺口「{{.GapType}}」而发起的子需求。
{{- if .CapabilityTags}}
建议的能力标签：{{join .CapabilityTags "、"}}
{{- end}}
{{- end}}
{{- if .KnownTags}}

## 协作网络中已有的能力标签
{{join .KnownTags "、"}}
{{- end}}
{{- if .UserContext}}

## 用户历史
这位用户之前提交过的需求（最近的在前）：
{{- range .UserContext.EarlierDemands}}
- 「{{.Text}}」：{{.OutcomeLabel}}{{if .Roles}}；约定的角色：{{join .Roles "、"}}{{end}}{{if .Detail}}（{{.Detail}}）{{end}}
{{- end}}

参考这些历史推断用户的偏好（地点、规模、风格、常找的角色），体现在深层理解里；这次没说清的地方可以参考历史，但不要当成用户这次明确说过的。不要把用户已经解决的需求当成这次的需求，除非这次又明确提出。
{{- end}}

## 分析要求

1. **表面需求**：用一句话概括用户明确表达的需求。
2. **深层理解**：推断用户的动机、可能的偏好和情绪上下文。
3. **能力标签**：列出完成这个需求需要协作者具备的能力（例如"场地"、"演讲嘉宾"、"摄影"），3-8 个。
4. **需求清单（needs）**：把用户要找的人拆成具体的角色，每项写明角色、能服务这个角色的能力标签（尽量用上面已有的标签）和人数：用户说"两位主讲嘉宾"就是 2，没说人数就是 1。只列用户明确需要或这件事显然离不开的角色，不要凑数。
   如果输入里看不出要找什么样的人（例如只有一个字母或无意义的文字），或者这件事在现实中无法实现，needs 留空数组，并在"不确定点"里写清楚需要用户补充什么。
5. **上下文**：提取地点、预计人数、日期和预算；用户没有提到的留空，不要编造。紧急程度（urgency）：用户说急、尽快、今天、明天这类时间很紧的是 high，说不急、有空再说的是 low，其余是 normal。
6. **不确定点**：列出需要向用户确认的问题。
7. **置信度**：你对这个理解有多大把握（high / medium / low）。

## 输出要求

请以 JSON 格式输出：

` + "```json" + `
{
  "surface_demand": "表面需求",
  "deep_understanding": {
    "motivation": "动机",
    "likely_preferences": ["偏好列表"],
    "emotional_context": "情绪上下文"
  },
  "capability_tags": ["能力标签"],
  "needs": [
    {"role": "角色", "capability_tags": ["能力标签"], "count": 1}
  ],
  "context": {
    "location": "地点",
    "expected_attendees": 50,
    "date": "日期",
    "budget": "预算",
    "urgency": "low|normal|high"
  },
  "uncertainties": ["不确定点"],
  "confidence": "high|medium|low"
}
` + "```" + `
`,
})

// UnderstandInput is prompt 1's input.
type UnderstandInput struct {
	RawInput string `json:"raw_input"`
	UserID   string `json:"user_id"`
	// For a sub-demand (prompt 8 spawned it): the gap it fills and the
	// capability tags prompt 8 suggested; empty for a root demand.
	GapType        string   `json:"gap_type,omitempty"`
	CapabilityTags []string `json:"capability_tags,omitempty"`
	// KnownTags are capability tags the network's agents carry (the most
	// common first, at most 60), so that needs use the network's words.
	KnownTags []string `json:"known_tags,omitempty"`
	// UserContext is the user's history and preferences (用户历史、偏好):
	// nil for a sub-demand and for a user's first demand.
	UserContext *UserContext `json:"user_context,omitempty"`
}

// UserContext is prompt 1's user_context: the user's earlier root
// demands, newest first, as they stood when this demand was submitted
// (by log position, so a replay or a fork of the same log sees the same).
type UserContext struct {
	EarlierDemands []EarlierDemand `json:"earlier_demands"`
}

// EarlierDemand is one of the user's earlier demands and how it ended.
type EarlierDemand struct {
	// Text is the demand's raw text, clipped.
	Text string `json:"text"`
	// Outcome is finalized, force_finalized or failed (the negotiation
	// ended so), rejected (not taken up), or processing (still running
	// when this demand was submitted).
	Outcome string `json:"outcome"`
	// Detail says why it failed or was rejected.
	Detail string `json:"detail,omitempty"`
	// Roles are the roles of the plan agreed, if any.
	Roles []string `json:"roles,omitempty"`
}

// OutcomeLabel is the outcome in the prompt's words.
func (d EarlierDemand) OutcomeLabel() string {
	switch negotiation.ChannelStatus(d.Outcome) {
	case negotiation.ChannelStatusFinalized:
		return "已达成协作方案"
	case negotiation.ChannelStatusForceFinalized:
		return "未完全达成共识，按部分方案定稿"
	case negotiation.ChannelStatusFailed:
		return "协商失败"
	case "rejected":
		return "未受理"
	case "processing":
		return "仍在进行中"
	}
	return d.Outcome
}

// UnderstandReply is prompt 1's reply (需求理解).
type UnderstandReply struct {
	SurfaceDemand     Text                           `json:"surface_demand"`
	DeepUnderstanding Object[ReplyDeepUnderstanding] `json:"deep_understanding"`
	CapabilityTags    TextList                       `json:"capability_tags"`
	Needs             List[ReplyNeed]                `json:"needs"`
	Context           Object[ReplyDemandContext]     `json:"context"`
	Uncertainties     TextList                       `json:"uncertainties"`
	Confidence        Scalar                         `json:"confidence"` // high | medium | low
}

// ReplyNeed is one need of prompt 1's reply: a role, the capability tags
// that serve it and how many people (a number; absent means one). A bare
// string is taken for the role.
type ReplyNeed struct {
	Role           Text     `json:"role"`
	CapabilityTags TextList `json:"capability_tags"`
	Count          Scalar   `json:"count"`
}

// UnmarshalJSON accepts a need object or a bare role.
func (n *ReplyNeed) UnmarshalJSON(b []byte) error {
	type plain ReplyNeed
	return decodeObjectOrString(b, (*plain)(n), func(s string) { n.Role = Text(s) })
}

// ReplyDeepUnderstanding is the deep understanding of prompt 1's reply.
type ReplyDeepUnderstanding struct {
	Motivation        Text     `json:"motivation"`
	LikelyPreferences TextList `json:"likely_preferences"`
	EmotionalContext  Text     `json:"emotional_context"`
}

// ReplyDemandContext is the context of prompt 1's reply.
type ReplyDemandContext struct {
	Location          Text   `json:"location"`
	ExpectedAttendees Scalar `json:"expected_attendees"` // a number
	Date              Text   `json:"date"`
	Budget            Text   `json:"budget"`
	Urgency           Text   `json:"urgency"` // low | normal | high
}

// maxAttendeesCap bounds the expected attendees a reply states.
const maxAttendeesCap = 10_000_000

// validateUnderstand validates prompt 1's reply. surface_demand is required;
// an absent confidence is medium; no capability tags means the fallback's
// tags.
func validateUnderstand(raw *UnderstandReply, in *UnderstandInput) (negotiation.Understanding, error) {
	out := negotiation.Understanding{SurfaceDemand: clip(string(raw.SurfaceDemand), maxTextRunes)}
	if out.SurfaceDemand == "" {
		return negotiation.Understanding{}, invalid("surface_demand is empty")
	}
	conf, ok := confidenceLevel(raw.Confidence, negotiation.ConfidenceMedium)
	if !ok {
		return negotiation.Understanding{}, invalid("unknown confidence %q", raw.Confidence.Str)
	}
	out.Confidence = conf
	deep := raw.DeepUnderstanding.V
	out.DeepUnderstanding = negotiation.DeepUnderstanding{
		Motivation:        clip(string(deep.Motivation), maxTextRunes),
		LikelyPreferences: cleanList(deep.LikelyPreferences, maxTextRunes, maxListItems),
		EmotionalContext:  clip(string(deep.EmotionalContext), maxTextRunes),
	}
	out.CapabilityTags = cleanList(raw.CapabilityTags, maxShortRunes, maxTagItems)
	needs := make([]negotiation.Need, 0, len(raw.Needs))
	for _, n := range raw.Needs {
		count := 1
		if n.Count.IsNum {
			count = int(math.Round(math.Max(1, math.Min(negotiation.MaxNeedCount, n.Count.Num))))
		}
		needs = append(needs, negotiation.Need{Role: string(n.Role), CapabilityTags: cleanList(n.CapabilityTags, maxShortRunes, maxTagItems),
			Count: count})
	}
	out.Needs = negotiation.NormalizeNeeds(needs)
	switch {
	case len(out.CapabilityTags) == 0 && len(out.Needs) > 0:
		out.CapabilityTags = negotiation.NeedTags(out.Needs)
	case len(out.CapabilityTags) == 0 && in.GapType == "" && len(in.CapabilityTags) == 0:
		// Neither tags nor needs: the model found nothing to ask anyone
		// for (an unclear or impossible demand) unless the words say
		// otherwise, read onto the network's tags (a demand to "设计" a
		// page asks the designers, not for a "设计" nobody carries); the
		// engine rejects a demand without needs.
		out.CapabilityTags = wordTags(in.RawInput, in.KnownTags)
	case len(out.CapabilityTags) == 0:
		out.CapabilityTags = fallbackTags(in)
	}
	cx := raw.Context.V
	out.Context = negotiation.DemandContext{
		Location: clip(string(cx.Location), maxShortRunes),
		Date:     clip(string(cx.Date), maxShortRunes),
		Budget:   clip(string(cx.Budget), maxShortRunes),
	}
	if u := negotiation.Urgency(strings.ToLower(strings.TrimSpace(string(cx.Urgency)))); u.Valid() {
		out.Context.Urgency = u // anything else: absent, which means normal
	}
	if cx.ExpectedAttendees.IsNum {
		out.Context.ExpectedAttendees = int(math.Round(math.Max(0, math.Min(maxAttendeesCap, cx.ExpectedAttendees.Num))))
	}
	out.Uncertainties = cleanList(raw.Uncertainties, maxTextRunes, maxListItems)
	return out, nil
}

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
// input mapped onto the network's known tags (onKnownTags), else the
// generic tag.
func fallbackTags(in *UnderstandInput) []string {
	if tags := cleanList(in.CapabilityTags, maxShortRunes, maxTagItems); len(tags) > 0 {
		return tags
	}
	if tags := wordTags(in.RawInput+" "+in.GapType, in.KnownTags); len(tags) > 0 {
		return tags
	}
	return []string{genericTag}
}

// wordTags are the capability tags the keywords of text name, read onto
// the network's known tags (onKnownTags).
func wordTags(text string, known []string) []string {
	return onKnownTags(matchKeywordTags(text), text, known)
}

// onKnownTags maps keyword tags onto the network's known tags, so that the
// filter finds the agents that carry them: each known tag the text names,
// then, for each keyword tag, the known tags that hold it, that it holds,
// or that share a two-character word with it (设计 → UI设计 and 平面设计,
// 技术开发 → 后端开发), in the known tags' order (the most common first),
// at most maxTagItems. Without known tags, or when none maps, the keyword
// tags as they are.
func onKnownTags(tags []string, text string, known []string) []string {
	if len(known) == 0 {
		return tags
	}
	lower := strings.ToLower(text)
	var out []string
	add := func(k string) {
		if len(out) < maxTagItems && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, k := range known {
		if kl := strings.ToLower(strings.TrimSpace(k)); kl != "" && strings.Contains(lower, kl) {
			add(k)
		}
	}
	for _, t := range tags {
		for _, k := range known {
			if strings.Contains(k, t) || strings.Contains(t, k) || sharesWord(k, t) {
				add(k)
			}
		}
	}
	if len(out) == 0 {
		return tags
	}
	return out
}

// sharesWord reports whether two tags share two adjacent Chinese
// characters ("技术开发" and "后端开发" share 开发).
func sharesWord(a, b string) bool {
	ra := []rune(a)
	for i := 0; i+1 < len(ra); i++ {
		if unicode.Is(unicode.Han, ra[i]) && unicode.Is(unicode.Han, ra[i+1]) && strings.Contains(b, string(ra[i:i+2])) {
			return true
		}
	}
	return false
}

// fallbackUnderstand: the raw input (first 100 runes) as surface demand,
// fallback tags, low confidence.
func fallbackUnderstand(in *UnderstandInput) negotiation.Understanding {
	return negotiation.Understanding{
		SurfaceDemand:  clip(in.RawInput, 100),
		CapabilityTags: fallbackTags(in),
		Confidence:     negotiation.ConfidenceLow,
	}
}
