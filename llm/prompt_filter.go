package llm

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/towow/towow/domain/negotiation"
)

// PromptFilter is the key of prompt 2 智能筛选.
const PromptFilter PromptKey = "smart_filter"

// Filter is prompt 2 (智能筛选): which of the network's agents may take part
// in a demand, definitely or possibly.
var Filter = define(Prompt[FilterInput, FilterReply, FilterResult]{
	key:         PromptFilter,
	system:      "你是 ToWow 的智能筛选系统。根据需求从所有 Agent 中找出可能参与协作的候选人，以有效 JSON 格式输出。",
	maxTokens:   3000,
	temperature: 0.3,
	funcs:       template.FuncMap{"maxCand": maxCandidates, "selectable": selectableProfiles},
	replyKeys:   []string{"definitely_related", "possibly_related", "analysis"},
	validate:    validateFilter,
	fallback:    fallbackFilter,
	template: `# 智能筛选任务

## 需求理解
` + "```json" + `
{{json .Demand}}
` + "```" + `

## 用户原始输入
{{.RawInput}}

## 所有活跃 Agent（共 {{len (selectable .)}} 个）
` + "```json" + `
{{json (selectable .)}}
` + "```" + `
{{- if .Exclude}}

## 不可选择的 Agent
以下 Agent 不能作为候选人：{{join .Exclude "、"}}
{{- end}}

## 筛选要求

1. 逐一对照需求的能力标签、上下文（地点、时间）与每个 Agent 的能力、标签、兴趣和所在地。
2. **definitely_related**：能力与需求明确匹配的 Agent（match_type 为 explicit）。
3. **possibly_related**：可能通过间接能力或兴趣参与的 Agent（match_type 为 inferred）。
4. 候选人总数不超过 {{maxCand .}} 个，按相关度从高到低排列。
5. agent_id 必须原样使用上面列表中的值，不要编造不存在的 Agent。
6. confidence 为 0 到 1 之间的小数。
7. 两个列表都必须写出；没有合适的 Agent 时写空列表 []，不要省略，也不要写成数字或文字。

## 输出要求

请以 JSON 格式输出：

` + "```json" + `
{
  "analysis": "筛选分析过程",
  "definitely_related": [
    {
      "agent_id": "xxx",
      "display_name": "Bob",
      "reason": "选择理由",
      "match_type": "explicit|inferred",
      "confidence": 0.9
    }
  ],
  "possibly_related": [
    {
      "agent_id": "xxx",
      "display_name": "Bob",
      "reason": "选择理由",
      "match_type": "explicit|inferred",
      "confidence": 0.6
    }
  ],
  "total_candidates": 15
}
` + "```" + `
`,
})

// FilterInput is prompt 2's input.
type FilterInput struct {
	Demand   negotiation.Understanding  `json:"demand"`
	RawInput string                     `json:"raw_input"`
	Profiles []negotiation.AgentProfile `json:"all_agent_profiles"` // active agents only
	// MaxCandidates bounds the result (the design asks for 10-20).
	MaxCandidates int `json:"max_candidates"`
	// Exclude lists agents that must not be chosen (e.g. the requester, or
	// the participants of the parent negotiation for a sub-demand).
	Exclude []string `json:"exclude,omitempty"`
}

// Candidate is one agent chosen by prompt 2.
type Candidate struct {
	AgentID     string  `json:"agent_id"`
	DisplayName string  `json:"display_name"`
	Reason      string  `json:"reason"`
	MatchType   string  `json:"match_type"` // "explicit" or "inferred"
	Confidence  float64 `json:"confidence"` // 0..1
	// Definitely is true for "definitely_related", false for
	// "possibly_related".
	Definitely bool `json:"definitely"`
}

// FilterResult is prompt 2's validated output: candidates ordered by
// relevance (definitely related first), no duplicates, only known agents,
// at most MaxCandidates.
type FilterResult struct {
	Analysis   string      `json:"analysis"`
	Candidates []Candidate `json:"candidates"`
}

// FilterReply is prompt 2's reply (智能筛选).
type FilterReply struct {
	Analysis          Text                 `json:"analysis"`
	DefinitelyRelated List[ReplyCandidate] `json:"definitely_related"`
	PossiblyRelated   List[ReplyCandidate] `json:"possibly_related"`
	TotalCandidates   Scalar               `json:"total_candidates"` // a number
	// shape is what is wrong with the lists' JSON shapes ("" when they
	// are lists of candidates): read when decoding, so that an empty
	// result stands only for lists the model wrote empty.
	shape string
}

