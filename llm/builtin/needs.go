package builtin

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	neg "github.com/towow/towow/domain/negotiation"
)

// Needs: the people a demand asks for, each a role of the
// vocabulary with its tag and a count read from the words before it
// ("两位主讲嘉宾" → 2, "two keynote speakers" → 2, "a caterer" → 1).

// compositeRoles are roles no single tag of the vocabulary names: served
// by any of several tags (a hackathon's judges are experts of any kind),
// or by a tag of their own.
var compositeRoles = []struct {
	role     string
	tags     []string
	keywords []string
}{
	{"评委", []string{"演讲嘉宾", "AI研究", "产品经理"}, []string{"评委", "评审", "judge", "judges", "jury", "juror", "jurors"}},
	{"导师", []string{"演讲嘉宾", "产品经理", "AI研究"}, []string{"导师", "mentor", "mentors", "coach", "coaches"}},
	// A full-stack developer works on either end.
	{"全栈工程师", []string{"前端开发", "后端开发"}, []string{"全栈", "full stack", "fullstack"}},
	// An anchor selling or talking on a stream is a host or a livestream
	// hand.
	{"主播", []string{"直播", "主持"}, []string{"主播", "带货主播", "streamer", "streamers"}},
	// No profile sponsors anything today: the need is named, and reported
	// as a gap, rather than dropped.
	{"赞助商", []string{"赞助"}, []string{"赞助商", "赞助", "冠名", "sponsor", "sponsors", "sponsorship"}},
}

// forWhom ends a text with "for" and a determiner: the role word after it
// is whom another's work is for ("a report for the sponsors").
var forWhom = regexp.MustCompile(`\bfor\s+(?:the|our|my|their|all\s+(?:the|our))\s+$`)

// need is a need found in a text, where its keyword is.
type need struct {
	neg.Need
	pos, end int
	// situation: named by a word for the situation calling for the
	// worker (contextWords), which says what the next need's person is
	// like when it comes right before it ("双语主持": a bilingual host).
	situation bool
}

// needsIn returns the needs a root demand's text names, in the order it
// names them: composite roles, the vocabulary's tags, role nouns it does
// not know and a kind of work several trades do as an item of their own
// in a list; else the profiles' own words, else a kind of work several
// trades do. An event that names no role needs a venue and a planner; a
// text that names neither needs nothing (the demand is unclear).
func needsIn(raw string, event string) []neg.Need {
	lower := dehyphen(strings.ToLower(raw))
	found := compositeNeeds(lower)
	found = append(found, vocabularyNeeds(lower)...)
	found = besideRoleNouns(lower, found)
	if len(found) > 0 {
		found = append(found, listedGeneralNeeds(lower, found)...)
	}
	if len(found) == 0 && event == "" {
		// Nobody named in the vocabulary's words, and no event: the
		// profiles' own words may still name someone ("会写小红书种草笔记
		// 的写手").
		found = lexiconNeeds(lower)
	}
	if len(found) == 0 {
		found = generalNeeds(lower)
	}
	if len(found) == 0 && event != "" {
		return []neg.Need{{Role: roleOf("场地提供"), CapabilityTags: []string{"场地提供"}, Count: 1},
			{Role: roleOf("活动策划"), CapabilityTags: []string{"活动策划"}, Count: 1}}
	}
	return withCountAlone(lower, neg.NormalizeNeeds(joinAdjacent(lower, found)))
}

// countAlone is a count of people that stands as a clause of its own
// ("青岛啤酒节的志愿者招募，需要50人", "Ushers wanted. We need 12 people.").
var countAlone = regexp.MustCompile(`(?:^|[，。,.;；!！?？]\s*)(?:还|一共|共|大概|大约)?需要?\s*([0-9]+|[一二两三四五六七八九十百几]+)\s*个?人\s*(?:[，。,.;；!！?？]|$)|\bneed\s+(?:about\s+|around\s+)?([0-9]+)\s+(?:people|persons)\s*(?:[,.;!?]|$)`)

