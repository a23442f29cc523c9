package builtin

import (
	"regexp"
	"slices"
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
)

// Role nouns: a demand that asks for a kind of person the vocabulary and
// the profiles do not know ("想请一位营养师", "need a nutritionist") is
// clear all the same. The person it names becomes a need of its own, with
// the noun as its role and tag: nobody in the network serves it, so the
// negotiation reports it as a gap instead of refusing the demand as
// unclear. Only a noun asked for counts (after 需要, 找, 请, 招, 缺, 还要 or
// "need", "looking for", "hire", or as a later item of a list asked for
// so), and only one that names a person by its ending (…师, …员; …ist,
// …ian, …er). A noun holding a word the profiles use for a trade
// ("调音师": 调音) is that trade's need instead.

var (
	// cnRoleNoun: a Chinese person noun right after a word that asks for
	// someone, with an optional count between.
	cnRoleNoun = regexp.MustCompile(`(?:需要|找|请|招|缺|求|还要)(?:[0-9]+|[一二两三四五六七八九十几]+)?\s*(?:位|名|个)?(?:专业的|资深的|靠谱的|有经验的|的)?([\p{Han}]{1,4}?(?:工程师|师|员|生|工|手))`)
	// enRoleNoun: an English person noun (with one word before it at
	// most) right after a phrase that asks for someone.
	enRoleNoun = regexp.MustCompile(`\b(?:need|needs|needed|looking for|seeking|hire|hiring|find|want)\s+(?:(?:a|an|one|two|three|four|five|[0-9]+|some|a few|several)\s+)?((?:[a-z]+\s)?(?:[a-z]{3,}(?:ist|ian|er|or|ant)|artist|pilot))s?\b`)
)

// cnListRoleNoun and enListRoleNoun are a person noun as a later item of a
// list (after 、 和 及, or ", a" and "and a"); they count after a word
// that asks for someone earlier in the same sentence.
var (
	cnListRoleNoun = regexp.MustCompile(`(?:、|和|及)(?:[0-9]+|[一二两三四五六七八九十几]+)?\s*(?:位|名|个)?([\p{Han}]{1,4}?(?:工程师|师|员|生|工|手))`)
	enListRoleNoun = regexp.MustCompile(`(?:,|\band)\s+(?:a|an|one|two|three|four|five|[0-9]+)\s+((?:[a-z]+\s)?(?:[a-z]{3,}(?:ist|ian|er|or|ant)|artist|pilot))s?\b`)
)

// notRoleNouns end like a person noun and name none.
var notRoleNouns = []string{"other", "order", "number", "answer", "water", "paper", "letter", "matter", "computer", "dinner",
	"together", "better", "corner", "partner", "poster", "banner", "sticker", "flyer", "folder", "meter", "center", "centre",
	"quarter", "master", "power", "ever", "never", "whatever", "error", "mirror", "color", "colour", "floor", "door", "员工"}

// roleNounNeeds returns the needs the role nouns asked for in a text
// name, at most one per noun.
func roleNounNeeds(lower string) []need {
	var found []need
	seen := map[string]bool{}
	add := func(role string, p, end int) {
		if seen[role] || slices.Contains(notRoleNouns, role[strings.LastIndex(role, " ")+1:]) {
			return
		}
		seen[role] = true
		tags := []string{role}
		if e, ok := lexiconWordIn(role); ok {
			// The profiles' own word for the work ("调音" in "调音师"):
			// a trade of the network after all.
			role, tags = roleOf(e.tags[0]), slices.Clone(e.tags)
		}
		found = append(found, need{neg.Need{Role: role, CapabilityTags: tags, Count: countAt(lower, p, end)}, p, end, false})
	}
	for _, m := range cnRoleNoun.FindAllStringSubmatchIndex(lower, -1) {
		add(lower[m[2]:m[3]], m[2], m[3])
	}
	for _, m := range enRoleNoun.FindAllStringSubmatchIndex(lower, -1) {
		add(lower[m[2]:m[3]], m[2], m[3])
	}
	// The later items of a list the demand asks for ("需要化妆师、摄影师和
	// 一位司仪", "need a wedding planner, a florist and a DJ").
	for _, l := range []struct {
		item *regexp.Regexp
		cues []string
	}{{cnListRoleNoun, []string{"需要", "找", "请", "招", "缺", "求"}}, {enListRoleNoun, []string{"need", "looking for", "seeking", "hire", "hiring", "find", "want"}}} {
		for _, m := range l.item.FindAllStringSubmatchIndex(lower, -1) {
			clause := lower[:m[0]]
			if i := strings.LastIndexAny(clause, "。.;；!！?？"); i >= 0 {
				clause = clause[i:]
			}
			if slices.ContainsFunc(l.cues, func(c string) bool { return strings.Contains(clause, c) }) {
				add(lower[m[2]:m[3]], m[2], m[3])
			}
		}
	}
	return found
}
