package builtin

import (
	"slices"
	"strings"
)

// Verbs: an English demand often asks for the work rather than the worker
// ("someone to write our job ads", "edit short explainer videos"). Each
// single-word English keyword that is a gerund or an agent noun gives its
// verb by rule ("writing", "writer" → "write"; "editor" → "edit"; "planner"
// → "plan"), and the verb names the keyword's tag where it is asked for:
// after "to", "and", "can", "could", "will", "help", "please" or at the
// start, with an object after it. The object decides when it names a
// trade itself: "design a poster" asks for a poster's designer (平面设计),
// not whatever "designer" names.

// verbCues are the words after which a verb is asked for.
var verbCues = []string{"to ", "and ", "can ", "could ", "will ", "help ", "please "}

// objectSpan is how far after a verb its object may name a trade; the
// object ends earlier at the next clause ("write our job ads and a
// designer for …": the designer is another need).
const objectSpan = 40

// objectEnds end a verb's object.
var objectEnds = []string{" and ", " plus ", " or ", ",", ".", ";", "!", "?"}

// objectOf is the object after a verb: rest up to objectSpan or the next
// clause.
func objectOf(rest string) string {
	obj := rest[:min(len(rest), objectSpan)]
	for _, e := range objectEnds {
		if i := strings.Index(obj, e); i >= 0 {
			obj = obj[:i]
		}
	}
	return obj
}

// verbsOf are a keyword's verbs, given the other keywords of its tag:
// none unless it is a single lower-case word ending in -ing, or in -er or
// -or with another keyword of the tag on the same stem (an agent noun of
// an activity the tag names: "editor" beside "editing", "translator"
// beside "translation"; "poster" and "banner" are things), with a stem of
// at least four letters; the stem less a doubled last letter ("plann" →
// "plan"), and the stem with an e ("writ" → "write").
func verbsOf(kw string, siblings []string) []string {
	if !isASCII(kw) || strings.ContainsAny(kw, " -") {
		return nil
	}
	var stem string
	switch {
	case strings.HasSuffix(kw, "ing"):
		stem = kw[:len(kw)-3]
	case strings.HasSuffix(kw, "er"), strings.HasSuffix(kw, "or"):
		stem = kw[:len(kw)-2]
		if !slices.ContainsFunc(siblings, func(o string) bool {
			return o != kw && o != kw+"s" && strings.HasPrefix(o, stem) && !strings.ContainsAny(o, " -")
		}) {
			return nil
		}
	default:
		return nil
	}
	if n := len(stem); n >= 2 && stem[n-1] == stem[n-2] && !strings.ContainsRune("aeiou", rune(stem[n-1])) {
		stem = stem[:n-1]
	}
	if len(stem) < 4 {
		return nil
	}
	if strings.HasSuffix(stem, "e") {
		return []string{stem}
	}
	return []string{stem, stem + "e"}
}

// findVerb is where verb is first asked for in lower (see verbCues), or
// -1; afterObject reports whether the words after it name another tag.
func findVerb(lower, verb string, namesOther func(object string) bool) int {
	return findKeywordUnless(lower, verb, func(before, rest string) bool {
		asked := before == "" || strings.HasSuffix(before, ". ") || strings.HasSuffix(before, ", ")
		for _, c := range verbCues {
			asked = asked || strings.HasSuffix(before, c)
		}
		// "account for", "plan for": a phrasal verb, not the work.
		if !asked || !strings.HasPrefix(rest, " ") || len(rest) < 2 || !isASCIIAlnum(rest[1]) || strings.HasPrefix(rest, " for ") {
			return true
		}
		return namesOther(objectOf(rest))
	})
}