// withCountAlone gives a count of people standing alone (countAlone) to
// the demand's helpers, when they are its one need of people and have no
// count of their own: whom else could it count? Needs of trades that
// serve guests (a place, food) do not count: the count may be their
// guests. Nor does a need for other people ("年会，需要200人，找个主持":
// the 200 are the guests, not hosts).
func withCountAlone(lower string, needs []neg.Need) []neg.Need {
	m := countAlone.FindStringSubmatch(lower)
	if m == nil {
		return needs
	}
	one := -1
	for i, n := range needs {
		if servesGuests(n.CapabilityTags) {
			continue
		}
		if one >= 0 {
			return needs
		}
		one = i
	}
	if one < 0 || needs[one].Count != 1 || !slices.Contains(needs[one].CapabilityTags, "志愿者") {
		return needs
	}
	needs[one].Count = min(countNumber(m[1]+m[2]), neg.MaxNeedCount)
	return needs
}

// compositeNeeds are the composite roles lower names (compositeRoles),
// not whom another's work is for (forWhom).
func compositeNeeds(lower string) []need {
	var found []need
	for _, c := range compositeRoles {
		if p := firstKeyword(lower, c.keywords); p >= 0 && !negatedAt(lower, p, p) {
			end := p
			for _, kw := range c.keywords {
				if strings.HasPrefix(lower[p:], kw) {
					end = max(end, p+len(kw))
				}
			}
			if longerKeywordAt(lower, p, end) {
				continue // "a coach bus" is transport, not a mentor
			}
			if forBefore(forWhom, lower[:p]) != nil {
				continue // "a report for the sponsors": whom the work is for
			}
			found = append(found, need{neg.Need{Role: c.role, CapabilityTags: c.tags, Count: countAt(lower, p, end, c.tags)}, p, p, false})
		}
	}
	return found
}

// vocabularyNeeds are the needs the vocabulary's tags name in lower, each
// with its count. A tag matched only by a keyword other tags share too
// ("网站" names front-end and back-end work) is left out when one of those
// tags is matched by a keyword of its own ("前端").
func vocabularyNeeds(lower string) []need {
	var found []need
	hits := keywordHits(lower)
	setAside(lower, hits)
	for _, t := range vocabulary {
		h, ok := hits[t.tag]
		if !ok {
			continue
		}
		if !h.strong && !namesEach[h.word] && slices.ContainsFunc(sharers[t.tag], func(o string) bool { return hits[o].strong }) {
			continue
		}
		count := h.count
		if count == 0 && h.word == "招募" {
			count = 1 // "招募10位用户": the count is of the recruits
		}
		if count == 0 {
			count = countAt(lower, h.pos, runOfTag(lower, t.tag, h.end), []string{t.tag})
			if count > 1 && (!countsPeople(lower, h) || isParticiple(h.word) || servesGuests([]string{t.tag}) && !namesServer(h.word)) {
				count = 1 // "a few photos for the menu": one photographer; "200 copies printed", "500个帆布袋": one printer; "100位来宾的午餐": one caterer
			}
			if count == 1 {
				count = max(1, peopleCountElsewhere(lower, tagIndex[t.tag], h.pos))
			}
		}
		found = append(found, need{neg.Need{Role: t.role, CapabilityTags: []string{t.tag}, Count: count}, h.pos, h.end, contextWords[h.word]})
	}
	return found
}

// namesEach are keywords shared by trades that name each of them, not
// either ("前后端都要": a front-end and a back-end developer, whatever else
// names one of them).
var namesEach = map[string]bool{"前后端": true}

