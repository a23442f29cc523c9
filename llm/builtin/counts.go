package builtin

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Counts: how many people a need asks for, as people write them.

// peopleCountElsewhere is the count of people written before another
// place where a keyword of tag i stands than at p ("补给站缺人手，需要
// 20名志愿者": 20; "recruiting talk: … two industry veterans": 2), or 0:
// a Chinese count by a measure word only people take or before a word for
// persons ("十几个学生志愿者"), an English one before a word for people (not
// "a 120-person company dinner").
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
			people := cnPeopleCount.MatchString(lower[max(0, q-24):q]) || isASCII(kw) && countsPeople(lower, keywordHit{q, q + len(kw), true, 0, kw}) ||
				cnPersonWord(kw) // "十几个学生志愿者"

			if n, ok := writtenCountBefore(lower, q); ok && n > best && people {
				best = n
			}
		}
	}
	return best
}

var (
	// cnCount is a Chinese count right before a role: "两位", "3名", "五个",
	// "俩", "十来个", "20+", or with a measure word and a short 的 phrase or a word of up
	// to three characters between ("几个会说英语的", "十个学生", "几个大学生").
	cnCount = regexp.MustCompile(`([0-9]+|[一二两三四五六七八九十百几俩仨]+)(?:\+|来)?\s*(?:(?:(?:位|名|个|个人|组|支|家)\s*(?:专业的|资深的|靠谱的|有经验的|优秀的|的)?)?|(?:位|名|个)[\p{Han}a-z]{1,8}?的|(?:位|名|个)[\p{Han}]{1,3})\s*$`)
	// cnPeopleCount ends with a Chinese count by a measure word only
	// people take (位, 名) and at most six characters after it; with
	// three or more ("10名马拉松赛道志愿者") it counts the role after them,
	// when they neither join nor ask (checked where it is used).
	cnPeopleCount = regexp.MustCompile(`([0-9]+|[一二两三四五六七八九十百几]+)\s*(?:位|名)(\p{Han}{0,6})\s*$`)
	// cnCountAfter is a Chinese count right after a role: "评委五位",
	// "导览员三名", "翻译需要两名", or after 的 and before a measure word for
	// persons ("负责签到的三个人").
	cnCountAfter = regexp.MustCompile(`^(?:师|员|人|者|手)?\s*(?:需要|要|还缺|还差|缺|差)?\s*([0-9]+|[一二两三四五六七八九十百]+)\s*(?:位|名|个人|个)|^的\s*([0-9]+|[一二两三四五六七八九十百]+)\s*(?:个人|位|名)`)
	// guestsUnit is the unit of a count of persons (see countsPersons).
	guestsUnit = regexp.MustCompile(`人|people|persons`)
	// cnPeopleAfter is a count of persons (人) right after a word:
	// "补给站志愿者20人", "需要摄影2人" (see countsPersons).
	cnPeopleAfter = regexp.MustCompile(`^\s*([0-9]+|[一二两三四五六七八九十]+)\s*人`)
	// enCount is an English count right before a role, with at most two
	// words between: "two keynote speakers", "3 professional photographers".
	enCount = regexp.MustCompile(`(?i)\b([0-9]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|half a dozen|a dozen|a couple of|a couple|a few|a handful of|several)\+?\s+(?:[a-z-]+\s+){0,2}$`)
	// timesBefore and countAfter are counts written as in a list: "2x
	// photographers", "摄影师 x2", "志愿者（10人）", "volunteers (approx. 15)".
	timesBefore = regexp.MustCompile(`\b([0-9]+)\s*[x×]\s*$`)
	countAfter  = regexp.MustCompile(`^(?:师|员|人|者|手)?\s*(?:[x×*]\s*([0-9]+)\b|[（(]\s*(?:约|大约|approx\.?|about|around|~)?\s*([0-9]+)\s*\+?\s*(?:人|名|位|people|persons)?\s*[)）])`)
	// enCountAfter is an English count after the role and a colon or
	// comma, ending its clause: "volunteers: around 8", "volunteers, 8 in
	// total".
	enCountAfter = regexp.MustCompile(`^\s*[:,]\s*(?:around|about|approx\.?|approximately|roughly|maybe)?\s*([0-9]+)\s*(?:in total|total|people|persons|or so)?\s*(?:[.;,!?]|$)`)
)

var enNumbers = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"half a dozen": 6, "a dozen": 12, "a couple of": 2, "a couple": 2, "a few": 3, "a handful of": 3, "several": 3}

// timeUnit is a unit of time after a number: "a 2-hour DJ set", "a
// 90-second recap", "两个小时的主持" count time, not people.
var timeUnit = regexp.MustCompile(`^(?:[0-9]+|[一二两三四五六七八九十几俩仨]+)(?:\+|来)?\s*(?:个\s*)?(?:小时|分钟|天|周|晚|月|年)|^\S+\s+(?:hours?|days?|minutes?|mins?|seconds?|secs?|weeks?|nights?)\b`)

// countsPersons reports whether a count of persons right after word (a
// need's word, whose trades are tags) counts the people asked for: after
// a word for a person ("志愿者20人", "搬运工四人"), or a word of a trade
// that serves no guests ("摄影2人"); after a place, food, transport,
// equipment or print it counts their guests ("场地（300人）", "盒饭50人").
func countsPersons(word string, tags []string) bool {
	return cnPersonWord(word) || !servesGuests(tags)
}

// servesGuests reports whether one of tags is a trade that serves guests
// (servingTags).
func servesGuests(tags []string) bool {
	return slices.ContainsFunc(tags, func(t string) bool { return slices.Contains(servingTags, t) })
}