// UnmarshalJSON implements json.Unmarshaler: the fields as usual (the
// lenient types), and the shape of the two lists (filterShape).
func (r *FilterReply) UnmarshalJSON(b []byte) error {
	type plain FilterReply
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*r = FilterReply(p)
	r.shape = filterShape(b)
	return nil
}

// filterShape says what is wrong with the shapes of a filter reply's
// lists: neither list there; a list that is not a JSON array (null is
// an empty one); an element that is neither a candidate object nor an
// agent id string, or a candidate whose agent_id is not a string. "" when
// nothing is.
func filterShape(b []byte) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return "the reply is not a JSON object"
	}
	present := 0
	for _, key := range []string{"definitely_related", "possibly_related"} {
		raw, ok := fields[key]
		if !ok {
			continue
		}
		present++
		switch firstByte(raw) {
		case 'n':
			continue
		case '[':
		default:
			return key + " must be a list of candidates, not " + jsonKind(raw)
		}
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return key + " is not a valid list"
		}
		for i, e := range elems {
			switch firstByte(e) {
			case '"':
			case '{':
				var c struct {
					AgentID json.RawMessage `json:"agent_id"`
				}
				if json.Unmarshal(e, &c) != nil || firstByte(c.AgentID) != '"' {
					return fmt.Sprintf("%s[%d].agent_id must be a string id from the list of agents", key, i)
				}
			default:
				return fmt.Sprintf("%s[%d] must be a candidate object, not %s", key, i, jsonKind(e))
			}
		}
	}
	if present == 0 {
		return "the reply has neither definitely_related nor possibly_related: write both lists, empty ([]) when no agent fits"
	}
	return ""
}

