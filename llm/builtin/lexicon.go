package builtin

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/towow/towow/data"
	neg "github.com/towow/towow/domain/negotiation"
)

// The profile lexicon: words the network's people use for what they do,
// generated from the mock profiles' own texts (data.MockProfiles: their
// summaries and capabilities) rather than listed. A word names the tags
// every profile using it carries, when at least lexiconSupport profiles
// use it, they share one or two tags, and some profile offers it in its
// capabilities (a word only summaries use is as often a pastime as a
// trade: two developers who play badminton do not make "羽毛球" a
// developer's word): "短片" (both 视频剪辑), "问卷设计" (数据分析), "调音"
// (音响设备). Understanding falls back on it when a demand names nobody in
// the vocabulary's keywords, before calling the demand unclear.

// lexiconSupport is how many profiles must use a word for it to count.
const lexiconSupport = 2

// lexiconFunctionRunes are the function characters no lexicon word may
// hold: a word made with them says how something is said, not what is
// done ("可以", "我们", "一个").
const lexiconFunctionRunes = "的了是我你他她它们在和与及也都就还又很可以能会要把被给让从到对为着过这那个些一有不每其或"

// lexiconEntry is one word of the lexicon and the tags it names.
type lexiconEntry struct {
	word string
	tags []string
}

// profileLexicon is the lexicon, longest words first, built the first
// time a demand needs it (about 9 ms and 3.5 MB: not at every start).
var profileLexicon = sync.OnceValue(func() []lexiconEntry { return buildLexicon(data.MockProfiles) })

// buildLexicon generates the lexicon from a JSON array of profiles: every
// run of 2 to 4 Han characters and every ASCII word of 4 letters or more
// of a profile's summary and capabilities.
func buildLexicon(raw []byte) []lexiconEntry {
	profiles, _ := neg.ParseProfiles(raw)
	users := map[string][]int{}  // word → the profiles using it
	offered := map[string]bool{} // words some profile's capabilities use
	for i, p := range profiles {
		var caps strings.Builder
		for k, v := range p.Capabilities {
			caps.WriteString("。" + k + "。" + v)
		}
		for _, w := range lexiconWords(caps.String()) {
			offered[w] = true
		}
		for _, w := range lexiconWords(p.ProfileSummary + caps.String()) {
			if n := len(users[w]); n == 0 || users[w][n-1] != i {
				users[w] = append(users[w], i)
			}
		}
	}
	var out []lexiconEntry
	for w, ps := range users {
		if len(ps) < lexiconSupport || !offered[w] {
			continue
		}
		shared := slices.Clone(profiles[ps[0]].Tags)
		for _, i := range ps[1:] {
			shared = slices.DeleteFunc(shared, func(t string) bool { return !slices.Contains(profiles[i].Tags, t) })
		}
		if len(shared) == 1 || len(shared) == 2 {
			out = append(out, lexiconEntry{w, shared})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if la, lb := len([]rune(out[a].word)), len([]rune(out[b].word)); la != lb {
			return la > lb
		}
		return out[a].word < out[b].word
	})
	return out
}

// lexiconWords are the candidate words of a text: its runs of 2 to 4 Han
// characters without function characters, and its lower-cased ASCII words
// of 4 letters or more.
func lexiconWords(text string) []string {
	var out []string
	var han []rune
	flush := func() {
		for n := 2; n <= 4; n++ {
			for i := 0; i+n <= len(han); i++ {
				w := han[i : i+n]
				if !slices.ContainsFunc(w, func(r rune) bool { return strings.ContainsRune(lexiconFunctionRunes, r) }) {
					out = append(out, string(w))
				}
			}
		}
		han = han[:0]
	}
	for _, r := range text {
		if unicode.Is(unicode.Han, r) {
			han = append(han, r)
			continue
		}
		flush()
	}
	flush()
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r > unicode.MaxASCII || !isASCIIAlnum(byte(r)) }) {
		if len(f) >= 4 {
			out = append(out, f)
		}
	}
	return out
}

// lexiconNeeds are the needs the profile lexicon finds in a lower-cased
// text, longer words first, none naming a tag an earlier one named, each
// counting the people written before its word.
func lexiconNeeds(lower string) []need {
	var found []need
	seen := map[string]bool{}
	for _, e := range profileLexicon() {
		if slices.ContainsFunc(e.tags, func(t string) bool { return seen[t] }) {
			continue
		}
		if p := findKeyword(lower, e.word); p >= 0 {
			for _, t := range e.tags {
				seen[t] = true
			}
			found = append(found, need{neg.Need{Role: roleOf(e.tags[0]), CapabilityTags: slices.Clone(e.tags), Count: countAt(lower, p, p+len(e.word), e.tags)}, p, p + len(e.word), false})
		}
	}
	return found
}

// lexiconWordIn is the longest lexicon word within a role noun, if any.
func lexiconWordIn(noun string) (lexiconEntry, bool) {
	for _, e := range profileLexicon() { // longest first
		if strings.Contains(noun, e.word) {
			return e, true
		}
	}
	return lexiconEntry{}, false
}