// cnPersonWord reports whether a Chinese word names a person by its last
// character (志愿者, 导览员, 摄影师, 帮手, 搬运工).
func cnPersonWord(w string) bool {
	last, _ := utf8.DecodeLastRuneInString(w)
	return !isASCII(w) && strings.ContainsRune("者员师手工", last)
}

// servingTags are the trades that serve guests.
var servingTags = []string{"场地提供", "餐饮服务", "交通接送", "音响设备", "印刷物料"}

// countAt is the count of the role word at lower[p:end], of a need of
// tags: written before it ("三位评委"), else right after it ("评委五位",
// "导览员三名", "摄影师 x2", "志愿者（10人）", "volunteers: around 8"; a
// count of persons only where countsPersons says so), else for each item
// of its list ("各两位"), else the sum of its split by task ("志愿者：签到4
// 人、引导6人"), else 1.
func countAt(lower string, p, end int, tags []string) int {
	if n, ok := writtenCountBefore(lower, p); ok {
		return n
	}
	if m := cnCountAfter.FindStringSubmatch(lower[end:]); m != nil {
		return countNumber(m[1] + m[2])
	}
	person := countsPersons(lower[p:end], tags)
	if m := countAfter.FindStringSubmatch(lower[end:]); m != nil && (person || !guestsUnit.MatchString(m[0])) {
		return countNumber(m[1] + m[2])
	}
	if m := cnPeopleAfter.FindStringSubmatch(lower[end:]); m != nil && person {
		return countNumber(m[1])
	}
	if m := enCountAfter.FindStringSubmatch(lower[end:]); m != nil {
		return countNumber(m[1])
	}
	if m := eachCount.FindStringSubmatch(lower[end:]); m != nil {
		return countNumber(m[1])
	}
	if n := splitCount(lower[end:]); n > 0 {
		return n
	}
	return 1
}

// splitCount is the sum of the counts a role is split into by task right
// after it ("志愿者：签到4人、引导6人", "volunteers: 6 for check-in and 4 for
// guiding"), or 0.
func splitCount(rest string) int {
	m := taskSplit.FindString(rest)
	if m == "" {
		return 0
	}
	sum := 0
	for _, n := range taskCount.FindAllStringSubmatch(m, -1) {
		sum += countNumber(n[1])
	}
	return sum
}

var (
	// taskSplit is a list of two or more tasks, each with a count, right
	// after a role and a colon or bracket.
	taskSplit = regexp.MustCompile(`^\s*[：:（(]\s*(?:(?:\p{Han}{1,6}\s*[0-9]+\s*(?:人|名|位|个)|[0-9]+\s+for\s+[a-z-]+(?:\s+[a-z-]+)?)\s*(?:[、,，;；]|\s+and\s+|和)?\s*){2,}`)
	// taskCount is one count of taskSplit's list.
	taskCount = regexp.MustCompile(`([0-9]+)\s*(?:人|名|位|个|for\b)`)
)

// eachCount is a count for every item of a list, later in the role's
// clause: "需要主持人、摄影师、化妆师各两位".
var eachCount = regexp.MustCompile(`^[^，,。.；;！!？?]*?各\s*([0-9]+|[一二两三四五六七八九十几俩仨]+)\s*(?:位|名|个|人)`)

// countsOther is an English count of other people or things than the role
// after it: a preposition or a word for an audience between ("for 40 staff
// on product management": no forty product managers; "4 people on the
// door" are the people asked for).
var countsOther = regexp.MustCompile(`(?i)\s(?:of|about|with|staff|guests|attendees|students|kids|participants|employees)\s`)

// clauseBetween is a verb or an article between an English count and a
// role: the count ends a phrase of its own ("a team of 8 needs a product
// manager": one).
var clauseBetween = regexp.MustCompile(`(?i)\s(?:a|an|the|need|needs|want|wants|is|are|has|have)\s`)

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
var thingNouns = []string{"photo", "pic", "picture", "poster", "banner", "badge", "flyer", "sticker", "brochure", "video", "clip",
	"meal", "dinner", "lunch", "breakfast", "course", "drink", "snack", "article", "contract", "invoice", "logo", "website", "app", "dashboard", "survey",
	"projector", "microphone", "mic", "light", "room", "hall", "booth", "table", "space", "screen", "interview", "session",
	"letter", "newsletter", "trailer", "flier", "paper", "cover"}

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
		if i := strings.LastIndex(before, sep); i >= 0 && !strings.HasPrefix(before[i:], " or so ") { // "15 or so volunteers"
			before = before[i+len(sep)-1:]
		}
	}
	if m := cnCount.FindStringSubmatchIndex(before); m != nil && !timeUnit.MatchString(before[m[0]:]) && !strings.HasSuffix(before[:m[2]], "双") { // not "双十一的活动页"
		return countNumber(before[m[2]:m[3]]), true
	}
	if m := cnPeopleCount.FindStringSubmatch(before); m != nil && utf8.RuneCountInString(m[2]) >= 3 && !strings.ContainsAny(m[2], "的和与及或要找请需") {
		return countNumber(m[1]), true
	}
	if m := timesBefore.FindStringSubmatch(before); m != nil {
		return countNumber(m[1]), true
	}
	if m := enCount.FindStringSubmatch(before); m != nil && !timeUnit.MatchString(m[0]) && !countsOther.MatchString(m[0][len(m[1]):]) && !clauseBetween.MatchString(m[0][len(m[1]):]) {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return max(1, n), true
		}
		return enNumbers[strings.ToLower(m[1])], true
	}
	return 0, false
}
