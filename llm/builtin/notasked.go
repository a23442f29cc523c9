package builtin

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// What a demand names without asking for it: what it has or does not
// want, what the writer owns or organises, what another need's work is on
// or for. setAside deletes those hits before the needs are made.

// aside is a rule that sets a hit aside: whether the hit h of tag, among
// all the hits, is named without being asked for.
type aside func(lower, tag string, h keywordHit, hits map[string]keywordHit) bool

// asides are the rules setAside applies, each below.
var asides = []aside{
	func(lower, _ string, h keywordHit, _ map[string]keywordHit) bool {
		return negatedAt(lower, h.pos, h.end)
	},
	func(lower, _ string, h keywordHit, _ map[string]keywordHit) bool { return existingAt(lower, h.pos) },
	servedGuest, virtualPlace, purposeOf, genericDesigner, businessOf, passiveObject, asksWithCount, ownSubject, ownerOf, ownProduct, skillOf, eventTheme, spokenLanguage, ownedAfter, photoSubject, kindOfWorker, anothersTalk, heldLecture, pastMention, workDoneFor, baObject, promotedThing, plainPersonsWork,
}

// virtualPlace reports whether the hit h, of a venue, is a place online
// ("线上展厅", "a virtual booth"): built, not rented.
func virtualPlace(lower, tag string, h keywordHit, _ map[string]keywordHit) bool {
	return tag == "场地提供" && onlineBefore.MatchString(lower[:h.pos])
}

// onlineBefore ends a text with a word for online.
var onlineBefore = regexp.MustCompile(`(?:线上|虚拟|云上|云端|\b(?:online|virtual|3d|vr)\s+)$`)

// webLayout makes a layout no graphic designer's when the demand names a
// site, an app or phones' screens: it is the web worker's the demand names,
// else a front-end developer's ("our site looks broken on mobile, fix the
// layout", "官网在手机端显示很乱，想找人调一下排版").
func webLayout(lower string, hits map[string]keywordHit) {
	h, ok := hits["平面设计"]
	if !ok || h.word != "layout" && h.word != "排版" || !webThing.MatchString(lower) {
		return
	}
	delete(hits, "平面设计")
	for _, o := range []string{"前端开发", "后端开发", "UI设计"} {
		if _, ok := hits[o]; ok {
			return // the web worker named does it
		}
	}
	hits["前端开发"] = h
}

// webThing names a site, an app or a phone's screen.
var webThing = regexp.MustCompile(`\b(?:site|website|webpage|web page|apps?|mobile|responsive)\b|网站|网页|小程序|手机端|移动端`)

// heldLecture reports whether the hit h is the lecture the writer holds,
// when a specialist or a doctor is asked to come and give it
// ("社区卫生站想办一次健康讲座，需要一位医生来讲": the doctor is that
// person, as anothersTalk reads them, and no speaker besides).
func heldLecture(lower, tag string, h keywordHit, _ map[string]keywordHit) bool {
	if tag != "演讲嘉宾" || h.word != "讲座" {
		return false
	}
	return heldBefore(lower, h.pos) && specialistTalks.MatchString(lower[h.end:])
}

// specialistTalks holds a specialist or a doctor who comes to talk (the
// role nouns among cnTalkAfterPerson's people: a need of their own).
var specialistTalks = regexp.MustCompile(`(?:专家|医生)(?:来|过来)(?:讲|分享)`)

// plainPersonsWork reports whether the hit h is the work of a person of no
// trade named right before it ("需要十名保安维持秩序": the guards keep
// order; "需要导游带路"), not of a thing used for it ("会用无人机航拍的人").
func plainPersonsWork(lower, _ string, h keywordHit, _ map[string]keywordHit) bool {
	before := strings.TrimRight(lower[:h.pos], " ")
	return slices.ContainsFunc(plainPersonNouns, func(n string) bool {
		return !isASCII(n) && strings.HasSuffix(before, n) && !usedThing(before[:len(before)-len(n)])
	})
}

// usedThing reports whether the text before a noun ends with a verb of
// using: the noun is a thing used ("用无人机"), not a person.
func usedThing(before string) bool {
	return strings.HasSuffix(before, "用") || strings.HasSuffix(before, "操作") || strings.HasSuffix(before, "使用")
}

// promotedThing reports whether the hit h of promotion says what another
// trade's thing right after it is for ("宣传海报", "推广文案", "an SEO
// writer", "招募：志愿者"): the thing names who makes it, and promotion
// asked for is a later word ("需要宣传海报，还要推广").
func promotedThing(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	if tag != "市场推广" {
		return false
	}
	for other, o := range hits {
		if other != tag && o.pos >= h.end && strings.Trim(lower[h.end:o.pos], " :：") == "" {
			return true // "宣传海报", "招募：志愿者若干"
		}
	}
	return false
}

// baObject reports whether the hit h is what 把 acts on, right before
// another trade's verb ("把这份合同翻成英文，还要一个律师": the contract is
// translated; the lawyer is asked for after it).
func baObject(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	if !objectOfBa(lower, h.pos) {
		return false
	}
	for other, o := range hits {
		if other != tag && o.pos == h.end {
			return true
		}
	}
	return false
}

// workDoneFor reports whether the hit h is what work is done for, between
// 给 or 为 and the work's verb ("给公司官网做英文翻译": a translator, no web
// developer; "为新书拍一组照片").
func workDoneFor(lower, _ string, h keywordHit, _ map[string]keywordHit) bool {
	return doneForBefore.MatchString(lower[:h.pos]) && workVerbAfter.MatchString(lower[h.end:])
}

var (
	// doneForBefore ends a text with 给 or 为 and at most four characters.
	doneForBefore = regexp.MustCompile(`(?:给|为)[^，。,；;、！!？?\s]{0,4}$`)
	// workVerbAfter starts, within two characters, with a verb of work.
	workVerbAfter = regexp.MustCompile(`^[^，。,；;、！!？?\s]{0,2}?(?:做|写|拍|设计|翻译|配|剪|印)`)
)

