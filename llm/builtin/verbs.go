package builtin

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Verbs: an English demand often asks for the work rather than the worker
// ("someone to write our job ads", "edit short explainer videos"). Each
// single-word English keyword that is a gerund or an agent noun gives its
// verb by rule ("writing", "writer" → "write"; "editor" → "edit"; "planner"
// → "plan"), and the verb names the keyword's tag where it is asked for:
// after "to", "and", "can", "could", "will", "help", "please" or at the
// start, with an object after it. The object decides when it names a
// trade itself: "design a poster" asks for a poster's designer (平面设计),
// not whatever "designer" names. In Chinese, a keyword naming a person by
// what they do ("分享人") gives the activity ("分享"), which names the tag
// where someone is asked to do it: "再请两位行业前辈分享职业经验" asks for
// two speakers; "分享会" is an event, and "我想分享一下" asks nobody.

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

// tagVerb is a verb of a tag's keyword: Chinese or English, and whether
// the keyword names that tag alone.
type tagVerb struct {
	verb       string
	zh, strong bool
}

// tagVerbs are each vocabulary tag's verbs (zhVerbOf and verbsOf of its
// keywords, in their order), made once.
var tagVerbs = func() [][]tagVerb {
	out := make([][]tagVerb, len(vocabulary))
	for i := range vocabulary {
		for _, kw := range tagKeywords[i] {
			if v := zhVerbOf(kw); v != "" {
				out[i] = append(out[i], tagVerb{v, true, !shared[kw]})
			}
			for _, v := range verbsOf(kw, tagKeywords[i]) {
				out[i] = append(out[i], tagVerb{v, false, !shared[kw]})
			}
		}
	}
	return out
}()

// zhVerbOf is the verb of a Chinese keyword naming a person by what they
// do, with 人 or 者 after it ("分享人", "分享者" → "分享"), when that is at
// least two characters; "" otherwise.
func zhVerbOf(kw string) string {
	r := []rune(kw)
	if isASCII(kw) || len(r) < 3 || (r[len(r)-1] != '人' && r[len(r)-1] != '者') {
		return ""
	}
	return string(r[:len(r)-1])
}

// zhCues are the words that ask someone to do something ("请两位前辈分享").
var zhCues = []string{"请", "邀请", "找", "需要"}

// zhCueSpan is how far, in bytes, before a Chinese verb its cue may be
// (about twenty characters: "请两位行业前辈", "需要海报、易拉宝和两位在职工程师",
// the last item of a list the cue asks for).
const zhCueSpan = 60

// zhAskedCount is a count among the people a cue asks ("请两位行业前辈").
var zhAskedCount = regexp.MustCompile(`([0-9]+|[一二两三四五六七八九十]+)\s*(?:位|名|个)`)

// findZhVerb is where a Chinese verb is first asked for in lower (a cue
// shortly before it in the same clause, and no event named right after
// it: "分享会" is an event, "分享职业经验" the work), or -1; and the count
// of the people asked between the cue and the verb (0: none written).
func findZhVerb(lower, verb string) (pos, count int) {
	pos = findKeywordUnless(lower, verb, func(before, rest string) bool {
		if namesEvent(rest) || namesEvent(verb+rest) || strings.HasSuffix(before, "的") { // "每天的分享": a thing, not the work; "开分享会": an event
			return true
		}
		clause := clauseBefore(before)
		return !slices.ContainsFunc(zhCues, func(c string) bool { return strings.Contains(clause, c) })
	})
	if pos < 0 {
		return -1, 0
	}
	// The count nearest the verb: a list's earlier items have their own.
	if ms := zhAskedCount.FindAllStringSubmatch(clauseBefore(lower[:pos]), -1); ms != nil {
		return pos, countNumber(ms[len(ms)-1][1])
	}
	return pos, 0
}

