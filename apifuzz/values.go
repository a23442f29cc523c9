package apifuzz

import (
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
)

// param is one path or query parameter of an operation.
type param struct {
	name, in, typ string
	enum          []string
	min, max      *float64
}

// hostile are values that must be refused cleanly wherever they go: NUL,
// invalid UTF-8, a lone surrogate, dot segments, control characters, a
// very long text, SQL and markup (sent as they are: the escapes are on
// purpose).
var hostile = []string{"%00", "a%00b", "%FF", "%ED%A0%80", "%C3%28", "..", ".", "%2e%2e", "a%0Ab", "%7F",
	url.QueryEscape(strings.Repeat("長", 3000)), url.QueryEscape("'; DROP TABLE events; --"), "%27%22%3C%3E", "%zz"}

// plausible are values that look right for any text parameter.
var plausible = []string{"d-000000000000", "collab-000000000000", "user_agent_lihua", "u1", "towow.demand.submitted",
	"demands", "smart_filter", "2026-11-24T10:00:00Z", "摄影师"}

// value draws a value for p, escaped for a URL: valid (an enum member, a
// number in range, a known id of its name from known, or a plausible
// text), boundary, or hostile.
func (p param) value(r *rand.Rand, known map[string][]string) string {
	switch r.IntN(4) {
	case 0, 1: // valid-looking
		switch {
		case len(p.enum) > 0:
			return url.QueryEscape(p.enum[r.IntN(len(p.enum))])
		case p.typ == "integer" || p.typ == "number":
			lo, hi := 0.0, 100.0
			if p.min != nil {
				lo = *p.min
			}
			if p.max != nil {
				hi = *p.max
			}
			return strconv.Itoa(int(lo + (hi-lo)*r.Float64()))
		case p.typ == "boolean":
			return []string{"true", "false"}[r.IntN(2)]
		case len(known[p.name]) > 0 && r.IntN(4) > 0:
			ids := known[p.name]
			return url.PathEscape(ids[r.IntN(len(ids))])
		}
		return url.QueryEscape(plausible[r.IntN(len(plausible))])
	case 2: // boundary
		var out []string
		if p.min != nil {
			out = append(out, strconv.FormatFloat(*p.min-1, 'f', -1, 64), strconv.FormatFloat(*p.min, 'f', -1, 64))
		}
		if p.max != nil {
			out = append(out, strconv.FormatFloat(*p.max+1, 'f', -1, 64), strconv.FormatFloat(*p.max, 'f', -1, 64))
		}
		out = append(out, "", "0", "-1", "9223372036854775808", "1e309", "1.5", strings.Repeat("a", 1000))
		return url.QueryEscape(out[r.IntN(len(out))])
	}
	return hostile[r.IntN(len(hostile))]
}

// bodies are JSON bodies for the operations that take one: plausible,
// boundary and hostile (as sent, escapes included).
var bodies = []string{
	`{"raw_input":"我想在北京办一场AI主题聚会","user_id":"u1"}`,
	`{"raw_input":"","user_id":"u1"}`, `{"raw_input":"x"}`, `{}`, `[]`, `null`, `"x"`, `{`, ``,
	`{"raw_input":"a\u0000b","user_id":"u1"}`, `{"raw_input":"\ud800","user_id":"u1"}`, "{\"raw_input\":\"\xff\",\"user_id\":\"u1\"}",
	`{"raw_input":123,"user_id":true}`, `{"raw_input":"x","user_id":"u1","extra":{"deep":[[[[[[[[[[1]]]]]]]]]]}}`,
	`{"decision":"participate","contribution":"我来"}`, `{"decision":"maybe"}`, `{"decision":"conditional"}`,
	`{"round":1,"feedback_type":"accept"}`, `{"round":-1,"feedback_type":"accept"}`, `{"round":1,"feedback_type":"\u0000"}`,
	`{"agent_id":"fuzz_agent","user_name":"Fuzz","profile_summary":"x","tags":["摄影"],"location":"北京"}`,
	`{"agent_id":"","user_name":""}`, `{"agent_id":"a\u0000"}`, `[{"agent_id":"x"}]`, `{"reason":"done"}`,
	`{"raw_input":"` + strings.Repeat("長", 12000) + `","user_id":"u1"}`,
}
