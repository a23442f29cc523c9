package builtin

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	neg "github.com/towow/towow/domain/negotiation"
)

// Context extraction from free text: where, how many, when, how much. Dates
// and budgets are kept as written; only the number of attendees is parsed.

var (
	attendeesPatterns = []*regexp.Regexp{
		regexp.MustCompile(`(\d+)\s*(?:[-~～到至]\s*(\d+))?\s*(?:多|余|来)?\s*(?:个)?\s*人`),
		regexp.MustCompile(`(\d+)\s*(?:[-~～到至]\s*(\d+))?\s*(?:多|余|来)?\s*(?:位|名)\s*(?:参与者|参会者|观众|听众|来宾|朋友|同学|用户|会员)`),
		regexp.MustCompile(`(?:人数|规模|参会人数|参与人数)\s*(?:是|为|约|大约|大概|在|:|：)*\s*(\d+)(?:\s*[-~～到至]\s*(\d+))?`),
		regexp.MustCompile(`(?i)(\d+)\s*(?:\+|(?:-|to)\s*(\d+))?\s*(?:people|persons|attendees|participants|guests|pax|ppl|members|folks)\b`),
		regexp.MustCompile(`(?i)(?:audience|attendance|headcount)\s+(?:of\s+)?(?:about\s+|around\s+)?(\d+)()`),
	}
	cnAttendees = regexp.MustCompile(`([零一二两三四五六七八九十百千]+)\s*(?:多|余|来)?\s*(?:个)?\s*人`)

	datePatterns = []*regexp.Regexp{
		regexp.MustCompile(`\d{4}-\d{1,2}-\d{1,2}`),
		regexp.MustCompile(`\d{4}/\d{1,2}/\d{1,2}`),
		regexp.MustCompile(`\d{4}年\d{1,2}月\d{1,2}[日号]`),
		regexp.MustCompile(`\d{1,2}月\d{1,2}[日号]`),
		regexp.MustCompile(`(?:下下|下个|下|这个|这|本)?(?:周|星期|礼拜)[一二三四五六日天]`),
		regexp.MustCompile(`(?:下个|下|这个|这|本)?周末`),
		regexp.MustCompile(`下个月|下月|月底|月初|明天|后天|今晚|年底|春节前|国庆|元旦`),
		regexp.MustCompile(`(?i)\b(?:next|this|coming)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekend|month)\b`),
		regexp.MustCompile(`(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b`),
		regexp.MustCompile(`(?i)\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:january|february|march|april|may|june|july|august|september|october|november|december)\b`),
		regexp.MustCompile(`(?i)\b(?:tomorrow|tonight|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b`),
	}

	budgetPatterns = []*regexp.Regexp{
		regexp.MustCompile(`预算\s*(?:是|为|大概|约|大约|在|有|:|：)*\s*(\d+(?:\.\d+)?\s*(?:万|千|k|K)?\s*(?:元|块钱|块|人民币|rmb|RMB)?)`),
		regexp.MustCompile(`[¥￥]\s*\d+(?:,\d{3})*(?:\.\d+)?\s*(?:万|k|K)?`),
		regexp.MustCompile(`\$\s*\d+(?:,\d{3})*(?:\.\d+)?\s*[kK]?`),
		regexp.MustCompile(`(?i)\d+(?:,\d{3})*(?:\.\d+)?\s*(?:dollars|usd|rmb|yuan|cny)\b`),
		regexp.MustCompile(`\d+(?:\.\d+)?\s*(?:万|千)?\s*(?:元|块钱|块)`),
		regexp.MustCompile(`(?i)budget\s+(?:of|is|around|about|:)?\s*(?:about\s+|around\s+)?(\d+(?:,\d{3})*(?:\.\d+)?\s*[kK]?)`),
	}
)

// attendeesIn extracts the expected number of attendees (0 if unknown); a
// range gives its upper end.
func attendeesIn(text string) int {
	best, bestPos := 0, -1
	for _, re := range attendeesPatterns {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			if strings.HasPrefix(text[m[1]:], "民") { // 50人民币 is money
				continue
			}
			n, _ := strconv.Atoi(text[m[2]:m[3]])
			if len(m) > 5 && m[4] >= 0 {
				if hi, err := strconv.Atoi(text[m[4]:m[5]]); err == nil && hi > n {
					n = hi
				}
			}
			if n >= 3 && n <= 100000 && (bestPos < 0 || m[0] < bestPos) {
				best, bestPos = n, m[0]
			}
		}
	}
	if best > 0 {
		return best
	}
	for _, m := range cnAttendees.FindAllStringSubmatchIndex(text, -1) {
		if strings.HasPrefix(text[m[1]:], "民") {
			continue
		}
		if n := parseCNNumber(text[m[2]:m[3]]); n >= 3 {
			return n
		}
	}
	return 0
}

