package llm

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// encodings returns v encoded by json.Marshal and by an encoder that does
// not escape HTML (as the builtin brain writes its replies).
func encodings(t *testing.T, v any) [2]string {
	t.Helper()
	a, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return [2]string{string(a), string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))}
}

// The flex types encode exactly as the plain Go values they hold: the
// builtin brain's replies did not change when it moved from plain copies of
// the reply shapes to the reply types the prompts declare.
func TestFlexTypesEncodeAsPlainValues(t *testing.T) {
	type plainGap struct {
		GapType                 string   `json:"gap_type"`
		Importance              int      `json:"importance"`
		Reason                  string   `json:"reason"`
		SuggestedCapabilityTags []string `json:"suggested_capability_tags"`
	}
	type plainDeep struct {
		Motivation        string   `json:"motivation"`
		LikelyPreferences []string `json:"likely_preferences"`
		EmotionalContext  string   `json:"emotional_context"`
	}
	type plainShape struct {
		S      string    `json:"s"`
		Nil    []string  `json:"nil"`
		Empty  []string  `json:"empty"`
		List   []string  `json:"list"`
		Int    int       `json:"int"`
		Zero   int       `json:"zero"`
		Neg    int       `json:"neg"`
		Big    int       `json:"big"`
		Frac   float64   `json:"frac"`
		Sum    float64   `json:"sum"`
		False  bool      `json:"false"`
		True   bool      `json:"true"`
		Word   string    `json:"word"`
		HTML   string    `json:"html"`
		Deep   plainDeep `json:"deep"`
		Gaps   []plainGap
		NoGaps []plainGap `json:"no_gaps"`
	}
	type flexShape struct {
		S      Text                           `json:"s"`
		Nil    TextList                       `json:"nil"`
		Empty  TextList                       `json:"empty"`
		List   TextList                       `json:"list"`
		Int    Scalar                         `json:"int"`
		Zero   Scalar                         `json:"zero"`
		Neg    Scalar                         `json:"neg"`
		Big    Scalar                         `json:"big"`
		Frac   Scalar                         `json:"frac"`
		Sum    Scalar                         `json:"sum"`
		False  Scalar                         `json:"false"`
		True   Scalar                         `json:"true"`
		Word   Scalar                         `json:"word"`
		HTML   Scalar                         `json:"html"`
		Deep   Object[ReplyDeepUnderstanding] `json:"deep"`
		Gaps   List[ReplyGap]
		NoGaps List[ReplyGap] `json:"no_gaps"`
	}
	const html = `<b>"场地" & 'AV'</b>` + "\n\t\u2028"
	plain := plainShape{S: html, Empty: []string{}, List: []string{"一", html}, Int: 80, Neg: -5, Big: 1 << 52,
		Frac: 0.85, Sum: 0.1 + 0.2, True: true, Word: "high", HTML: html,
		Deep:   plainDeep{Motivation: html, LikelyPreferences: []string{"交通方便"}},
		Gaps:   []plainGap{{GapType: "摄影师", Importance: 70, Reason: html, SuggestedCapabilityTags: []string{}}},
		NoGaps: []plainGap{}}
	flex := flexShape{S: html, Empty: []string{}, List: []string{"一", html}, Int: IntScalar(80), Zero: IntScalar(0),
		Neg: IntScalar(-5), Big: IntScalar(1 << 52), Frac: NumberScalar(0.85), Sum: NumberScalar(0.1 + 0.2),
		False: BoolScalar(false), True: BoolScalar(true), Word: StringScalar("high"), HTML: StringScalar(html),
		Deep:   ObjectOf(ReplyDeepUnderstanding{Motivation: html, LikelyPreferences: []string{"交通方便"}}),
		Gaps:   []ReplyGap{{GapType: "摄影师", Importance: IntScalar(70), Reason: html, SuggestedCapabilityTags: []string{}}},
		NoGaps: []ReplyGap{}}
	if got, want := encodings(t, flex), encodings(t, plain); got != want {
		t.Errorf("flex encoding differs from the plain one:\n%s\n%s\nwant\n%s\n%s", got[0], got[1], want[0], want[1])
	}
}

