package builtin

import (
	"slices"
	"strings"
	"testing"

	"github.com/towow/towow/llm"
)

func TestUnderstandSampleDemand(t *testing.T) {
	u := plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: "我想在北京办一场AI主题聚会，需要场地和嘉宾", UserID: "u1"}))
	for _, want := range []string{"场地提供", "演讲嘉宾", "活动策划"} {
		if !slices.Contains(u.CapabilityTags, want) {
			t.Errorf("capability_tags %v lack %s", u.CapabilityTags, want)
		}
	}
	if slices.Contains(u.CapabilityTags, "AI研究") {
		t.Errorf("the AI theme of an event is not a capability: %v", u.CapabilityTags)
	}
	if u.Context.Location != "北京" {
		t.Errorf("location = %q, want 北京", u.Context.Location)
	}
	if !strings.Contains(u.SurfaceDemand, "AI") || !strings.Contains(u.SurfaceDemand, "聚会") {
		t.Errorf("surface_demand = %q", u.SurfaceDemand)
	}
	if u.Confidence == "" || len(u.DeepUnderstanding.LikelyPreferences) == 0 || u.DeepUnderstanding.Motivation == "" {
		t.Errorf("incomplete understanding: %+v", u)
	}
}

func TestUnderstandEnglishDemand(t *testing.T) {
	u := plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: "I want to host an AI meetup in Shanghai for 50 people, need a venue and speakers"}))
	for _, want := range []string{"场地提供", "演讲嘉宾", "活动策划"} {
		if !slices.Contains(u.CapabilityTags, want) {
			t.Errorf("capability_tags %v lack %s", u.CapabilityTags, want)
		}
	}
	if slices.Contains(u.CapabilityTags, "主持") {
		t.Errorf("\"host an event\" is not a need for an MC: %v", u.CapabilityTags)
	}
	if u.Context.Location != "上海" || u.Context.ExpectedAttendees != 50 {
		t.Errorf("context = %+v, want 上海 and 50", u.Context)
	}
}

func TestKeywordsMapToVocabulary(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"需要一个会议室", []string{"场地提供"}},
		{"looking for a venue", []string{"场地提供"}},
		{"请几位讲者来做演讲", []string{"演讲嘉宾"}},
		{"we need two speakers and a keynote", []string{"演讲嘉宾"}},
		{"找个摄影师拍照", []string{"摄影"}},
		{"need a photographer", []string{"摄影"}},
		{"要做一个网站", []string{"前端开发", "后端开发"}},
		{"hire a developer for our app", []string{"前端开发", "后端开发"}},
		{"准备点吃的和茶歇", []string{"餐饮服务"}},
		{"catering and drinks", []string{"餐饮服务"}},
		{"需要翻译", []string{"翻译"}},
		{"need a translator", []string{"翻译"}},
		{"需要主持人和音响", []string{"主持", "音响设备"}},
		{"做海报，印刷易拉宝", []string{"平面设计", "印刷物料"}},
		{"找律师看合同，再找个会计", []string{"法律咨询", "财务"}},
		{"需要志愿者帮忙签到，还要机场接送", []string{"志愿者", "交通接送"}},
		{"需要直播和剪辑", []string{"直播", "视频剪辑"}},
		{"需要产品经理写需求文档，做数据分析", []string{"产品经理", "数据分析"}},
		{"推广文案", []string{"市场推广", "文案写作"}},
		{"UI设计和交互", []string{"UI设计"}},
		{"需要一个机器学习研究员", []string{"AI研究"}},
	}
	for _, c := range cases {
		got := tagsInText(c.text)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("tagsInText(%q) = %v, lacks %s", c.text, got, w)
			}
		}
	}
	// Whole words only for ASCII keywords.
	if got := tagsInText("she said the email was fine"); len(got) != 0 {
		t.Errorf("tagsInText matched inside words: %v", got)
	}
	// A keyword inside another tag's longer one names that tag alone.
	for text, want := range map[string][]string{
		"路演厅还预留了同声传译设备的接入位": {"音响设备"},
		"we run a food bank": {"志愿者"},
		"需要同声传译，也需要同声传译设备": {"翻译", "音响设备"},
	} {
		if got := tagsInText(text); !slices.Equal(got, want) {
			t.Errorf("tagsInText(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestUnderstandContext(t *testing.T) {
	cases := []struct {
		text              string
		loc, date, budget string
		attendees         int
	}{
		{"2月15日在杭州办读书会，50人，预算2000元", "杭州", "2月15日", "2000元", 50},
		{"下周六在深圳搞个聚会，大概三十人", "深圳", "下周六", "", 30},
		{"2026-02-15 Beijing workshop for 40 attendees, budget $500", "北京", "2026-02-15", "$500", 40},
		{"AI meetup in Chengdu next Saturday, 80 people", "成都", "next Saturday", "", 80},
		{"线上分享会，需要嘉宾，预算 3000 块", "远程", "", "3000块", 0},
		{"Guangzhou party on March 8, budget of 2000 dollars", "广州", "March 8", "$2000", 0},
		{"在上海办一个20-30人的沙龙", "上海", "", "", 30},
		{"预算50人民币", "", "", "50人民币", 0},
	}
	for _, c := range cases {
		u := plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: c.text}))
		got := u.Context
		if got.Location != c.loc || got.Date != c.date || got.Budget != c.budget || got.ExpectedAttendees != c.attendees {
			t.Errorf("%q: context = %+v, want {%s %d %s %s}", c.text, got, c.loc, c.attendees, c.date, c.budget)
		}
	}
}

