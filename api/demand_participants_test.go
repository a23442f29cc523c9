package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/projections"
)

// TestDemandParticipants: the demands list and a comparison count the
// same participants for a negotiation, those of the plan its workflow
// carries out: the sample negotiation's agreement with what its
// sub-negotiation added (more than the root's final proposal assigns),
// each agent once. A fork of it is listed with the demand it was forked
// from; the original is no fork.
func TestDemandParticipants(t *testing.T) {
	a := newAPI(t)
	demandID, _ := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	done := a.follow(t, demandID, 0, false, func(ms []message) bool { return len(ms) > 0 && rootDone(ms[len(ms)-1], demandID) })
	head := done[len(done)-1].id

	var cmp api.CompareOutput
	if st := a.getJSON(t, "/api/v1/negotiations/compare?left="+demandID+"&right="+demandID, &cmp.Body); st != 200 || cmp.Body.Left.Plan == nil {
		t.Fatalf("compare: %d %+v", st, cmp.Body)
	}
	want := cmp.Body.Left.Participants
	var list demandPage
	if st := a.getJSON(t, fmt.Sprintf("/api/v1/demands?min_cursor=%d", head), &list); st != 200 {
		t.Fatalf("list: %d %+v", st, list)
	}
	i := slices.IndexFunc(list.Demands, func(d projections.DemandView) bool { return d.DemandID == demandID })
	if i < 0 {
		t.Fatalf("%s not listed: %+v", demandID, list.Demands)
	}
	row := list.Demands[i]
	if !slices.Equal(row.Participants, want) || len(want) == 0 {
		t.Fatalf("the list's participants %v, the comparison's %v", row.Participants, want)
	}
	var one demandOne
	if st := a.getJSON(t, "/api/v1/demands/"+demandID, &one); st != 200 || !slices.Equal(one.Participants, want) {
		t.Fatalf("the demand's participants: %d %v, want %v", st, one.Participants, want)
	}
	// The sub-negotiation's agent counts: the root's final proposal alone
	// assigns fewer.
	if row.FinalProposal == nil || len(row.FinalProposal.Assignments) >= len(want) {
		t.Fatalf("the root's final proposal %+v, the tree's plan %v: the test needs a sub-negotiation", row.FinalProposal, want)
	}
	for j, id := range want {
		if slices.Index(want, id) != j {
			t.Fatalf("participant %s counted twice: %v", id, want)
		}
	}
	if row.ForkedFrom != "" {
		t.Fatalf("the original is listed as a fork of %q", row.ForkedFrom)
	}

	// A fork (no change) is listed with where it comes from.
	var fork api.ForkOutput
	if code, b := a.call(t, http.MethodPost, "/api/v1/negotiations/"+demandID+"/forks", map[string]any{"at": done[0].id,
		"change": map[string]string{"type": "none"}}, &fork.Body); code != 202 {
		t.Fatalf("fork: %d %s", code, b)
	}
	if st := a.getJSON(t, fmt.Sprintf("/api/v1/demands?min_cursor=%d", fork.Body.Cursor), &list); st != 200 {
		t.Fatalf("list: %d %+v", st, list)
	}
	i = slices.IndexFunc(list.Demands, func(d projections.DemandView) bool { return d.DemandID == fork.Body.DemandID })
	if i < 0 || list.Demands[i].ForkedFrom != demandID {
		t.Fatalf("the fork %s in the list: %+v", fork.Body.DemandID, list.Demands)
	}
}
