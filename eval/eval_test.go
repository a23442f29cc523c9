package eval

import (
	"reflect"
	"testing"

	"github.com/towow/towow/data"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/quality"
)

// TestSuite: the committed suite is broad enough to judge the brain by,
// on demands it was not tuned to: at least 100 scenarios with unique ids
// over at least 25 domains, at least 15 of them unclear or impossible
// (expected to be rejected, naming no needs), every other one naming the
// needs a reader finds in it with tags of the network's vocabulary (or
// none, for a need nobody in the network serves), some with a city and
// counts; the holdout holds at least 30 untuned scenarios, 5 of them to
// reject, and dev at least 40.
func TestSuite(t *testing.T) {
	s, err := ParseScenarios(data.EvalScenarios)
	if err != nil {
		t.Fatal(err)
	}
	profiles, errs := negotiation.ParseProfiles(data.MockProfiles)
	if errs != nil {
		t.Fatal(errs[0])
	}
	vocabulary := map[string]bool{}
	for _, p := range profiles {
		for _, tag := range p.Tags {
			vocabulary[tag] = true
		}
	}
	domains, ids := map[string]bool{}, map[string]bool{}
	var rejects, lacking, cities, counted, dev, heldRejects int
	for _, sc := range s {
		domains[sc.Domain] = true
		if ids[sc.ID] {
			t.Errorf("id %s repeats", sc.ID)
		}
		ids[sc.ID] = true
		if SetOf(sc) == SetDev {
			dev++
		} else if sc.Expect == "reject" {
			heldRejects++
		}
		switch sc.Expect {
		case "reject":
			rejects++
			if len(sc.Needs) > 0 || sc.City != "" {
				t.Errorf("%s expects a rejection but names needs or a city", sc.ID)
			}
			continue
		case "agree":
		default:
			t.Errorf("%s expects %q", sc.ID, sc.Expect)
		}
		if len(sc.Needs) == 0 {
			t.Errorf("%s names no needs", sc.ID)
		}
		cities += btoi(sc.City != "" && sc.City != "远程")
		for _, n := range sc.Needs {
			lacking += btoi(len(n.CapabilityTags) == 0)
			counted += btoi(n.Count > 1)
			if n.Count < 1 || n.Role == "" {
				t.Errorf("%s: need %+v", sc.ID, n)
			}
			for _, tag := range n.CapabilityTags {
				if !vocabulary[tag] {
					t.Errorf("%s: tag %q is not in the network's vocabulary", sc.ID, tag)
				}
			}
		}
	}
	if len(s) < 100 || len(domains) < 25 || rejects < 15 || lacking < 10 || cities < 30 || counted < 15 {
		t.Fatalf("%d scenarios, %d domains, %d unclear or impossible, %d needs nobody serves, %d with a city, %d needs counted",
			len(s), len(domains), rejects, lacking, cities, counted)
	}
	if held := len(s) - dev; held < 30 || dev < 40 || heldRejects < 5 {
		t.Fatalf("the split: %d of %d in dev, %d held out (%d of them to reject)", dev, len(s), held, heldRejects)
	}
}

func TestSum(t *testing.T) {
	rows := []Row{
		{Scenario: Scenario{Expect: "agree"}, Status: "finalized",
			Tree:     quality.Scores{NeedCoverage: 1, Stability: 1, Assignees: 4, Relevance: 0.75, IrrelevantAssignees: 1},
			Baseline: quality.Scores{NeedCoverage: 1}, BaselineKept: 0.75},
		{Scenario: Scenario{Expect: "agree"}, Status: "failed", Tree: quality.Scores{NeedCoverage: 0}, Baseline: quality.Scores{NeedCoverage: 0.5},
			BaselineKept: 0.25},
		{Scenario: Scenario{Expect: "reject"}, Status: "rejected"},
		{Scenario: Scenario{Expect: "reject"}, Status: "finalized", Tree: quality.Scores{Assignees: 2, Relevance: 1}},
		{Scenario: Scenario{Expect: "agree"}, Status: "finalized", Tree: quality.Scores{NeedCoverage: 1, Assignees: 3, Relevance: 0, IrrelevantAssignees: 3}},
	}
	got := Sum(rows)
	want := Totals{Scenarios: 5, Agreed: 3, Expected: 3, Unclear: 2, UnclearRejected: 1, Coverage: 2.0 / 3, Stability: 1.0 / 3,
		BaselineCoverage: 0.5, BaselineKept: 1.0 / 3, Assignees: 7, Irrelevant: 4, IrrelevantShare: 4.0 / 7,
		Otherwise: map[string]int{"failed": 1, "finalized": 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if s := got.otherwiseText(); s != " (2 otherwise: 1 failed, 1 finalized)" {
		t.Fatalf("otherwise %q", s)
	}
	if s := Sum(rows[:1]).otherwiseText(); s != "" {
		t.Fatalf("all as expected: otherwise %q", s)
	}
}