// clauseBefore is the end of before within zhCueSpan bytes and its last
// clause.
func clauseBefore(before string) string {
	clause := before[max(0, len(before)-zhCueSpan):]
	for !utf8.ValidString(clause) && len(clause) > 0 {
		clause = clause[1:]
	}
	if i := strings.LastIndexAny(clause, "，,。；;！？"); i >= 0 {
		clause = clause[i:]
	}
	return clause
}

// findVerb is where verb is first asked for in lower (see verbCues), or
// -1; afterObject reports whether the words after it name another tag.
func findVerb(lower, verb string, namesOther func(object string) bool) int {
	return findKeywordUnless(lower, verb, func(before, rest string) bool {
		asked := before == "" || strings.HasSuffix(before, ". ") || strings.HasSuffix(before, ", ")
		for _, c := range verbCues {
			asked = asked || strings.HasSuffix(before, c)
		}
		// "account for", "plan for": a phrasal verb, not the work; "film
		// screening": the verb's word names the event.
		if !asked || !strings.HasPrefix(rest, " ") || len(rest) < 2 || !isASCIIAlnum(rest[1]) || strings.HasPrefix(rest, " for ") || namesEvent(rest) {
			return true
		}
		// What the object is for names nobody asked for ("write the copy
		// for our landing page": the copy is the work).
		obj := objectOf(rest)
		if i := strings.Index(obj, " for "); i >= 0 {
			obj = obj[:i]
		}
		return namesOther(obj)
	})
}

// Trades named by a thing and a worker: "sound engineer", "av tech",
// "event specialist". The first word of a two-word English keyword
// ("sound system", "av equipment", "event planner") followed by a noun
// for a skilled worker names the keyword's tag.

// workerNouns are the nouns for a skilled worker of any trade.
var workerNouns = []string{"engineer", "engineers", "technician", "technicians", "tech", "techs", "specialist", "specialists",
	"expert", "experts", "crew", "crews", "team", "teams", "person", "guy", "pro", "pros"}

// workerHeads are workerHeadsOf each vocabulary tag, made once.
var workerHeads = func() [][]string {
	all := make([][]string, len(vocabulary))
	for i := range vocabulary {
		all[i] = workerHeadsOf(i)
	}
	// A head that another tag has too, as a head or as a keyword, names
	// neither ("booking" of a booking page's front end and of a booking
	// system's back end; "audio" of "audio editing" is the sound crew's
	// keyword).
	out := make([][]string, len(vocabulary))
	for i := range all {
		out[i] = slices.DeleteFunc(slices.Clone(all[i]), func(h string) bool {
			for j := range vocabulary {
				if j != i && (slices.Contains(all[j], h) || slices.Contains(tagKeywords[j], h)) {
					return true
				}
			}
			return false
		})
	}
	return out
}()

// workerHeadsOf are the heads (first words) of tag i's two-word English
// keywords that say what the work is on: four letters or more (not "the
// host", "an mc"), none of notWorkerHeads and no event ("conference room":
// a conference technician works the sound, not the room).
func workerHeadsOf(i int) []string {
	var out []string
	for _, kw := range tagKeywords[i] {
		head, rest, ok := strings.Cut(kw, " ")
		if ok && isASCII(kw) && !strings.Contains(rest, " ") && len(head) >= 4 && !slices.Contains(notWorkerHeads, head) &&
			!slices.ContainsFunc(eventWords, func(e struct{ kw, name string }) bool { return e.kw == head }) {
			if !slices.Contains(out, head) {
				out = append(out, head)
			}
		}
	}
	return out
}

// notWorkerHeads are first words of two-word keywords that say another
// trade's work, or none, before a worker noun: a "football team" is no
// venue, a "translation team" no sound crew, a "lead engineer" no host;
// "our company's WeChat" is no video's.
var notWorkerHeads = []string{"lead", "language", "tennis", "basketball", "badminton", "football", "soccer", "sports", "course",
	"translation", "interpretation", "interpreting", "team", "after", "final", "going", "with", "writes", "good", "door", "reception",
	"company"}

