package builtin

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	neg "github.com/towow/towow/domain/negotiation"
)

// Role nouns: a demand that asks for a kind of person the vocabulary and
// the profiles do not know ("想请一位营养师", "need a nutritionist") is
// clear all the same. The person it names becomes a need of its own, with
// the noun as its role and tag: nobody in the network serves it, so the
// negotiation reports it as a gap instead of refusing the demand as
// unclear. Only a noun asked for counts (after 需要, 找, 请, 招, 缺, 还要 or
// "need", "looking for", "hire", or as a later item of a list asked for
// so), and only one that names a person by its ending (…师, …员, …顾问; …ist,
// …ian, …er) or is a common noun for people (plainPersonNouns: 乐队,
// "nurse"). A noun holding a word the profiles use for a trade ("调音师":
// 调音) is that trade's need instead.

var (
	// cnRoleNoun: a Chinese person noun (…师, …员, …生, …工, …手, …专家, or an
	// adviser, …顾问, whose name may hold Latin letters: "HR顾问") right
	// after a word that asks for someone (推荐 too: "求推荐一个书法老师"), or
	// a colon that lists what an event needs, with an optional count
	// between.
	cnRoleNoun = regexp.MustCompile(`(?:需要|找|请|招|缺|求|还要|推荐|：)(?:[0-9]+|[一二两三四五六七八九十几]+)?\s*(?:位|名|个)?(?:专业的|资深的|靠谱的|有经验的|的|资深|专业|[^，。,；;！？!?\s的]{1,6}的)?([\p{Han}]{1,4}?(?:工程师|师|员|生|工|手|专家)|[\p{Han}a-z]{1,4}?顾问)`)
	// enRoleNoun: an English person noun (with one word before it at
	// most, after a word for what the person is like: "an experienced
	// corporate trainer") right after a phrase that asks for someone ("find
	// me", "recommend"), or counted after a colon that lists what an event
	// needs ("Birthday party: a magician, balloons and a cake"); a coach
	// too.
	enRoleNoun = regexp.MustCompile(`(?:\b(?:need|needs|needed|looking for|searching for|seeking|hire|hiring|find|want|wants|recommend)\s+(?:(?:me|us)\s+)?(?:(?:a|an|one|two|three|four|five|[0-9]+|some|a few|several)\s+)?|:\s*(?:a|an|one|two|three|four|five|[0-9]+)\s+)(?:` + personQualities + `\s+)?` + enPersonNoun)
)

// enPersonNoun is an English person noun, with one word before it at
// most, as its group: …ist, …ian, …er, …or, …ant, an artist, a pilot or a
// coach, maybe plural.
const enPersonNoun = `((?:[a-z]+\s)?(?:[a-z]{3,}(?:ist|ian|er|or|ant)|artist|pilot|coach))(?:es|s)?\b`

// personQualities are English words for what a person asked for is like,
// before the noun for them.
const personQualities = `(?:experienced|certified|qualified|professional|licensed|reliable|patient|friendly|good|great|private|native|bilingual|seasoned|young|female|male|local)`

// personKeywordAt reports whether a keyword for persons of a trade
// (cnPersonWord) starts at p: a role noun right before it says who those
// persons are.
func personKeywordAt(lower string, p int) bool {
	for _, kws := range tagKeywords {
		for _, kw := range kws {
			if strings.HasPrefix(lower[p:], kw) && cnPersonWord(kw) {
				return true
			}
		}
	}
	return false
}

// leadingCount is a count and its measure word at the start of a noun.
var leadingCount = regexp.MustCompile(`^(?:[0-9]+|[一二两三四五六七八九十几]+)(?:位|名|个)`)

// cnListRoleNoun and enListRoleNoun are a person noun as a later item of a
// list (after 、 和 及, or ", a" and "and a"); they count after a word
// that asks for someone earlier in the same sentence.
var (
	cnListRoleNoun = regexp.MustCompile(`(?:、|和|及)(?:[0-9]+|[一二两三四五六七八九十几]+)?\s*(?:位|名|个)?([\p{Han}]{1,4}?(?:工程师|师|员|生|工|手))`)
	enListRoleNoun = regexp.MustCompile(`(?:,|\band)\s+(?:a|an|one|two|three|four|five|[0-9]+)\s+` + enPersonNoun)
)

