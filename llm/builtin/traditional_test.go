package builtin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/towow/towow/data"
	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

// TestTraditionalDemandsReadAsSimplified: a demand written in traditional
// characters is understood as the same demand written in simplified ones:
// the same needs, counts and city.
func TestTraditionalDemandsReadAsSimplified(t *testing.T) {
	for _, tc := range []struct{ traditional, simplified string }{
		{"需要一位攝影師和一個場地", "需要一位摄影师和一个场地"},
		{"下個月在北京辦婚禮，需要主持人和攝像師", "下个月在北京办婚礼，需要主持人和摄像师"},
		{"需要兩名翻譯和音響設備", "需要两名翻译和音响设备"},
		{"找一位律師幫忙看合約", "找一位律师帮忙看合约"},
		{"需要設計師做海報，再印一批易拉寶", "需要设计师做海报，再印一批易拉宝"},
		{"需要志願者五名，在廣州", "需要志愿者五名，在广州"},
		{"深圳的發佈會需要直播和茶歇", "深圳的发布会需要直播和茶歇"},
	} {
		got, want := readNeeds(t, tc.traditional), readNeeds(t, tc.simplified)
		if got != want || want == "" {
			t.Errorf("%s:\n got %q\nwant %q (as %s)", tc.traditional, got, want, tc.simplified)
		}
	}
}

// readNeeds is what prompt 1 reads in raw: its needs and its city.
func readNeeds(t *testing.T, raw string) string {
	t.Helper()
	u := plain[tUnderstand](t, understand(&llm.UnderstandInput{RawInput: raw}))
	var b strings.Builder
	for _, n := range u.Needs {
		fmt.Fprintf(&b, "%s×%d%v ", n.Role, n.Count, n.CapabilityTags)
	}
	return b.String() + "| " + u.Context.Location
}

// TestSimplifiedLeavesSimplifiedAlone: text written in simplified
// characters (every profile, every keyword and role of the vocabulary)
// passes through unchanged, and so does English.
func TestSimplifiedLeavesSimplifiedAlone(t *testing.T) {
	profiles, errs := neg.ParseProfiles(data.MockProfiles)
	if len(errs) > 0 || len(profiles) == 0 {
		t.Fatalf("profiles: %v", errs)
	}
	var texts []string
	for _, p := range profiles {
		texts = append(texts, p.ProfileSummary)
		for k, v := range p.Capabilities {
			texts = append(texts, k, v)
		}
	}
	for _, ti := range vocabulary {
		texts = append(texts, ti.role)
		texts = append(texts, ti.keywords...)
	}
	texts = append(texts, "I need a photographer and a caterer in Shanghai")
	for _, s := range texts {
		if got := simplified(s); got != s {
			t.Errorf("simplified changed %q to %q", s, got)
		}
	}
}
