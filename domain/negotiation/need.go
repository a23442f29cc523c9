package negotiation

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Need is one thing a demand asks for: the role somebody plays
// ("摄影师", "caterer"), the capability tags that serve it, and how many
// people it takes ("two keynote speakers" → 2). Prompt 1 yields the needs;
// the filter shortlists per need, aggregation assigns per need up to its
// count, and gap identification checks every need against the
// assignments.
type Need struct {
	Role           string   `json:"role"`
	CapabilityTags []string `json:"capability_tags"`
	Count          int      `json:"count"`
}

// Limits of a demand's needs.
const (
	// MaxNeeds is how many needs a demand keeps (the rest are dropped).
	MaxNeeds = 8
	// MaxNeedCount bounds the people one need asks for.
	MaxNeedCount = 10
	// maxNeedText bounds a role's and a tag's length, in characters.
	maxNeedText = 40
)

// NormalizeNeeds returns needs cleaned the way every stored understanding
// has them: roles and tags trimmed and at most 40 characters, needs
// without a tag dropped (a role alone is its own tag), counts clamped to
// 1..MaxNeedCount, needs with the same role merged (tags united, the
// larger count), at most MaxNeeds. Untrusted input (a model's reply) goes
// through it before it is recorded.
func NormalizeNeeds(needs []Need) []Need {
	var out []Need
	byRole := map[string]int{}
	for _, n := range needs {
		role := clip(n.Role)
		var tags []string
		for _, t := range n.CapabilityTags {
			if t = clip(t); t != "" && !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		if len(tags) == 0 && role != "" {
			tags = []string{role}
		}
		if len(tags) == 0 {
			continue
		}
		if role == "" {
			role = tags[0]
		}
		count := min(max(n.Count, 1), MaxNeedCount)
		if i, ok := byRole[role]; ok {
			for _, t := range tags {
				if !slices.Contains(out[i].CapabilityTags, t) {
					out[i].CapabilityTags = append(out[i].CapabilityTags, t)
				}
			}
			out[i].Count = max(out[i].Count, count)
			continue
		}
		if len(out) == MaxNeeds {
			continue
		}
		byRole[role] = len(out)
		out = append(out, Need{Role: role, CapabilityTags: tags, Count: count})
	}
	return out
}

// NeedsOf returns the needs of an understanding: its own, or — for one
// recorded before needs existed, or a model that gave none — one need per
// capability tag, each for one person.
func NeedsOf(u Understanding) []Need {
	if len(u.Needs) > 0 {
		return u.Needs
	}
	needs := make([]Need, 0, len(u.CapabilityTags))
	for _, t := range u.CapabilityTags {
		needs = append(needs, Need{Role: t, CapabilityTags: []string{t}, Count: 1})
	}
	return NormalizeNeeds(needs)
}

// NeedTags returns every capability tag of needs, each once, in order.
func NeedTags(needs []Need) []string {
	var out []string
	for _, n := range needs {
		for _, t := range n.CapabilityTags {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// Serves reports whether a profile with tags can take need n: it carries
// one of the need's tags.
func (n Need) Serves(tags []string) bool {
	for _, t := range tags {
		if slices.Contains(n.CapabilityTags, t) {
			return true
		}
	}
	return false
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > maxNeedText {
		s = string([]rune(s)[:maxNeedText])
	}
	return s
}

// FitToNeeds holds a proposal to its demand's needs, whoever wrote it (a
// model's reply is untrusted): each assignment serves the need its Need or
// its Role names, at most that need's count; an assignment beyond the
// count or serving no need becomes an alternate (named, not assigned),
// unless that would leave nobody assigned (then the proposal stays as
// given). A need with fewer assignees than its count is a gap, named by
// its role. Alternates keep the need they would serve.
func FitToNeeds(needs []Need, assignments, alternates []Assignment, gaps []string) (kept, alt []Assignment, gapsOut []string) {
	byRole := map[string]int{}
	for i, n := range needs {
		byRole[n.Role] = i
	}
	filled := make([]int, len(needs))
	for _, a := range assignments {
		i, ok := byRole[a.Need]
		if !ok {
			i, ok = byRole[a.Role]
		}
		if ok && filled[i] < needs[i].Count {
			filled[i]++
			a.Need = needs[i].Role
			kept = append(kept, a)
			continue
		}
		if ok {
			a.Need = needs[i].Role
		}
		alt = append(alt, a)
	}
	if len(kept) == 0 {
		return assignments, alternates, gaps
	}
	for _, a := range alternates {
		if i, ok := byRole[a.Need]; ok {
			a.Need = needs[i].Role
		}
		alt = append(alt, a)
	}
	gapsOut = slices.Clone(gaps)
	for i, n := range needs {
		if filled[i] < n.Count && !slices.Contains(gapsOut, n.Role) {
			gapsOut = append(gapsOut, n.Role)
		}
	}
	return kept, alt, gapsOut
}

// Shortfall is how many people the need named role still lacks beside
// the willing agents whose profiles carry willingTags (one tag list each):
// its count less those that serve it (at least 1); 0 when role names no
// need.
func Shortfall(needs []Need, willingTags [][]string, role string) int {
	for _, n := range needs {
		if n.Role != role {
			continue
		}
		got := 0
		for _, tags := range willingTags {
			if n.Serves(tags) {
				got++
			}
		}
		return max(1, n.Count-got)
	}
	return 0
}

// Coverage is the share of the needs' places that assignments fill: Σ
// min(assignees serving a need, its count) over Σ count, an assignee
// serving the need its Need or its Role names (1 when nothing was asked).
func Coverage(needs []Need, assignments []Assignment) float64 {
	places, filled := 0, 0
	for _, n := range needs {
		got := 0
		for _, a := range assignments {
			if a.Need == n.Role || (a.Need == "" && a.Role == n.Role) {
				got++
			}
		}
		places += n.Count
		filled += min(got, n.Count)
	}
	if places == 0 {
		return 1
	}
	return float64(filled) / float64(places)
}