// namesServer reports whether the keyword w of a trade that serves guests
// (servingTags) names a person of the trade ("厨师", "drivers"), not what
// the trade provides: a count of their things ("500 tote bags", "两个会议
// 室", "100份午餐") counts the things, and one provider makes, holds or
// serves them all.
func namesServer(w string) bool {
	if last, _ := utf8.DecodeLastRuneInString(w); cnPersonWord(w) || strings.ContainsRune("子傅", last) || w == "司机" {
		return true // 厨子, 师傅
	}
	head := w[strings.LastIndex(w, " ")+1:]
	return slices.Contains(serverNouns, strings.TrimSuffix(head, "s"))
}

// serverNouns are the English nouns (singular) for a person of a trade
// that serves guests.
var serverNouns = []string{"caterer", "chef", "cook", "baker", "barista", "bartender", "waiter", "waitstaff", "driver", "chauffeur",
	"roadie", "engineer", "technician", "tech", "designer", "operator", "crew", "team", "staff", "dj"}

// runOfTag is the end of the keywords of tag that follow one another from
// end on, with nothing between: "签到志愿者两名" is counted after 志愿者,
// not after 签到.
func runOfTag(lower, tag string, end int) int {
	for {
		next := end
		for _, kw := range tagKeywords[tagIndex[tag]] {
			if !isASCII(kw) && strings.HasPrefix(lower[end:], kw) {
				next = max(next, end+len(kw))
			}
		}
		if next == end {
			return end
		}
		end = next
	}
}

// besideRoleNouns adds to found the people the demand asks for by a noun
// the vocabulary does not know: still needs (reported as gaps), at an
// event too, and beside the needs the vocabulary names ("需要化妆师、摄影师
// 和一位司仪"); a noun one letter off a long keyword is that keyword's.
func besideRoleNouns(lower string, found []need) []need {
	for _, r := range roleNounNeeds(lower) {
		if keywordSet[lower[r.pos:r.end]] {
			continue // the vocabulary decided on it ("a designer for the poster": the poster's)
		}
		if t, ok := misspelt(lower[r.pos:r.end]); ok { // "phtographer": a photographer
			r.Need = neg.Need{Role: vocabulary[t].role, CapabilityTags: []string{vocabulary[t].tag}, Count: r.Count}
		}
		if negatedAt(lower, r.pos, r.end) {
			continue
		}
		if i := servesAs(lower, r, found); i >= 0 {
			found[i].Count = max(found[i].Count, r.Count) // "3 investors as judges": three judges
			continue
		}
		if i := slices.IndexFunc(found, func(n need) bool { return teachesActivity(lower, r, n) }); i >= 0 {
			found[i] = r // "a yoga instructor": no speaker; "a swimming coach": no mentor
			continue
		}
		if !slices.ContainsFunc(found, func(n need) bool {
			return r.pos < max(n.end, n.pos+1) && n.pos < r.end || namesNeed(lower[r.pos:r.end], n.Need) ||
				slices.Equal(n.CapabilityTags, r.CapabilityTags)
		}) {
			found = append(found, r)
		}
	}
	return found
}

// asRole is what comes between a person's noun and the role they are
// asked to serve as ("investors as judges", "两位老师当评委").
var asRole = regexp.MustCompile(`^(?:es|s)?\s+as\s+(?:(?:a|an|the|our|my)\s+)?|^来?(?:当|做|担任|作为)`)

// servesAs is the index in found of the need that role noun r is
// followed by as the role the person serves as ("investors as judges":
// the judges' need, one person each), or -1.
func servesAs(lower string, r need, found []need) int {
	m := asRole.FindStringIndex(lower[r.end:])
	if m == nil {
		return -1
	}
	return slices.IndexFunc(found, func(n need) bool { return n.pos == r.end+m[1] })
}

