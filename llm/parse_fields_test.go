package llm

import (
	"reflect"
	"testing"

	"github.com/towow/towow/domain/negotiation"
)

// The prompt outputs a parser once read and then dropped are kept: conditions_accepted as the reply says it, success criteria, risks
// and open questions, prompt 5's proposed changes, prompt 7's gap
// descriptions, prompt 8's three conditions and prompt 1's urgency.

func TestParseConditionsAccepted(t *testing.T) {
	in := sampleAggregateInput() // Bob participates, Alice's offer has a condition
	tests := []struct {
		name       string
		alice, bob string // the conditions_accepted members, "" when absent
		wantAlice  bool
	}{
		{"stated true", `,"conditions_accepted":true`, "", true},
		{"stated in words", `,"conditions_accepted":"是"`, "", true},
		{"stated false", `,"conditions_accepted":false`, `,"conditions_accepted":false`, false},
		{"not stated", "", "", false},
		{"unreadable", `,"conditions_accepted":"maybe"`, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reply := `{"summary":"s","assignments":[{"agent_id":"user_agent_bob"` + tc.bob + `},{"agent_id":"user_agent_alice"` + tc.alice + `}],
				"success_criteria":["沙龙如期举行"," ","到场 50 人"],"risks":["嘉宾临时缺席"],"open_questions":["需要茶歇吗？"]}`
			out, err := Aggregate.parse(reply, &in)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, a := range out.Proposal.Assignments {
				got[a.AgentID] = a.ConditionsAccepted
			}
			// Bob set no condition: there is nothing to accept, whatever the reply says.
			if got["user_agent_bob"] != true || got["user_agent_alice"] != tc.wantAlice {
				t.Errorf("conditions_accepted = %v, want bob true, alice %v", got, tc.wantAlice)
			}
			p := out.Proposal
			if !reflect.DeepEqual(p.SuccessCriteria, []string{"沙龙如期举行", "到场 50 人"}) ||
				!reflect.DeepEqual(p.Risks, []string{"嘉宾临时缺席"}) || !reflect.DeepEqual(p.OpenQuestions, []string{"需要茶歇吗？"}) {
				t.Errorf("criteria %q, risks %q, questions %q", p.SuccessCriteria, p.Risks, p.OpenQuestions)
			}
		})
	}
	// The fallback read no conditions: it cannot say they were accepted.
	fb := Aggregate.fallback(&in).Proposal
	for _, a := range fb.Assignments {
		if a.ConditionsAccepted != (a.AgentID == "user_agent_bob") {
			t.Errorf("fallback: %s conditions_accepted %v", a.AgentID, a.ConditionsAccepted)
		}
	}
}

func TestParseProposedChanges(t *testing.T) {
	in := FeedbackInput{}
	tests := []struct {
		name, changes string
		want          []negotiation.ProposedChange
	}{
		{"field object", `{"timeline.start_date":"3月15日","reason":"周六有课"}`,
			[]negotiation.ProposedChange{{Field: "timeline.start_date", Value: "3月15日", Reason: "周六有课"}}},
		{"a list", `[{"field":"responsibility","new_value":"只讲 20 分钟","reason":"时间紧"},{"field":"","value":"x"},{"field":"notes","value":"下午"}]`,
			[]negotiation.ProposedChange{{Field: "responsibility", Value: "只讲 20 分钟", Reason: "时间紧"}, {Field: "notes", Value: "下午"}}},
		{"one change", `{"field":"role","value":"主持人"}`, []negotiation.ProposedChange{{Field: "role", Value: "主持人"}}},
		{"null", `null`, nil},
		{"a bare string", `"改时间"`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Feedback.parse(`{"feedback_type":"negotiate","adjustment_request":"改时间","proposed_changes":`+tc.changes+`}`, &in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(out.ProposedChanges, tc.want) {
				t.Errorf("proposed_changes = %+v, want %+v", out.ProposedChanges, tc.want)
			}
		})
	}
}

func TestParseGapAnalysisAndDescription(t *testing.T) {
	gin := sampleGapInput()
	out, err := Gaps.parse(`{"is_complete":true,"analysis":"方案基本完整","gaps":[{"gap_type":"摄影师","reason":"记录活动","description":"缺一位活动摄影"},
		{"gap_type":"主持人","reason":"串场"}]}`, &gin)
	if err != nil {
		t.Fatal(err)
	}
	if !out.IsComplete || out.Analysis != "方案基本完整" || out.Gaps[0].Description != "缺一位活动摄影" || out.Gaps[1].Description != "串场" {
		t.Errorf("gaps = %+v", out)
	}
}

func TestParseRecursionConditions(t *testing.T) {
	rin := sampleRecursionInput()
	r, err := Recursion.parse(`{"should_recurse":false,"condition_1_met":true,"condition_1_analysis":"缺口重要",
		"condition_2_met":"否","condition_2_analysis":"网络里没有人","condition_3_analysis":"成本可以接受","sub_demands":[]}`, &rin)
	if err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	want := []negotiation.RecursionCondition{{Name: "需求满足度", Met: &yes, Analysis: "缺口重要"},
		{Name: "利益相关方", Met: &no, Analysis: "网络里没有人"}, {Name: "成本效益", Analysis: "成本可以接受"}}
	if !reflect.DeepEqual(r.Conditions, want) {
		t.Errorf("conditions = %+v", r.Conditions)
	}
	d := r.Decision(negotiation.SubnetCost{Tokens: 1200, TimeSeconds: 4})
	if d.ShouldRecurse || len(d.Conditions) != 3 || *d.EstimatedCost != (negotiation.SubnetCost{Tokens: 1200, TimeSeconds: 4}) {
		t.Errorf("decision = %+v", d)
	}
}

func TestParseUrgency(t *testing.T) {
	in := UnderstandInput{RawInput: "办沙龙"}
	for reply, want := range map[string]negotiation.Urgency{
		`{"surface_demand":"办沙龙","capability_tags":["场地"],"context":{"urgency":"HIGH"}}`:  negotiation.UrgencyHigh,
		`{"surface_demand":"办沙龙","capability_tags":["场地"],"context":{"urgency":" low "}}`: negotiation.UrgencyLow,
		`{"surface_demand":"办沙龙","capability_tags":["场地"],"context":{"urgency":"马上"}}`:    "",
		`{"surface_demand":"办沙龙","capability_tags":["场地"],"context":{"location":"北京"}}`:   "",
	} {
		out, err := Understand.parse(reply, &in)
		if err != nil || out.Context.Urgency != want {
			t.Errorf("%s: urgency %q (%v), want %q", reply, out.Context.Urgency, err, want)
		}
	}
}
