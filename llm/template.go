package llm

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/towow/towow/domain/negotiation"
)

// baseFuncs are the template functions every prompt may use; a prompt adds
// its own (Prompt.funcs).
var baseFuncs = template.FuncMap{
	"json":    toJSON,
	"compact": toCompactJSON,
	"join":    strings.Join,
	"name":    profileName,
	"profile": profileText,
}

// toJSON renders v as indented JSON, keeping Chinese and <>& as they are
// (Python's json.dumps(..., ensure_ascii=False, indent=2)).
func toJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// toCompactJSON renders v as one line of JSON, keeping Chinese and <>&.
func toCompactJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// profileName is the name a twin speaks for: the user name, else the id.
func profileName(p negotiation.AgentProfile) string {
	if n := strings.TrimSpace(p.UserName); n != "" {
		return n
	}
	return strings.TrimSpace(p.AgentID)
}

// profileText is a profile as a list of "- label：value" lines, the empty
// fields left out.
func profileText(p negotiation.AgentProfile) string {
	var lines []string
	add := func(label, value string) {
		if value = strings.TrimSpace(value); value != "" {
			lines = append(lines, "- "+label+"："+value)
		}
	}
	add("名称", profileName(p))
	add("简介", p.ProfileSummary)
	add("所在地", p.Location)
	add("能力标签", strings.Join(p.Tags, "、"))
	keys := make([]string, 0, len(p.Capabilities))
	for k := range p.Capabilities {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		add("能力·"+k, p.Capabilities[k])
	}
	add("兴趣", strings.Join(p.Interests, "、"))
	add("可用时间", p.Availability)
	return strings.Join(lines, "\n")
}

// EstimateTokens estimates the tokens of s: one per two characters,
// rounded up.
func EstimateTokens(s string) int {
	return (utf8.RuneCountInString(s) + 1) / 2
}