// keywordHits are where each vocabulary tag is named in lower: its best
// keyword hit (betterHit), else its work asked for by a verb, a worker
// noun, an asked object, helpers or a work pattern; a hit inside another
// tag's longer hit names that tag alone.
func keywordHits(lower string) map[string]keywordHit {
	hits := map[string]keywordHit{}
	for i, t := range vocabulary {
		h := keywordHit{pos: -1}
		for _, kw := range append([]string{strings.ToLower(t.tag)}, tagKeywords[i]...) {
			// A keyword inside another tag's longer one names that tag
			// alone ("speakers" in "speakers and mics" is equipment, "food"
			// in "food bank" no caterer), and leaves the tag to its other
			// keywords and places ("楼书" in "楼书设计" leaves "伴手礼" to the
			// printer; "写直播脚本、做直播运营": the second 直播).
			p := findKeywordUnless(lower, kw, func(before, rest string) bool {
				q := len(before)
				return roleKeywordSkipped(before, rest, kw) || composite(lower, q) || insideLonger(lower, i, kw, q)
			})
			if p < 0 {
				continue
			}
			strong := !shared[kw]
			if h.pos >= 0 && !betterHit(kw, p, strong, h) {
				continue
			}
			h = keywordHit{p, p + len(kw), strong, 0, kw}
			if contextWords[kw] {
				h.count = 1 // "三位外宾": the count is of the guests
			}
		}
		if h.pos < 0 {
			h = verbHit(lower, i)
		}
		if p, end := findWorker(lower, i); p >= 0 && (h.pos < 0 || p < h.pos) {
			h = keywordHit{p, end, true, 0, ""}
		}
		if h.pos < 0 {
			if p, end := findAskedObject(lower, i); p >= 0 {
				h = keywordHit{p, end, true, 0, ""}
			}
		}
		if t.tag == "志愿者" && (h.pos < 0 || h.count == 0) {
			// People asked to help, counted, count a keyword's helpers too
			// ("需要几个人帮忙搬东西布置会场").
			if p, end, n := findHelpers(lower); p >= 0 && (h.pos < 0 || n > 1) {
				h = keywordHit{p, end, true, n, ""}
			}
		}
		if w, ok := workPatterns[t.tag]; ok && h.pos < 0 {
			if m := w.re.FindStringSubmatchIndex(lower); m != nil {
				for g := 2; g+1 < len(m); g += 2 { // the person's word, after its count: the first group that matched
					if m[g] >= 0 {
						m = m[g : g+2]
						break
					}
				}
				// Promotion in the match says what the work is for ("拍探店视频").
				if w.takesThings || !slices.ContainsFunc(tagsInText(lower[m[0]:m[1]]), func(o string) bool { return o != t.tag && o != "市场推广" }) {
					h = keywordHit{m[0], m[1], true, 0, ""}
				}
			}
		}
		if h.pos >= 0 {
			hits[t.tag] = h
		}
	}
	shootsVideo(lower, hits)
	editsFootage(lower, hits)
	designsPrint(lower, hits)
	// A hit inside another tag's longer hit, or a keyword begun inside an
	// earlier one ("场地推荐": no 地推), names that tag alone; the tag goes to its
	// next keyword ("写直播脚本、做直播运营": the second 直播).
	// Decided on every hit before any moves.
	inside := map[string]bool{}
	for tag, h := range hits {
		for other, o := range hits {
			if other != tag && within(h, o) {
				inside[tag] = true
				break
			}
		}
	}
	for tag := range inside {
		if next, ok := nextKeywordHit(lower, tag, hits[tag].end); ok {
			hits[tag] = next
		} else {
			delete(hits, tag)
		}
	}
	return hits
}

// within reports whether hit h lies inside o's longer span, or is a
// keyword begun inside the keyword o before it.
func within(h, o keywordHit) bool {
	inside := o.pos <= h.pos && h.end <= o.end && o.end-o.pos > h.end-h.pos
	overlaps := o.pos < h.pos && h.pos < o.end && o.end < h.end && o.word != "" && h.word != ""
	return inside || overlaps
}

