package builtin

import (
	"slices"
	"strings"
	"testing"

	"github.com/towow/towow/data"
	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

// TestProfileLexicon: the lexicon is generated from the profiles' texts:
// each word is used by at least two profiles, all of which carry its tags
// (one or two), and by some profile's capabilities (what they offer, not
// their pastimes); words the network's people use for their work are in
// it.
func TestProfileLexicon(t *testing.T) {
	profiles, errs := neg.ParseProfiles(data.MockProfiles)
	if errs != nil {
		t.Fatal(errs[0])
	}
	words := make([]map[string]bool, len(profiles))
	for i, p := range profiles {
		text := p.ProfileSummary
		for k, v := range p.Capabilities {
			text += "。" + k + "。" + v
		}
		words[i] = map[string]bool{}
		for _, w := range lexiconWords(text) {
			words[i][w] = true
		}
	}
	for _, e := range profileLexicon() {
		users := 0
		for i, p := range profiles {
			if !words[i][e.word] {
				continue
			}
			users++
			for _, tag := range e.tags {
				if !slices.Contains(p.Tags, tag) {
					t.Errorf("%q → %v, but %s uses it without %s", e.word, e.tags, p.AgentID, tag)
				}
			}
		}
		offered := slices.ContainsFunc(profiles, func(p neg.AgentProfile) bool {
			for k, v := range p.Capabilities {
				if slices.Contains(lexiconWords(k+"。"+v), e.word) {
					return true
				}
			}
			return false
		})
		if users < lexiconSupport || len(e.tags) == 0 || len(e.tags) > 2 || !offered {
			t.Errorf("%q → %v: used by %d profiles", e.word, e.tags, users)
		}
		if strings.ContainsAny(e.word, lexiconFunctionRunes) {
			t.Errorf("%q holds a function character", e.word)
		}
	}
	for word, tag := range map[string]string{"调音": "音响设备", "短片": "视频剪辑", "java": "后端开发", "问卷设计": "数据分析"} {
		if !slices.ContainsFunc(profileLexicon(), func(e lexiconEntry) bool { return e.word == word && slices.Contains(e.tags, tag) }) {
			t.Errorf("%q → %s is not in the lexicon", word, tag)
		}
	}
}

// TestLexiconNamesWhoTheKeywordsMiss: a demand none of whose words the
// vocabulary knows asks for the people the profiles' own words name;
// one that names nobody at all is still unclear, and an event that names
// nobody still needs a venue and a planner.
func TestLexiconNamesWhoTheKeywordsMiss(t *testing.T) {
	tests := []struct {
		text string
		want []string // the needs' tags; none: unclear
	}{
		{"远程兼职就行，找一位做过问卷设计的人，帮我们把题目理一理", []string{"数据分析"}},
		{"帮我弄一下", nil},
		{"下周六在杭州搞个读书会", []string{"场地提供", "活动策划"}},
	}
	for _, tt := range tests {
		var got []string
		for _, n := range needsIn(tt.text, eventName(tt.text)) {
			got = append(got, n.CapabilityTags...)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: needs %v, want %v", tt.text, got, tt.want)
		}
	}
	// The whole answer: understood, not the fallback.
	res, call, err := llm.Call(t.Context(), llm.NewClient(llm.Config{Provider: New()}), llm.Understand,
		llm.UnderstandInput{RawInput: tests[0].text})
	if err != nil || call.FallbackUsed || len(res.Needs) != 1 || res.Needs[0].CapabilityTags[0] != "数据分析" {
		t.Fatalf("understood %+v, call %+v, %v", res, call, err)
	}
}