// findWorker is where a head of tag i is first followed by a worker noun
// in lower ("sound engineer"), or -1, with the end of the worker noun.
func findWorker(lower string, i int) (pos, end int) {
	pos = -1
	for _, head := range workerHeads[i] {
		for _, n := range workerNouns {
			if p := findKeyword(lower, head+" "+n); p >= 0 && (pos < 0 || p < pos) {
				pos, end = p, p+len(head)+1+len(n)
			}
		}
	}
	return pos, end
}

// zhPlainPeople are Chinese words for people of no trade, named by who
// they are.
const zhPlainPeople = `学生|大学生|同学|朋友|小伙伴|兼职|兼职生|家长|小伙子|阿姨|叔叔|邻居|居民|校友`

var (
	// zhHanders are people asked to hand things out, with what they hand
	// out ("需要人发奖牌和矿泉水", "找几个人分发宣传册"): the things are
	// handed out, not made.
	zhHanders = regexp.MustCompile(`(?:需要|找|缺)([0-9]+|[一二两三四五六七八九十几]+)?(?:个|名|位)?人(?:帮忙|来)?(?:(?:分发|派发|发放)[^，。,；;、！!？?\s]{0,8}|发[^，。,；;、！!？?\s]{0,4}?(?:奖牌|水|物资|资料|礼品|礼物|传单|餐|饭|手环|号码布|门票|纪念品)(?:和[^，。,；;、！!？?\s]{1,6})?)`)
	// zhNamedHelpers are people of no trade, named by who they are, asked
	// to help ("需要家长帮忙看摊位"), not to help find someone
	// ("找朋友帮忙推荐一个摄影师").
	zhNamedHelpers = regexp.MustCompile(`(?:需要|找|缺|请)(一些|几)?(?:位|个|名)?(?:热心的)?(?:` + zhPlainPeople + `)们?(?:来|过来)?帮忙(?:$|[^推介])`)
	// zhHelpers and enHelpers are people counted and asked to help, with
	// no trade named for them ("需要几个人帮忙摆摊", "a few people to help
	// with check-in"): volunteers.
	zhHelpers = regexp.MustCompile(`([0-9]+|[一二两三四五六七八九十几]+)\s*(?:(?:个|名|位)?\s*人\s*[^，。,；;]{0,4}?|(?:个|名|位)\s*(?:[^，。,；;的\s]{1,4}的)?(?:` + zhPlainPeople + `)?(?:来|过来)?)帮忙`)
	enHelpers = regexp.MustCompile(`\b([0-9]+|a few|a couple of|several|some|two|three|four|five|six|seven|eight|nine|ten)\s+(?:[a-z-]+\s+)?(?:people|ppl|persons|folks|hands|students|kids|guys)\s+to\s+help\b`)
)

// findHelpers is where people are asked to help, or to hand things out,
// in lower, or -1, with the match's end and how many: a number as
// written, two for "几" and "a few", three for "several", "some" and
// "一些", one when no count is written.
func findHelpers(lower string) (pos, end, count int) {
	for _, re := range []*regexp.Regexp{zhHelpers, enHelpers, zhHanders, zhNamedHelpers} {
		m := re.FindStringSubmatchIndex(lower)
		if m == nil {
			continue
		}
		if m[2] < 0 {
			return m[0], m[1], 1 // "需要人发奖牌": one, uncounted
		}
		n := lower[m[2]:m[3]]
		switch {
		case n == "几" || n == "a few" || n == "a couple of":
			count = 2
		case n == "several" || n == "some" || n == "一些":
			count = 3
		default:
			if v, err := strconv.Atoi(n); err == nil {
				count = v
			} else if v := enNumbers[n]; v > 0 {
				count = v
			} else {
				count = parseCNNumber(n)
			}
		}
		return m[0], m[1], max(1, count)
	}
	return -1, 0, 0
}

// Work asked for on a trade's thing: "someone to clean survey data",
// "somebody to fix our sound". A head of the tag's two-word keywords
// (workerHeadsOf: "data" of "data analysis") in the object of a verb
// someone is asked to do names the tag, whatever the verb.