// shootsVideo makes 拍摄 a camera operator's, not a photographer's, when
// what the demand shoots is a video and no camera operator's word is there
// ("宠物店想拍一条抖音短视频，需要人拍摄"); the photographer keeps a later
// word of their own. An event to shoot, said in English, is a camera
// operator's when one is asked for.
func shootsVideo(lower string, hits map[string]keywordHit) {
	h, ok := hits["摄影"]
	_, video := hits["摄像"]
	switch {
	case !ok:
	case video && h.word == "" && isASCII(lower[h.pos:h.end]):
		delete(hits, "摄影") // "a videographer to capture our conference": the event shot is theirs
	case !video && h.word == "拍摄" && videoThing.MatchString(lower):
		hits["摄像"] = h
		movePast(lower, hits, map[string]int{"摄影": h.end})
	}
}

// editsFootage makes footage that a demand asks to edit or cut the
// editor's material ("edit 10 hours of conference footage into short
// clips"): the editor's need, not a camera operator's, unless another
// word of the camera operator's asks for one.
func editsFootage(lower string, hits map[string]keywordHit) {
	m := footageEdited.FindStringIndex(lower)
	if m == nil {
		return
	}
	if h, ok := hits["摄像"]; ok && h.pos >= m[0] && h.end <= m[1] {
		delete(hits, "摄像")
	}
	if _, ok := hits["视频剪辑"]; !ok {
		hits["视频剪辑"] = keywordHit{m[0], m[1], true, 0, ""}
	}
}

// footageEdited is footage a verb of editing acts on.
var footageEdited = regexp.MustCompile(`\b(?:edit|cut|trim)\s+(?:[a-z0-9'-]+\s+){0,5}?footage\b`)

// designsPrint makes a designer named by the bare word a graphic
// designer when what follows in their clause is a printed thing and no
// graphic designer's word is there ("需要一个设计师做宣传物料").
func designsPrint(lower string, hits map[string]keywordHit) {
	h, ok := hits["UI设计"]
	p, printed := hits["印刷物料"]
	if _, graphic := hits["平面设计"]; !ok || !printed || graphic || !slices.Contains(bareDesigner, h.word) ||
		p.pos < h.end || p.pos-h.end > 40 || strings.ContainsAny(lower[h.end:p.pos], "。.；;！!？?") {
		return
	}
	hits["平面设计"] = h
	delete(hits, "UI设计")
}

// videoThing is a video the demand is about.
var videoThing = regexp.MustCompile(`视频|短片|宣传片|片子|纪录片|微电影|vlog|\bmv\b`)

// joinAdjacent orders the needs found by where they are named and joins
// those named side by side into one person.
func joinAdjacent(lower string, found []need) []neg.Need {
	slices.SortStableFunc(found, func(a, b need) int { return a.pos - b.pos })
	var out []neg.Need
	prevEnd, lastPos, lastSituation := -1, 0, false
	for _, n := range found {
		switch {
		case len(out) > 0 && lastSituation && (n.pos == prevEnd || n.pos == prevEnd+1 && lower[prevEnd] == ' '),
			len(out) > 0 && n.pos == prevEnd && objectOfBa(lower, lastPos):
			// "双语主持": what the host is like; "把宣传册翻译成英文": what
			// the translator works on.
			out[len(out)-1] = n.Need
		case len(out) > 0 && n.pos == prevEnd && !inVocabulary(n.Need) && inVocabulary(out[len(out)-1]):
			// A noun for the person, then what the trade asks of them.
		case len(out) > 0 && n.pos == prevEnd && inVocabulary(n.Need) && !inVocabulary(out[len(out)-1]):
			// "两位在职工程师分享经验": the person a role noun names, asked
			// for the work a trade does, is that trade's, as many as the
			// count before the noun ("十几个学生志愿者").
			count := max(n.Count, out[len(out)-1].Count)
			out[len(out)-1] = n.Need
			out[len(out)-1].Count = count
		case len(out) > 0 && (n.pos == prevEnd || strings.HasPrefix(lower[prevEnd:], "兼") && n.pos == prevEnd+len("兼")) && !eachCount.MatchString(lower[n.end:]):
			// "海报设计师", "摄影摄像", "摄影兼摄像": one person, either skill;
			// not when each is counted ("摄影摄像各一名": two people); as many
			// as either word counts ("会务志愿者8名")
			last := &out[len(out)-1]
			last.CapabilityTags = append(slices.Clone(last.CapabilityTags), n.CapabilityTags...)
			last.Count = max(last.Count, n.Count)
		default:
			out = append(out, n.Need)
		}
		prevEnd = max(prevEnd, n.end)
		lastSituation, lastPos = n.situation, n.pos
	}
	return out
}

