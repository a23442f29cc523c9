package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/eventstore"
)

// TestForkAPI: a fork of the sample negotiation at its first aggregation,
// without a change, ends with the original's plan and spends no provider
// call; its compare says so. Bad forks are 4xx with a code, nothing
// written.
func TestForkAPI(t *testing.T) {
	a := newAPI(t)
	demandID, _ := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	a.follow(t, demandID, 0, false, func(ms []message) bool { return len(ms) > 0 && rootDone(ms[len(ms)-1], demandID) })
	var agg struct {
		Events []api.Event `json:"events"`
	}
	if st := a.getJSON(t, "/api/v1/events?demand_id="+demandID+"&type=towow.aggregation.started&limit=1", &agg); st != 200 || len(agg.Events) != 1 {
		t.Fatalf("the first aggregation: %d %+v", st, agg)
	}
	at := agg.Events[0].Cursor
	var fork api.ForkOutput
	if code, b := a.call(t, http.MethodPost, "/api/v1/negotiations/"+demandID+"/forks", map[string]any{"at": at,
		"change": map[string]string{"type": "none"}}, &fork.Body); code != 202 || fork.Body.DemandID == "" || fork.Body.ForkedFrom != demandID {
		t.Fatalf("fork: %d %s", code, b)
	}
	a.follow(t, fork.Body.DemandID, 0, false, func(ms []message) bool { return len(ms) > 0 && rootDone(ms[len(ms)-1], fork.Body.DemandID) })
	var cmp api.CompareOutput
	if st := a.getJSON(t, "/api/v1/forks/"+fork.Body.DemandID+"/compare", &cmp.Body); st != 200 || !cmp.Body.SamePlan ||
		cmp.Body.Left.DemandID != demandID || cmp.Body.Right.Status != cmp.Body.Left.Status || cmp.Body.Right.LLM.Calls != 0 ||
		cmp.Body.Right.LLM.Reused < 10 || cmp.Body.Left.LLM.Calls < 10 {
		t.Fatalf("compare: %d %+v", st, cmp.Body)
	}

	head := a.headPosition(t)
	var p struct {
		Code string `json:"code"`
	}
	for _, c := range []struct {
		path   string
		body   map[string]any
		status int
		code   string
	}{
		{"/api/v1/negotiations/" + demandID + "/forks", map[string]any{"at": 1, "change": map[string]string{"type": "none"}}, 422, "TOWOW_FORK_001"},
		{"/api/v1/negotiations/" + demandID + "/forks", map[string]any{"at": at, "change": map[string]string{"type": "remove_agent", "agent_id": "nobody"}}, 422, "TOWOW_FORK_002"},
		{"/api/v1/negotiations/" + demandID + "/forks", map[string]any{"at": at, "change": map[string]string{"type": "everything"}}, 422, "TOWOW_REQUEST_001"},
		// At the first aggregation every offer is in: there is none to replace.
		{"/api/v1/negotiations/" + demandID + "/forks", map[string]any{"at": at, "change": map[string]any{"type": "replace_offer",
			"agent_id": cmp.Body.Left.Participants[0], "offer": map[string]string{"decision": "decline", "decline_reason": "没空"}}}, 422, "TOWOW_FORK_002"},
		{"/api/v1/negotiations/" + demandID + "/forks", map[string]any{"at": at, "change": map[string]any{"type": "replace_feedback",
			"agent_id": cmp.Body.Left.Participants[0], "feedback": map[string]string{"feedback_type": "accept"}}}, 422, "TOWOW_FORK_002"},
		{"/api/v1/negotiations/d-000000000000/forks", map[string]any{"at": at, "change": map[string]string{"type": "none"}}, 404, "TOWOW_NOT_FOUND"},
	} {
		if code, b := a.call(t, http.MethodPost, c.path, c.body, &p); code != c.status || p.Code != c.code {
			t.Fatalf("%s %v: %d %s", c.path, c.body, code, b)
		}
	}
	// Only the notices of the negotiation's end, posted by their own job,
	// may land meanwhile; a refused fork writes nothing.
	after, err := a.store.ReadAll(context.Background(), head, eventstore.Filter{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range after {
		if !strings.HasPrefix(e.StreamID, "inbox-") {
			t.Fatalf("a refused fork wrote %s on %s", e.Type, e.StreamID)
		}
	}
	if st := a.getJSON(t, fmt.Sprintf("/api/v1/forks/%s/compare", demandID), &p); st != 404 {
		t.Fatalf("compare of a negotiation that is no fork: %d %+v", st, p)
	}
}