// anothersTalk reports whether the hit h, of a speaker's trade, is the talk
// a person asked for as someone else gives ("an accountant to present",
// "a vet to give talks"): that person, not a speaker too, as a doctor who
// comes to talk (需要一位医生来讲) is a doctor.
func anothersTalk(lower, tag string, h keywordHit, _ map[string]keywordHit) bool {
	if tag != "演讲嘉宾" {
		return false
	}
	if cnTalkAfterPerson.MatchString(lower[:h.pos]) {
		return true // "请个农业专家来讲讲", "一位作家来分享"
	}
	m := talkAfterPerson.FindStringSubmatch(lower[:h.pos])
	if m == nil || anyoneWord.MatchString(m[1]) || slices.Contains([]string{"speaker", "speakers", "expert", "experts"}, m[1]) {
		return false
	}
	return personEnding.MatchString(m[1]) || slices.Contains(plainPersonNouns, m[1])
}

// anyoneWords are the words for a person of no trade ("someone to …").
const anyoneWords = `someone|somebody|anyone|a person|people|person`

// anyoneWord is one of anyoneWords.
var anyoneWord = regexp.MustCompile(`^(?:` + anyoneWords + `)$`)

var (
	// talkAfterPerson ends a text with a person's noun, "to" and a verb
	// that gives a talk.
	talkAfterPerson = regexp.MustCompile(`\b([a-z]+)\s+to\s+(?:give\s+|deliver\s+|do\s+|run\s+|lead\s+)?(?:a\s+|an\s+|some\s+)?$`)
	// cnTalkAfterPerson ends a text with a Chinese noun for a specialist,
	// a doctor, a writer or a practitioner (…师), who comes to talk
	// ("农技专家来讲讲", "医生来讲", "作家来分享"), maybe to someone
	// ("心理咨询师给员工做减压讲座", "牧师来给青年团契做一次分享"); an engineer
	// or a teacher who shares is a speaker.
	cnTalkAfterPerson = regexp.MustCompile(`(?:专家|医生|家|[^老讲导教训程]师)(?:来|过来)?(?:给[^，。,；;！!？?\s和及与、]{1,8}?)?(?:(?:做|开|上)(?:一场|一次|一个|个|场|次)?[^，。,；;！!？?\s和及与、]{0,4}?)?$`)
	// personEnding ends an English noun for a person.
	personEnding = regexp.MustCompile(`(?:er|or|ist|ian|ant)s?$`)
)

// photoSubject reports whether the hit h is who or what a photo shows,
// right before the photo's noun ("律师形象照": a photographer, no lawyer).
func photoSubject(lower, tag string, h keywordHit, _ map[string]keywordHit) bool {
	rest := strings.TrimLeft(lower[h.end:], " ")
	return tag != "摄影" && slices.ContainsFunc(photoNouns, func(n string) bool { return strings.HasPrefix(rest, n) })
}

// photoNouns are the photos a photographer takes of someone or something.
var photoNouns = []string{"形象照", "证件照", "写真", "照片", "合影", "宣传照", "headshot", "portrait", "photo"}

// kindOfWorker reports whether the hit h is "volunteer" said of another
// worker ("two volunteer instructors": instructors who work unpaid).
func kindOfWorker(lower, _ string, h keywordHit, _ map[string]keywordHit) bool {
	return h.word == "volunteer" && workerAfter.MatchString(lower[h.end:])
}

// workerAfter starts with a noun for a worker.
var workerAfter = regexp.MustCompile(`^\s+(?:[a-z]+(?:er|or|ist|ian)s?|coach|coaches|guide|guides|medics?|nurses?)\b`)

// eventTheme reports whether the hit h is the theme of the event the
// writer holds, between a verb of holding and the event's noun in one
// clause ("准备在成都办一场宠物摄影大赛": no photographer; "社区要办垃圾分
// 类宣传活动": no promoter); not how the event is held (heldBy: "办一场直播
// 发布会" streams it).
func eventTheme(lower, _ string, h keywordHit, _ map[string]keywordHit) bool {
	return !heldBy[h.word] && heldBefore(lower, h.pos) && eventAfter.MatchString(lower[h.end:])
}

// heldBefore reports whether the text before p ends, in the same clause,
// with a verb of holding an event and a few characters (holdVerb).
func heldBefore(lower string, p int) bool {
	start := max(0, p-30)
	for !utf8.ValidString(lower[start:p]) {
		start++
	}
	return holdVerb.MatchString(lower[start:p])
}

var (
	// holdVerb ends a clause at a verb of holding an event and what may
	// come between it and the event's theme.
	holdVerb = regexp.MustCompile(`(?:办|举办|组织|搞|举行|开展)[^，,。；;：:！!？?]{0,12}$`)
	// eventAfter starts with the rest of a theme and the event's noun.
	eventAfter = regexp.MustCompile(`^\p{Han}{0,4}?(?:活动|大赛|比赛|大会|会议|讲座|沙龙|展览|展|节|赛|会)`)
)

// setAside deletes the hits a demand names without asking for them, and
// gives a layout a demand names on a site or an app to its web worker
// (webLayout).
func setAside(lower string, hits map[string]keywordHit) {
	// What other work acts on goes first, so that the rules judge the
	// hits that moved past it ("posters printed, and a designer for the
	// poster": the designer is the poster's).
	setAsideObjects(lower, hits)
	judge(lower, hits)
	// A hit moved past what the rules set aside may have moved into what
	// other work acts on ("wrote letters …, translate 30 letters": the
	// second letters are what gets translated).
	setAsideObjects(lower, hits)
	webLayout(lower, hits)
}

// judge applies the asides to every hit. Decided on every hit before any
// goes or moves. A hit set aside leaves its trade to the trade's next
// keyword, which the rules judge in turn ("准备办一场宣传活动，需要推广和海报":
// the promotion asked for is the second word).
func judge(lower string, hits map[string]keywordHit) {
	var gone []string
	moved := map[string]keywordHit{}
	for tag, h := range hits {
		for slices.ContainsFunc(asides, func(a aside) bool { return a(lower, tag, h, hits) }) {
			next, ok := nextKeywordHit(lower, tag, h.end)
			if !ok {
				gone = append(gone, tag)
				break
			}
			h = next
			moved[tag] = h
		}
	}
	for tag, h := range moved {
		hits[tag] = h
	}
	for _, tag := range gone {
		delete(hits, tag)
	}
}

