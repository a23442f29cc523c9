package llm

import (
	"strings"
	"testing"
)

// Fuzz targets, one per parser: no panic, and every successful result
// satisfies the validation invariants. Seeds: the canned replies, a few
// variants (f.Add) and the committed corpus in testdata/fuzz/<target>/.

// fuzzSeeds adds the good reply of key and generic variants of it.
func fuzzSeeds(f *testing.F, key PromptKey, extra ...string) {
	good := goodReply(key)
	for _, s := range append([]string{
		good,
		"```json\n" + good + "\n```",
		"分析如下：\n" + good + "\n希望有帮助。",
		strings.ReplaceAll(good, `"`, `'`),
		good[:len(good)/2],
		"{}",
		"",
		`{"a": {"b": [1, 2, {"c": null}]}}`,
	}, extra...) {
		f.Add(s)
	}
}

// fuzzParser runs the fuzz loop of one parser.
func fuzzParser(f *testing.F, key PromptKey, extra ...string) {
	fuzzSeeds(f, key, extra...)
	f.Fuzz(func(t *testing.T, text string) {
		if ps := parseAndCheck(key, text, sampleInput(key)); ps != nil && !strings.HasPrefix(ps[0], "parse: ") {
			t.Fatalf("invariants violated for %q: %v", text, ps)
		}
	})
}

func FuzzParseUnderstand(f *testing.F) {
	fuzzParser(f, PromptUnderstand,
		`{"surface_demand": 12, "capability_tags": "场地", "context": {"expected_attendees": "-5"}, "confidence": 0.95}`,
		`{"surface_demand": " ", "confidence": "high"}`)
}

func FuzzParseFilter(f *testing.F) {
	fuzzParser(f, PromptFilter,
		`{"definitely_related": ["user_agent_bob", "user_agent_bob", "USER_AGENT_ALICE"], "possibly_related": {"agent_id": "user_agent_eve"}}`,
		`{"definitely_related": [{"agent_id": "user_agent_dave", "confidence": "87%", "match_type": "推断"}]}`)
}

func FuzzParseOffer(f *testing.F) {
	fuzzParser(f, PromptOffer,
		`{"decision": "有条件", "conditions": "只在周末", "reasoning": "可以", "confidence": "0.4"}`,
		`{"decision": "decline", "confidence": 1e400}`)
}

func FuzzParseAggregate(f *testing.F) {
	fuzzParser(f, PromptAggregate,
		`{"summary": "s", "assignments": ["user_agent_bob", {"agent_id": "ghost"}], "timeline": "soon", "confidence": 55}`)
}

func FuzzParseFeedback(f *testing.F) {
	fuzzParser(f, PromptFeedback,
		`{"feedback_type": "协商", "concerns": ["时间", "时间", ""]}`,
		`{"feedback_type": "REJECT", "confidence": "high"}`)
}

func FuzzParseAdjust(f *testing.F) {
	fuzzParser(f, PromptAdjust,
		`{"summary": "s", "assignments": [{"agent_id": "user_agent_alice"}], "adjustment_summary": {"round": "9", "requests_declined": ["x", {"reason": "no request"}]}}`)
}

func FuzzParseGaps(f *testing.F) {
	fuzzParser(f, PromptGaps,
		`{"is_complete": "否", "gaps": ["摄影师", {"gap_type": "主持", "importance": "-3"}]}`)
}

func FuzzParseRecursion(f *testing.F) {
	fuzzParser(f, PromptRecursion,
		`{"should_recurse": "yes", "sub_demands": ["寻找摄影师", {"gap_type": "摄影"}, {"gap_type": "摄影师"}, {}]}`,
		`{"should_recurse": 1, "condition_3_met": 0, "sub_demands": [{"gap_type": "摄影师"}]}`)
}

func FuzzParseCompromise(f *testing.F) {
	fuzzParser(f, PromptCompromise,
		`{"summary": "", "type": "normal", "assignments": [{"agent_id": "user_agent_alice"}, {"agent_id": "user_agent_carol"}], "confidence": "high"}`)
}

func FuzzParseTask(f *testing.F) {
	fuzzParser(f, PromptTask,
		`{"status": "已完成", "summary": 42, "problem": "忽略"}`,
		`{"status": "无法", "summary": "场地临时取消"}`,
		`{"status": "done | problem", "summary": "s"}`,
		`{"status": "problem", "summary": "", "problem": ""}`)
}

func FuzzParseConverse(f *testing.F) {
	fuzzParser(f, PromptConverse,
		`{"thought": "t", "reply": "好的，已经改好了"}`,
		`{"thought": "t", "tool": "Get-Node", "args": {"node_id": " TASK-1 "}, "confidence": "85%"}`,
		`{"thought": "t", "tool": "ask_user", "args": {}, "reply": "指哪个节点？"}`,
		`{"thought": "t", "tool": "create_node", "args": {"node": {"title": "彩排"}, "after": "场地确认", "before": ["", "x", "x"]}}`,
		`{"thought": "t", "tool": "delete_node", "args": "task-1"}`,
		`{"thought": "t", "tool": "send_email", "args": {}}`,
		`{"thought": "t"}`)
}
