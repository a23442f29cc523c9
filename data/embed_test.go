package data

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/towow/towow/domain/negotiation"
)

// vocabulary is the shared capability vocabulary that every mock profile tag
// is drawn from (the offline simulated brain matches demands against it).
var vocabulary = []string{
	"场地提供", "演讲嘉宾", "活动策划", "主持", "摄影", "摄像", "视频剪辑", "直播",
	"平面设计", "UI设计", "前端开发", "后端开发", "AI研究", "数据分析", "产品经理",
	"餐饮服务", "翻译", "音响设备", "市场推广", "文案写作", "法律咨询", "财务",
	"志愿者", "印刷物料", "交通接送",
}

var cities = []string{"北京", "上海", "深圳", "杭州", "广州", "成都", "远程"}

func loadProfiles(t *testing.T) []negotiation.AgentProfile {
	t.Helper()
	profiles, errs := negotiation.ParseProfiles(MockProfiles)
	for _, err := range errs {
		t.Errorf("mock_profiles.json: %v", err)
	}
	if len(profiles) != 100 {
		t.Fatalf("loaded %d profiles, want 100", len(profiles))
	}
	return profiles
}

func TestMockProfilesLoad(t *testing.T) {
	profiles := loadProfiles(t)
	ids := make(map[string]bool)
	for i, p := range profiles {
		if ids[p.AgentID] {
			t.Errorf("profile #%d: duplicate agent_id %q", i, p.AgentID)
		}
		ids[p.AgentID] = true
		if !strings.HasPrefix(p.AgentID, "user_agent_") {
			t.Errorf("profile #%d: agent_id %q lacks the user_agent_ prefix", i, p.AgentID)
		}
		if p.Mode != "" || p.IsExternal() {
			t.Errorf("profile #%d (%s): mode %q, want empty (twin)", i, p.AgentID, p.Mode)
		}
		if n := len(p.Tags); n < 2 || n > 5 {
			t.Errorf("profile #%d (%s): %d tags, want 2-5", i, p.AgentID, n)
		}
		if n := len(p.Capabilities); n < 1 || n > 4 {
			t.Errorf("profile #%d (%s): %d capabilities, want 1-4", i, p.AgentID, n)
		}
		if n := len(p.Interests); n < 2 || n > 5 {
			t.Errorf("profile #%d (%s): %d interests, want 2-5", i, p.AgentID, n)
		}
		if p.Availability == "" {
			t.Errorf("profile #%d (%s): no availability", i, p.AgentID)
		}
		if n := len([]rune(p.ProfileSummary)); n < 200 || n > 500 {
			t.Errorf("profile #%d (%s): summary of %d characters, want 200-500", i, p.AgentID, n)
		}
	}
}

// TestMockProfilesNormalized checks that the file is stored in normalized
// form: a plain decode gives exactly what ParseProfiles returns.
func TestMockProfilesNormalized(t *testing.T) {
	profiles := loadProfiles(t)
	var plain []negotiation.AgentProfile
	if err := json.Unmarshal(MockProfiles, &plain); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain, profiles) {
		t.Error("mock_profiles.json is not normalized (white space around some text)")
	}
}

func TestMockProfilesVocabulary(t *testing.T) {
	profiles := loadProfiles(t)
	known := make(map[string]bool)
	for _, tag := range vocabulary {
		known[tag] = true
	}
	count := make(map[string]int)
	for _, p := range profiles {
		for _, tag := range p.Tags {
			if !known[tag] {
				t.Errorf("%s: tag %q is not in the vocabulary", p.AgentID, tag)
			}
			count[tag]++
		}
	}
	for _, tag := range vocabulary {
		if count[tag] < 2 {
			t.Errorf("tag %q used by %d profiles, want at least 2", tag, count[tag])
		}
	}
	if n := count["场地提供"]; n < 8 {
		t.Errorf("%d profiles offer 场地提供, want at least 8", n)
	}
	if n := count["演讲嘉宾"]; n < 10 {
		t.Errorf("%d profiles offer 演讲嘉宾, want at least 10", n)
	}
}

func TestMockProfilesCities(t *testing.T) {
	profiles := loadProfiles(t)
	known := make(map[string]bool)
	for _, c := range cities {
		known[c] = true
	}
	count := make(map[string]int)
	for _, p := range profiles {
		if !known[p.Location] {
			t.Errorf("%s: location %q is not one of %v", p.AgentID, p.Location, cities)
		}
		count[p.Location]++
	}
	for _, c := range cities {
		if count[c] == 0 {
			t.Errorf("no profile in %s", c)
		}
	}
}