// setAsideObjects moves past what asked work acts on and what a
// participle's worker works on.
func setAsideObjects(lower string, hits map[string]keywordHit) {
	// "someone to translate our app into Japanese", "Translating our user
	// manual into German": the verb of work someone is asked to do (or
	// help asked with: "help analyzing app reviews"; or the writer has to
	// get done: "we need to print 200 posters"), or the work the demand
	// starts with, when it is a trade's keyword,
	// keeps its object from naming another trade (the app is what gets
	// translated).
	past := map[string]int{} // a tag set aside here goes to its next keyword after this
	asked := slices.Concat(askedWork.FindAllStringIndex(lower, -1), helpDoing.FindAllStringIndex(lower, -1), workToDo.FindAllStringIndex(lower, -1))
	for _, m := range append(asked, leadingGerund.FindStringIndex(lower)) {
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
					past[other] = objEnd
				}
			}
		}
	}
	// "摄影师拍海报素材", "an editor to cut the behind-the-scenes footage":
	// what a worker named right before a verb of work acts on is that
	// worker's work, to the end of the clause; a designer by the bare word
	// keeps the design its object names ("设计师做海报": a graphic designer)
	// and its printing.
	for tag, h := range hits {
		from, to, ok := workersObject(lower, h)
		if !ok {
			continue
		}
		for other, o := range hits {
			if other != tag && o.pos >= from && o.pos < to && !(slices.Contains(bareDesigner, h.word) && slices.Contains(designTags, other)) {
				past[other] = to
			}
		}
	}
	// "greet guests and hand out name badges": what a trade's phrasal verb
	// of work acts on, up to the end of its clause, is its work.
	for tag, h := range hits {
		if !isASCII(h.word) || !strings.HasSuffix(h.word, " out") {
			continue
		}
		objEnd := h.end + len(objectOf(lower[h.end:]))
		for other, o := range hits {
			if other != tag && o.pos > h.end && o.pos < objEnd {
				past[other] = objEnd
			}
		}
	}
	// "翻译这份合同", "打印200张海报", "剪辑一段直播回放": what a Chinese verb
	// of work acts on, right after it, is its worker's work.
	for tag, h := range hits {
		if !slices.Contains(cnWorkVerbs, h.word) {
			continue
		}
		at := h.end + len(cnObjectStart.FindString(lower[h.end:]))
		for other, o := range hits {
			if other != tag && o.pos == at {
				past[other] = o.end
			}
		}
	}
	movePast(lower, hits, past)
	// "posters and catalogues printed": the things a participle comes
	// after are what its worker works on, not needs of their own; not
	// across another verb ("our logo redesigned and cards printed"), nor
	// of another participle ("the event filmed and streamed"), nor a
	// worker ("a sound tech and programs printed"), nor
	// past a thing's own words ("a room for 40 and leaflets printed").
	clear(past)
	for tag, h := range hits {
		if !isParticiple(h.word) || !endsPhrase(lower[h.end:]) { // "printed badges": the badges are the thing
			continue
		}
		for other, o := range hits {
			if between := lower[min(o.end, h.pos):h.pos]; other != tag && o.end <= h.pos && h.pos-o.end <= 30 &&
				!strings.ContainsAny(between, ",.;:!?") && !slices.ContainsFunc(append(strings.Fields(between), o.word), isParticiple) &&
				!slices.ContainsFunc(workerNouns, func(n string) bool { return strings.HasSuffix(lower[o.pos:o.end], " "+n) }) &&
				!qualified.MatchString(between) {
				past[other] = h.end
			}
		}
	}
	movePast(lower, hits, past)
}

// workersObject is where the object of the work a worker's hit h is
// named to do lies in lower: after a Chinese verb of work right after
// the worker ("律师审核赞助合同", "一个财务算一下场地费用"), or after "to" and
// a verb ("volunteers to hand out flyers"), to the end of the clause.
func workersObject(lower string, h keywordHit) (from, to int, ok bool) {
	verb, rest := workerVerb, clauseRest
	if isASCII(h.word) {
		if !namesWorker(h.word) {
			return 0, 0, false
		}
		verb, rest = toVerb, enClauseRest
	} else if !cnPersonWord(h.word) && !slices.Contains(cnTradeWorkers, h.word) {
		return 0, 0, false
	}
	m := verb.FindStringIndex(lower[h.end:])
	if m == nil {
		return 0, 0, false
	}
	from = h.end + m[1]
	return from, from + len(rest.FindString(lower[from:])), true
}

// toVerb starts a text with "to" and a verb ("a driver to bring …");
// enClauseRest runs to the end of a clause or to an "and" (the next item
// or the next work: "… the sound equipment and a DJ").
var (
	toVerb       = regexp.MustCompile(`^\s+to\s+[a-z]+(?:\s+(?:out|up|together|down))?`)
	enClauseRest = regexp.MustCompile(`^[^,.;:!?]*?(?:\s+and\s|[,.;:!?]|$)`)
)

// namesWorker reports whether an English keyword names a person by their
// work ("photographer", "volunteers", "a sound tech"), not a thing
// ("posters").
func namesWorker(w string) bool {
	head := strings.TrimSuffix(w[strings.LastIndex(w, " ")+1:], "s")
	if slices.Contains(thingNouns, head) {
		return false
	}
	return personEnding.MatchString(head) || slices.Contains(workerNouns, head) || slices.Contains(serverNouns, head) || slices.Contains([]string{"volunteer", "host", "mc", "emcee", "dj", "helper", "usher"}, head)
}

// designTags are the trades a designer by the bare word may be, and the
// printing of what they design ("设计师做宣传物料": printed too).
var designTags = []string{"平面设计", "UI设计", "印刷物料"}

// cnTradeWorkers are Chinese keywords that name a worker by the trade's
// own word ("一个翻译", "一个财务"); workerVerb starts a text with a verb of
// work done for the demand; clauseRest runs to the end of a clause.
var (
	cnTradeWorkers = []string{"翻译", "财务", "会计", "前端", "后端", "策划", "文案", "主持", "律师"}
	workerVerb     = regexp.MustCompile(`^(?:来|帮忙|帮我们|帮)?(?:做|拍|剪|写|审核|审|看看|看|算一下|算|设计|翻译|串场|负责|搞|弄|处理|整理)`)
	clauseRest     = regexp.MustCompile(`^[^，。,；;！!？?、和及与]*`)
)

// cnWorkVerbs are the Chinese keywords that are verbs of a trade's work
// and take an object right after them; cnObjectStart is what may stand
// between such a verb and its object (a count and a measure word, a
// demonstrative).
var (
	cnWorkVerbs   = []string{"翻译", "打印", "印刷", "印", "印一批", "印一些", "印些", "印点", "剪辑", "剪", "直播", "录", "录制", "拍摄"}
	cnObjectStart = regexp.MustCompile(`^(?:一下|这份|这个|这段|这场|这些|那份|那个|我们的|[0-9]+\s*|[一二两三四五六七八九十百几]+)?(?:张|份|个|段|场|批|组|套|本|篇|页)?`)
)

