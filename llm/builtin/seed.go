package builtin

import (
	"bytes"
	"encoding/json"
	"hash/fnv"

	"github.com/towow/towow/llm"
)

// hash64 is the FNV-64a hash of the parts, each followed by a separator
// byte so that ("ab", "c") and ("a", "bc") differ. It is the only source of
// variation in this package.
func hash64(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0x1f})
	}
	// Finalise (splitmix64) so that nearby inputs give well spread values.
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// unit is a seeded number in [0, 1).
func unit(parts ...string) float64 {
	return float64(hash64(parts...)>>11) / float64(1<<53)
}

// between is a seeded integer in [lo, hi].
func between(lo, hi int, parts ...string) int {
	if hi <= lo {
		return lo
	}
	return lo + int(hash64(parts...)%uint64(hi-lo+1))
}

// pick is a seeded element of list ("" for an empty list).
func pick(list []string, parts ...string) string {
	if len(list) == 0 {
		return ""
	}
	return list[hash64(parts...)%uint64(len(list))]
}

// estimateTokens is a rough token count for text: about two characters
// (runes) per token, which is what Chinese text costs on common models.
func estimateTokens(s string) int { return llm.EstimateTokens(s) }

// preambles are the one-sentence introductions a chatty model puts in
// front of its JSON.
var preambles = []string{
	"好的，以下是分析结果：",
	"根据提供的信息，我的判断如下。",
	"明白，下面是按要求输出的 JSON：",
	"已完成分析，结果如下：",
	"以下是我的回答。",
}

// render encodes v as JSON and dresses it like a model reply, chosen by a
// hash of the prompt key and the JSON itself: about 70% plain JSON, 20%
// inside a ```json fence and 10% with a Chinese preamble sentence. Some
// replies are indented, others compact.
func render(key string, v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	compact := bytes.TrimSpace(buf.Bytes())
	u := unit(key, string(compact), "format")
	body := string(compact)
	if unit(key, string(compact), "indent") < 0.5 {
		var ind bytes.Buffer
		if err := json.Indent(&ind, compact, "", "  "); err == nil {
			body = ind.String()
		}
	}
	switch {
	case u < 0.70:
		return body, nil
	case u < 0.90:
		return "```json\n" + body + "\n```", nil
	default:
		return pick(preambles, key, string(compact), "preamble") + "\n" + body, nil
	}
}

// nonNil returns s, or an empty slice when s is nil, so that JSON has []
// rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