func TestUnderstandSubDemand(t *testing.T) {
	u := plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: "在北京为AI聚会寻找摄影师", GapType: "摄影师", CapabilityTags: []string{"摄影"}}))
	if !slices.Equal(u.CapabilityTags, []string{"摄影"}) {
		t.Errorf("sub-demand tags = %v, want [摄影]", u.CapabilityTags)
	}
	if u.Context.Location != "北京" {
		t.Errorf("location = %q", u.Context.Location)
	}
	if !strings.HasPrefix(u.DeepUnderstanding.Motivation, subMotive) || !strings.Contains(u.SurfaceDemand, "摄影师") {
		t.Errorf("sub-demand not marked: %+v", u)
	}
	// Only the gap type given: its tags are derived from it.
	u = plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: "在上海为沙龙寻找餐饮供应商", GapType: "餐饮供应商"}))
	if !slices.Equal(u.CapabilityTags, []string{"餐饮服务"}) {
		t.Errorf("tags from gap type = %v", u.CapabilityTags)
	}
}

// TestUnderstandVagueDemand: a demand that names nobody to ask for has no
// needs and no tags (the engine rejects it), low confidence, and says what
// to add.
func TestUnderstandVagueDemand(t *testing.T) {
	for _, raw := range []string{"随便帮帮我吧", "x", "我需要一艘宇宙飞船去火星"} {
		u := plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: raw}))
		if u.Confidence != "low" || len(u.CapabilityTags) != 0 || len(u.Needs) != 0 || len(u.Uncertainties) == 0 {
			t.Errorf("%s: %+v", raw, u)
		}
	}
}