// movePast moves each tag of past to its next keyword at or after the
// position past gives it, or drops it when none is there ("Translating our
// user manual into German; we also need a copywriter": the manual is what
// gets translated, the copywriter is asked for).
func movePast(lower string, hits map[string]keywordHit, past map[string]int) {
	for tag, from := range past {
		if next, ok := nextKeywordHit(lower, tag, from); ok {
			hits[tag] = next
		} else {
			delete(hits, tag)
		}
	}
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
func ownSubject(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	// A title before a colon is such a phrase too ("Alumni dinner in
	// Guangzhou: need a restaurant and a photographer").
	from := -1
	if slices.Contains([]string{"我们的", "我的", "咱们的", "our", "my", "our new", "my new"}, strings.TrimSpace(lower[:h.pos])) {
		from = h.end
	} else if m := wantingVerb.FindStringIndex(lower); m != nil && h.end <= m[0] && m[0] <= 40 && !countOnly.MatchString(lower[m[1]:]) {
		if title := titleOf(lower[:m[0]]); !strings.ContainsAny(title, "，,。.：:；;！!？?、") &&
			strings.TrimSpace(title) != lower[h.pos:h.end] { // "Venue: need one with a projector" labels the need
			from = m[1]
		}
	}
	if from < 0 || tagAgain(lower, tag, from) {
		return false
	}
	for other, o := range hits {
		if other != tag && o.pos >= from {
			return true
		}
	}
	return false
}

// genericDesigner reports whether the hit h of UI设计 is the word
// "designer" alone, followed in its clause by a graphic designer's thing
// ("找个设计师做招聘海报", "a designer for the recruitment poster") or
// before it and 的 ("会做详情页的设计师"): the thing says which designer.
func genericDesigner(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	if tag != "UI设计" || !slices.Contains(bareDesigner, h.word) {
		return false
	}
	g, ok := hits["平面设计"]
	if ok && (g.pos == h.pos || g.end <= h.pos && (lower[g.end:h.pos] == "的" || lower[g.end:h.pos] == " ")) { // "a designer for flyers", "会做详情页的设计师", "packaging designer"
		return true
	}
	if !ok || g.pos < h.end || g.pos-h.end > 40 {
		return false
	}
	between := strings.TrimPrefix(strings.TrimPrefix(lower[h.end:g.pos], "，"), ",") // "需要一个设计师，做公众号封面"
	return !strings.ContainsAny(between, "，,。.；;！!？?")
}

// bareDesigner are the words for a designer that name no kind of design.
var bareDesigner = []string{"设计师", "designer", "designers"}

// businessOf reports whether the hit h names the kind of the writer's
// business, before the demand's first verb of wanting ("深圳新咖啡品牌上市：
// 需要…", "Launching a coffee brand: need …") or wherever it is the
// writer's own ("帮我们的咖啡店设计杯套", "我们是做餐饮管理系统的"); after
// that verb, another business is what is asked for ("需要找一家翻译公司").
func businessOf(lower, _ string, h keywordHit, _ map[string]keywordHit) bool {
	if weAreIn.MatchString(lower[:h.pos]) {
		return true // "我们是做餐饮管理系统的"
	}
	rest := strings.TrimLeft(lower[h.end:], " ")
	if !slices.ContainsFunc([]string{"品牌", "店", "馆", "公司", "工作室", "brand", "shop", "company", "studio", "business"}, func(b string) bool { return strings.HasPrefix(rest, b) }) {
		return false
	}
	if ownBefore.MatchString(lower[:h.pos]) {
		return true
	}
	m := wantingVerb.FindStringIndex(lower)
	return m != nil && h.end <= m[0]
}

// weAreIn ends a text with the writer telling what they do ("我们是做",
// "我们是一家").
var weAreIn = regexp.MustCompile(`(?:我们|我)是(?:做|一家|一个)[^，。,；;！!？?]{0,10}$`)

// ownBefore ends a text with a word that makes what follows the writer's.
var ownBefore = regexp.MustCompile(`(?:我们的|我的|咱们的|自己的|自家的?|\bour\s+|\bmy\s+)$`)

// wantingVerb is a verb of wanting, in either language.
var wantingVerb = regexp.MustCompile(`需要|想要|想|要|打算|准备|希望|计划|\b(?:need|needs|want|wants|looking for|require|requires)\b`)

// passiveObject reports whether the hit h is what a later work word in its
// clause acts on ("海报和画册需要印刷": the posters get printed; nobody
// designs them).
func passiveObject(lower, tag string, h keywordHit, _ map[string]keywordHit) bool {
	m := passiveWork.FindStringIndex(lower[h.end:])
	if m == nil || strings.ContainsAny(lower[h.end:h.end+m[0]], "，,。；;！？") {
		return false
	}
	return slices.ContainsFunc(tagsInText(lower[h.end+m[0]:h.end+m[1]]), func(t string) bool { return t != tag })
}

// passiveWork is a verb of wanting and a work word after a thing: "需要印刷",
// "得印出来", "要翻译".
var passiveWork = regexp.MustCompile(`(?:需要|需|要|得)(?:印刷|印出来|翻译|剪辑|拍摄)`)

// titleOf is text without the colon (and the "we" of the sentence after
// it) that may end it: what a demand's title before its first verb of
// wanting is.
func titleOf(text string) string {
	t := strings.TrimRight(text, " ")
	for _, we := range []string{" we", " i"} {
		t = strings.TrimSuffix(t, we)
	}
	t = strings.TrimRight(t, " ")
	if r, n := utf8.DecodeLastRuneInString(t); r == ':' || r == '：' {
		return t[:len(t)-n]
	}
	return text
}

// purposeOf reports whether the hit h, after "for", names what the work of
// the hit before it is for, when that work builds nothing ("a copywriter
// for the website" writes and nobody builds; "a translator for Japanese
// contracts" translates them; "wireframes for our event app" still ask
// for the app).
func purposeOf(lower, _ string, h keywordHit, hits map[string]keywordHit) bool {
	m := forBefore(forTheRe, lower[:h.pos])
	if m == nil {
		return false
	}
	if listJoin.MatchString(lower[m[0]:h.pos]) { // "a videographer for a walkthrough and snacks"
		return false
	}
	prev, at := "", -1
	for tag, o := range hits {
		if o.end <= m[0] && o.end > at {
			prev, at = tag, o.end
		}
	}
	return prev != "" && !slices.Contains([]string{"UI设计", "前端开发", "后端开发", "AI研究", "数据分析", "产品经理"}, prev)
}

// forBefore is where re, a "for" phrase at the end of before, matches,
// when that "for" says whom or what something is for; nil when it does not
// match or when a verb of searching makes it ask for someone ("looking for
// a bilingual emcee").
func forBefore(re *regexp.Regexp, before string) []int {
	m := re.FindStringIndex(before)
	if m == nil || searchingFor.MatchString(before[:m[0]]) {
		return nil
	}
	return m
}

var (
	// forTheRe ends a text with "for", its article and up to two words.
	forTheRe = regexp.MustCompile(`\bfor\s+(?:(?:the|our|a|an|my|your|their)\s+)?(?:[a-z-]+\s+){0,2}$`)
	// listJoin joins the items of a list.
	listJoin = regexp.MustCompile(`\b(?:and|plus|or)\b`)
	// searchingFor ends a text with a verb whose "for" asks for someone.
	searchingFor = regexp.MustCompile(`\b(?:look|looking|search|searching|ask|asking|call|calling|hunt|hunting)\s*$`)
)

// ownedAfter reports whether the hit h is the writer's own, after "for",
// "of" or "to" and "our" or "my" ("a retirement party for our CFO",
// "photos of our cakes", "a tutor for our staff"), or the place of the
// work, after "at our" ("help at our trade show booth"), or what another need's
// thing shows, after "of the" ("photos of the cakes"): whom or what the work
// is for, not a need. Not a thing built ("wireframes for our event app"
// ask for the app too), nor what a person is asked for ("someone for our
// website"); after "of", only what another need's thing shows ("photos of
// our cakes"; "the terms of our supplier agreement" are the agreement's).
func ownedAfter(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	if slices.Contains(builtTags, tag) {
		return false
	}
	m := ownedBefore.FindStringSubmatchIndex(lower[:h.pos])
	if m != nil && m[6] >= 0 {
		return true // "help at our trade show booth": where the work is
	}
	if m == nil || anyoneFor.MatchString(lower[:m[0]]) || searchingFor.MatchString(lower[:m[0]]) {
		return false
	}
	if m[2] >= 0 && lower[m[2]:m[3]] != "of" {
		return true
	}
	start := strings.LastIndexAny(lower[:m[0]], ",.;:!?") + 1 // the clause
	for _, o := range hits {
		if o.pos >= start && o.end <= m[0] {
			return true
		}
	}
	return false
}

// builtTags are the trades that build a product.
var builtTags = []string{"前端开发", "后端开发", "AI研究"}

var (
	// ownedBefore ends a text with a preposition, "our" or "my" and at
	// most one word, or with "at our" and at most two.
	ownedBefore = regexp.MustCompile(`\b(?:(for|of|to)\s+(?:our|my)|(of)\s+(?:the|these|those|some))\s+(?:[a-z-]+\s+)?$|\b(at)\s+(?:our|my)\s+(?:[a-z-]+\s+){0,2}$`)
	// anyoneFor ends a text with anyone or help that "for" is wanted for.
	anyoneFor = regexp.MustCompile(`\b(?:` + anyoneWords + `|help)\s*$`)
)

// servedGuest reports whether the hit h is a speaker's word for the
// guests another need serves, right after its verb ("接送嘉宾": the
// guests are driven, not asked for; "给嘉宾的伴手礼"; "把嘉宾从酒店送到会场";
// "嘉宾从机场到会场", "嘉宾周五从虹桥站到酒店"), or speakers driven ("give
// our visiting professors a lift"), or people fed ("feed 200 volunteers").
func servedGuest(lower, tag string, h keywordHit, _ map[string]keywordHit) bool {
	return h.word == "嘉宾" && slices.ContainsFunc([]string{"接送", "接", "送", "陪同", "陪", "招待", "接待", "引导", "给", "为", "把"}, func(v string) bool {
		return strings.HasSuffix(lower[:h.pos], v)
	}) || h.word == "嘉宾" && guestFrom.MatchString(lower[h.end:]) || fedBefore.MatchString(lower[:h.pos]) ||
		tag == "演讲嘉宾" && (drivenBefore.MatchString(lower[:h.pos]) || givenBefore.MatchString(lower[:h.pos]) && aLiftAfter.MatchString(lower[h.end:]))
}

var (
	// guestFrom starts with where guests come from and go to, after a word
	// or two of when ("嘉宾周五从虹桥站到酒店"; not "嘉宾分享从业经验").
	guestFrom = regexp.MustCompile(`^[^，。,；;！!？?\s从]{0,6}从[^，。,；;！!？?\s]{1,10}?(?:到|去|回)`)
	// drivenBefore ends a text with a verb of driving people and whose
	// they are ("pick up the speakers": they are driven, not asked for).
	drivenBefore = regexp.MustCompile(`\b(?:drive|driving|pick up|picking up|ferry|ferrying|shuttle|shuttling|transport|transporting)\s+(?:our|the|some|all|[0-9]+)\s+(?:[a-z-]+\s+)?$`)
	// givenBefore and aLiftAfter are people given a lift or a ride ("give
	// our visiting professors a lift"; not "give our speakers a stage").
	givenBefore = regexp.MustCompile(`\b(?:give|giving)\s+(?:our|the|some|all|[0-9]+)\s+(?:[a-z-]+\s+)?$`)
	aLiftAfter  = regexp.MustCompile(`^(?:e?s)?\s+(?:a\s+)?(?:lift|ride)s?\b`)
)

// fedBefore ends a text with a verb of feeding people and a count ("feed
// 200 volunteers": they are fed, not asked for).
var fedBefore = regexp.MustCompile(`\b(?:feed|feeding|cater for|cater to)\s+(?:(?:our|the|all|about|around|[0-9]+)\s+)*$`)

// ownerOf reports whether the hit h says whose or what another hit's
// thing is for, right before "的" and, at most two characters on, that
// hit ("官网的首页设计" asks for the page's design; "志愿者的午餐" for
// lunch, the volunteers are there), unless a verb of what a person can do
// comes before it: then the 的 phrase is what the person does ("会做详情页
// 的设计师": a page designer).
func ownerOf(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	if !strings.HasPrefix(lower[h.end:], "的") || tagAgain(lower, tag, h.end) || canDoBefore.MatchString(lower[:h.pos]) {
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

// canDoBefore ends a text with a verb of what a person can do and at most
// six characters.
var canDoBefore = regexp.MustCompile(`(?:会|能|懂|擅长|负责|做过|熟悉|精通)[^，。,；;、！!？?\s]{0,6}$`)

// productWords are the keywords for a product the writer may already have.
var productWords = map[string]bool{"app": true, "网站": true, "官网": true, "小程序": true, "数据库": true, "服务器": true,
	"website": true, "site": true, "online store": true, "database": true, "server": true}

// ownProduct reports whether the hit h is the writer's product, told of
// in a clause before the demand's first verb of wanting, when another
// tag's work is asked for after it and the tag is not named again ("App
// 的注册流程太复杂，想找个交互设计师优化一下").
func ownProduct(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	m := wantingVerb.FindStringIndex(lower)
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

// spokenLanguage reports whether the hit h is "speak" said of a language
// ("an emcee who can speak Cantonese"): a skill, not a talk.
func spokenLanguage(lower, _ string, h keywordHit, _ map[string]keywordHit) bool {
	return speakLanguage.MatchString(lower[h.pos:])
}

// speakLanguage starts with "speak" and a language.
var speakLanguage = regexp.MustCompile(`^speaks?\s+(?:fluent\s+)?(?:` + languageNames + `|chinese)\b`)

// skillOf reports whether the hit h is a skill a person asked for has:
// "with" before it and "skills", "experience" or "background" after it
// ("a backend dev with SQL skills"), or a wish after it ("bilingual
// preferred"), or what they have worked on ("who has worked on fintech
// apps"), or, in Chinese, a 的 phrase of what they can do right before
// them ("能写代码的AI研究员"); not when the person is anyone ("someone
// familiar with labor law" asks for that skill; so does "someone with
// computer vision experience" when nobody is named before it), nor a designer by the
// bare word, whose kind the skill names ("会做详情页的设计师").
func skillOf(lower, tag string, h keywordHit, hits map[string]keywordHit) bool {
	if skillOfAnyone.MatchString(lower[:h.pos]) {
		return false // "someone familiar with labor law": the skill is what is asked for
	}
	if skillWithAnyone.MatchString(lower[:h.pos]) && !hitBefore(hits, h.pos) {
		return false // "someone with computer vision experience", nobody named before: the skill is asked for
	}
	if m := skillThenWorker.FindStringIndex(lower[h.end:]); m != nil && canDoBefore.MatchString(lower[:h.pos]) {
		at := h.end + m[1]
		for other, o := range hits {
			if other != tag && o.pos >= at && o.pos-at <= len("兼职") && !slices.Contains(bareDesigner, o.word) {
				return true
			}
		}
	}
	return withSkillBefore.MatchString(lower[:h.pos]) && withSkillAfter.MatchString(lower[h.end:]) || wishedSkill.MatchString(lower[h.end:]) ||
		workedOn.MatchString(lower[:h.pos])
}

// hitBefore reports whether any hit starts before p.
func hitBefore(hits map[string]keywordHit, p int) bool {
	for _, o := range hits {
		if o.pos < p {
			return true
		}
	}
	return false
}

var (
	// skillOfAnyone ends a text with a person of no trade and the start
	// of their skill.
	skillOfAnyone = regexp.MustCompile(`\b(?:` + anyoneWords + `)\s+(?:who\s+(?:is|are|has|have)\s+)?(?:familiar with|experienced (?:in|with)|good (?:at|with)|skilled (?:in|at)|who knows|who can use)\s+(?:[a-z-]+\s+){0,2}$`)
	// skillWithAnyone ends a text with a person of no trade and "with"
	// before their skill.
	skillWithAnyone = regexp.MustCompile(`\b(?:` + anyoneWords + `)\s+with\s+(?:[a-z-]+\s+){0,2}$`)
	// skillThenWorker starts a text with the rest of a 的 phrase.
	skillThenWorker = regexp.MustCompile(`^[^，。,；;、！!？?\s的]{0,6}的`)
	withSkillBefore = regexp.MustCompile(`\bwith\s+(?:[a-z]+\s+)?$`)
	withSkillAfter  = regexp.MustCompile(`^(?:\s+[a-z]+)?\s+(?:skills?|experience|background|knowledge)\b`)
	// workedOn ends a text with what a person has worked on before ("a
	// UI designer who has worked on fintech apps").
	workedOn = regexp.MustCompile(`\b(?:worked on|worked with|experience with|experience in|familiar with)\s+(?:[a-z-]+\s+){0,2}$`)
	// wishedSkill follows what a person had better have ("bilingual
	// preferred", "SQL a plus", "懂英语优先").
	wishedSkill = regexp.MustCompile(`^\s*(?:preferred|is a plus|a plus|is a bonus|a bonus|优先)`)
)

// nextKeywordHit is the first hit of a keyword of tag at from or later,
// the longest there, not inside another tag's longer keyword.
func nextKeywordHit(lower, tag string, from int) (keywordHit, bool) {
	i := tagIndex[tag]
	best := keywordHit{pos: -1}
	for _, kw := range tagKeywords[i] {
		p := findKeywordFrom(lower, kw, from)
		for p >= 0 && insideLonger(lower, i, kw, p) {
			p = findKeywordFrom(lower, kw, p+len(kw))
		}
		if p >= 0 && (best.pos < 0 || p < best.pos || p == best.pos && p+len(kw) > best.end) {
			best = keywordHit{p, p + len(kw), !shared[kw], 0, kw}
		}
	}
	return best, best.pos >= 0
}

// tagAgain reports whether a keyword of tag stands at from or later.
func tagAgain(lower, tag string, from int) bool {
	return slices.ContainsFunc(tagKeywords[tagIndex[tag]], func(kw string) bool { return findKeywordFrom(lower, kw, from) >= 0 })
}

// leadingGerund is a demand's first word when it is an -ing form.
var leadingGerund = regexp.MustCompile(`^[a-z]+ing\b`)

// qualified holds a preposition or a number: the words before it say more
// of a thing than that it is worked on.
var qualified = regexp.MustCompile(`\b(?:for|with|in|at|on|from|of)\b|[0-9]`)

// helpDoing is help asked with work ("needs help analyzing app reviews").
var helpDoing = regexp.MustCompile(`\bhelp (?:with )?[a-z]+ing\b`)

// countOnly is a count that ends its phrase: "一位，", "两名".
var countOnly = regexp.MustCompile(`^\s*(?:[0-9]+|[一二两三四五六七八九十几]+)\s*(?:位|名|个)?\s*(?:[，,。.；;、]|$)`)

// asksWithCount reports whether the hit h is a verb asking for a count
// of another hit's people: followed by the count, then, in the same
// list item, by the other ("招募10名马拉松赛道志愿者" recruits volunteers,
// not promotion).
func asksWithCount(lower, _ string, h keywordHit, hits map[string]keywordHit) bool {
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

// negationCues say, in the clause of a role word, that the demand has it
// already or does not want it ("场地我们已经有了", "we already have a
// venue", "no need for a host").
var negationCues = []string{"不需要", "不用", "无需", "已经有", "已有", "有了", "不缺", "订好了", "已经订好", "已订好", "定好了", "已经定好",
	"找好了", "已经找好", "约好了", "已经约好", "已经联系好", "搞定了", "已经搞定", "already have", "already has", "already got",
	"already booked", "we have the", "we've got the", "we've booked", "is booked", "is sorted", "is taken care of",
	"don't need", "do not need", "doesn't need", "no need for", "not looking for", "都定了", "已经定了", "已定", "定下来了",
	"用公司的", "用我们的", "用我们自己的", "用自己的", "have our own", "has its own", "have its own",
	"我们搞定", "自己搞定", "我们来搞定", "fine on", "good on", "have enough", "got enough"}

// settledEnds end a clause that says the demand has the role word's thing
// settled ("venue booked", "场地我们自己有", "现在场地定了"), when the clause wants nothing ("need a venue
// booked" still asks).
var settledEnds = []string{"booked", "sorted", "covered", "secured", "confirmed", "taken care of", "自己有", "我们有", "都有", "有现成的", "定了", "订了"}

// clauseSeps end a clause; " but " and 但 / 只 turn from what a demand has
// to what it asks for.
var clauseSeps = []string{"，", ",", "。", ".", "；", ";", "！", "!", "？", "?", "：", ":", " but ", "但", "只", "还需要", "还要"}

// negatedAt reports whether the clause around lower[p:end] says the
// demand has that already or does not want it.
func negatedAt(lower string, p, end int) bool {
	clause := clauseAt(lower, p, end)
	settled := slices.ContainsFunc(settledEnds, func(e string) bool { return strings.HasSuffix(strings.TrimSpace(clause), e) }) &&
		!wantingVerb.MatchString(clause)
	return settled || slices.ContainsFunc(negationCues, func(c string) bool { return strings.Contains(clause, c) }) ||
		slices.ContainsFunc(notThis, func(c string) bool { return strings.HasSuffix(lower[:p], c) }) ||
		noneNeeded.MatchString(clause) || answeredNo.MatchString(lower[end:])
}

// noneNeeded is a clause that says a thing is not needed ("no caterer
// needed"); answeredNo follows a role word answered no ("videographer:
// no", "摄像（否）").
var (
	noneNeeded = regexp.MustCompile(`^\s*no\s+(?:[a-z-]+\s+){0,2}(?:needed|required|necessary)\b`)
	answeredNo = regexp.MustCompile(`^\s*(?:[:：]\s*(?:(?:no|none|not needed)\b|否|不需要|不要)|[（(]\s*(?:no|not needed|否|不需要|不要)\s*[)）])`)
)

// clauseAt is the clause of lower around lower[p:end] (clauseSeps end
// one).
func clauseAt(lower string, p, end int) string {
	start, stop := 0, len(lower)
	for _, sep := range clauseSeps {
		if i := strings.LastIndex(lower[:p], sep); i >= 0 && i+len(sep) > start {
			start = i + len(sep)
		}
		if i := strings.Index(lower[end:], sep); i >= 0 && end+i < stop {
			stop = end + i
		}
	}
	return lower[start:stop]
}

// pastMention reports whether the hit h is told of in a clause about the
// past that wants nothing ("去年请过摄影师，今年想找个摄像", "Last year we
// used a DJ, this year we want a band"): who was there before is no need,
// unless the demand asks for a new one ("之前合作过的印刷厂倒闭了，需要找个
// 新的").
func pastMention(lower, _ string, h keywordHit, _ map[string]keywordHit) bool {
	return toldOfPast(lower, h.pos, h.end) || madeAlready(lower[:h.pos])
}

// madeAlready reports whether the text before a keyword ends with someone
// who has made the thing it names ("my students wrote letters", "we've
// already shot the footage"): made, not asked for; not a thing wanted
// made ("need our talks recorded and edited").
func madeAlready(before string) bool {
	m := madeBy.FindStringIndex(before)
	return m != nil && !strings.Contains(before[m[0]:], " and ") && !wantedMade.MatchString(before[:m[0]])
}

var (
	// madeBy ends a text with a maker, a past verb of making and what
	// comes before the thing made.
	madeBy = regexp.MustCompile(`\b(?:we|i|they|he|she|(?:my|our|the|their|his|her)\s+[a-z]+s)(?:['’]ve|\s+have|\s+had)?\s+(?:already\s+|just\s+)?(?:wrote|written|made|shot|filmed|recorded|designed|printed|built|drew|drawn|took|taken|edited)\s+(?:(?:a|an|the|some|our|my|their|his|her|all|all the|[0-9]+)\s+)?(?:[a-z-]+\s+)?$`)
	// wantedMade ends a text with a verb of wanting something made.
	wantedMade = regexp.MustCompile(`\b(?:need|needs|want|wants|get|like)\s+$`)
)

// toldOfPast reports whether lower[p:end] is told of in a clause about the
// past that wants nothing, and nothing after it asks for a new one.
func toldOfPast(lower string, p, end int) bool {
	clause := clauseAt(lower, p, end)
	past := cnPastTime.MatchString(clause) && strings.ContainsAny(clause, "过了") || enPastTime.MatchString(clause) && enPastVerb.MatchString(clause)
	return past && !wantingVerb.MatchString(clause) && !askedAgain.MatchString(lower[end:])
}

var (
	cnPastTime = regexp.MustCompile(`去年|上次|上回|之前|以前|往年`)
	enPastTime = regexp.MustCompile(`\b(?:last year|last time|previously|in the past|before)\b`)
	enPastVerb = regexp.MustCompile(`\b(?:hired|used|had|booked|worked with|got)\b`)
	// askedAgain asks for a new one of what was before.
	askedAgain = regexp.MustCompile(`新的|新一|再找|重新|换一|换个|\b(?:a new|another|a replacement|again)\b`)
)

// notThis, right before a keyword, refuses it ("需要设计师，不要程序员", "a
// designer, not a developer"); further off it may be said of something
// else ("场地不要太远").
var notThis = []string{"不要", "不是", "不含", "不包括", "not a ", "not an ", "not any "}

// existingAt reports whether the keyword at p is said to be there already:
// right after "有个" or "有一场" ("周六有个讲座，想找人录下来": the lecture
// is what gets recorded), where nothing before the 有 wants it ("需要有个
// 主持人") or asks whether there is one ("有没有"); or the writer's own
// place, after a verb of opening or running it ("开了家", "想开一家社区咖啡馆",
// "we're opening a co-working space"), or right after the writer's side
// and 有 ("公司有会议室").
func existingAt(lower string, p int) bool {
	before := lower[:p]
	if ownBusiness.MatchString(before) { // "我开了家咖啡馆", "想开一家社区咖啡馆": the writer's own
		return true
	}
	if slices.ContainsFunc(ownersHave, func(o string) bool { return strings.HasSuffix(before, o) }) {
		return true // "公司有会议室": the company's own
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

// ownersHave say the writer's side has the thing right after them.
var ownersHave = []string{"公司有", "我们有", "自己有", "单位有", "学校有"}

// ownBusiness ends a text with a verb of opening or running the writer's
// own place and at most a few words of it.
var ownBusiness = regexp.MustCompile(`(?:开了家|开了一家|开了个|开了一个|开一家|新开的)\p{Han}{0,4}$|\b(?:opening|opened|we run|i run|we own)\s+(?:a|an|our)\s+(?:[a-z-]+\s+){0,2}$`)

// isParticiple reports whether an English word is a past participle by
// its form ("printed", "redesigned") or among the irregular ones.
func isParticiple(w string) bool {
	return len(w) > 4 && isASCII(w) && !strings.Contains(w, " ") && strings.HasSuffix(w, "ed") || slices.Contains(irregularParticiples, w)
}

// irregularParticiples are past participles not ending in -ed ("our logo
// redone and business cards printed").
var irregularParticiples = []string{"done", "redone", "made", "remade", "written", "rewritten", "drawn", "redrawn", "shot", "built", "rebuilt", "taken"}

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

// ownActivities are the words for organising an event that, said of the
// writer, are what they do themselves ("Planning a charity run, need
// volunteers"; "we're organizing a meetup"), not help they ask for
// ("need help organizing an offsite").
var ownActivities = map[string]bool{"planning": true, "organizing": true, "organising": true}

// ownWorkRe ends the text before an activity word that makes it the
// writer's own: nothing, or "we're", "we are", "i'm", "i am", also with
// who they are between ("I'm a PhD student organizing a workshop").
var ownWorkRe = regexp.MustCompile(`(?:^|\b(?:we're|we are|i'm|i am|im|currently))\s*$|\b(?:we're|we are|i'm|i am)\s+(?:an?|the)\s+(?:[a-z-]+\s+){1,3}$`)

// ownActivity reports whether kw, after before, is the writer's own
// activity (ownActivities), said of the writer or of their group, or what
// that activity makes ("I'm organising a fundraising dinner": the dinner is
// theirs, not a caterer wanted).
func ownActivity(before, kw string) bool {
	return ownActivities[kw] && (ownWorkRe.MatchString(before) || namedSubject.MatchString(before) && !askOrHelp.MatchString(before)) ||
		ownObjectRe.MatchString(before)
}

// namedSubject is a clause's start that names who is doing something, by
// a noun for a group and at most a few more words ("Small nonprofit in
// Hangzhou planning a fun run"); askOrHelp holds a word that asks for the
// activity instead ("a team to help planning").
var (
	namedSubject = regexp.MustCompile(`^(?:[a-z-]+\s+){0,3}(?:nonprofit|non-profit|company|startup|team|school|university|club|group|church|community|ngo|charity|association|family|firm|lab|office|department|class|society|organization|organisation)\s+(?:[a-z-]+\s+){0,3}$`)
	askOrHelp    = regexp.MustCompile(`\b(?:need|needs|want|wants|help|helps|looking|seeking|someone|anyone|somebody|hire|hiring|for|with|to)\b`)
)

// ownObjectRe ends the text before the object of the writer's own
// organising, a few words into it.
var ownObjectRe = regexp.MustCompile(`(?:^|\b(?:we're|we are|i'm|i am|im))\s*(?:planning|organizing|organising|hosting|throwing|running)\s+(?:(?:a|an|our|the|my)\s+)?(?:[a-z-]+\s+){0,3}$`)

// audienceRe ends a text that counts who something is for ("training for
// 40 staff", "a talk to 200 employees"): the word after it is the
// audience, not someone to ask; lookingForRe ends one that asks for them
// ("looking for 3 volunteers").
var (
	audienceRe   = regexp.MustCompile(`\b(?:for|to|teach|teaching|train|training|certify|certifying|coach|coaching|serve|serving|feed|feeding)\s+(?:about\s+|around\s+|some\s+|over\s+)?\d+\s*$`)
	lookingForRe = regexp.MustCompile(`\b(?:look|looking|search|searching|ask|asking|hire|hiring|call|calling)\s+for\s+(?:about\s+|around\s+|some\s+|over\s+)?\d+\s*$`)
)

// namesAudience reports whether the text before a role word counts an
// audience, so that the word names who the demand is for.
func namesAudience(before string) bool {
	return audienceRe.MatchString(before) && !lookingForRe.MatchString(before) && !rangeTo.MatchString(before)
}

// rangeTo ends a text with a range of counts, "up to 6" or "2 to 3": the
// people counted are asked for.
var rangeTo = regexp.MustCompile(`(?:\bup|\d+)\s+to\s+\d+\s*$`)

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
// subject ("food festival", "美食节", "band night", "film screening") from
// a need; as event words they would add an event's implicit venue and
// planner. "环节" is a part of one ("演讲环节需要一套扩音设备": the
// speeches, not a speaker).
var eventNouns = []string{"festival", "fair", "gala", "tournament", "night", "show", "expo", "exhibition", "screening", "club", "节", "赛", "环节", "放映"}

// objectOfBa reports whether the word at p is what 把 earlier in its
// clause acts on ("把公司的宣传册翻译成英文": the brochure is translated).
func objectOfBa(lower string, p int) bool {
	before := lower[:p]
	if i := strings.LastIndexAny(before, "，,。；;！？"); i >= 0 {
		before = before[i:]
	}
	return strings.Contains(before, "把")
}