// notRoleNouns end like a person noun and name no trade of their own.
var notRoleNouns = []string{"other", "another", "after", "later", "order", "number", "answer", "water", "paper", "letter", "matter", "computer", "dinner",
	"together", "better", "member", "corner", "partner", "poster", "banner", "sticker", "flyer", "folder", "meter", "center", "centre",
	"quarter", "master", "power", "ever", "never", "whatever", "error", "mirror", "color", "colour", "floor", "door", "proper", "either", "neither", "whether", "员工", "人工",
	// a person by how they work, not by what they do
	"freelancer", "contractor", "volunteer", "helper", "trailer", "explainer",
	// places
	"restaurant",
	// what a person eats
	"vegetarian", "vegetarians"}

// roleNounNeeds returns the needs the role nouns asked for in a text
// name, at most one per noun.
func roleNounNeeds(lower string) []need {
	var found []need
	seen := map[string]bool{}
	add := func(role string, p, end int) {
		for _, cue := range []string{"请", "找", "招", "聘", "求", "个", "位", "名"} { // "请个老师", "招聘两名老师": the noun is 老师
			for strings.HasPrefix(role, cue) && utf8.RuneCountInString(role) > 2 {
				role, p = role[len(cue):], p+len(cue)
			}
		}
		if m := leadingCount.FindString(role); m != "" && utf8.RuneCountInString(role[len(m):]) >= 2 { // "需要请一位医生": 医生
			role, p = role[len(m):], p+len(m)
		}
		if i := strings.LastIndexAny(role, "和及与或"); i >= 0 { // "导演和演员": the noun after the last "and"
			role, p = role[i+len("和"):], p+i+len("和")
		}
		if strings.HasPrefix(role, "to ") || strings.HasPrefix(role, "把") { // "need to cater lunch", "需要把招生简章翻译成英文": work to do, no person
			return
		}
		if utf8.RuneCountInString(role) < 2 || seen[role] || slices.Contains(notRoleNouns, role[strings.LastIndex(role, " ")+1:]) || endsInsideWord(role, lower[end:]) ||
			strings.HasSuffix(role, "会员") { // "做会员卡": a member is nobody asked for
			return
		}
		if personKeywordAt(lower, end) || toldOfPast(lower, p, end) {
			return // "学生志愿者": who the volunteers are; "去年请过摄影师": who was there before
		}
		seen[role] = true
		tags := []string{role}
		if e, ok := lexiconWordIn(role); ok && !slices.Contains(plainPersonNouns, role) { // "室内设计师" is nobody's
			// The profiles' own word for the work ("调音" in "调音师"):
			// a trade of the network after all.
			role, tags = roleOf(e.tags[0]), slices.Clone(e.tags)
		}
		found = append(found, need{neg.Need{Role: role, CapabilityTags: tags, Count: countAt(lower, p, end, tags)}, p, end, false})
	}
	colonNotOfEvent := func(m []int) bool { // a list after a colon, of what no event needs
		return strings.ContainsAny(lower[m[0]:m[2]], ":：") && !listsEventNeeds(lower, m[2])
	}
	for _, m := range cnRoleNoun.FindAllStringSubmatchIndex(lower, -1) {
		if before := lower[m[0]:m[2]]; len(tagsInText(before)) > 0 || slices.ContainsFunc(plainPersonNouns, func(w string) bool { return strings.Contains(before, w) }) {
			continue // "懂RAG的工程师", "会无人机航拍的飞手": what they know names them
		}
		if !colonNotOfEvent(m) {
			add(lower[m[2]:m[3]], m[2], m[3])
		}
	}
	for _, m := range enRoleNoun.FindAllStringSubmatchIndex(lower, -1) {
		if !colonNotOfEvent(m) {
			add(lower[m[2]:m[3]], m[2], m[3])
		}
	}
	// The later items of a list the demand asks for ("需要化妆师、摄影师和
	// 一位司仪", "need a wedding planner, a florist and a DJ").
	for _, l := range []struct {
		item *regexp.Regexp
		cues []string
	}{{cnListRoleNoun, cnAskCues}, {enListRoleNoun, enAskCues}} {
		for _, m := range l.item.FindAllStringSubmatchIndex(lower, -1) {
			if askedBefore(lower, m[0], l.cues) {
				add(lower[m[2]:m[3]], m[2], m[3])
			}
		}
	}
	// People whose nouns carry no person ending ("一支乐队", "a nurse"),
	// asked for earlier in the sentence.
	for _, w := range plainPersonNouns {
		p := findKeyword(lower, w)
		if p < 0 && isASCII(w) {
			p = findKeyword(lower, plural(w))
		}
		cues := cnAskCues
		if isASCII(w) {
			cues = enAskCues
		}
		if p >= 0 && askedBefore(lower, p, cues) && !strings.HasSuffix(lower[:p], "to ") && !startsInsideWord(lower[:p], w) &&
			!servedCount.MatchString(lower[:p]) && !namesAudience(lower[:p]) && !usedThing(lower[:p]) { // "a chef to cook them": the verb; "lunch for 80 nurses", "to certify 50 nurses": whom it is for; "用无人机": a thing used
			add(w, p, p+len(w))
		}
	}
	return found
}

