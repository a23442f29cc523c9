package builtin

import (
	"regexp"
	"slices"
	"strconv"
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
// names them. A tag matched only by a keyword other tags share too
// ("网站" names front-end and back-end work) is left out when one of those
// tags is named by a keyword of its own ("前端"). An event that names no
// role needs a venue and a planner; a text that names neither needs
// nothing (the demand is unclear).
func needsIn(raw string, event string) []neg.Need {
	lower := dehyphen(strings.ToLower(raw))
	var found []need
	taken := map[string]bool{}
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
			found = append(found, need{neg.Need{Role: c.role, CapabilityTags: c.tags, Count: countAt(lower, p, end)}, p, p, false})
			taken[c.role] = true
		}
	}
	hits := map[string]keywordHit{}
	for i, t := range vocabulary {
		h := keywordHit{pos: -1}
		for _, kw := range append([]string{strings.ToLower(t.tag)}, tagKeywords[i]...) {
			p := findRoleKeyword(lower, kw)
			// A keyword inside another tag's longer one names that tag
			// alone ("speakers" in "speakers and mics" is equipment, "food"
			// in "food bank" no caterer), and leaves the tag to its other
			// keywords ("楼书" in "楼书设计" leaves "伴手礼" to the printer).
			if p < 0 || composite(lower, p) || insideLonger(lower, i, kw, p) {
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
		if t.tag == "志愿者" && h.pos < 0 {
			if p, end, n := findHelpers(lower); p >= 0 {
				h = keywordHit{p, end, true, n, ""}
			}
		}
		if re := workPatterns[t.tag]; re != nil && h.pos < 0 {
			if m := re.FindStringSubmatchIndex(lower); m != nil && !slices.ContainsFunc(tagsInText(lower[m[0]:m[1]]), func(o string) bool { return o != t.tag }) {
				if len(m) >= 4 && m[2] >= 0 { // the person's word, after its count
					m = m[2:4]
				}
				h = keywordHit{m[0], m[1], true, 0, ""} // not "拍一个开场视频", an editor's
			}
		}
		if h.pos >= 0 {
			hits[t.tag] = h
		}
	}
	// A hit inside another tag's longer hit names that tag alone.
	for tag, h := range hits {
		for other, o := range hits {
			if other != tag && o.pos <= h.pos && h.end <= o.end && o.end-o.pos > h.end-h.pos {
				delete(hits, tag)
				break
			}
		}
	}
	var gone []string // decided on every hit before any goes
	for tag, h := range hits {
		if negatedAt(lower, h.pos, h.end) || existingAt(lower, h.pos) || servedGuest(lower, h) || purposeOf(lower, h, hits) ||
			genericDesigner(lower, tag, h, hits) || businessOf(lower, h) || passiveObject(lower, tag, h) || asksWithCount(lower, h, hits) || ownSubject(lower, tagIndex[tag], h, hits) || ownerOf(lower, tag, h, hits) || ownProduct(lower, tag, h, hits) || skillOf(lower, h) {
			gone = append(gone, tag)
		}
	}
	for _, tag := range gone {
		delete(hits, tag)
	}
	// "someone to translate our app into Japanese", "Translating our user
	// manual into German": the verb of work someone is asked to do, or
	// the work the demand starts with, when it is a trade's keyword,
	// keeps its object from naming another trade (the app is what gets
	// translated).
	gone = gone[:0]
	for _, m := range append(askedWork.FindAllStringIndex(lower, -1), leadingGerund.FindStringIndex(lower)) {
		if m == nil {
			continue
		}
		verb := strings.LastIndex(lower[:m[1]], " ") + 1
		obj, _, _ := strings.Cut(objectOf(lower[m[1]:]), ":")
		objEnd := m[1] + len(obj)
		for tag, h := range hits {
			if h.pos != verb || h.end != m[1] {
				continue
			}
			for other, o := range hits {
				if other != tag && o.pos > m[1] && o.pos < objEnd {
					gone = append(gone, other)
				}
			}
		}
	}
	for _, tag := range gone {
		delete(hits, tag)
	}
	// "posters and catalogues printed": the things a participle comes
	// after are what its worker works on, not needs of their own; not
	// across another verb ("our logo redesigned and cards printed").
	for tag, h := range hits {
		if !isParticiple(h.word) || !endsPhrase(lower[h.end:]) { // "printed badges": the badges are the thing
			continue
		}
		for other, o := range hits {
			if between := lower[min(o.end, h.pos):h.pos]; other != tag && o.end <= h.pos && h.pos-o.end <= 30 &&
				!strings.ContainsAny(between, ",.;:!?") && !slices.ContainsFunc(strings.Fields(between), isParticiple) {
				delete(hits, other)
			}
		}
	}
	for _, t := range vocabulary {
		h, ok := hits[t.tag]
		if !ok {
			continue
		}
		if !h.strong && slices.ContainsFunc(sharers[t.tag], func(o string) bool { return hits[o].strong }) {
			continue
		}
		count := h.count
		if count == 0 {
			count = countAt(lower, h.pos, h.end)
			if count > 1 && !countsPeople(lower, h) {
				count = 1 // "a few photos for the menu": one photographer
			}
			if count == 1 {
				count = max(1, peopleCountElsewhere(lower, tagIndex[t.tag], h.pos))
			}
		}
		found = append(found, need{neg.Need{Role: t.role, CapabilityTags: []string{t.tag}, Count: count}, h.pos, h.end, contextWords[h.word]})
	}
	// A person the demand asks for by a noun the vocabulary does not know
	// is still a need (reported as a gap), at an event too, and beside
	// the needs the vocabulary names ("需要化妆师、摄影师和一位司仪").
	for _, r := range roleNounNeeds(lower) {
		if keywordSet[lower[r.pos:r.end]] {
			continue // the vocabulary decided on it ("a designer for the poster": the poster's)
		}
		if t, ok := misspelt(lower[r.pos:r.end]); ok { // "phtographer": a photographer
			r.Need = neg.Need{Role: vocabulary[t].role, CapabilityTags: []string{vocabulary[t].tag}, Count: r.Count}
		}
		if !negatedAt(lower, r.pos, r.end) && !slices.ContainsFunc(found, func(n need) bool {
			return r.pos < max(n.end, n.pos+1) && n.pos < r.end || namesNeed(lower[r.pos:r.end], n.Need) ||
				slices.Equal(n.CapabilityTags, r.CapabilityTags)
		}) {
			found = append(found, r)
		}
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
	slices.SortStableFunc(found, func(a, b need) int { return a.pos - b.pos })
	var out []neg.Need
	prevEnd, lastPos, lastSituation := -1, 0, false
	for _, n := range found {
		switch {
		case len(out) > 0 && n.pos == prevEnd && slices.Equal(out[len(out)-1].CapabilityTags, []string{"市场推广"}):
			// "宣传海报", "推广文案": promotion says what the thing is for;
			// the thing names who makes it.
			out[len(out)-1] = n.Need
		case len(out) > 0 && lastSituation && (n.pos == prevEnd || n.pos == prevEnd+1 && lower[prevEnd] == ' '),
			len(out) > 0 && n.pos == prevEnd && objectOfBa(lower, lastPos):
			// "双语主持": what the host is like; "把宣传册翻译成英文": what
			// the translator works on.
			out[len(out)-1] = n.Need
		case len(out) > 0 && n.pos == prevEnd && !inVocabulary(n.Need) && inVocabulary(out[len(out)-1]):
			// A noun for the person, then what the trade asks of them.
		case len(out) > 0 && n.pos == prevEnd && inVocabulary(n.Need) && !inVocabulary(out[len(out)-1]):
			// "两位在职工程师分享经验": the person a role noun names, asked
			// for the work a trade does, is that trade's.
			out[len(out)-1] = n.Need
		case len(out) > 0 && n.pos == prevEnd: // "海报设计师", "摄影摄像": one person, either skill
			last := &out[len(out)-1]
			last.CapabilityTags = append(slices.Clone(last.CapabilityTags), n.CapabilityTags...)
		default:
			out = append(out, n.Need)
		}
		prevEnd = max(prevEnd, n.end)
		lastSituation, lastPos = n.situation, n.pos
	}
	return neg.NormalizeNeeds(out)
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

// ownSubject reports whether the hit h of tag i is in the writer's own
// subject, which wants another tag's work: said to be the writer's ("Our
// online store needs product photos", "我们的小程序总是卡顿，想找个懂服务器
// 的人"), or all the words before the demand's first verb of wanting, in
// one short phrase ("医院科普讲座需要主持人" holds the lecture, not a
// speaker wanted; "会计师事务所需要一个官网"; "餐厅想换一套新的菜单"). A
// count right after the verb makes the words before it the need ("主持人
// 需要一位，摄影师两位"), and so does no other tag wanted after it ("our
// website needs to be rebuilt"), or the same tag named again after it.
func ownSubject(lower string, i int, h keywordHit, hits map[string]keywordHit) bool {
	from := -1
	if slices.Contains([]string{"我们的", "我的", "咱们的", "our", "my", "our new", "my new"}, strings.TrimSpace(lower[:h.pos])) {
		from = h.end
	} else if m := wantingVerb.FindStringIndex(lower); m != nil && h.end <= m[0] && m[0] <= 40 &&
		!strings.ContainsAny(lower[:m[0]], "，,。.：:；;！!？?、") && !countOnly.MatchString(lower[m[1]:]) {
		from = m[1]
	}
	if from < 0 {
		return false
	}
	for _, kw := range tagKeywords[i] {
		if findKeywordFrom(lower, kw, from) >= 0 {
			return false
		}
	}
	for tag, o := range hits {
		if tagIndex[tag] != i && o.pos >= from {
			return true
		}
	}
	return false
}

// workPatterns name a tag's work in words no keyword holds, read when
// none of its keywords is there: a person asked for because they speak a
// language is an interpreter ("想找个会说日语的人陪客户", "a person who
// speaks Japanese to accompany our clients"; a language said of another
// role, "几个会说英语的志愿者", is what that person is like); a video to
// shoot is a camera operator's ("拍一下现场视频", "拍房源视频") and one to
// cut an editor's; counted hosts are hosts.
var workPatterns = map[string]*regexp.Regexp{"翻译": languageSpeaker, "摄像": videoShoot, "视频剪辑": videoCut, "主持": countedHosts}

var (
	// videoShoot is a video to shoot; videoCut one to cut ("再剪一些短的讲解视频").
	videoShoot = regexp.MustCompile(`拍[^，。,；;、！!？?\s]{0,6}?视频`)
	videoCut   = regexp.MustCompile(`剪[^，。,；;、！!？?\s]{0,6}?视频`)
	// countedHosts are hosts counted ("two hosts"): "hosts" alone is as
	// often the verb ("our company hosts a meetup").
	countedHosts = regexp.MustCompile(`\b(?:[0-9]+|two|three|four|five|six|a couple of|several)\s+(hosts)\b`)
)

// languageSpeaker is a person asked for because they speak a language.
var languageSpeaker = regexp.MustCompile(`(?:会说|会讲|懂|会)(?:日|英|法|德|韩|俄|西班牙|葡萄牙|意大利|阿拉伯|泰|越南)(?:语|文)的(?:人|朋友|同学)|\b(?:someone|somebody|a person|anyone|people)\s+(?:who|that)\s+(?:can\s+)?speaks?\s+(?:japanese|english|french|german|korean|russian|spanish|portuguese|italian|arabic|thai|vietnamese|mandarin|cantonese)\b`)

// genericDesigner reports whether the hit h of UI设计 is the word
// "designer" alone, followed in its clause by a graphic designer's thing
// ("找个设计师做招聘海报", "a designer for the recruitment poster"): the
// thing says which designer.
func genericDesigner(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	if tag != "UI设计" || !slices.Contains([]string{"设计师", "designer", "designers"}, h.word) {
		return false
	}
	g, ok := hits["平面设计"]
	return ok && g.pos >= h.end && g.pos-h.end <= 40 && !strings.ContainsAny(lower[h.end:g.pos], "，,。.；;！!？?")
}

// businessOf reports whether the hit h names the kind of the writer's
// business, before the demand's first verb of wanting ("深圳新咖啡品牌上市：
// 需要…", "Launching a coffee brand: need …"); after it, the business is
// what is asked for ("需要找一家翻译公司").
func businessOf(lower string, h keywordHit) bool {
	rest := strings.TrimLeft(lower[h.end:], " ")
	if !slices.ContainsFunc([]string{"品牌", "店", "公司", "工作室", "brand", "shop", "company", "studio", "business"}, func(b string) bool { return strings.HasPrefix(rest, b) }) {
		return false
	}
	m := firstWant.FindStringIndex(lower)
	return m != nil && h.end <= m[0]
}

// firstWant is a verb of wanting, in either language.
var firstWant = regexp.MustCompile(`需要|想要|想|要|打算|准备|希望|计划|\b(?:need|needs|want|wants|looking for|require|requires)\b`)

// passiveObject reports whether the hit h is what a later work word in its
// clause acts on ("海报和画册需要印刷": the posters get printed; nobody
// designs them).
func passiveObject(lower, tag string, h keywordHit) bool {
	m := passiveWork.FindStringIndex(lower[h.end:])
	if m == nil || strings.ContainsAny(lower[h.end:h.end+m[0]], "，,。；;！？") {
		return false
	}
	return slices.ContainsFunc(tagsInText(lower[h.end+m[0]:h.end+m[1]]), func(t string) bool { return t != tag })
}

// passiveWork is a verb of wanting and a work word after a thing: "需要印刷",
// "得印出来", "要翻译".
var passiveWork = regexp.MustCompile(`(?:需要|需|要|得)(?:印刷|印出来|翻译|剪辑|拍摄)`)

// purposeOf reports whether the hit h names the product the work of the
// hit before it is for, when that work builds nothing: a website, an app
// or a store after "for" ("a copywriter for the website" writes and
// nobody builds; "wireframes for our event app" still ask for the app).
func purposeOf(lower string, h keywordHit, hits map[string]keywordHit) bool {
	if !slices.Contains([]string{"website", "websites", "site", "app", "apps", "mobile app", "online store", "store", "shop"}, h.word) ||
		!forTheRe.MatchString(lower[:h.pos]) {
		return false
	}
	prev, at := "", -1
	for tag, o := range hits {
		if o.end <= h.pos && o.end > at {
			prev, at = tag, o.end
		}
	}
	return prev != "" && !slices.Contains([]string{"UI设计", "前端开发", "后端开发", "AI研究", "数据分析", "产品经理"}, prev)
}

// forTheRe ends a text with "for", its article and up to two words.
var forTheRe = regexp.MustCompile(`\bfor\s+(?:(?:the|our|a|an|my|your|their)\s+)?(?:[a-z-]+\s+){0,2}$`)

// servedGuest reports whether the hit h is a speaker's word for the
// guests another need serves, right after its verb ("接送嘉宾": the
// guests are driven, not asked for).
func servedGuest(lower string, h keywordHit) bool {
	return h.word == "嘉宾" && slices.ContainsFunc([]string{"接送", "接", "送", "陪同", "陪", "招待", "接待", "引导"}, func(v string) bool {
		return strings.HasSuffix(lower[:h.pos], v)
	})
}

// ownerOf reports whether the hit h says whose or what another hit's
// thing is for, right before "的" and, at most two characters on, that
// hit ("官网的首页设计" asks for the page's design; "志愿者的午餐" for
// lunch, the volunteers are there).
func ownerOf(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	if !strings.HasPrefix(lower[h.end:], "的") || tagAgain(lower, tag, h.end) {
		return false
	}
	next := h.end + len("的")
	for other, o := range hits {
		if other != tag && o.pos >= next && o.pos <= next+len("午餐") && !strings.ContainsAny(lower[next:o.pos], "，,、和及与") {
			return true
		}
	}
	return false
}

// productWords are the keywords for a product the writer may already have.
var productWords = map[string]bool{"app": true, "网站": true, "官网": true, "小程序": true, "数据库": true, "服务器": true,
	"website": true, "site": true, "online store": true, "database": true, "server": true}

// ownProduct reports whether the hit h is the writer's product, told of
// in a clause before the demand's first verb of wanting, when another
// tag's work is asked for after it and the tag is not named again ("App
// 的注册流程太复杂，想找个交互设计师优化一下").
func ownProduct(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	m := firstWant.FindStringIndex(lower)
	if !productWords[h.word] || m == nil || h.end > m[0] || tagAgain(lower, tag, m[1]) {
		return false
	}
	for other, o := range hits {
		if other != tag && o.pos >= m[1] {
			return true
		}
	}
	return false
}

// skillOf reports whether the hit h is a skill a person asked for has:
// "with" before it and "skills", "experience" or "background" after it
// ("a backend dev with SQL skills").
func skillOf(lower string, h keywordHit) bool {
	return withSkillBefore.MatchString(lower[:h.pos]) && withSkillAfter.MatchString(lower[h.end:])
}

var (
	withSkillBefore = regexp.MustCompile(`\bwith\s+(?:[a-z]+\s+)?$`)
	withSkillAfter  = regexp.MustCompile(`^(?:\s+[a-z]+)?\s+(?:skills?|experience|background|knowledge)\b`)
)

// tagAgain reports whether a keyword of tag stands at from or later.
func tagAgain(lower, tag string, from int) bool {
	return slices.ContainsFunc(tagKeywords[tagIndex[tag]], func(kw string) bool { return findKeywordFrom(lower, kw, from) >= 0 })
}

// leadingGerund is a demand's first word when it is an -ing form.
var leadingGerund = regexp.MustCompile(`^[a-z]+ing\b`)

var (
	// wantingVerb is a verb of wanting.
	wantingVerb = regexp.MustCompile(`需要|想要|想|要|打算|准备|希望|计划|\b(?:needs|wants|requires|is looking for)\b`)
	// countOnly is a count that ends its phrase: "一位，", "两名".
	countOnly = regexp.MustCompile(`^\s*(?:[0-9]+|[一二两三四五六七八九十几]+)\s*(?:位|名|个)?\s*(?:[，,。.；;、]|$)`)
)

// generalWork are words for a kind of work several trades do, read only
// when nothing more precise names anyone: one person, of any of them
// ("周六的活动需要一个负责设计的人": a graphic or a UI designer).
var generalWork = []struct {
	role  string
	tags  []string
	words []string
}{
	{"设计师", []string{"平面设计", "UI设计"}, []string{"设计", "design", "designer", "designers"}},
	{"开发工程师", []string{"前端开发", "后端开发"}, []string{"编程", "程序", "coding", "code", "programmer", "programmers"}},
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

// misspelt is the tag of the one-word English keyword of eight letters or
// more that an English word as long is one slip from (a letter left out,
// added, changed or two swapped: "phtographer", "vidographer",
// "translater"), when exactly one tag's keyword is. Shorter words slip
// into other words ("painter", "printer").
func misspelt(word string) (int, bool) {
	if !isASCII(word) || strings.Contains(word, " ") || len(word) < 8 {
		return 0, false
	}
	found := -1
	for i := range vocabulary {
		for _, kw := range tagKeywords[i] {
			if len(kw) >= 8 && !strings.ContainsAny(kw, " -") && isASCII(kw) && oneSlip(word, kw) {
				if found >= 0 && found != i {
					return 0, false
				}
				found = i
			}
		}
	}
	return found, found >= 0
}

// oneSlip reports whether a and b differ by one letter left out, added,
// changed, or two neighbours swapped.
func oneSlip(a, b string) bool {
	if a == b || len(a)-len(b) > 1 || len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case len(a) == len(b):
		return a[i+1:] == b[i+1:] || i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case len(a) > len(b):
		return a[i+1:] == b[i:]
	default:
		return a[i:] == b[i+1:]
	}
}

// asksWithCount reports whether the hit h is a verb asking for a count
// of another hit's people: followed by the count, then, in the same
// list item, by the other ("招募10名马拉松赛道志愿者" recruits volunteers,
// not promotion).
func asksWithCount(lower string, h keywordHit, hits map[string]keywordHit) bool {
	m := cnCountAfter.FindStringIndex(lower[h.end:])
	if m == nil {
		return false
	}
	after := h.end + m[1]
	for _, o := range hits {
		if o.pos >= after && o.pos-after <= 18 && !strings.ContainsAny(lower[after:o.pos], "，,、;；。.和及与或") {
			return true
		}
	}
	return false
}

// peopleCountElsewhere is the count of people written before another
// place where a keyword of tag i stands than at p ("补给站缺人手，需要
// 20名志愿者": 20; "recruiting talk: … two industry veterans": 2), or 0:
// a Chinese count by a measure word only people take, an English one
// before a word for people (not "a 120-person company dinner").
func peopleCountElsewhere(lower string, i, p int) int {
	best := 0
	for _, kw := range tagKeywords[i] {
		if contextWords[kw] {
			continue
		}
		for q := findKeyword(lower, kw); q >= 0; q = findKeywordFrom(lower, kw, q+len(kw)) {
			if q == p {
				continue
			}
			people := cnPeopleMeasure.MatchString(lower[max(0, q-24):q]) || isASCII(kw) && countsPeople(lower, keywordHit{q, q + len(kw), true, 0, kw})
			if n, ok := writtenCountBefore(lower, q); ok && n > best && people {
				best = n
			}
		}
	}
	return best
}

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

// negationCues say, in the clause of a role word, that the demand has it
// already or does not want it ("场地我们已经有了", "we already have a
// venue", "no need for a host").
var negationCues = []string{"不需要", "不用", "无需", "已经有", "已有", "有了", "不缺", "订好了", "已经订好", "已订好", "定好了", "已经定好",
	"找好了", "已经找好", "约好了", "已经约好", "已经联系好", "搞定了", "已经搞定", "already have", "already has", "already got",
	"already booked", "we have the", "we've got the", "we've booked", "is booked", "is sorted", "is taken care of",
	"don't need", "do not need", "doesn't need", "no need for", "not looking for"}

// clauseSeps end a clause; " but " and 但 / 只 turn from what a demand has
// to what it asks for.
var clauseSeps = []string{"，", ",", "。", ".", "；", ";", "！", "!", "？", "?", "：", ":", " but ", "但", "只", "还需要", "还要"}

// negatedAt reports whether the clause around lower[p:end] says the
// demand has that already or does not want it.
func negatedAt(lower string, p, end int) bool {
	start, stop := 0, len(lower)
	for _, sep := range clauseSeps {
		if i := strings.LastIndex(lower[:p], sep); i >= 0 && i+len(sep) > start {
			start = i + len(sep)
		}
		if i := strings.Index(lower[end:], sep); i >= 0 && end+i < stop {
			stop = end + i
		}
	}
	clause := lower[start:stop]
	return slices.ContainsFunc(negationCues, func(c string) bool { return strings.Contains(clause, c) })
}

// existingAt reports whether the keyword at p is said to be there already:
// right after "有个" or "有一场" ("周六有个讲座，想找人录下来": the lecture
// is what gets recorded), where nothing before the 有 wants it ("需要有个
// 主持人") or asks whether there is one ("有没有"); or right after "开了家"
// (the writer's own shop).
func existingAt(lower string, p int) bool {
	before := lower[:p]
	for _, own := range []string{"开了家", "开了一家", "开了个", "开了一个"} { // "我开了家咖啡馆": the writer's own
		if strings.HasSuffix(before, own) {
			return true
		}
	}
	for _, m := range []string{"个", "一个", "一场", "场", "一次", "位", "一位"} {
		rest, ok := strings.CutSuffix(before, "有"+m)
		if !ok {
			continue
		}
		r, _ := utf8.DecodeLastRuneInString(rest)
		return !strings.ContainsRune("要需想得望没能该", r)
	}
	return false
}

// isParticiple reports whether an English word is a past participle by
// its form ("printed", "redesigned").
func isParticiple(w string) bool {
	return len(w) > 4 && isASCII(w) && !strings.Contains(w, " ") && strings.HasSuffix(w, "ed")
}

// endsPhrase reports whether rest, the text after a word, starts a new
// phrase: nothing, a punctuation mark, or a word that joins phrases.
func endsPhrase(rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	if rest == "" || strings.ContainsAny(rest[:1], ",.;:!?)") {
		return true
	}
	w, _, _ := strings.Cut(rest, " ")
	return slices.Contains([]string{"and", "by", "for", "in", "on", "at", "before", "after", "with", "to", "into", "so", "please", "too", "as"}, w)
}

// contextWords are keywords that name the situation calling for a tag's
// worker rather than the worker ("外宾" for a translator): the worker's
// own word, where the text has one, is the need's place and count, and a
// count before a situation word counts something else ("三位外宾").
var contextWords = map[string]bool{"外宾": true, "双语": true, "bilingual": true}

// findRoleKeyword is the position of the first occurrence of kw that asks
// for someone, or -1: not one that names who an event is for or about
// ("产品经理交流会", "摄影展", "AI研究沙龙": the words right after it name
// the event; "training for 40 staff": a number of people before it),
// which says nothing about the people it needs.
func findRoleKeyword(lower, kw string) int {
	return findKeywordUnless(lower, kw, func(before, rest string) bool {
		return namesEvent(rest) || namesAudience(before) || ownActivity(before, kw)
	})
}

// ownActivities are the words for organising an event that, said of the
// writer, are what they do themselves ("Planning a charity run, need
// volunteers"; "we're organizing a meetup"), not help they ask for
// ("need help organizing an offsite").
var ownActivities = map[string]bool{"planning": true, "organizing": true, "organising": true}

// ownWorkRe ends the text before an activity word that makes it the
// writer's own: nothing, or "we're", "we are", "i'm", "i am".
var ownWorkRe = regexp.MustCompile(`(?:^|\b(?:we're|we are|i'm|i am|im|currently))\s*$`)

// ownActivity reports whether kw, after before, is the writer's own
// activity (ownActivities), or what that activity makes ("I'm organising a
// fundraising dinner": the dinner is theirs, not a caterer wanted).
func ownActivity(before, kw string) bool {
	return ownActivities[kw] && ownWorkRe.MatchString(before) || ownObjectRe.MatchString(before)
}

// ownObjectRe ends the text before the object of the writer's own
// organising, a few words into it.
var ownObjectRe = regexp.MustCompile(`(?:^|\b(?:we're|we are|i'm|i am|im))\s*(?:planning|organizing|organising|hosting|throwing|running)\s+(?:(?:a|an|our|the|my)\s+)?(?:[a-z-]+\s+){0,3}$`)

// audienceRe ends a text that counts who something is for ("training for
// 40 staff", "a talk to 200 employees"): the word after it is the
// audience, not someone to ask; lookingForRe ends one that asks for them
// ("looking for 3 volunteers").
var (
	audienceRe   = regexp.MustCompile(`\b(?:for|to)\s+(?:about\s+|around\s+|some\s+|over\s+)?\d+\s*$`)
	lookingForRe = regexp.MustCompile(`\b(?:look|looking|search|searching|ask|asking|hire|hiring|call|calling)\s+for\s+(?:about\s+|around\s+|some\s+|over\s+)?\d+\s*$`)
)

// namesAudience reports whether the text before a role word counts an
// audience, so that the word names who the demand is for.
func namesAudience(before string) bool {
	return audienceRe.MatchString(before) && !lookingForRe.MatchString(before)
}

// namesEvent reports whether rest begins with an event noun (an event
// word of eventWords other than the generic 活动 / event, or 展 for an
// exhibition, not 展示 "to show"), so that the word before it is the
// event's subject.
func namesEvent(rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	exhibition := strings.HasPrefix(rest, "展") && !slices.ContainsFunc([]string{"展示", "展现"}, func(v string) bool { return strings.HasPrefix(rest, v) })
	if exhibition || slices.ContainsFunc(eventNouns, func(e string) bool { return strings.HasPrefix(rest, e) }) {
		return true
	}
	for _, e := range eventWords {
		if e.name != "活动" && e.name != "婚礼" && strings.HasPrefix(rest, e.kw) {
			return true
		}
	}
	return false
}

// eventNouns are more nouns for an event, read only to tell the event's
// subject ("food festival", "美食节", "band night") from a need; as event
// words they would add an event's implicit venue and planner. "环节" is a
// part of one ("演讲环节需要一套扩音设备": the speeches, not a speaker).
var eventNouns = []string{"festival", "fair", "gala", "tournament", "night", "show", "expo", "节", "赛", "环节"}

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

var (
	// cnCount is a Chinese count right before a role: "两位", "3名", "五个",
	// "俩", "十来个", "20+", or with a measure word and a short 的 phrase or a word of two
	// characters between ("几个会说英语的", "十个学生").
	cnCount = regexp.MustCompile(`([0-9]+|[一二两三四五六七八九十几俩仨]+)(?:\+|来)?\s*(?:(?:位|名|个|个人|组|支|家)?\s*(?:专业的|资深的|靠谱的|有经验的|优秀的|的)?|(?:位|名|个)[\p{Han}a-z]{1,8}?的|(?:位|名|个)[\p{Han}]{1,2})\s*$`)
	// cnPeopleCount is a Chinese count by a measure word only people take
	// (位, 名), with a longer word between it and the role
	// ("10名马拉松赛道志愿者"); the word must not join or ask (checked
	// where it is used).
	cnPeopleCount = regexp.MustCompile(`([0-9]+|[一二两三四五六七八九十几]+)\s*(?:位|名)(\p{Han}{3,6})\s*$`)
	// cnPeopleMeasure ends with a count by a measure word only people
	// take, and at most six characters after it.
	cnPeopleMeasure = regexp.MustCompile(`(?:[0-9]+|[一二两三四五六七八九十几]+)\s*(?:位|名)\p{Han}{0,6}$`)
	// cnCountAfter is a Chinese count right after a role: "评委五位",
	// "导览员三名", "翻译需要两名".
	cnCountAfter = regexp.MustCompile(`^(?:师|员|人|者|手)?\s*(?:需要|要)?\s*([0-9]+|[一二两三四五六七八九十]+)\s*(?:位|名|个人|个)`)
	// enCount is an English count right before a role, with at most two
	// words between: "two keynote speakers", "3 professional photographers".
	enCount = regexp.MustCompile(`(?i)\b([0-9]+|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few|several)\+?\s+(?:[a-z-]+\s+){0,2}$`)
	// timesBefore and countAfter are counts written as in a list: "2x
	// photographers", "摄影师 x2", "志愿者（10人）", "volunteers (approx. 15)".
	timesBefore = regexp.MustCompile(`\b([0-9]+)\s*[x×]\s*$`)
	countAfter  = regexp.MustCompile(`^(?:师|员|人|者|手)?\s*(?:[x×*]\s*([0-9]+)\b|[（(]\s*(?:约|大约|approx\.?|about|around|~)?\s*([0-9]+)\s*\+?\s*(?:人|名|位|people|persons)?\s*[)）])`)
)

var enNumbers = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "a couple of": 2, "a few": 3, "several": 3}

// countAt is the count of the role word at lower[p:end]: written before it
// ("三位评委"), else right after it ("评委五位", "导览员三名", "摄影师 x2",
// "志愿者（10人）"), else 1.
func countAt(lower string, p, end int) int {
	if n, ok := writtenCountBefore(lower, p); ok {
		return n
	}
	if m := cnCountAfter.FindStringSubmatch(lower[end:]); m != nil {
		return countNumber(m[1])
	}
	if m := countAfter.FindStringSubmatch(lower[end:]); m != nil {
		return countNumber(m[1] + m[2])
	}
	return 1
}

// countNumber is a written count: digits or Chinese numerals, with 几
// ("几个志愿者": a few) read as 2; at least 1.
func countNumber(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return max(1, n)
	}
	if s == "几" {
		return 2
	}
	return max(1, parseCNNumber(s))
}

// countsPeople reports whether a count before an English keyword hit
// counts the people asked for: not when the keyword names a thing a
// worker makes or handles ("a few photos for the menu", "two short
// videos": one photographer, one editor), unless a word for people
// follows it ("two live-stream hosts"). A Chinese count counts people by
// its measure word (cnCount).
func countsPeople(lower string, h keywordHit) bool {
	if h.word == "" || !isASCII(h.word) {
		return true
	}
	last := h.word[strings.LastIndex(h.word, " ")+1:]
	if !slices.Contains(thingNouns, strings.TrimSuffix(last, "s")) {
		return true
	}
	next, _, _ := strings.Cut(strings.TrimLeft(lower[h.end:], " "), " ")
	next = strings.TrimRight(next, ",.;:!?)")
	return slices.Contains(workerNouns, next) || slices.Contains([]string{"host", "hosts", "people"}, next)
}

// thingNouns are English keywords (singular) that name a thing a worker
// makes or handles, not the worker.
var thingNouns = []string{"photo", "picture", "poster", "banner", "badge", "flyer", "sticker", "brochure", "video", "clip",
	"meal", "dinner", "lunch", "breakfast", "course", "drink", "snack", "article", "contract", "invoice", "logo", "website", "app", "dashboard", "survey",
	"projector", "microphone", "mic", "light"}

// objectOfBa reports whether the word at p is what 把 earlier in its
// clause acts on ("把公司的宣传册翻译成英文": the brochure is translated).
func objectOfBa(lower string, p int) bool {
	before := lower[:p]
	if i := strings.LastIndexAny(before, "，,。；;！？"); i >= 0 {
		before = before[i:]
	}
	return strings.Contains(before, "把")
}

// writtenCountBefore is the count written right before position p of
// lower, if one is.
func writtenCountBefore(lower string, p int) (int, bool) {
	before := lower[:p]
	if i := strings.LastIndexAny(before, "，,、;；。.和及与"); i >= 0 && p-i < 24 {
		before = before[i:]
	} else if len(before) > 24 {
		before = before[len(before)-24:]
	}
	for _, sep := range []string{" and ", " plus ", " or "} { // "a room for 25 and lunch": 25 is the room's
		if i := strings.LastIndex(before, sep); i >= 0 {
			before = before[i+len(sep)-1:]
		}
	}
	if m := cnCount.FindStringSubmatch(before); m != nil {
		return countNumber(m[1]), true
	}
	if m := cnPeopleCount.FindStringSubmatch(before); m != nil && !strings.ContainsAny(m[2], "的和与及或要找请需") {
		return countNumber(m[1]), true
	}
	if m := timesBefore.FindStringSubmatch(before); m != nil {
		return countNumber(m[1]), true
	}
	if m := enCount.FindStringSubmatch(before); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return max(1, n), true
		}
		return enNumbers[strings.ToLower(m[1])], true
	}
	return 0, false
}