// parseCNNumber parses a small Chinese numeral ("五十", "一百二十", "两千").
func parseCNNumber(s string) int {
	digits := map[rune]int{'零': 0, '一': 1, '二': 2, '两': 2, '俩': 2, '三': 3, '仨': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	units := map[rune]int{'十': 10, '百': 100, '千': 1000}
	total, cur := 0, 0
	for _, r := range s {
		if d, ok := digits[r]; ok {
			cur = d
			continue
		}
		if u, ok := units[r]; ok {
			if cur == 0 {
				cur = 1
			}
			total += cur * u
			cur = 0
		}
	}
	return total + cur
}

// earliest returns the earliest (then longest) match of the patterns, with
// submatch 1 when the pattern has one.
func earliest(text string, patterns []*regexp.Regexp) string {
	bestPos, bestLen, out := -1, 0, ""
	for _, re := range patterns {
		m := re.FindStringSubmatchIndex(text)
		if m == nil {
			continue
		}
		s, e := m[0], m[1]
		if len(m) >= 4 && m[2] >= 0 {
			s, e = m[2], m[3]
		}
		if bestPos < 0 || m[0] < bestPos || (m[0] == bestPos && e-s > bestLen) {
			bestPos, bestLen, out = m[0], e-s, text[s:e]
		}
	}
	return strings.TrimSpace(out)
}

// dateIn extracts the date of a demand as written ("2月15日", "下周六",
// "2026-02-15", "next Saturday"), or "".
func dateIn(text string) string { return earliest(text, datePatterns) }

// budgetIn extracts the budget as written ("2000元", "$500"), or "".
func budgetIn(text string) string {
	b := earliest(text, budgetPatterns)
	if b == "" {
		return ""
	}
	b = strings.ReplaceAll(b, " ", "")
	if b[0] >= '0' && b[0] <= '9' && !strings.ContainsAny(b, "元块币bBdDuUyY") {
		if strings.Contains(strings.ToLower(text), "budget") {
			b = "$" + b
		} else {
			b += "元"
		}
	}
	return b
}

// dayKind classifies a demand date: "weekend", "weekday" or "" (unknown).
func dayKind(date string) string {
	lower := strings.ToLower(date)
	switch {
	case date == "":
		return ""
	case hasAny(lower, "周六", "周日", "周天", "星期六", "星期日", "星期天", "礼拜六", "礼拜天", "礼拜日", "周末",
		"saturday", "sunday", "weekend"):
		return "weekend"
	case hasAny(lower, "周一", "周二", "周三", "周四", "周五", "星期一", "星期二", "星期三", "星期四", "星期五",
		"monday", "tuesday", "wednesday", "thursday", "friday", "工作日", "weekday"):
		return "weekday"
	}
	if t, ok := parseDate(date); ok {
		if wd := t.Weekday(); wd == time.Saturday || wd == time.Sunday {
			return "weekend"
		}
		return "weekday"
	}
	return ""
}

var (
	isoDate = regexp.MustCompile(`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$`)
	cnDate  = regexp.MustCompile(`^(\d{4})年(\d{1,2})月(\d{1,2})[日号]$`)
)

// parseDate parses a full calendar date (with year); pure calendar
// arithmetic, no clock.
func parseDate(s string) (time.Time, bool) {
	m := isoDate.FindStringSubmatch(s)
	if m == nil {
		m = cnDate.FindStringSubmatch(s)
	}
	if m == nil {
		return time.Time{}, false
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC), true
}

// availability is what an agent's availability text says.
type availability struct {
	weekdaysOnly, weekendsOnly, evenings, afternoons, busy, flexible bool
}

// parseAvailability reads an availability text ("仅工作日", "周末可用",
// "weekends only", "近期较忙" …).
func parseAvailability(s string) availability {
	l := strings.ToLower(s)
	weekend := hasAny(l, "周末", "周六", "周日", "weekend", "weekends", "saturday", "sunday")
	weekday := hasAny(l, "工作日", "周一至周五", "周一到周五", "weekday", "weekdays")
	return availability{
		weekdaysOnly: weekday && !weekend,
		weekendsOnly: weekend && !weekday,
		evenings:     hasAny(l, "晚上", "晚间", "evening", "evenings"),
		afternoons:   hasAny(l, "下午", "afternoon", "afternoons"),
		busy:         hasAny(l, "忙", "排期已满", "暂不", "不可用", "没空", "busy", "unavailable", "fully booked"),
		flexible:     hasAny(l, "灵活", "随时", "都可以", "均可", "flexible", "anytime"),
	}
}

// conflict says why an availability does not fit a demand date ("" if it
// fits or nothing is known).
func (a availability) conflict(date string) string {
	switch k := dayKind(date); {
	case a.weekdaysOnly && k == "weekend":
		return "我只有工作日有空，活动在周末"
	case a.weekendsOnly && k == "weekday":
		return "我只有周末有空，活动在工作日"
	}
	return ""
}

// Words that make a demand urgent or not (prompt 1's context.urgency).
var (
	urgentWords  = []string{"紧急", "很急", "着急", "急需", "尽快", "马上", "立刻", "今天", "今晚", "明天", "asap", "urgent", "today", "tomorrow"}
	relaxedWords = []string{"不急", "不着急", "有空再", "慢慢", "不赶时间", "no rush"}
)

// urgencyIn judges a demand's urgency from its words: low when it says
// there is no hurry, high when it says there is, else normal.
func urgencyIn(text string) neg.Urgency {
	t := strings.ToLower(text)
	for _, w := range relaxedWords {
		if strings.Contains(t, w) {
			return neg.UrgencyLow
		}
	}
	for _, w := range urgentWords {
		if strings.Contains(t, w) {
			return neg.UrgencyHigh
		}
	}
	return neg.UrgencyNormal
}
