package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// TestQuality scores real negotiations through the API: the wedding demand
// (a venue and a photographer) covers both its needs with relevant people and no padding;
// "x" is rejected; the aggregate (the quality read model) counts and sums
// them all, with a second user's wedding, whatever the limit of reports
// listed; an unknown demand is 404.
func TestQuality(t *testing.T) {
	a := newAPI(t)
	wedding, _ := a.submit(t, "I need a photographer and a caterer for a 30-person wedding in Shanghai next month")
	a.follow(t, wedding, 0, false, func(ms []message) bool { return len(ms) > 0 && rootDone(ms[len(ms)-1], wedding) })
	var q struct {
		Final  bool   `json:"final"`
		Status string `json:"status"`
		Root   struct {
			Needs, Places, Assignees, Padding, Rounds int
			NeedCoverage                              float64 `json:"need_coverage"`
			Relevance, Stability                      float64
			FinalAcceptRate                           float64 `json:"final_accept_rate"`
			WelfareUtilitarian                        float64 `json:"welfare_utilitarian"`
			WelfareNash                               float64 `json:"welfare_nash"`
			TimeToAgreementMS                         int64   `json:"time_to_agreement_ms"`
			IrrelevantAssignees                       *int    `json:"irrelevant_assignees"`
			LLM                                       struct {
				Calls       int `json:"calls"`
				InputTokens int `json:"input_tokens"`
			} `json:"llm"`
		} `json:"root"`
		Tree struct {
			Assignees           int
			Relevance           float64
			IrrelevantAssignees *int                `json:"irrelevant_assignees"`
			LLM                 struct{ Calls int } `json:"llm"`
		} `json:"tree"`
	}
	if st := a.getJSON(t, "/api/v1/demands/"+wedding+"/quality", &q); st != 200 {
		t.Fatalf("GET quality: %d", st)
	}
	r := q.Root
	if !q.Final || (q.Status != "finalized" && q.Status != "force_finalized") || r.Needs != 2 || r.Places != 2 ||
		r.NeedCoverage != 1 || r.Padding != 0 || r.Relevance != 1 || r.Assignees != 2 || r.Rounds < 1 || r.FinalAcceptRate < 0.8 ||
		r.WelfareUtilitarian <= 0 || r.WelfareNash <= 0 || r.WelfareNash > r.WelfareUtilitarian || r.TimeToAgreementMS <= 0 ||
		r.LLM.Calls < 4 || r.LLM.InputTokens == 0 || q.Tree.Assignees < r.Assignees || q.Tree.LLM.Calls < r.LLM.Calls {
		t.Fatalf("wedding quality: %+v", q)
	}
	// Irrelevant assignees: none at the root (every assignee's profile
	// serves its need); in the tree, those the relevance leaves out.
	if tr := q.Tree; r.IrrelevantAssignees == nil || *r.IrrelevantAssignees != 0 || tr.IrrelevantAssignees == nil ||
		*tr.IrrelevantAssignees != tr.Assignees-int(math.Round(tr.Relevance*float64(tr.Assignees))) {
		t.Fatalf("irrelevant assignees: root %v, tree %+v", r.IrrelevantAssignees, tr)
	}
	weddingAssignees := r.Assignees

	x, _ := a.submit(t, "x")
	a.follow(t, x, 0, false, func(ms []message) bool {
		return failedWithCode(ms)
	})
	if a.getJSON(t, "/api/v1/demands/"+x+"/quality", &q); !q.Final || q.Status != "rejected" || q.Root.Assignees != 0 {
		t.Fatalf("x: %+v", q)
	}

	// A third negotiation, another user's wedding, agreed too. The
	// aggregate covers every demand of the range, whatever the limit:
	// limit only bounds the reports.
	second, _ := a.submitAs(t, "u2", "I need a photographer and a caterer for a 30-person wedding in Shanghai next month")
	a.follow(t, second, 0, false, func(ms []message) bool { return len(ms) > 0 && rootDone(ms[len(ms)-1], second) })
	var q2 struct {
		Status string `json:"status"`
		Root   struct {
			Assignees int `json:"assignees"`
		} `json:"root"`
	}
	if a.getJSON(t, "/api/v1/demands/"+second+"/quality", &q2); q2.Status != "finalized" && q2.Status != "force_finalized" {
		t.Fatalf("second wedding: %+v", q2)
	}
	head := a.headPosition(t)
	tests := []struct {
		query                                    string
		demands, final, rejected, agreed, listed int
	}{
		{"limit=10", 3, 3, 1, 2, 3},
		{"limit=1", 3, 3, 1, 2, 1},
		{"user_id=u1&limit=1", 2, 2, 1, 1, 1},
		{"user_id=u2", 1, 1, 0, 1, 1},
		{"user_id=nobody", 0, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		var agg api.QualityAggregate
		st := a.getJSON(t, fmt.Sprintf("/api/v1/quality?%s&min_cursor=%d", tt.query, head), &agg)
		if st != 200 || agg.Demands != tt.demands || agg.Final != tt.final || agg.Rejected != tt.rejected || agg.Agreed != tt.agreed ||
			len(agg.Reports) != tt.listed {
			t.Fatalf("%s: %d %+v", tt.query, st, agg)
		}
		if tt.agreed > 0 && (agg.Root.NeedCoverage != 1 || agg.FairnessGini <= 0 || agg.FairnessGini >= 1) {
			t.Fatalf("%s: %+v", tt.query, agg)
		}
		if tt.query == "limit=1" {
			// The sums are over both agreed weddings, not the one listed.
			if agg.Reports[0].DemandID != second || agg.Root.Assignees != weddingAssignees+q2.Root.Assignees ||
				agg.Root.Needs != 4 || agg.Root.Places != 4 {
				t.Fatalf("limit=1: %+v", agg)
			}
		}
	}
	var problem map[string]any
	if st := a.getJSON(t, "/api/v1/demands/d-nope/quality", &problem); st != 404 || problem["code"] != "TOWOW_NOT_FOUND" {
		t.Fatalf("unknown demand: %d %v", st, problem)
	}

	// Two negotiations side by side: the same wedding twice (the builtin
	// brain is deterministic) has the same plan; the wedding against the
	// rejected "x" lost every assignee.
	var same, lost api.CompareOutput
	if st := a.getJSON(t, "/api/v1/negotiations/compare?left="+wedding+"&right="+second, &same.Body); st != 200 ||
		!same.Body.SamePlan || !same.Body.Diff.Same() || same.Body.Left.RawInput == "" || len(same.Body.Left.Participants) != same.Body.Left.Quality.Tree.Assignees ||
		!slices.Equal(same.Body.Left.Participants, same.Body.Right.Participants) || same.Body.Left.LLM.Calls < 4 ||
		same.Body.Left.Quality.Root.Assignees != weddingAssignees {
		t.Fatalf("the same wedding twice: %d %+v", st, same.Body)
	}
	if st := a.getJSON(t, "/api/v1/negotiations/compare?left="+wedding+"&right="+x, &lost.Body); st != 200 || lost.Body.SamePlan ||
		lost.Body.Right.Status != "rejected" || len(lost.Body.Right.Participants) != 0 || lost.Body.Right.Plan != nil ||
		len(lost.Body.Diff.Removed) != lost.Body.Left.Quality.Tree.Assignees || len(lost.Body.Diff.Added) != 0 {
		t.Fatalf("the wedding against x: %d %+v", st, lost.Body)
	}
	for _, q := range []string{"left=" + wedding + "&right=d-nope", "left=" + wedding} {
		if st := a.getJSON(t, "/api/v1/negotiations/compare?"+q, &problem); st/100 != 4 || problem["code"] == nil {
			t.Fatalf("compare %s: %d %v", q, st, problem)
		}
	}
}

// TestClarify: a rejected demand is answered through the API; the answer
// starts a new demand, linked to it, that negotiates to a plan. Only a
// rejected demand can be clarified; nothing is written when refused.
func TestClarify(t *testing.T) {
	a := newAPI(t)
	x, _ := a.submit(t, "x")
	a.follow(t, x, 0, false, func(ms []message) bool {
		return failedWithCode(ms)
	})
	var sub struct {
		DemandID string `json:"demand_id"`
	}
	st, p := a.do(t, "POST", "/api/v1/demands/"+x+"/clarify", "", map[string]string{"text": "在北京办AI聚会，需要一个场地和两位演讲嘉宾"}, &sub)
	if st != 202 || sub.DemandID == "" || sub.DemandID == x {
		t.Fatalf("clarify: %d %+v", st, p)
	}
	msgs := a.follow(t, sub.DemandID, 0, false, func(ms []message) bool { return len(ms) > 0 && rootDone(ms[len(ms)-1], sub.DemandID) })
	var first struct {
		RawInput  string `json:"raw_input"`
		Clarifies string `json:"clarifies"`
	}
	if err := json.Unmarshal(msgs[0].ev.Payload, &first); err != nil || first.Clarifies != x ||
		first.RawInput != "x\n补充说明：在北京办AI聚会，需要一个场地和两位演讲嘉宾" {
		t.Fatalf("the clarified demand: %+v %v", first, err)
	}
	var q struct {
		Status string `json:"status"`
		Root   struct {
			Places int `json:"places"`
		} `json:"root"`
	}
	if a.getJSON(t, "/api/v1/demands/"+sub.DemandID+"/quality", &q); (q.Status != "finalized" && q.Status != "force_finalized") || q.Root.Places != 3 {
		t.Fatalf("the clarified negotiation: %+v", q)
	}
	head := a.headPosition(t)
	a.expectRefused(t, "not rejected", "POST", "/api/v1/demands/"+sub.DemandID+"/clarify", "", map[string]string{"text": "更多"}, 409, "TOWOW_DEMAND_004")
	a.expectRefused(t, "unknown", "POST", "/api/v1/demands/d-nope/clarify", "", map[string]string{"text": "更多"}, 404, "TOWOW_NOT_FOUND")
	a.expectRefused(t, "empty", "POST", "/api/v1/demands/"+x+"/clarify", "", map[string]string{"text": ""}, 422, "TOWOW_REQUEST_001")
	evs, err := a.store.ReadAll(context.Background(), head, eventstore.Filter{Types: []event.EventType{negotiation.EventDemandSubmitted}}, 10)
	if err != nil || len(evs) != 0 {
		t.Fatalf("refused clarifications wrote %d demands (%v)", len(evs), err)
	}
}

// failedWithCode: the stream ended with a failure and its
// towow.error.occurred (the last events a failed demand records).
func failedWithCode(ms []message) bool {
	n := len(ms)
	return n > 1 && ms[n-2].ev.EventType == string(negotiation.EventNegotiationFailed) && ms[n-1].ev.EventType == string(negotiation.EventErrorOccurred)
}