// modifiesTrade reports whether after, the text right after a head of tag
// i, starts with a word of another tag: the head then says what that
// other trade's thing is about ("product photos" are a photographer's
// work, not a product manager's).
func modifiesTrade(after string, i int) bool {
	next, _, _ := strings.Cut(strings.TrimLeft(after, " "), " ")
	if next == "" {
		return false
	}
	for j := range vocabulary {
		if j != i && slices.Contains(tagKeywords[j], next) {
			return true
		}
	}
	return false
}

// namesOtherTrade reports whether text holds a keyword of a tag other
// than i: in an object, what comes first is the thing asked for ("give a
// talk on data privacy": a talk, about data).
func namesOtherTrade(text string, i int) bool {
	for j := range vocabulary {
		if j != i && slices.ContainsFunc(tagKeywords[j], func(kw string) bool { return findKeyword(text, kw) >= 0 }) {
			return true
		}
	}
	return false
}

// askedWork finds a verb someone is asked to do and its object ("someone
// to translate our app", "can someone help decorate the venue").
var askedWork = regexp.MustCompile(`\b(?:` + anyoneWords + `) (?:to|help|help to|(?:can|could|would|will)(?: help)?) [a-z]+`)

// workToDo finds a verb the writer has to get done and its object ("we
// need to print 200 posters").
var workToDo = regexp.MustCompile(`\b(?:we|i) (?:need|want|have) to [a-z]+`)

// tradeVerbs are the English verbs some tag names by rule (tagVerbs) or as
// a keyword ("print", "translate").
var tradeVerbs = func() map[string]bool {
	out := map[string]bool{}
	for i := range vocabulary {
		for _, v := range tagVerbs[i] {
			if !v.zh {
				out[v.verb] = true
			}
		}
		for _, kw := range tagKeywords[i] {
			if isASCII(kw) && !strings.ContainsAny(kw, " -") {
				out[kw] = true
			}
		}
	}
	return out
}()

// findAskedObject is where a head of tag i is first in the object of work
// someone is asked to do, or -1, with the head's end.
func findAskedObject(lower string, i int) (pos, end int) {
	heads := workerHeads[i]
	for _, m := range askedWork.FindAllStringIndex(lower, -1) {
		if verb := lower[strings.LastIndex(lower[:m[1]], " ")+1 : m[1]]; tradeVerbs[verb] {
			continue // "someone to edit our wedding video": the verb names the trade
		}
		obj := objectOf(lower[m[1]:])
		for _, h := range heads {
			if p := findKeyword(obj, h); p >= 0 && !modifiesTrade(obj[p+len(h):], i) && !namesOtherTrade(obj[:p], i) {
				return m[1] + p, m[1] + p + len(h)
			}
		}
	}
	return -1, 0
}

// workPatterns name a tag's work in words no keyword holds, read when
// none of its keywords is there: a person asked for because they speak a
// language is an interpreter ("想找个会说日语的人陪客户", "a person who
// speaks Japanese to accompany our clients"; a language said of another
// role, "几个会说英语的志愿者", is what that person is like); a video to
// shoot is a camera operator's ("拍一下现场视频", "拍房源视频") and one to
// cut an editor's; pictures to take ("拍模特图") are a photographer's; a
// system or platform to build ("搭一个会员积分系统") is a back-end
// developer's, an app or a site to design ("design our app") a UI
// designer's (not its developers'), and a page to make ("做一个募捐页面") a
// front-end one's; a vehicle by its measure word ("一辆拉设备的车") is
// transport, whatever it carries, and a place by what it holds or is like
// (需要一个能坐100人的地方) a venue; pieces to write ("写几篇爆款") are a copywriter's; counted
// hosts are hosts; a printed thing to design ("设计易拉宝") is a graphic
// designer's; people to help with something are helpers.
var workPatterns = map[string]workPattern{"翻译": {re: languageSpeaker}, "摄像": {re: videoShoot}, "视频剪辑": {re: videoCut},
	"主持": {re: countedHosts}, "摄影": {re: pictureShoot}, "后端开发": {re: systemBuild, takesThings: true}, "前端开发": {re: pageBuild}, "UI设计": {re: screensDesign, takesThings: true}, "交通接送": {re: vehicleWanted, takesThings: true}, "场地提供": {re: placeWanted, takesThings: true}, "文案写作": {re: piecesToWrite},
	"平面设计": {re: printedDesign, takesThings: true}, "志愿者": {re: helpersWanted}, "演讲嘉宾": {re: invitedTalk}, "活动策划": {re: eventToOrganize, takesThings: true},
	"数据分析": {re: dataWork, takesThings: true}, "财务": {re: booksKept}}

