package builtin

import (
	"sort"
	"strings"

	neg "github.com/towow/towow/domain/negotiation"
)

// How a capability depends on place.
const (
	remoteOK  = 0 // can be done from anywhere (design, code, writing …)
	onSite    = 1 // the person must travel to the place (speaker, photographer …)
	siteBound = 2 // tied to a place or local equipment (venue, catering …)
)

// locality says how each tag depends on place (remoteOK when absent).
var locality = map[string]int{
	"场地提供": siteBound, "餐饮服务": siteBound, "交通接送": siteBound, "音响设备": siteBound,
	"主持": onSite, "摄影": onSite, "摄像": onSite, "志愿者": onSite, "活动策划": onSite,
	"演讲嘉宾": onSite, "直播": onSite, "翻译": onSite,
}

// themeTags are the tags whose holders can speak about a theme.
var themeTags = map[string][]string{
	"AI": {"AI研究", "数据分析"}, "产品": {"产品经理"}, "设计": {"UI设计", "平面设计"},
	"创业": {"产品经理", "市场推广"}, "开源": {"后端开发", "前端开发"}, "出海": {"市场推广", "翻译"},
	"投资": {"财务"}, "Web3": {"后端开发", "法律咨询"},
}

// Location relations between a profile and a demand.
const (
	locSame   = "same"   // same city
	locOpen   = "open"   // the demand is remote or names no city
	locRemote = "remote" // the profile works remotely, the demand is elsewhere
	locFar    = "far"    // another city
)

// match is how well one profile fits one demand.
type match struct {
	tags      []string // demand tags the profile has, in demand order
	inferred  []string // demand tags the profile only suggests (summary, capabilities, theme)
	interests []string // the profile's interests related to the demand
	loc       string
	city      string // the profile's city ("" if none)
	avail     availability
	conflict  string // why the availability does not fit the date ("" if it fits)
	strength  float64
	// interestOnly is set when only the interests relate to a root demand
	// (for a sub-demand, interests alone do not count).
	interestOnly bool
}

// strong reports a definite match: the profile has a demand tag and can be
// there.
func (m match) strong() bool { return len(m.tags) > 0 && m.reachable() }

// partial reports a possible match.
func (m match) partial() bool {
	return !m.strong() && (len(m.tags) > 0 || len(m.inferred) > 0 || (m.interestOnly && m.loc != locFar))
}

// reachable reports whether the location does not stand in the way.
func (m match) reachable() bool {
	switch m.loc {
	case locSame, locOpen:
		return true
	}
	return m.locality() == remoteOK
}

// locality is how the profile's main contribution depends on place.
func (m match) locality() int { return locality[m.primary()] }

// physical reports whether the profile's main contribution needs it on site.
func (m match) physical() bool { return m.locality() != remoteOK }

// primary is the demand tag the profile would contribute ("" if none).
func (m match) primary() string {
	if len(m.tags) > 0 {
		return m.tags[0]
	}
	if len(m.inferred) > 0 {
		return m.inferred[0]
	}
	return ""
}

// profileText is everything a profile says about its skills.
func profileText(p neg.AgentProfile) string {
	var b strings.Builder
	b.WriteString(p.ProfileSummary)
	keys := make([]string, 0, len(p.Capabilities))
	for k := range p.Capabilities {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString(" " + k + " " + p.Capabilities[k])
	}
	return b.String()
}

// matchProfile compares a profile with a demand.
func matchProfile(p neg.AgentProfile, d demand) match {
	var m match
	ptags := normalizeTags(p.Tags)
	for _, t := range d.tags {
		if contains(ptags, t) {
			m.tags = append(m.tags, t)
		}
	}
	textTags := tagsInText(profileText(p))
	for _, t := range d.tags {
		if contains(m.tags, t) {
			continue
		}
		if contains(textTags, t) {
			m.inferred = append(m.inferred, t)
			continue
		}
		if t == "演讲嘉宾" && d.theme != "" {
			for _, tt := range themeTags[d.theme] {
				if contains(ptags, tt) {
					m.inferred = append(m.inferred, t)
					break
				}
			}
		}
	}
	rawLower := strings.ToLower(d.raw)
	for _, in := range p.Interests {
		l := strings.ToLower(strings.TrimSpace(in))
		if l == "" {
			continue
		}
		if strings.Contains(rawLower, l) || (d.theme != "" && themeOf(in) == d.theme) || anyIn(normalizeTag(in), d.tags) {
			m.interests = append(m.interests, in)
		}
	}

	m.interestOnly = len(m.tags) == 0 && len(m.inferred) == 0 && len(m.interests) > 0 && !d.sub
	m.city = cityIn(p.Location)
	profRemote := isRemote(p.Location) || hasAny(strings.ToLower(p.Availability), "可远程", "远程", "remote")
	switch {
	case d.city == "" || d.remote():
		m.loc = locOpen
	case m.city == d.city || (m.city == "" && strings.Contains(p.Location, d.city)):
		m.loc = locSame
	case profRemote:
		m.loc = locRemote
	default:
		m.loc = locFar
	}
	m.avail = parseAvailability(p.Availability)
	m.conflict = m.avail.conflict(d.date)

	s := 0.0
	switch {
	case len(m.tags) > 0:
		s = 0.6 + 0.08*float64(min(len(m.tags)-1, 2))
	case len(m.inferred) > 0:
		s = 0.35
	case len(m.interests) > 0:
		s = 0.15
	}
	switch m.loc {
	case locSame:
		s += 0.25
	case locOpen:
		s += 0.15
	case locRemote:
		s += []float64{0.1, -0.1, -0.3}[m.locality()]
	case locFar:
		s += []float64{-0.05, -0.2, -0.45}[m.locality()]
	}
	s += 0.05 * float64(min(len(m.interests), 2))
	m.strength = clamp(s, 0, 1)
	return m
}

// anyIn reports whether some element of a is in b.
func anyIn(a, b []string) bool {
	for _, x := range a {
		if contains(b, x) {
			return true
		}
	}
	return false
}

// clamp bounds v to [lo, hi].
func clamp(v, lo, hi float64) float64 {
	return max(lo, min(hi, v))
}

// quote wraps a tag in Chinese corner brackets: 「摄影」.
func quote(s string) string { return "「" + s + "」" }

// quoteAll quotes and joins tags: 「场地提供」、「主持」.
func quoteAll(tags []string) string {
	q := make([]string, len(tags))
	for i, t := range tags {
		q[i] = quote(t)
	}
	return joinCN(q)
}

// displayName is the name an agent is shown with.
func displayName(p neg.AgentProfile) string {
	if p.UserName != "" {
		return p.UserName
	}
	return p.AgentID
}