// wordsAcross are common words whose first character is a person ending
// and whose second follows it: a role noun ending there is half of one
// ("给员工做培训" holds no "给员").
var wordsAcross = []string{"员工", "师傅", "生活", "生产", "工作", "工资", "手机", "手续", "手工", "手册", "手语", "手艺", "手绘", "手作"}

// servedCount ends a text with "for" and a count: the people after it are
// whom a need serves ("lunch for 80 nurses").
var servedCount = regexp.MustCompile(`\bfor\s+(?:about\s+|around\s+|up\s+to\s+)?[0-9]+\s+$`)

// wordsAcrossStart are common words whose second character begins a
// person noun: a noun starting there is half of one ("引导游客" holds no
// 导游).
var wordsAcrossStart = []string{"引导", "指导", "辅导", "主导", "督导", "教导", "报导", "倡导"}

// startsInsideWord reports whether the text before a noun and the noun's
// first character make one of wordsAcrossStart.
func startsInsideWord(before, noun string) bool {
	last, _ := utf8.DecodeLastRuneInString(before)
	first, _ := utf8.DecodeRuneInString(noun)
	return slices.Contains(wordsAcrossStart, string([]rune{last, first}))
}

// endsInsideWord reports whether the role noun's last character and the
// text after it make one of wordsAcross.
func endsInsideWord(role, rest string) bool {
	last, _ := utf8.DecodeLastRuneInString(role)
	next, _ := utf8.DecodeRuneInString(rest)
	return slices.Contains(wordsAcross, string([]rune{last, next}))
}

// cnAskCues and enAskCues are the words that ask for someone.
var (
	cnAskCues = []string{"需要", "找", "请", "招", "缺", "求", "还要", "想要"}
	enAskCues = []string{"need", "looking for", "searching for", "seeking", "hire", "hiring", "find", "want", "could use", "would love", "'d love",
		"require", "requesting", "recommend", "wishlist", "must have", "nice to have", "would be great", "budget for"}
)

// askedBefore reports whether a cue asks for someone earlier in the
// sentence holding position p.
func askedBefore(lower string, p int, cues []string) bool {
	sentence := lower[:p]
	if i := strings.LastIndexAny(sentence, "。.;；!！?？"); i >= 0 {
		sentence = sentence[i:]
	}
	return slices.ContainsFunc(cues, func(c string) bool { return strings.Contains(sentence, c) }) || listsEventNeeds(sentence, len(sentence))
}

