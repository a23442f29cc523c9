package mocknet

import (
	"reflect"
	"strings"
	"testing"

	"github.com/towow/towow/domain/negotiation"
)

// TestNetworkShape holds every generated profile to the shape of the
// hand-written ones: valid, a summary of MinSummary to MaxSummary
// characters naming the person and telling each of their trades, one to
// three tags of the vocabulary, a capability per tag and a fee, two to
// four interests, and no remote person whose main work is on site.
func TestNetworkShape(t *testing.T) {
	ps := Network(5000)
	ids := map[string]bool{}
	short := 0
	for _, p := range ps {
		if err := negotiation.ValidateProfile(p); err != nil {
			t.Fatalf("%s: %v", p.AgentID, err)
		}
		if ids[p.AgentID] {
			t.Fatalf("%s twice", p.AgentID)
		}
		ids[p.AgentID] = true
		n := len([]rune(p.ProfileSummary))
		if n < MinSummary || n > MaxSummary {
			t.Errorf("%s: summary of %d characters, want %d-%d: %s", p.AgentID, n, MinSummary, MaxSummary, p.ProfileSummary)
		}
		if n < 250 {
			short++
		}
		if !strings.Contains(p.ProfileSummary, p.UserName) {
			t.Errorf("%s: the summary does not name %s", p.AgentID, p.UserName)
		}
		if len(p.Tags) < 1 || len(p.Tags) > 3 {
			t.Errorf("%s: %d tags", p.AgentID, len(p.Tags))
		}
		for _, tag := range p.Tags {
			tr := tradeOf(tag)
			if tr == nil {
				t.Fatalf("%s: tag %q has no trade", p.AgentID, tag)
			}
			if !slicesHasPrefixIn(p.ProfileSummary, tr.titles) {
				t.Errorf("%s: the summary does not say what a %s does: %s", p.AgentID, tag, p.ProfileSummary)
			}
		}
		if len(p.Capabilities) != len(p.Tags)+1 || p.Capabilities["费用"] == "" {
			t.Errorf("%s: capabilities %v for tags %v", p.AgentID, p.Capabilities, p.Tags)
		}
		if len(p.Interests) < 2 || len(p.Interests) > 4 {
			t.Errorf("%s: %d interests", p.AgentID, len(p.Interests))
		}
		if p.Location == "远程" && !tradeOf(p.Tags[0]).remote {
			t.Errorf("%s: remote, but a %s works on site", p.AgentID, p.Tags[0])
		}
	}
	if short > len(ps)/4 {
		t.Errorf("%d of %d summaries under 250 characters: too many at the lower bound", short, len(ps))
	}
}

// slicesHasPrefixIn reports whether s contains any of titles.
func slicesHasPrefixIn(s string, titles []string) bool {
	for _, t := range titles {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}

// TestNetworkCoversTheVocabulary checks that every tag of the vocabulary
// has its trade, each with enough phrases to vary, and that every kin is a
// trade too.
func TestNetworkCoversTheVocabulary(t *testing.T) {
	if len(trades) != 25 {
		t.Errorf("%d trades, want the vocabulary's 25", len(trades))
	}
	seen := map[string]bool{}
	for _, tr := range trades {
		if seen[tr.tag] {
			t.Errorf("%s twice", tr.tag)
		}
		seen[tr.tag] = true
		if len(tr.titles) < 2 || len(tr.works) < 3 || len(tr.ways) < 3 || len(tr.caps) < 2 {
			t.Errorf("%s: %d titles, %d works, %d ways, %d capabilities; want at least 2, 3, 3, 2", tr.tag, len(tr.titles), len(tr.works), len(tr.ways), len(tr.caps))
		}
		for _, w := range append(tr.works, tr.fee) {
			if strings.Count(w, "%d") != 1 {
				t.Errorf("%s: %q wants exactly one %%d", tr.tag, w)
			}
		}
		for _, k := range tr.kin {
			if tradeOf(k) == nil || k == tr.tag {
				t.Errorf("%s: kin %q is not another trade", tr.tag, k)
			}
		}
	}
}

// TestNetworkIsStable checks that a network is the same every time and
// that a larger one begins with the smaller.
func TestNetworkIsStable(t *testing.T) {
	a, b := Network(300), Network(500)
	if !reflect.DeepEqual(a, b[:300]) {
		t.Error("Network(500) does not begin with Network(300)")
	}
}