// jsonKind names a JSON value's kind: a number, a string, an object, ...
func jsonKind(b []byte) string {
	switch firstByte(b) {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// ReplyCandidate is one candidate of prompt 2's reply. A bare string is
// taken for its agent id.
type ReplyCandidate struct {
	AgentID     Text   `json:"agent_id"`
	DisplayName Text   `json:"display_name"`
	Reason      Text   `json:"reason"`
	MatchType   Text   `json:"match_type"` // explicit | inferred
	Confidence  Scalar `json:"confidence"` // 0..1
}

// UnmarshalJSON accepts a candidate object or a bare agent id.
func (c *ReplyCandidate) UnmarshalJSON(b []byte) error {
	type plain ReplyCandidate
	return decodeObjectOrString(b, (*plain)(c), func(s string) { c.AgentID = Text(s) })
}

var matchTypes = map[string]string{
	"explicit": "explicit", "direct": "explicit", "显式": "explicit", "明确": "explicit", "直接": "explicit",
	"inferred": "inferred", "inference": "inferred", "implicit": "inferred", "推断": "inferred",
	"推理": "inferred", "隐式": "inferred", "间接": "inferred",
}

// Default filter confidences when a candidate gives none.
const (
	defaultDefinitelyConfidence = 0.8
	defaultPossiblyConfidence   = 0.5
	defaultMaxCandidates        = 20
)

// maxCandidates returns the input's bound, or the default (20).
func maxCandidates(in *FilterInput) int {
	if in.MaxCandidates > 0 {
		return in.MaxCandidates
	}
	return defaultMaxCandidates
}

// selectableProfiles are the profiles prompt 2 may choose from (the
// excluded ones left out).
func selectableProfiles(in *FilterInput) []negotiation.AgentProfile {
	out := []negotiation.AgentProfile{}
	for _, p := range in.Profiles {
		if !slices.Contains(in.Exclude, p.AgentID) {
			out = append(out, p)
		}
	}
	return out
}

// validateFilter validates prompt 2's reply: definitely related first, then
// possibly related, unknown/excluded/duplicate agents dropped, at most
// MaxCandidates. A reply that named candidates of which none is valid is
// invalid (the model hallucinated ids); one that named none is valid.
func validateFilter(raw *FilterReply, in *FilterInput) (FilterResult, error) {
	if raw.shape != "" {
		return FilterResult{}, invalid("%s", raw.shape)
	}
	idx := newAgentIndex()
	for _, p := range in.Profiles {
		idx.add(p.AgentID, p.UserName)
	}
	excluded := map[string]bool{}
	for _, id := range in.Exclude {
		excluded[strings.TrimSpace(id)] = true
	}
	out := FilterResult{Analysis: clip(string(raw.Analysis), maxTextRunes), Candidates: []Candidate{}}
	seen := map[string]bool{}
	var unknown []string
	limit := maxCandidates(in)
	groups := []struct {
		list       []ReplyCandidate
		definitely bool
	}{{raw.DefinitelyRelated, true}, {raw.PossiblyRelated, false}}
	for _, g := range groups {
		for _, rc := range g.list {
			id, ok := idx.resolve(string(rc.AgentID))
			if !ok {
				unknown = append(unknown, clip(string(rc.AgentID), maxShortRunes))
				continue
			}
			if excluded[id] || seen[id] {
				continue
			}
			mt := "inferred"
			if g.definitely {
				mt = "explicit"
			}
			if s := string(rc.MatchType); s != "" {
				if mt, ok = lookupEnum(matchTypes, s); !ok {
					return FilterResult{}, invalid("unknown match_type %q", s)
				}
			}
			def := defaultPossiblyConfidence
			if g.definitely {
				def = defaultDefinitelyConfidence
			}
			name := idx.names[id]
			if name == "" {
				name = clip(string(rc.DisplayName), maxShortRunes)
			}
			seen[id] = true
			if len(out.Candidates) < limit {
				out.Candidates = append(out.Candidates, Candidate{
					AgentID:     id,
					DisplayName: name,
					Reason:      clip(string(rc.Reason), maxTextRunes),
					MatchType:   mt,
					Confidence:  confidenceFraction(rc.Confidence, def),
					Definitely:  g.definitely,
				})
			}
		}
	}
	if len(unknown) > 0 {
		return FilterResult{}, invalid("unknown agent ids %q: use only the agent_id values of the list of agents", unknown)
	}
	if named := len(raw.DefinitelyRelated) + len(raw.PossiblyRelated); named > 0 && len(out.Candidates) == 0 {
		return FilterResult{}, invalid("none of the %d candidates is a known, allowed agent", named)
	}
	return out, nil
}

// tagsOverlap counts the demand tags matched by a profile's tags (equal
// ignoring case, or one containing the other) and returns them.
func tagsOverlap(demandTags, profileTags []string) []string {
	var hit []string
	for _, dt := range demandTags {
		d := strings.ToLower(strings.TrimSpace(dt))
		if d == "" || d == strings.ToLower(genericTag) {
			continue
		}
		for _, pt := range profileTags {
			p := strings.ToLower(strings.TrimSpace(pt))
			if p != "" && (p == d || strings.Contains(p, d) || strings.Contains(d, p)) {
				hit = append(hit, strings.TrimSpace(dt))
				break
			}
		}
	}
	return hit
}

// fallbackFilter ("返回 mock 候选人"): the profiles whose tags overlap the
// demand's capability tags, most overlapping first, then those in the
// demand's location, then input order; excluded agents skipped; at most
// MaxCandidates; none when nothing overlaps.
func fallbackFilter(in *FilterInput) FilterResult {
	type scored struct {
		p     negotiation.AgentProfile
		hits  []string
		local bool
	}
	excluded := map[string]bool{}
	for _, id := range in.Exclude {
		excluded[strings.TrimSpace(id)] = true
	}
	loc := strings.TrimSpace(in.Demand.Context.Location)
	var all []scored
	seen := map[string]bool{}
	for _, p := range in.Profiles {
		id := strings.TrimSpace(p.AgentID)
		if id == "" || excluded[id] || seen[id] {
			continue
		}
		seen[id] = true
		hits := tagsOverlap(in.Demand.CapabilityTags, p.Tags)
		if len(hits) == 0 {
			continue
		}
		pl := strings.TrimSpace(p.Location)
		local := loc != "" && pl != "" && (strings.Contains(loc, pl) || strings.Contains(pl, loc))
		all = append(all, scored{p: p, hits: hits, local: local})
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		if len(a.hits) != len(b.hits) {
			return len(b.hits) - len(a.hits)
		}
		switch {
		case a.local && !b.local:
			return -1
		case b.local && !a.local:
			return 1
		}
		return 0
	})
	out := FilterResult{
		Analysis:   "fallback: LLM unavailable, candidates chosen by capability tag overlap",
		Candidates: []Candidate{},
	}
	for _, s := range all {
		if len(out.Candidates) == maxCandidates(in) {
			break
		}
		out.Candidates = append(out.Candidates, Candidate{
			AgentID:     strings.TrimSpace(s.p.AgentID),
			DisplayName: strings.TrimSpace(s.p.UserName),
			Reason:      "fallback: tag match " + strings.Join(s.hits, ", "),
			MatchType:   "explicit",
			Confidence:  0.5,
		})
	}
	return out
}