// listsEventNeeds reports whether the colon that ends sentence[:i], or
// one before it in the sentence, follows the name of an event: what comes
// after it lists what the event needs ("Birthday party for my 6-year-old:
// a magician, balloons and a cake"; "年会：一个主持人、一支乐队"), not what
// someone has ("团队构成：一个产品经理").
func listsEventNeeds(sentence string, i int) bool {
	head := sentence[:i]
	c := strings.LastIndexAny(head, ":：")
	if c < 0 {
		return false
	}
	head = head[:c]
	if j := strings.LastIndexAny(head, "。.;；!！?？"); j >= 0 {
		head = head[j:]
	}
	return eventName(head) != ""
}

// plainPersonNouns are common nouns for people that end like no person
// noun (…师, …员; …er, …ist), so the patterns above miss them. Words
// that also name things ("model", "guide", "security") are left out.
var plainPersonNouns = []string{"乐队", "小丑", "模特", "保洁", "保安", "安保", "导游", "护士", "教练", "保姆", "月嫂", "家教", "画家", "作家", "裁判", "助教", "助理", "医护", "领队", "客服", "地陪", "急救", "医疗保障", "无人机", "外教", "陪练", "教官", "合唱团", "乐团", "舞狮队", "醒狮队",
	"band", "clown", "choir", "orchestra", "nurse", "tour guide", "local guide", "guide", "docent", "向导", "referee", "referees", "umpire", "medic", "medics", "paramedic", "paramedics", "vet", "security guard", "bodyguard", "nanny", "interior designer", "室内设计师", "服装设计师", "景观设计师", "建筑师", "fashion designer", "landscape designer", "architect", "车模"}

// misspelt is the tag of the one-word English keyword that an English
// word is one slip from (a letter left out, added, changed or two swapped:
// "phtographer", "vidographer", "translater"), both of eight letters or
// more, when exactly one tag's keyword is. Shorter words slip into other
// words ("painter", "printer").
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

// teachingHeads are the keywords of a trade or a composite role that name
// a person who teaches or coaches ("instructor" is a speaker's, "coach"
// and 导师 a mentor's).
var teachingHeads = []string{"instructor", "coach", "导师"}

// notTaught are words before a teaching head that say what the person is
// like or whom they serve, not an activity they teach ("volunteer
// instructors", "a startup coach", "资深导师").
var notTaught = []string{"volunteer", "guest", "experienced", "certified", "qualified", "professional", "good", "great", "new", "local",
	"senior", "junior", "head", "assistant", "lead", "main", "workshop", "bootcamp", "course", "class", "startup", "business", "career",
	"executive", "leadership", "founder", "pitch", "industry", "tech", "technical",
	"创业", "行业", "职业", "商业", "技术", "资深", "专业", "项目", "企业", "学术", "青年", "校外", "校内", "生涯"}

// teachesActivity reports whether role noun r names, by what they teach,
// the person n was named by a teaching head (teachingHeads) at the noun's
// end: "a yoga instructor", "a swimming coach", "冥想导师" teach an
// activity, and are persons of their own (reported as gaps), not speakers
// or mentors. Words for a quality of the person, for whom mentors serve
// (notTaught) or for a trade of the vocabulary ("backend mentors") leave n
// as it is.
func teachesActivity(lower string, r, n need) bool {
	if n.pos <= r.pos || n.pos >= r.end {
		return false
	}
	head := slices.IndexFunc(teachingHeads, func(h string) bool {
		return strings.HasPrefix(lower[n.pos:], h) && n.pos+len(h) >= r.end
	})
	if head < 0 {
		return false
	}
	modifier := strings.TrimSpace(lower[r.pos:n.pos])
	words := strings.Fields(modifier)
	return modifier != "" && !slices.ContainsFunc(words, func(w string) bool { return slices.Contains(notTaught, w) }) &&
		!slices.Contains(notTaught, modifier) && len(tagsInText(modifier)) == 0
}