// workPattern is a tag's work said without its keywords. A match is the
// tag's hit unless it names another tag ("拍一个开场视频" is an editor's),
// or, with takesThings, whatever it names: the work takes in the things
// another tag's keywords name ("设计易拉宝": a graphic designer, not also a
// printer). A match's first group, when it has one, is the person's word,
// after its count.
type workPattern struct {
	re          *regexp.Regexp
	takesThings bool
}

var (
	// videoShoot is a video to shoot ("拍一下现场视频", "shoot a launch
	// video"); videoCut one to cut or make ("再剪一些短的讲解视频", "做个
	// 预热视频").
	videoShoot = regexp.MustCompile(`拍[^，。,；;、！!？?\s]{0,6}?(?:视频|片子)|拍(?:摄)?(?:和|与|加|、)剪|\b(shoot)(?:ing)?\s+(?:(?:(?:a|an|the|our|some)\s+)?(?:[a-z-]+\s+){0,2}(?:video|videos|film|footage|documentary)\b|and\s+edit\b)`)
	videoCut   = regexp.MustCompile(`(?:剪|做)[^，。,；;、！!？?\s]{0,6}?视频|拍(?:摄)?(?:和|与|加|、)剪|\b(?:shoot|film|record)\s+and\s+(edit)\b`)
	// helpersWanted are people to help with something ("帮忙收摊的人"),
	// unless the something is another tag's work ("帮忙拍照的人").
	helpersWanted = regexp.MustCompile(`帮忙[^，。,；;、！!？?\s的]{1,6}的(?:人|同学|朋友)`)
	// piecesToWrite are pieces to write, counted by 篇 ("写几篇爆款"), or a
	// notice or an introduction to write ("写个活动通知", "write show
	// descriptions").
	piecesToWrite = regexp.MustCompile(`写[^，。,；;、！!？?\s]{0,3}?篇|写(?:个|一个|一份|份|一下)?[^，。,；;、！!？?\s]{0,6}?(?:通知|公告|简介|邀请)|\bwrite\s+(?:(?:a|an|the|our|some)\s+)?(?:[a-z-]+\s+){0,2}(?:descriptions?|blurbs?|bios?|captions?|announcements?)\b`)
	// printedDesign is a printed thing to design, said before or after
	// the verb ("设计展板", "宣传册需要重新设计").
	printedDesign = regexp.MustCompile(`(?:` + cnPrinted + `)(?:需要|要|得|也要)?(?:重新|再|好好)?设计|(?:设计|\bdesign\s|\bdesigner\s+for\s)(?:[^，。,；;、！!？?\s]{0,4}?(?:` + cnPrinted + `)|(?:(?:an?|the|our|some|a few)\s+)?(?:[a-z-]+\s+)?(?:stickers?|t-shirts?|tees|banners?|badges?|brochures?|flyers?|lanyards?|name tags?|annual reports?|reports?|merch|tote bags?|certificates?|catalogues?|catalogs?|invitations?|invites?|menus?|signs?|tickets?|programs?|programmes?|posters?)\b)|\b(?:flyers?|posters?|banners?|brochures?|badges?|stickers?|t-shirts?|menus?|invitations?|cards?|reports?|catalogues?|catalogs?|programs?|signs?)\s+designed\b`)
	// pictureShoot is pictures to take, or an event to shoot, capture or
	// cover ("shoot the event"); systemBuild a system to build, or a
	// tool, a tracker or a portal ("build a simple inventory tracker").
	// Not an auction (拍卖), nor a way of working ("做一次系统的复盘").
	pictureShoot = regexp.MustCompile(`拍(?:[^卖，。,；;、！!？?\s][^，。,；;、！!？?\s]{0,5}?)?(?:图|照)|拍(?:一下|下|拍)(?:我们的|我们)?(?:活动|现场|婚礼|年会|比赛|聚会)|\b(?:shoot|capture|cover|document)\s+(?:it\b|(?:the|our|my|a|an)\s+(?:[a-z-]+\s+)?(?:event|wedding|conference|party|ceremony|launch|gala|reunion|day|meetup|show|concert|game|match|race|opening|summit)\b)|\b(?:event|wedding|conference|party|ceremony|launch)\s+documented\b|\bcoverage\s+of\s+(?:the|our)\b`)
	systemBuild  = regexp.MustCompile(`(?:搭|搭建|开发|做|建|写)(?:一个|一套|个|套)?[^，。,；;、！!？?\s]{0,8}?(?:系统|平台)(?:$|[，。,；;、！!？?\s和])|\b(?:build|builds|building|make|create|code|develop)\s+(?:(?:a|an|the|our|my|some)\s+)?(?:[a-z'’-]+\s+){0,2}?(?:trackers?|portals?|platforms?|tools?)\b`)
	// pageBuild is a web page to make ("做一个募捐页面", "redo our donation
	// page"), or one broken on phones ("looks broken on mobile", "a mobile
	// layout").
	pageBuild = regexp.MustCompile(`(?:搭|搭建|开发|做|建|写)(?:一个|一套|个|几个)?[^，。,；;、！!？?\s]{0,6}?页面(?:$|[，。,；;、！!？?\s和])|\b(?:build|make|redo|rebuild|create|set up|fix|update|revamp)\s+(?:a|an|the|our|my)\s+(?:new\s+)?(?:[a-z-]+\s+)?(?:page|homepage|web page|webpage)\b|\b(?:looks?|is|are|displays?|renders?)\s+(?:broken|off|messed up|weird|wrong)\s+on\s+(?:mobile|phones?|iphones?|android|tablets?|small screens)\b|\b(?:mobile|responsive)\s+(?:layout|version|view)\b`)
	// screensDesign is an app, a site or a page to design ("设计一下我们的
	// App", "design our website", "our app designed"), or its screens to
	// redo ("redo the screens"): a UI designer, not
	// the developers who build it, unless they are asked to build it too
	// ("design and build our website").
	screensDesign = regexp.MustCompile(`设计(?:一下|一个|个)?(?:我们的|我们|我的|新的|一个新的)?(?:app|官网|网站|网页|小程序|落地页|页面|界面)|\bdesign(?:ing)?\s+(?:(?:a|an|the|our|my|their)\s+)?(?:new\s+)?(?:[a-z-]+\s+)?(?:app|apps|website|websites|site|landing page|web page|webpage|mini program|interface)\b|\b(?:app|website|site)\s+designed\b|\bdesign\s+and\s+(?:build|develop|code)\b` +
		`|\b(?:redo|redesign|refresh|revamp|rework|modernize|modernise)\s+(?:(?:the|our|its|my|their)\s+)?(?:[a-z-]+\s+)?(?:screens|ui|ux|interface)\b`)
	// placeWanted is a place asked for by what it holds or is like
	// ("需要一个能坐100人的地方", "找个安静的地方开会") or can do ("找个能投影的
	// 地方"), not a point to improve
	// ("需要改进的地方"), or a kind of place asked for by its noun right
	// after the asking verb ("需要一个剧场", "找一家民宿", "book a barn"): a
	// place named elsewhere is where something happens or where someone
	// worked.
	placeWanted = regexp.MustCompile(`(?:需要|找|租|订|借)(?:一个|个)?(?:能|可以)?[^，。,；;、！!？?\s]{0,10}(?:人|坐|容纳|放|安静|户外|室内|开会|办|搞|聚|吃饭|活动|拍|宽敞|大点|大一点)[^，。,；;、！!？?\s]{0,6}的地方|` +
		`(?:需要|找|租|订|借)(?:一个|个)?(?:能|可以)[^，。,；;、！!？?\s]{1,12}的地方|` +
		`(?:需要|找|租|订|借|联系)(?:一个|个|一间|间|一家|家|一块|块|一片|片)?[^，。,；;、！!？?\s的]{0,4}?(?:地点|剧场|演播厅|排练厅|舞蹈室|画室|厂房|草坪|农场|民宿|酒吧|餐厅|图书馆|博物馆|美术馆|画廊|展馆|书房|天台|庭院|院子)|` +
		`\b(?:need|needs|want|book|rent|hire|find|looking for|searching for)\s+(?:a|an|some)\s+(?:[a-z-]+\s+){0,2}?(?:barn|farm|garden|library|museum|gallery|brewery|loft|chapel|park|beach|backyard|courtyard|community cent(?:er|re)|golf course|tea ?house|hostel|cinema|wine bar|bed and breakfast|pub|lounge|terrace|patio)\b`)
	// invitedTalk is a person invited to come and talk ("请一位有分量的人
	// 来讲讲", "请他来学校做个报告", "邀请作者本人来聊聊新书"): a speaker,
	// when the person is named by no noun of their own (a pronoun, 人, an
	// author; a specialist who comes to talk is that specialist), not one
	// invited already ("请了他来讲讲"), nor an audience: 约 is no invitation
	// in 大约 or 预约, and people come to a 分享会 to listen.
	invitedTalk = regexp.MustCompile(`(?:请|邀请|(?:^|[^大预节])约)(?:[0-9]+|[一二两三四五六七八九十几]+)?\s*(?:位|名|个)?((?:[^了过到，。,；;、！!？?\s][^，。,；;、！!？?\s]{0,13}?)?(?:人|他|她|他们|她们|大佬|前辈|作者|校友|学长|学姐))来[^，。,；;、！!？?\s]{0,10}?(?:讲讲|讲一讲|讲一下|讲几句|讲课|聊聊|分享(?:$|[^会])|做(?:个|一个|一场|一次|场|次)?(?:报告|讲座|演讲|分享))`)
	// eventToOrganize is an event someone is asked to help organize
	// ("help us put together a company picnic", "someone to help us
	// organize a reunion"): a planner, the event's things theirs.
	eventToOrganize = regexp.MustCompile(`\b(?:help|helping)\s+(?:us\s+|me\s+|them\s+)?(?:to\s+)?(?:put together|throw|organi[sz]e|arrange|pull off|set up|run)\s+(?:a|an|our|my|the|this)\s+(?:[a-z0-9'-]+\s+){0,3}?(?:picnic|party|gala|conference|wedding|reunion|festival|fair|retreat|offsite|event|ceremony|celebration|banquet|shower|meetup|dinner|trip|outing|tournament|fundraiser|launch|anniversary|birthday)\b`)
	// dataWork is data to analyse, clean or sort out, whoever's it is
	// ("分析一下近三年的观众数据", "客户数据的清洗和分析", "帮我分析直播间的数据"):
	// a data analyst's, the things the data is of theirs.
	dataWork = regexp.MustCompile(`(?:分析|清洗|整理|挖掘|汇总|统计)(?:一下|下)?[^，。,；;、！!？?\s]{0,10}?数据|数据的(?:清洗|分析|整理|挖掘|汇总|统计)`)
	// booksKept is accounts to keep, do or balance ("keep the church's
	// books", "nobody here knows how to do the books"): a bookkeeper's.
	booksKept = regexp.MustCompile(`\b(?:keep|keeps|keeping|do|does|doing|balance|balancing)\s+(?:(?:the|our|my|their|its|his|her)\s+)?(?:[a-z-]+['’]s\s+)?(?:monthly\s+|annual\s+|weekly\s+)?(?:books|accounts)\b`)
	// vehicleWanted is a vehicle by its measure word ("一辆拉设备的车").
	vehicleWanted = regexp.MustCompile(`辆[^，。,；;、！!？?\s]{0,6}?车`)
	// countedHosts are hosts counted ("two hosts", "a bilingual host") or
	// listed ("venue, host and gift bags", "an auctioneer/host", "host:
	// yes"):
	// "host" alone is as often the verb ("our company hosts a meetup").
	countedHosts = regexp.MustCompile(`(?:\b(?:a|an|one|[0-9]+|two|three|four|five|six|a couple of|several)\s+(?:[a-z-]+\s+)?|(?:[0-9]+|[一二两三四五六七八九十几])\s*(?:个|位|名)\s*)(hosts?)\b|(?:^|[,:;/]\s*)(hosts?)(?:\s*[,.;/]|\s+and\b|\s*$|\s*:\s*(?:yes|needed|wanted|required)\b)`)
)