// verbHit is where a verb of vocabulary tag i's keywords is asked for
// (verbs.go), as a keyword hit of the tag alone, or pos -1. An object that
// names another tag takes the verb's place.
func verbHit(lower string, i int) keywordHit {
	h := keywordHit{pos: -1}
	namesOther := func(object string) bool {
		return slices.ContainsFunc(tagsInText(object), func(t string) bool { return t != vocabulary[i].tag })
	}
	for _, v := range tagVerbs[i] {
		p, n := -1, 0
		if v.zh {
			p, n = findZhVerb(lower, v.verb)
		} else {
			p = findVerb(lower, v.verb, namesOther)
		}
		if p >= 0 && (h.pos < 0 || p < h.pos) {
			h = keywordHit{p, p + len(v.verb), v.strong, n, ""}
		}
	}
	return h
}

// keywordHit is where a tag's keyword is in a text, whether the keyword
// names that tag alone, and how many people it asks for when that is not
// written where it is (0: it is; countAt reads it).
type keywordHit struct {
	pos, end int
	strong   bool
	count    int
	word     string // the keyword, when a keyword of the tag was hit
}

// betterHit reports whether keyword kw at p (strong: no other tag has it)
// marks a tag's need better than the hit h so far: a strong keyword before
// a shared one; then a word for the worker before a word for the
// situation (contextWords); then the earlier, and of two at one place the
// longer.
func betterHit(kw string, p int, strong bool, h keywordHit) bool {
	switch {
	case strong != h.strong:
		return strong
	case contextWords[kw] != contextWords[h.word]:
		return !contextWords[kw]
	case p == h.pos: // "ux researcher" over "ux"
		return len(kw) > h.end-h.pos
	}
	return p < h.pos
}

// generalWork are words for a kind of work several trades do, read only
// when nothing more precise names anyone: one person, of any of them
// ("周六的活动需要一个负责设计的人": a graphic or a UI designer).
var generalWork = []struct {
	role  string
	tags  []string
	words []string
}{
	{"设计师", []string{"平面设计", "UI设计"}, []string{"设计", "design", "designer", "designers"}},
	{"开发工程师", []string{"前端开发", "后端开发"}, []string{"编程", "程序", "重构", "coding", "code", "codebase", "programmer", "programmers", "refactor", "refactoring"}},
}

// generalNeeds are the needs generalWork's words name in lower.
func generalNeeds(lower string) []need {
	var out []need
	for _, g := range generalWork {
		if p := firstKeyword(lower, g.words); p >= 0 && !negatedAt(lower, p, p) {
			out = append(out, need{neg.Need{Role: g.role, CapabilityTags: g.tags, Count: 1}, p, p, false})
		}
	}
	return out
}

// listedGeneralNeeds are the needs generalWork's words name as an item of
// their own in a list beside other needs ("需要会英文的运营和设计": a
// designer of either trade), when no need found so far is of their
// trades.
func listedGeneralNeeds(lower string, found []need) []need {
	var out []need
	for _, g := range generalWork {
		if slices.ContainsFunc(found, func(n need) bool {
			return slices.ContainsFunc(n.CapabilityTags, func(t string) bool { return slices.Contains(g.tags, t) })
		}) {
			continue
		}
		for _, w := range g.words {
			p := findKeywordUnless(lower, w, func(before, rest string) bool {
				return !listItemBefore.MatchString(before) || !listItemAfter.MatchString(rest)
			})
			if p >= 0 {
				out = append(out, need{neg.Need{Role: g.role, CapabilityTags: g.tags, Count: 1}, p, p + len(w), false})
				break
			}
		}
	}
	return out
}