func TestEventDetection(t *testing.T) {
	cases := map[string]string{
		"我想在北京办一场AI主题聚会":                "聚会",
		"需要一个会议室开周会":                    "",
		"做一个活动报名网站":                     "",
		"设计活动海报":                        "",
		"下周办一场活动":                       "活动",
		"need a conference room":        "",
		"AI conference in Shenzhen":     "会议",
		"launch a website":              "",
		"our product launch in Beijing": "发布会",
		"a hackathon event":             "黑客松",
	}
	for text, want := range cases {
		if got := eventName(text); got != want {
			t.Errorf("eventName(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestUnderstandUsesUserHistory: prompt 1's user_context shows in the
// likely preferences — the latest agreed demand first, else the latest
// one with how it ended — and nothing else changes.
func TestUnderstandUsesUserHistory(t *testing.T) {
	const raw = "我想在北京办一场AI主题聚会，需要场地和嘉宾"
	agreed := llm.EarlierDemand{Text: "上个月在北京办了30人的AI读书会，需要场地", Outcome: "finalized", Roles: []string{"场地提供者"}}
	failed := llm.EarlierDemand{Text: "找一位会拍活动照片的摄影师", Outcome: "failed", Detail: "no_candidates"}
	tests := []struct {
		name string
		uc   *llm.UserContext
		want string // "" : no note
	}{
		{"no history", nil, ""},
		{"empty history", &llm.UserContext{}, ""},
		{"agreed before", &llm.UserContext{EarlierDemands: []llm.EarlierDemand{failed, agreed}},
			"延续用户之前的做法：「上个月在北京办了30人的AI读书会，需要场地」已达成协作方案（场地提供者）"},
		{"only a failure", &llm.UserContext{EarlierDemands: []llm.EarlierDemand{failed}},
			"用户之前提过：「找一位会拍活动照片的摄影师」（协商失败），这次换个思路"},
	}
	base := plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: raw, UserID: "u1"}))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: raw, UserID: "u1", UserContext: tt.uc}))
			prefs := u.DeepUnderstanding.LikelyPreferences
			if tt.want == "" {
				if !slices.Equal(prefs, base.DeepUnderstanding.LikelyPreferences) {
					t.Fatalf("preferences %v, want %v", prefs, base.DeepUnderstanding.LikelyPreferences)
				}
				return
			}
			if len(prefs) != len(base.DeepUnderstanding.LikelyPreferences)+1 || prefs[len(prefs)-1] != tt.want {
				t.Fatalf("preferences %v, want %v and %q", prefs, base.DeepUnderstanding.LikelyPreferences, tt.want)
			}
			if u.SurfaceDemand != base.SurfaceDemand || !slices.Equal(u.CapabilityTags, base.CapabilityTags) {
				t.Fatalf("history changed more than the preferences: %+v", u)
			}
		})
	}
}

// TestEnglishForms: an English need is recognised in the forms writers
// use, made by rule from the keywords: plurals, agent nouns of -ing words,
// hyphenated compounds.
func TestEnglishForms(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"we need a community marketer", "市场推广"},
		{"two marketers for the launch", "市场推广"},
		{"a trailer editor", "视频剪辑"},
		{"two MCs for the gala", "主持"},
		{"live-stream the keynote", "直播"},
		{"a front-end developer", "前端开发"},
		{"someone to handle the printers", "印刷物料"},
		{"an event planner", "活动策划"},
	}
	for _, tt := range tests {
		if got := tagsInText(tt.text); !slices.Contains(got, tt.want) {
			t.Errorf("%q: tags %v, want %s among them", tt.text, got, tt.want)
		}
	}
	// Rules, not guesses: no bare stem is made a keyword ("plan" is not
	// planning, "post" is not a poster).
	for _, text := range []string{"we plan to meet", "post it online", "market day"} {
		for _, tag := range tagsInText(text) {
			if tag == "活动策划" || tag == "平面设计" || tag == "市场推广" {
				t.Errorf("%q: recognised %s", text, tag)
			}
		}
	}
}

// TestEventSubjectIsNoNeed: a role word that names who or what an event
// is about ("产品经理交流会", "摄影展") or its audience ("for 40 staff")
// asks for nobody; the same word asking for someone does.
func TestEventSubjectIsNoNeed(t *testing.T) {
	tests := []struct {
		text string
		want []string // the needs' first tags
	}{
		{"上海办一个产品经理交流会，需要场地和主持", []string{"场地提供", "主持"}},
		{"我们需要一位产品经理", []string{"产品经理"}},
		{"成都办一场摄影展开幕活动，需要场地和摄影师", []string{"场地提供", "摄影"}},
		{"AI研究沙龙需要一位主持人", []string{"主持"}},
		{"corporate training for 40 staff, looking for an experienced product manager", []string{"产品经理"}},
		{"we are looking for 3 volunteers", []string{"志愿者"}},
	}
	for _, tt := range tests {
		var got []string
		for _, n := range needsIn(tt.text, eventName(tt.text)) {
			got = append(got, n.CapabilityTags[0])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: needs %v, want %v", tt.text, got, tt.want)
		}
	}
}
