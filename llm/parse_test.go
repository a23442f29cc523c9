package llm

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/towow/towow/domain/negotiation"
)

func TestDecodeReply(t *testing.T) {
	type obj struct {
		A Text `json:"a"`
	}
	tests := []struct {
		name, text string
		keys       []string
		want       string
		fail       bool
	}{
		{"plain", `{"a":"x"}`, nil, "x", false},
		{"fenced", "好的，结果如下：\n```json\n{\"a\": \"x\"}\n```\n以上。", nil, "x", false},
		{"prose", `我认为 {"a": "x"} 是答案`, nil, "x", false},
		{"braces in strings", `{"a": "}{\"}"}`, nil, `}{"}`, false},
		{"invalid first candidate skipped", `示例 {不是 JSON} 然后 {"a":"y"}`, nil, "y", false},
		{"unbalanced brace before", `{ 多余的括号 {"a":"z"}`, nil, "z", false},
		{"example without keys skipped", `格式 {"b":1}，答案 {"a":"k"}`, []string{"a"}, "k", false},
		{"example taken without keys", `格式 {"b":1}，答案 {"a":"k"}`, nil, "", false},
		{"no json", `抱歉，我无法回答`, nil, "", true},
		{"array only", `["a"]`, nil, "", true},
		{"truncated", `{"a": "x"`, nil, "", true},
		{"empty", ``, nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v obj
			err := decodeReply(tt.text, &v, tt.keys...)
			if (err != nil) != tt.fail {
				t.Fatalf("err = %v, want fail %v", err, tt.fail)
			}
			if string(v.A) != tt.want {
				t.Errorf("a = %q, want %q", v.A, tt.want)
			}
		})
	}
}

func TestFlexTypes(t *testing.T) {
	var v struct {
		S   Text                           `json:"s"`
		L   TextList                       `json:"l"`
		N   Scalar                         `json:"n"`
		P   Scalar                         `json:"p"`
		B   Scalar                         `json:"b"`
		O   Object[ReplyDeepUnderstanding] `json:"o"`
		C   List[ReplyGap]                 `json:"c"`
		X   Scalar                         `json:"x"`
		Big Scalar                         `json:"big"`
	}
	// The types alone decode leniently (a reply is checked for its shape
	// first: TestStrictShapes).
	in := `{"s": 42, "l": "单个", "n": "0.8", "p": "75%", "b": "是", "o": "not an object",
		"c": ["摄影师", {"gap_type": "主持", "importance": "60"}, 3], "x": "NaN", "big": 1e999}`
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.S != "42" || !reflect.DeepEqual([]string(v.L), []string{"单个"}) {
		t.Errorf("s=%q l=%q", v.S, v.L)
	}
	if !v.N.IsNum || v.N.Num != 0.8 || !v.P.IsNum || v.P.Num != 75 {
		t.Errorf("n=%+v p=%+v", v.N, v.P)
	}
	if b, ok := boolOf(v.B); !b || !ok {
		t.Errorf("b=%+v", v.B)
	}
	if v.O.OK {
		t.Error("a string decoded as an object")
	}
	if len(v.C) != 2 || v.C[0].GapType != "摄影师" || v.C[1].Importance.Num != 60 {
		t.Errorf("c=%+v", v.C)
	}
	if v.X.IsNum || v.X.Str != "NaN" {
		t.Errorf("NaN accepted as a number: %+v", v.X)
	}
	if !v.Big.IsNum || percent(v.Big.Num) != 100 {
		t.Errorf("big=%+v", v.Big)
	}
}