var (
	// listItemBefore and listItemAfter hold a list's item alone: after an
	// asking word or a list's joint, before a clause's end or a joint
	// ("缺设计缺前端").
	listItemBefore = regexp.MustCompile(`(?:需要|还要|缺|和|、|及|以及|\band |, )$`)
	listItemAfter  = regexp.MustCompile(`^(?:$|[，,。.；;、！!？?]|和|及|缺|\s+and\b)`)
)

// longerKeywordAt reports whether a vocabulary keyword longer than
// lower[p:end] starts at p.
func longerKeywordAt(lower string, p, end int) bool {
	for i := range vocabulary {
		for _, kw := range tagKeywords[i] {
			if len(kw) > end-p && findKeywordFrom(lower, kw, p) == p {
				return true
			}
		}
	}
	return false
}

// namesNeed reports whether a role noun holds a keyword of n's trade
// ("理财讲师" holds 讲师): the noun is that need's person, however the
// text named the need first.
func namesNeed(noun string, n neg.Need) bool {
	if !inVocabulary(n) {
		return false
	}
	for _, t := range n.CapabilityTags {
		if i, ok := tagIndex[t]; ok && slices.ContainsFunc(tagKeywords[i], func(kw string) bool { return findKeyword(noun, kw) >= 0 }) {
			return true
		}
	}
	return false
}

// inVocabulary reports whether n asks for a trade of the vocabulary (not
// a role noun's person nobody's trade names).
func inVocabulary(n neg.Need) bool {
	if len(n.CapabilityTags) == 0 {
		return false
	}
	_, ok := tagIndex[n.CapabilityTags[0]]
	return ok
}

// contextWords are keywords that name the situation calling for a tag's
// worker rather than the worker ("外宾" for a translator): the worker's
// own word, where the text has one, is the need's place and count, and a
// count before a situation word counts something else ("三位外宾").
var contextWords = map[string]bool{"外宾": true, "双语": true, "bilingual": true}

// roleKeywordSkipped reports whether kw, between before and rest, does not
// ask for someone: it names who an event is for or about ("产品经理交流会",
// "摄影展", "AI研究沙龙": the words right after it name the event;
// "training for 40 staff": a number of people before it), which says
// nothing about the people it needs, the writer's own activity, what a
// teacher the demand asks for teaches (taughtSubject), or what a product
// does (productAfter).
func roleKeywordSkipped(before, rest, kw string) bool {
	return namesEvent(rest) && !modalBefore.MatchString(before) && !heldBy[kw] || namesAudience(before) || ownActivity(before, kw) || straddlesEvent(kw, rest) ||
		taughtSubject(before, rest, kw) || productAfter.MatchString(rest)
}

// heldBy are keywords for how an event is held, not what it is about: the
// event needs their trade ("直播发布会": a launch streamed live).
var heldBy = map[string]bool{"直播": true, "线上直播": true, "livestream": true, "livestreamed": true, "live stream": true, "live streamed": true}

// productAfter starts with a noun for a software product that ends its
// phrase ("app reviews" are reviews): the word before it says what the product does ("AI写作助手的产品",
// "a translation app", "摄影修图小程序"), not someone to do it ("翻译软件界
// 面" translates the software's screens).
var productAfter = regexp.MustCompile(`^(?:助手|工具|软件|小程序|app|平台|插件)(?:$|[^\p{Han}]|[的和或])|^\s+(?:app|apps|tool|software|platform|assistant|bot|chatbot|plugin)(?:\s*$|\s*[,.;!?)]|\s+(?:and|or|for|that|which|to|with|in|on|we|i|is|are)\b)`)