func TestFlexZeroValuesEncodeAsNull(t *testing.T) {
	v := struct {
		S Scalar                `json:"s"`
		O Object[ReplyTimeline] `json:"o"`
	}{}
	if got := encodings(t, v); got[0] != `{"s":null,"o":null}` {
		t.Errorf("got %s", got[0])
	}
	// And they decode back to absent.
	var back struct {
		S Scalar                `json:"s"`
		O Object[ReplyTimeline] `json:"o"`
	}
	if err := json.Unmarshal([]byte(`{"s":null,"o":null}`), &back); err != nil || back.S.Present || back.O.OK {
		t.Errorf("null decoded as %+v, %v", back, err)
	}
}

func TestFlexValuesRoundTrip(t *testing.T) {
	for _, s := range []Scalar{IntScalar(85), IntScalar(0), NumberScalar(0.9), BoolScalar(true), BoolScalar(false),
		StringScalar("medium")} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Scalar
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%+v → %s → %+v, %v", s, b, back, err)
		}
	}
	tl := ObjectOf(ReplyTimeline{StartDate: "2026-03-01", Milestones: []ReplyMilestone{{Name: "场地确认", Date: "3-05"}}})
	b, err := json.Marshal(tl)
	if err != nil {
		t.Fatal(err)
	}
	var back Object[ReplyTimeline]
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tl) {
		t.Errorf("%+v → %s → %+v, %v", tl, b, back, err)
	}
}

// A compromise reply that carries only what prompt 9 asks for has exactly
// the template's fields: the optional proposal fields are left out.
func TestCompromiseReplyOmitsUnaskedFields(t *testing.T) {
	r := CompromiseReply{Summary: "s", Type: "compromise", Assignments: []ReplyAssignment{}, Compromises: []ReplyCompromise{},
		Unresolved: []string{}, Suggestions: []string{"x"}, Confidence: StringScalar("low")}
	want := `{"summary":"s","type":"compromise","assignments":[],"compromises":[],"unresolved":[],"suggestions":["x"],"confidence":"low"}`
	if got := encodings(t, r); got[0] != want {
		t.Errorf("got  %s\nwant %s", got[0], want)
	}
	// What a model adds is read.
	var back CompromiseReply
	if err := json.Unmarshal([]byte(`{"summary":"s","objective":"o","timeline":{"start_date":"d"},"rationale":"r","gaps":"g"}`), &back); err != nil {
		t.Fatal(err)
	}
	if back.Objective != "o" || !back.Timeline.OK || back.Timeline.V.StartDate != "d" || back.Rationale != "r" ||
		!reflect.DeepEqual([]string(back.Gaps), []string{"g"}) {
		t.Errorf("decoded %+v", back)
	}
}

// Prompt 9's parser reads the proposal fields a model may add to a
// compromise, as it did when prompts 4, 6 and 9 shared one decoding shape.
func TestParseCompromiseReadsProposalFields(t *testing.T) {
	in := sampleCompromiseInput()
	reply := strings.Replace(replyCompromise, `"type": "compromise",`, `"type": "compromise", "objective": "先办起来",
  "timeline": {"start_date": "2026-03-01", "milestones": ["场地确认"]}, "rationale": "成本最低", "gaps": ["摄影师"],`, 1)
	out, err := Compromise.parse(reply, &in)
	if err != nil {
		t.Fatal(err)
	}
	p := out.Proposal
	if p.Objective != "先办起来" || p.Rationale != "成本最低" || !reflect.DeepEqual(p.Gaps, []string{"摄影师"}) ||
		p.Timeline == nil || p.Timeline.StartDate != "2026-03-01" || len(p.Timeline.Milestones) != 1 ||
		p.Timeline.Milestones[0].Name != "场地确认" {
		t.Errorf("proposal %+v (timeline %+v)", p, p.Timeline)
	}
}
