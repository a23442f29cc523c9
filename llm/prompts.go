package llm

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/template"
	"time"
	"unicode/utf8"

	"github.com/towow/towow/domain"
)

// promptFS holds one text/template per prompt key: prompts/<key>.tmpl.
//
//go:embed prompts/*.tmpl
var promptFS embed.FS

// promptSpec is the fixed part of a prompt's request.
type promptSpec struct {
	system      string // one line, Chinese
	maxTokens   int
	temperature float64
}

// specs are the system prompts and budgets of the eleven prompts (004 gives
// those of 5 and 6).
var specs = map[PromptKey]promptSpec{
	PromptUnderstand: {"你是 ToWow 的需求理解系统。分析用户的原始需求，提炼表面需求、深层动机、所需能力和上下文，以有效 JSON 格式输出。", 1500, 0.3},
	PromptFilter:     {"你是 ToWow 的智能筛选系统。根据需求从所有 Agent 中找出可能参与协作的候选人，以有效 JSON 格式输出。", 3000, 0.3},
	PromptOffer:      {"你是数字分身系统，代表用户决定是否响应协作需求。以有效 JSON 格式输出。", 800, 0.5},
	PromptAggregate:  {"你是 ToWow 的方案聚合系统。根据各参与者的响应生成可执行的协作方案，以有效 JSON 格式输出。", 3000, 0.4},
	PromptFeedback:   {"你是数字分身系统，代表用户评估协作方案。以有效 JSON 格式输出。", 800, 0.5},
	PromptAdjust:     {"你是 ToWow 的方案调整系统。根据参与者反馈优化协作方案，以有效 JSON 格式输出。", 4000, 0.4},
	PromptGaps:       {"你是 ToWow 的缺口识别系统。对照需求检查最终方案，找出仍然缺失的能力，以有效 JSON 格式输出。", 1500, 0.3},
	PromptRecursion:  {"你是 ToWow 的递归决策系统。判断是否需要为方案缺口发起子协商，以有效 JSON 格式输出。", 1500, 0.3},
	PromptCompromise: {"你是 ToWow 的妥协方案系统。在无法达成完整共识时，基于现有资源给出妥协方案和替代建议，以有效 JSON 格式输出。", 3000, 0.4},
	PromptTask:       {"你是数字分身系统，代表用户如实汇报协作任务的执行情况。以有效 JSON 格式输出。", 800, 0.4},
	PromptConverse:   {"你是 ToWow 的工作流对话助手。按 ReAct 方式一步一步地调用工具修改或查询工作流，每次只走一步，以有效 JSON 格式输出。", 1500, 0.2},
}

// templates are the parsed prompt templates, named "<key>.tmpl".
var templates = template.Must(template.New("prompts").Option("missingkey=error").Funcs(template.FuncMap{
	"json":         toJSON,
	"join":         strings.Join,
	"sub":          func(a, b int) int { return a - b },
	"name":         profileName,
	"profile":      profileText,
	"feedbackList": feedbackList,
	"countType":    countFeedback,
	"maxCand":      func(in *FilterInput) int { return maxCandidates(in) },
	"selectable":   selectableProfiles,
	"compact":      toCompactJSON,
	"when":         formatNow,
	"maxSteps":     func() int { return domain.MaxAgentSteps },
}).ParseFS(promptFS, "prompts/*.tmpl"))

// render renders the prompt of key from its input (a pointer to the
// key's input type).
func render(key PromptKey, in any) (string, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, string(key)+".tmpl", in); err != nil {
		return "", fmt.Errorf("llm: render prompt %s: %w", key, err)
	}
	return b.String(), nil
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

// formatNow is the time a prompt states ("未提供" when zero).
func formatNow(t time.Time) string {
	if t.IsZero() {
		return "未提供"
	}
	days := [...]string{"日", "一", "二", "三", "四", "五", "六"}
	return t.Format("2006-01-02 15:04 MST") + "（星期" + days[t.Weekday()] + "）"
}

// profileName is the name a twin speaks for: the user name, else the id.
func profileName(p domain.AgentProfile) string {
	if n := strings.TrimSpace(p.UserName); n != "" {
		return n
	}
	return strings.TrimSpace(p.AgentID)
}

// profileText is a profile as a list of lines (004 _build_profile_summary).
func profileText(p domain.AgentProfile) string {
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

// selectableProfiles are the profiles prompt 2 may choose from (the
// excluded ones left out).
func selectableProfiles(in *FilterInput) []domain.AgentProfile {
	out := []domain.AgentProfile{}
	for _, p := range in.Profiles {
		if !slices.Contains(in.Exclude, p.AgentID) {
			out = append(out, p)
		}
	}
	return out
}

// feedbackItem is one feedback as prompt 6 lists it (004 fb_data).
type feedbackItem struct {
	AgentID           string   `json:"agent_id"`
	AdjustmentRequest string   `json:"adjustment_request"`
	Concerns          []string `json:"concerns"`
	Reasoning         string   `json:"reasoning"`
}

// isAgainst reports whether a feedback counts against the proposal
// (reject or withdraw, 004).
func isAgainst(t domain.FeedbackType) bool {
	return t != domain.FeedbackAccept && t != domain.FeedbackNegotiate
}

// feedbackList returns the feedbacks of one kind ("accept", "negotiate",
// or "against" for reject and withdraw) as 004's fb_data.
func feedbackList(fbs []FeedbackView, kind string) []feedbackItem {
	items := []feedbackItem{}
	for _, f := range fbs {
		if (kind == "against" && isAgainst(f.FeedbackType)) || string(f.FeedbackType) == kind {
			concerns := f.Concerns
			if concerns == nil {
				concerns = []string{}
			}
			items = append(items, feedbackItem{AgentID: f.AgentID, AdjustmentRequest: f.AdjustmentRequest, Concerns: concerns, Reasoning: f.Reasoning})
		}
	}
	return items
}

// countFeedback counts the feedbacks of one kind (see feedbackList).
func countFeedback(fbs []FeedbackView, kind string) int {
	return len(feedbackList(fbs, kind))
}

// PromptTokens renders the prose prompt of key for in (a pointer to the
// key's input type) with its system prompt and estimates its size in
// tokens the way the builtin brain reports it (about two characters a
// token), the same for every provider: what `towow bench filter`
// compares across network sizes.
func PromptTokens(key PromptKey, in any) (int, error) {
	text, err := render(key, in)
	if err != nil {
		return 0, err
	}
	return EstimateTokens(specs[key].system) + EstimateTokens(text), nil
}

// EstimateTokens estimates the tokens of s: one per two characters,
// rounded up.
func EstimateTokens(s string) int {
	return (utf8.RuneCountInString(s) + 1) / 2
}