// taughtSubject reports whether kw, between before and rest, is what a
// teacher named in the text teaches: the object of a verb of teaching in
// its clause ("an instructor who can teach lighting", "老师教孩子们摄影")
// or the subject of a class ("请个老师上一堂数据分析课"). The teacher is
// the need, not a worker of the subject's trade; without a teacher's noun
// the trade's worker may be the one to teach it.
func taughtSubject(before, rest, kw string) bool {
	if !taughtBefore.MatchString(before) && !classAfter.MatchString(rest) {
		return false
	}
	return namesTeacher(before) || namesTeacher(rest)
}

// namesTeacher reports whether s names a person who teaches (a coach bus
// is a vehicle).
func namesTeacher(s string) bool {
	return teacherNoun.MatchString(strings.ReplaceAll(s, "coach bus", ""))
}

var (
	// taughtBefore ends a clause with a verb of teaching and the few
	// words for whom it is taught to.
	taughtBefore = regexp.MustCompile(`\bteach(?:es|ing)?\s+(?:[a-z-]+\s+){0,5}$|教(?:[^室育材程学练授师会堂导务官\s，。,.;；:：!！?？、][^，。,.;；:：!！?？、\s]{0,5})?$`)
	// classAfter starts with a word for a class on the subject before it.
	classAfter = regexp.MustCompile(`^(?:课|培训|\s+(?:class|classes|lesson|lessons|course|courses)\b)`)
	// teacherNoun is a noun for a person who teaches.
	teacherNoun = regexp.MustCompile(`\b(?:teacher|instructor|trainer|tutor|coach|lecturer)(?:e?s)?\b|老师|讲师|教练|导师|家教|培训师|教师|外教`)
)

// straddlesEvent reports whether a Chinese keyword's last characters start
// an event's word that the text after it ends ("开发布会": 开 and 发布会,
// no development).
func straddlesEvent(kw, rest string) bool {
	if isASCII(kw) {
		return false
	}
	for _, e := range eventWords {
		for i := range e.kw {
			if i > 0 && utf8.RuneStart(e.kw[i]) && strings.HasSuffix(kw, e.kw[:i]) && strings.HasPrefix(rest, e.kw[i:]) {
				return true
			}
		}
	}
	return false
}

// modalBefore ends with a word that makes the next one a verb: "能主持年会"
// hosts the party, "摄影展" is an exhibition.
var modalBefore = regexp.MustCompile(`(?:能|会|来|帮忙|负责|可以)$`)

// composite reports whether the keyword at p is part of a composite
// role's keyword ("评审" is not a request for a 审计).
func composite(lower string, p int) bool {
	for _, c := range compositeRoles {
		for _, kw := range c.keywords {
			if i := findKeyword(lower, kw); i >= 0 && p >= i && p < i+len(kw) && !longerKeywordAt(lower, i, i+len(kw)) {
				return true
			}
		}
	}
	return false
}

func firstKeyword(lower string, kws []string) int {
	best := -1
	for _, kw := range kws {
		if p := findKeyword(lower, kw); p >= 0 && (best < 0 || p < best) {
			best = p
		}
	}
	return best
}

// shared are the keywords of more than one tag; sharers lists, per tag, the
// tags it shares a keyword with. Two tags named by adjacent keywords
// are one need served by either.
var shared, sharers = func() (map[string]bool, map[string][]string) {
	owners := map[string][]string{}
	for i, t := range vocabulary {
		for _, kw := range tagKeywords[i] {
			owners[kw] = append(owners[kw], t.tag)
		}
	}
	s, by := map[string]bool{}, map[string][]string{}
	for kw, tags := range owners {
		if len(tags) < 2 {
			continue
		}
		s[kw] = true
		for _, a := range tags {
			for _, b := range tags {
				if a != b && !slices.Contains(by[a], b) {
					by[a] = append(by[a], b)
				}
			}
		}
	}
	return s, by
}()