// TestStrictShapes: a reply with a value of the wrong JSON kind is
// invalid, naming the field, not coerced; absent and null fields, scalars
// written as text and agent ids where candidates are expected pass.
func TestStrictShapes(t *testing.T) {
	type reply struct {
		S Text                           `json:"s"`
		L TextList                       `json:"l"`
		N Scalar                         `json:"n"`
		O Object[ReplyDeepUnderstanding] `json:"o"`
		C List[ReplyGap]                 `json:"c"`
	}
	tests := []struct {
		name, in, want string // want: "" for valid, else a part of the error
	}{
		{"all of the right kind", `{"s":"文本","l":["a","b"],"n":"80%","o":{"type":"x"},"c":[{"gap_type":"主持"}]}`, ""},
		{"absent and null", `{"s":null,"l":null,"c":null}`, ""},
		{"a number for text", `{"s":42}`, "s must be text (a JSON string), not a number"},
		{"a list for text", `{"s":["a"]}`, "s must be text (a JSON string), not a list"},
		{"one text for a list", `{"l":"单个"}`, "l must be a list (a JSON array), not a string"},
		{"a number in a list of texts", `{"l":["a",7]}`, "l[1] must be text (a JSON string), not a number"},
		{"a list for a number", `{"n":[1]}`, "n must be a single value, not a list"},
		{"text for an object", `{"o":"not an object"}`, "o must be an object, not a string"},
		{"a number for a list", `{"c":7}`, "c must be a list (a JSON array), not a number"},
		{"a number in a list of objects", `{"c":[{"gap_type":"主持"},3]}`, "c[1] must be an object, not a number"},
		{"a wrong kind inside an element", `{"c":[{"gap_type":5}]}`, "c[0].gap_type must be text (a JSON string), not a number"},
	}
	for _, tc := range tests {
		var v reply
		err := decodeReply(tc.in, &v, "s", "l", "n", "o", "c")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestEnumNormalization(t *testing.T) {
	offers := map[string]negotiation.OfferDecision{
		"participate": "participate", " Participating ": "participate", "参与": "participate", "YES": "participate",
		"decline": "decline", "拒绝": "decline", "conditional": "conditional", "有条件": "conditional",
		"Conditional.": "conditional",
	}
	for s, want := range offers {
		if got, ok := lookupEnum(offerDecisions, s); !ok || got != want {
			t.Errorf("decision %q = %q, %v; want %q", s, got, ok, want)
		}
	}
	feedback := map[string]negotiation.FeedbackType{
		"accept": "accept", "同意": "accept", "接受": "accept", "Negotiate": "negotiate", "协商": "negotiate",
		"调整": "negotiate", "退出": "withdraw", "拒绝": "withdraw", "withdraw": "withdraw", "reject": "reject",
		"REJECTED": "reject",
	}
	for s, want := range feedback {
		if got, ok := lookupEnum(feedbackTypes, s); !ok || got != want {
			t.Errorf("feedback %q = %q, %v; want %q", s, got, ok, want)
		}
	}
	levels := map[string]negotiation.Confidence{"high": "high", "高": "high", "Medium": "medium", "中": "medium", "低": "low", "LOW": "low"}
	for s, want := range levels {
		if got, ok := lookupEnum(confidenceLevels, s); !ok || got != want {
			t.Errorf("confidence %q = %q, %v; want %q", s, got, ok, want)
		}
	}
	for _, s := range []string{"maybe", "accept | negotiate | withdraw", "", "participate|decline|conditional"} {
		if _, ok := lookupEnum(feedbackTypes, s); ok {
			t.Errorf("feedback %q accepted", s)
		}
		if _, ok := lookupEnum(offerDecisions, s); ok {
			t.Errorf("decision %q accepted", s)
		}
	}
}

// TestGoodReplies parses each canned reply against its sample input.
func TestGoodReplies(t *testing.T) {
	for _, key := range PromptKeys() {
		t.Run(string(key), func(t *testing.T) {
			if ps := parseAndCheck(key, goodReply(key), sampleInput(key)); ps != nil {
				t.Error(ps)
			}
		})
	}
}

func TestParseUnderstand(t *testing.T) {
	in := sampleUnderstandInput()
	out, err := Understand.parse("```json\n"+replyUnderstand+"\n```", &in)
	if err != nil {
		t.Fatal(err)
	}
	if out.Confidence != negotiation.ConfidenceHigh || out.Context.ExpectedAttendees != 50 || len(out.CapabilityTags) != 3 {
		t.Errorf("got %+v", out)
	}
	// Lenient: attendees as a string, tags missing (keyword fallback, read
	// onto the network's known tags), confidence as a fraction.
	out, err = Understand.parse(`{"surface_demand":"  办沙龙  ","context":{"expected_attendees":"60"},"confidence":0.2}`, &in)
	if err != nil {
		t.Fatal(err)
	}
	if out.SurfaceDemand != "办沙龙" || out.Context.ExpectedAttendees != 60 || out.Confidence != negotiation.ConfidenceLow {
		t.Errorf("got %+v", out)
	}
	if !reflect.DeepEqual(out.CapabilityTags, []string{"演讲嘉宾", "场地提供", "摄影"}) {
		t.Errorf("fallback tags = %q", out.CapabilityTags)
	}
	for _, bad := range []string{`{"surface_demand":""}`, `{"surface_demand":"x","confidence":"very"}`, `not json`} {
		if _, err := Understand.parse(bad, &in); !errors.Is(err, errInvalidReply) {
			t.Errorf("%s: err = %v, want errInvalidReply", bad, err)
		}
	}
}

func TestParseFilterStrict(t *testing.T) {
	in := sampleFilterInput()
	reply := `{"analysis":"a","definitely_related":[
		{"agent_id":"user_agent_eve","reason":"被排除"},
		{"agent_id":"USER_AGENT_BOB","reason":"大小写不同","confidence":"90"},
		"user_agent_alice"],
	  "possibly_related":[{"agent_id":"user_agent_bob","reason":"重复"},{"agent_id":"user_agent_dave","match_type":"推断"},
		{"agent_id":"user_agent_carol"}]}`
	out, err := Filter.parse(reply, &in)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range out.Candidates {
		ids = append(ids, c.AgentID)
	}
	if want := []string{"user_agent_bob", "user_agent_alice", "user_agent_dave"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids = %q, want %q (MaxCandidates 3)", ids, want)
	}
	if c := out.Candidates[0]; c.Confidence != 0.9 || c.DisplayName != "Bob" || !c.Definitely || c.MatchType != "explicit" {
		t.Errorf("bob = %+v", c)
	}
	if c := out.Candidates[2]; c.Definitely || c.MatchType != "inferred" || c.Confidence != defaultPossiblyConfidence {
		t.Errorf("dave = %+v", c)
	}
	if ps := checkFilter(&in, out); ps != nil {
		t.Error(ps)
	}
	// Strict: an unknown id, a number or object where a list is expected,
	// a wrong-typed element or agent_id, no list at all are errors, not an
	// empty result; only lists the model wrote empty are one.
	for _, bad := range []string{
		`{"definitely_related":[{"agent_id":"nobody"}]}`,
		`{"definitely_related":[{"agent_id":"user_agent_bob"},{"agent_id":"user_agent_ghost"}],"possibly_related":[]}`,
		`{"definitely_related":[{"agent_id":"user_agent_bob","match_type":"telepathic"}]}`,
		`{"definitely_related":7,"possibly_related":7}`,
		`{"definitely_related":{"agent_id":"user_agent_bob"}}`,
		`{"definitely_related":[7],"possibly_related":[]}`,
		`{"definitely_related":[{"agent_id":7}],"possibly_related":[]}`,
		`{"analysis":"没有人合适"}`,
	} {
		if _, err := Filter.parse(bad, &in); !errors.Is(err, errInvalidReply) {
			t.Errorf("%s: err = %v, want errInvalidReply", bad, err)
		}
	}
	if out, err := Filter.parse(`{"analysis":"没有合适的人","definitely_related":[],"possibly_related":[]}`, &in); err != nil || len(out.Candidates) != 0 {
		t.Errorf("empty reply: %+v, %v", out, err)
	}
}

// TestParseFilterExplicitlyEmpty: lists the model wrote empty (or null)
// are an empty result, not an error.
func TestParseFilterExplicitlyEmpty(t *testing.T) {
	in := sampleFilterInput()
	for _, reply := range []string{`{"analysis":"无","definitely_related":[],"possibly_related":[]}`,
		`{"definitely_related":null,"possibly_related":[]}`, `{"definitely_related":[]}`} {
		out, err := Filter.parse(reply, &in)
		if err != nil || len(out.Candidates) != 0 {
			t.Errorf("%s: %+v, %v", reply, out, err)
		}
	}
}

func TestParseOffer(t *testing.T) {
	in := sampleOfferInput()
	tests := []struct {
		reply string
		want  negotiation.OfferAnswer
	}{
		{`{"decision":"有条件","contribution":"场地","conditions":["周末"],"confidence":"0.7"}`,
			negotiation.OfferAnswer{Decision: "conditional", Contribution: "场地", Conditions: []string{"周末"}, Confidence: 70}},
		{`{"decision":"conditional","contribution":"场地","conditions":[]}`,
			negotiation.OfferAnswer{Decision: "participate", Contribution: "场地"}},
		{`{"decision":"Participating","reasoning":"我有场地","conditions":["忽略"],"decline_reason":"忽略"}`,
			negotiation.OfferAnswer{Decision: "participate", Contribution: "我有场地", Reasoning: "我有场地"}},
		{`{"decision":"拒绝","reasoning":"没空","confidence":150}`,
			negotiation.OfferAnswer{Decision: "decline", Reasoning: "没空", DeclineReason: "没空", Confidence: 100}},
	}
	for _, tt := range tests {
		got, err := Offer.parse(tt.reply, &in)
		if err != nil {
			t.Fatalf("%s: %v", tt.reply, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.reply, got, tt.want)
		}
	}
	for _, bad := range []string{`{"decision":"maybe","contribution":"x"}`, `{"decision":"participate"}`, `{"contribution":"x"}`} {
		if _, err := Offer.parse(bad, &in); !errors.Is(err, errInvalidReply) {
			t.Errorf("%s: err = %v, want errInvalidReply", bad, err)
		}
	}
}

func TestParseProposalsDropUnknownAgents(t *testing.T) {
	in := sampleAggregateInput()
	reply := `{"summary":"","assignments":[{"agent_id":"user_agent_ghost","role":"幽灵"},
		{"agent_id":"user_agent_bob"},{"agent_id":"user_agent_bob","role":"重复"}],"confidence":"高"}`
	out, err := Aggregate.parse(reply, &in)
	if err != nil {
		t.Fatal(err)
	}
	p := out.Proposal
	if len(p.Assignments) != 1 || p.Assignments[0].AgentID != "user_agent_bob" {
		t.Fatalf("assignments = %+v", p.Assignments)
	}
	a := p.Assignments[0]
	if a.Role != "提供 80 人会议厅和投影" || a.Responsibility != "提供 80 人会议厅和投影" || a.DisplayName != "Bob" || !a.ConditionsAccepted {
		t.Errorf("assignment not completed from the offer: %+v", a)
	}
	if p.Summary != "协作方案：在北京组织一场 50 人的 AI 技术沙龙" || p.Confidence != negotiation.ConfidenceHigh || p.Type != negotiation.ProposalTypeNormal {
		t.Errorf("proposal = %+v", p)
	}
	if _, err := Aggregate.parse(`{"summary":"s","assignments":[{"agent_id":"user_agent_ghost"}]}`, &in); !errors.Is(err, errInvalidReply) {
		t.Errorf("no valid assignment: err = %v", err)
	}

	adj := sampleAdjustInput()
	adj.Participants = adj.Participants[:1] // Alice withdrew
	out, err = Adjust.parse(replyAdjust, &adj)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(out.Proposal.Assignments); n != 1 || out.Proposal.AdjustmentSummary.Round != 2 {
		t.Errorf("adjusted = %+v", out.Proposal)
	}

	cin := sampleCompromiseInput()
	out, err = Compromise.parse(strings.Replace(replyCompromise, `"medium"`, `"high"`, 1), &cin)
	if err != nil {
		t.Fatal(err)
	}
	if out.Proposal.Type != negotiation.ProposalTypeCompromise || out.Proposal.Confidence != negotiation.ConfidenceMedium {
		t.Errorf("compromise = %+v", out.Proposal)
	}
	if _, err := Compromise.parse(`{"summary":"s","assignments":[{"agent_id":"user_agent_carol"}]}`, &cin); !errors.Is(err, errInvalidReply) {
		t.Errorf("a decliner assigned: err = %v", err)
	}
}

func TestParseFeedback(t *testing.T) {
	in := sampleFeedbackInput()
	got, err := Feedback.parse(`{"feedback_type":"协商","reasoning":"时间冲突"}`, &in)
	if err != nil || got.FeedbackType != negotiation.FeedbackNegotiate || got.AdjustmentRequest != "时间冲突" {
		t.Errorf("got %+v, %v", got, err)
	}
	got, err = Feedback.parse(`{"feedback_type":"accept","adjustment_request":"忽略","confidence":0.9}`, &in)
	if err != nil || got.AdjustmentRequest != "" || got.Confidence != 90 {
		t.Errorf("got %+v, %v", got, err)
	}
	got, err = Feedback.parse(`{"feedback_type":"reject"}`, &in)
	if err != nil || got.FeedbackType != negotiation.FeedbackReject {
		t.Errorf("got %+v, %v", got, err)
	}
	for _, bad := range []string{`{"feedback_type":"accept | negotiate | withdraw"}`, `{"feedback_type":"negotiate"}`} {
		if _, err := Feedback.parse(bad, &in); !errors.Is(err, errInvalidReply) {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}

func TestParseGapsAndRecursion(t *testing.T) {
	gin := sampleGapInput()
	out, err := Gaps.parse(`{"is_complete":"false","gaps":[{"gap_type":"摄影师","importance":0.7},{"gap_type":"摄影师"},{"gap_type":""},
		{"gap_type":"主持人","importance":"250"}]}`, &gin)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Gaps) != 2 || out.Gaps[0].Importance != 70 || out.Gaps[1].Importance != 100 || out.IsComplete {
		t.Errorf("gaps = %+v", out)
	}
	out, err = Gaps.parse(`{"is_complete":false,"gaps":[]}`, &gin)
	if err != nil || !out.IsComplete {
		t.Errorf("no gaps: %+v, %v", out, err)
	}

	rin := sampleRecursionInput()
	r, err := Recursion.parse(`{"should_recurse":true,"sub_demands":[{"gap_type":"摄影","description":"找摄影"},
		{"gap_type":"厨师"},{"description":"再找一个摄影师"}]}`, &rin)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.SubDemands) != 1 || r.SubDemands[0].GapType != "摄影师" || r.SubDemands[0].Demand.Priority != "high" ||
		!reflect.DeepEqual(r.SubDemands[0].Demand.CapabilityTags, []string{"摄影", "活动拍摄"}) {
		t.Errorf("recursion = %+v", r)
	}
	r, err = Recursion.parse(strings.Replace(replyRecursion, `"condition_2_met": true`, `"condition_2_met": false`, 1), &rin)
	if err != nil || r.ShouldRecurse || len(r.SubDemands) != 0 || !strings.Contains(r.Analysis, "条件2 利益相关方（不满足）") {
		t.Errorf("condition not met: %+v, %v", r, err)
	}
	deep := rin
	deep.Depth = 1
	if r, err = Recursion.parse(replyRecursion, &deep); err != nil || r.ShouldRecurse {
		t.Errorf("at max depth: %+v, %v", r, err)
	}
	for _, bad := range []string{`{"should_recurse":"maybe"}`, `{"sub_demands":[]}`,
		`{"should_recurse":true,"sub_demands":[{"gap_type":"厨师"}]}`,
		`{"should_recurse":true,"sub_demands":[{"gap_type":"摄影师","priority":"whenever"}]}`} {
		if _, err := Recursion.parse(bad, &rin); !errors.Is(err, errInvalidReply) {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}

// TestFallbacksSatisfyInvariants checks every fallback against the same
// invariants as the parsers, on the sample and on zero inputs.
func TestFallbacksSatisfyInvariants(t *testing.T) {
	for _, zero := range []bool{false, true} {
		check := func(name string, ps problems) {
			if ps != nil {
				t.Errorf("fallback %s (zero input %v): %v", name, zero, ps)
			}
		}
		u, f, o, a, fb, ad, g, r, c, tk, cv := sampleUnderstandInput(), sampleFilterInput(), sampleOfferInput(), sampleAggregateInput(),
			sampleFeedbackInput(), sampleAdjustInput(), sampleGapInput(), sampleRecursionInput(), sampleCompromiseInput(),
			sampleTaskInput(), sampleConverseInput()
		if zero {
			u, f, o, a, fb, ad, g, r, c, tk, cv = UnderstandInput{RawInput: "x"}, FilterInput{}, OfferInput{}, AggregateInput{},
				FeedbackInput{}, AdjustInput{}, GapInput{}, RecursionInput{}, CompromiseInput{}, TaskInput{}, ConverseInput{}
		}
		check("understand", checkUnderstanding(&u, Understand.fallback(&u)))
		check("filter", checkFilter(&f, Filter.fallback(&f)))
		check("offer", checkOffer(&o, Offer.fallback(&o)))
		check("aggregate", checkAggregate(&a, Aggregate.fallback(&a)))
		check("feedback", checkFeedback(&fb, Feedback.fallback(&fb)))
		check("adjust", checkAdjust(&ad, Adjust.fallback(&ad)))
		check("gaps", checkGaps(&g, Gaps.fallback(&g)))
		check("recursion", checkRecursion(&r, Recursion.fallback(&r)))
		check("compromise", checkCompromise(&c, Compromise.fallback(&c)))
		check("task", checkTask(&tk, Task.fallback(&tk)))
		check("converse", checkConverse(&cv, Converse.fallback(&cv)))
	}
}

func TestFallbackDetails(t *testing.T) {
	u := UnderstandInput{RawInput: "  " + strings.Repeat("找摄影师", 40) + "  "}
	got := Understand.fallback(&u)
	if n := len([]rune(got.SurfaceDemand)); n != 100 || !reflect.DeepEqual(got.CapabilityTags, []string{"摄影"}) || got.Confidence != negotiation.ConfidenceLow {
		t.Errorf("understand = %+v (%d runes)", got, n)
	}
	if got := Understand.fallback(&UnderstandInput{RawInput: "随便聊聊"}); !reflect.DeepEqual(got.CapabilityTags, []string{genericTag}) {
		t.Errorf("generic tags = %q", got.CapabilityTags)
	}
	if got := Understand.fallback(&UnderstandInput{RawInput: "x", CapabilityTags: []string{"摄影", " 摄影 "}}); !reflect.DeepEqual(got.CapabilityTags, []string{"摄影"}) {
		t.Errorf("given tags = %q", got.CapabilityTags)
	}

	f := sampleFilterInput()
	f.MaxCandidates = 10
	fr := Filter.fallback(&f)
	var ids []string
	for _, c := range fr.Candidates {
		ids = append(ids, c.AgentID)
		if !strings.HasPrefix(c.Reason, "fallback: tag match ") {
			t.Errorf("reason %q", c.Reason)
		}
	}
	// Bob (场地, 北京) and Alice (演讲嘉宾, 北京) before Carol (摄影, 上海);
	// Dave matches nothing; Eve is excluded.
	if want := []string{"user_agent_bob", "user_agent_alice", "user_agent_carol"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("filter fallback = %q, want %q", ids, want)
	}

	ad := sampleAdjustInput()
	ad.Participants = ad.Participants[1:] // Bob withdrew
	p := Adjust.fallback(&ad).Proposal
	if len(p.Assignments) != 1 || p.Assignments[0].AgentID != "user_agent_alice" || p.Summary != ad.Current.Summary {
		t.Errorf("adjust fallback = %+v", p)
	}
	want := &negotiation.AdjustmentSummary{Round: 2, RequestsDeclined: []negotiation.DeclinedRequest{{Request: "把分享挪到 15:00 之后", Reason: "LLM unavailable"}}}
	if !reflect.DeepEqual(p.AdjustmentSummary, want) {
		t.Errorf("adjustment summary = %+v", p.AdjustmentSummary)
	}
	if len(ad.Current.Assignments) != 2 {
		t.Error("fallback modified the input")
	}

	c := sampleCompromiseInput()
	cp := Compromise.fallback(&c).Proposal
	if cp.Type != negotiation.ProposalTypeCompromise || len(cp.Assignments) != 1 || !reflect.DeepEqual(cp.Unresolved, []string{"摄影师"}) ||
		cp.Suggestions[0] != "放宽需求后重新发起" {
		t.Errorf("compromise fallback = %+v", cp)
	}
	ag := Aggregate.fallback(&AggregateInput{Demand: sampleDemand(), Offers: sampleOffers()}).Proposal
	if len(ag.Assignments) != 2 || ag.Assignments[1].Role != "做 30 分钟大模型落地分享" {
		t.Errorf("aggregate fallback = %+v", ag)
	}
}

// TestParseErrorsSayWhatWasWrong: a reply that is an empty object, or an
// object without the prompt's fields, is reported as such, not as "no json
// object"; a reply without any object says that.
func TestParseErrorsSayWhatWasWrong(t *testing.T) {
	in := sampleUnderstandInput()
	tests := []struct{ reply, want string }{
		{`{}`, "the reply is an empty JSON object {}, without any of the fields surface_demand, capability_tags, deep_understanding"},
		{"好的：\n```json\n{\"answer\": 42}\n```", "the reply is a JSON object without any of the fields surface_demand"},
		{`I cannot help with that.`, "no json object in reply"},
	}
	for _, tc := range tests {
		_, err := Understand.parse(tc.reply, &in)
		if !errors.Is(err, errInvalidReply) || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want an invalid reply saying %q", tc.reply, err, tc.want)
		}
	}
}

// TestFallbackTagsOnKnownTags: the understanding's fallback maps its
// keyword tags onto the network's known tags, so that the filter's
// fallback finds the agents that carry them (设计 → UI设计, 平面设计;
// 技术开发 → 后端开发, 前端开发), and keeps them as they are without
// known tags.
func TestFallbackTagsOnKnownTags(t *testing.T) {
	known := []string{"场地提供", "UI设计", "后端开发", "前端开发", "平面设计", "摄影"}
	in := UnderstandInput{RawInput: "我们要做一个企业官网，需要设计和技术开发", KnownTags: known}
	got := Understand.fallback(&in).CapabilityTags
	for _, want := range []string{"UI设计", "平面设计", "后端开发", "前端开发"} {
		if !slices.Contains(got, want) {
			t.Errorf("tags %q lack %s", got, want)
		}
	}
	for _, tag := range got {
		if !slices.Contains(known, tag) {
			t.Errorf("tag %q is no known tag (tags %q)", tag, got)
		}
	}
	in.KnownTags = nil
	if got := Understand.fallback(&in).CapabilityTags; slices.ContainsFunc(got, func(s string) bool { return s == "UI设计" }) || len(got) == 0 {
		t.Errorf("without known tags: %q", got)
	}
}