// cnPrinted are printed things, in Chinese, a graphic designer designs.
const cnPrinted = `易拉宝|横幅|胸牌|宣传册|宣传单|单页|画册|传单|贴纸|桌牌|背景板|kt板|条幅|手提袋|帆布袋|t恤|文化衫|工牌|证书|手册|包装|杯子|菜单|门票|奖状|邀请函|请柬|贺卡|名片|纪念册|会员卡|展板|展架|折页|彩页|号码布`

// languageNames are the languages a person asked for may speak, in
// English; cnLanguages in Chinese, before 语 or 文.
const (
	languageNames = `japanese|english|french|german|korean|russian|spanish|portuguese|italian|arabic|thai|vietnamese|mandarin|cantonese`
	cnLanguages   = `日|英|法|德|韩|俄|西班牙|葡萄牙|意大利|阿拉伯|泰|越南`
)

// languageSpeaker is a person asked for because they speak a language
// ("someone fluent in Korean", "找个会日语的带客户逛逛"), or missed for it ("nobody on the team
// speaks Japanese"), or a version of a text in a language ("a Spanish
// version", "日文版"), or its subtitles ("subtitles in English", "英文字幕":
// the language is the match, the subtitles an editor's word).
var languageSpeaker = regexp.MustCompile(`(?:会说|会讲|懂|会)(?:` + cnLanguages + `)(?:语|文)的(?:人|朋友|同学)|(?:找|需要|请)(?:个|一个|一位|位)(?:会说|会讲|懂|会)(?:` + cnLanguages + `)(?:语|文)的(?:$|[，。,；;！!？?\s]|来|去|带|陪|帮|给)|\b(?:someone|somebody|a person|anyone|people)\s+(?:who|that)\s+(?:can\s+)?speaks?\s+(?:` + languageNames + `)\b|\b(?:nobody|no one)\s+(?:[a-z]+\s+){0,3}?speaks\s+(?:` + languageNames + `)\b|\b(?:put|turn|render)\s+(?:[a-z]+\s+){1,3}?into\s+(?:` + languageNames + `)\b` +
	`|\b(?:someone|somebody|a person|anyone|people)\s+(?:who\s+(?:is|are)\s+)?fluent\s+in\s+(?:` + languageNames + `)\b` +
	`|\b(?:a|an|the|our)\s+(?:` + languageNames + `)\s+(?:version|edition)\b` +
	`|\b(?:subtitles?|captions?|subtitled|captioned)\s+(in\s+(?:` + languageNames + `))\b|\b(` + languageNames + `)\s+(?:subtitles?|captions?)\b|((?:` + cnLanguages + `)(?:语|文))字幕|(?:` + cnLanguages + `)(?:语|文)版`)
