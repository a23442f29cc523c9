package eval

import (
	"testing"

	"github.com/towow/towow/data"
	"github.com/towow/towow/quality"
)

// TestSuite: the committed suite is broad enough to judge the negotiation
// by: at least 30 scenarios with unique ids over at least 10 domains, at
// least 5 of them unclear or impossible (expected to be rejected), every
// one expecting agree or reject.
func TestSuite(t *testing.T) {
	s, err := ParseScenarios(data.EvalScenarios)
	if err != nil {
		t.Fatal(err)
	}
	domains, rejects, ids := map[string]bool{}, 0, map[string]bool{}
	for _, sc := range s {
		domains[sc.Domain] = true
		if sc.Expect == "reject" {
			rejects++
		} else if sc.Expect != "agree" {
			t.Errorf("%s expects %q", sc.ID, sc.Expect)
		}
		if ids[sc.ID] {
			t.Errorf("id %s repeats", sc.ID)
		}
		ids[sc.ID] = true
	}
	if len(s) < 30 || len(domains) < 10 || rejects < 5 {
		t.Fatalf("%d scenarios, %d domains, %d unclear or impossible", len(s), len(domains), rejects)
	}
}

func TestSum(t *testing.T) {
	rows := []Row{
		{Scenario: Scenario{Expect: "agree"}, Status: "finalized",
			Tree:     quality.Scores{NeedCoverage: 1, Stability: 1, Assignees: 4, Relevance: 0.75},
			Baseline: quality.Scores{NeedCoverage: 1}, BaselineKept: 0.75},
		{Scenario: Scenario{Expect: "agree"}, Status: "failed", Tree: quality.Scores{NeedCoverage: 0}, Baseline: quality.Scores{NeedCoverage: 0.5},
			BaselineKept: 0.25},
		{Scenario: Scenario{Expect: "reject"}, Status: "rejected"},
		{Scenario: Scenario{Expect: "reject"}, Status: "finalized", Tree: quality.Scores{Assignees: 2, Relevance: 1}},
	}
	got := Sum(rows)
	want := Totals{Scenarios: 4, Agreed: 2, Expected: 2, Unclear: 2, UnclearRejected: 1, Coverage: 0.5, Stability: 0.5,
		BaselineCoverage: 0.75, BaselineKept: 0.5, Assignees: 4, Irrelevant: 1, IrrelevantShare: 0.25}
	if got != want {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}
