package builtin

import (
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
)

// subMotive starts the motivation of every sub-demand understood by this
// package; later prompts recognise a sub-demand by it (the typed inputs
// after prompt 1 do not say whether a demand is a sub-demand).
const subMotive = "为上级协商补齐缺口"

// demand is what the simulation knows about a demand: its capability tags
// in the shared vocabulary and its context.
type demand struct {
	raw       string
	tags      []string // normalized capability tags, in order of importance
	city      string   // a city of the vocabulary, 远程, another place as written, or ""
	event     string   // Chinese event name ("聚会") or "" when not event-like
	theme     string   // topic ("AI") or ""
	attendees int
	date      string
	budget    string
	sub       bool // a sub-demand spawned by prompt 8
	// needs are prompt 1's needs; with them, tags are exactly
	// their tags and only people carrying one are candidates.
	needs []neg.Need
}

// seed identifies the demand in hashes.
func (d demand) seed() string { return d.raw }

// hasTag reports whether the demand needs tag.
func (d demand) hasTag(tag string) bool { return contains(d.tags, tag) }

// remote reports whether the demand can be served remotely.
func (d demand) remote() bool { return d.city == "远程" }

// place is "在北京" (or "" when the city is unknown or remote).
func (d demand) place() string {
	if d.city == "" || d.remote() {
		return ""
	}
	return "在" + d.city
}

// eventLabel names the event for descriptions: "AI聚会", "聚会", or "".
func (d demand) eventLabel() string {
	if d.event == "" {
		return ""
	}
	if d.theme != "" && d.theme != d.event {
		return d.theme + d.event
	}
	return d.event
}

// short is a short name of the demand for sentences ("AI主题聚会",
// "这项需求").
func (d demand) short() string {
	switch {
	case d.event != "" && d.theme != "":
		return d.theme + "主题" + d.event
	case d.event != "":
		return "这场" + d.event
	default:
		return "这项需求"
	}
}

// analyzeRaw reads a root demand's raw text.
func analyzeRaw(raw string) demand {
	d := demand{
		raw:       raw,
		event:     eventName(raw),
		theme:     themeOf(raw),
		attendees: attendeesIn(raw),
		date:      dateIn(raw),
		budget:    budgetIn(raw),
	}
	d.city = cityIn(raw)
	if d.city == "" && isRemote(raw) {
		d.city = "远程"
	}
	tags := tagsInText(raw)
	if d.event != "" {
		// For an event, AI words name its topic; only explicit research
		// words ask for an AI researcher.
		lower := strings.ToLower(raw)
		if !hasAny(lower, "研究员", "researcher", "算法工程师", "ai研究", "模型训练") {
			tags = remove(tags, "AI研究")
		}
		if !contains(tags, "活动策划") {
			tags = append(tags, "活动策划")
		}
		if imp := implicitNeed(d.event); imp != "" && d.attendees >= 30 && !contains(tags, imp) {
			tags = append(tags, imp)
		}
	}
	d.tags = tags
	return d
}

// implicitNeed is the need an event of a kind usually has without saying
// so (added to the demand's tags for events of 30 people or more).
func implicitNeed(event string) string {
	switch event {
	case "聚会", "派对", "团建", "年会", "黑客松", "见面会":
		return "餐饮服务"
	case "会议", "峰会", "论坛", "研讨会", "发布会":
		return "主持"
	case "工作坊", "沙龙", "分享会", "交流会":
		return "音响设备"
	}
	return ""
}

// fromUnderstanding rebuilds the demand from a parsed understanding (which
// may come from a real model) and the raw text.
func fromUnderstanding(u neg.Understanding, raw string) demand {
	text := simplified(raw)
	if text == "" {
		text = u.SurfaceDemand
	}
	d := demand{
		raw:       text,
		tags:      normalizeTags(u.CapabilityTags),
		event:     eventName(text),
		theme:     themeOf(text),
		attendees: u.Context.ExpectedAttendees,
		date:      u.Context.Date,
		budget:    u.Context.Budget,
		sub:       strings.HasPrefix(u.DeepUnderstanding.Motivation, subMotive),
	}
	if d.event == "" {
		d.event = eventName(u.SurfaceDemand)
	}
	switch {
	case len(u.Needs) > 0:
		d.needs = u.Needs
		d.tags = normalizeTags(neg.NeedTags(u.Needs))
	case len(d.tags) > 0:
		// Tags without needs (an understanding read from the words alone,
		// or an older one): one person per tag, as the quality scores
		// count them, not everyone who offered.
		d.needs = neg.NeedsOf(neg.Understanding{CapabilityTags: d.tags})
	}
	if len(d.tags) == 0 {
		d.tags = tagsInText(text)
	}
	if loc := strings.TrimSpace(u.Context.Location); loc != "" {
		if c := cityIn(loc); c != "" {
			d.city = c
		} else if isRemote(loc) {
			d.city = "远程"
		} else {
			d.city = loc
		}
	} else if c := cityIn(text); c != "" {
		d.city = c
	} else if isRemote(text) {
		d.city = "远程"
	}
	if d.attendees == 0 {
		d.attendees = attendeesIn(text)
	}
	if d.date == "" {
		d.date = dateIn(text)
	}
	if d.budget == "" {
		d.budget = budgetIn(text)
	}
	return d
}

// remove returns list without s.
func remove(list []string, s string) []string {
	out := list[:0:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// orDefault returns s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// truncate cuts s to at most n runes, adding "…" when it cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
