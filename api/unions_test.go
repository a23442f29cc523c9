package api_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/towow/towow/api"
)

// TestUnionsRefuseMissingFields: a decision, a canvas change and a fork
// change are each one of several variants (oneOf by their type in the
// document). A variant missing a field its type needs, carrying a field
// of another type, or of a type the document lacks is refused with 422
// naming the field, and nothing is written; the same request complete is
// let through.
func TestUnionsRefuseMissingFields(t *testing.T) {
	a := newAPI(t)
	alice := userToken(t, "alice")
	var w api.CanvasView
	if err := json.Unmarshal([]byte(a.expect(t, "a workflow", alice, "POST", "/api/v1/workflows", `{"title":"联合"}`, 201, "")), &w); err != nil {
		t.Fatal(err)
	}
	base := "/api/v1/workflows/" + w.WorkflowID
	var d struct {
		DemandID string `json:"demand_id"`
	}
	if err := json.Unmarshal([]byte(a.expect(t, "a demand", alice, "POST", "/api/v1/demand/submit", `{"raw_input":"找一位摄影师"}`, 202, "")), &d); err != nil {
		t.Fatal(err)
	}
	forks := "/api/v1/negotiations/" + d.DemandID + "/forks"
	tests := []struct {
		name, path, body string
		says             []string
	}{
		{"create_node without its node", base + "/decisions",
			`{"decision_type":"create_node","base_version":1,"payload":{}}`, []string{"body.payload", "node"}},
		{"update_node with a node instead of changes", base + "/decisions",
			`{"decision_type":"update_node","base_version":1,"payload":{"node_id":"n1","node":{"type":"task","title":"x"}}}`,
			[]string{"body.payload", "changes", "node"}},
		{"connect without to", base + "/decisions",
			`{"decision_type":"connect","base_version":1,"payload":{"from":"a"}}`, []string{"body.payload", "to"}},
		{"an unknown decision type", base + "/decisions",
			`{"decision_type":"rename_node","base_version":1}`, []string{"body.decision_type", "create_node"}},
		{"a canvas deletion without its node", base + "/canvas/changes",
			`{"base_version":1,"changes":[{"type":"node_deleted"}]}`, []string{"body.changes[0]", "node_id"}},
		{"a canvas edge without its edge", base + "/canvas/changes",
			`{"base_version":1,"changes":[{"type":"edge_added","node_id":"n"}]}`, []string{"body.changes[0]", "edge"}},
		{"a fork replacing an offer without the offer", forks,
			`{"at":1,"change":{"type":"replace_offer","agent_id":"a1"}}`, []string{"body.change", "offer"}},
		{"a fork changing the demand without its text", forks,
			`{"at":1,"change":{"type":"change_demand"}}`, []string{"body.change", "text"}},
	}
	// The demand's negotiation runs meanwhile: only the workflow's events
	// are counted.
	events := func() string {
		// Read up to the workflow's creation at least: the log lists an
		// event once every write that began before it has ended.
		return a.expect(t, "the workflow's events", alice, "GET", "/api/v1/events?demand_id="+w.WorkflowID+"&min_cursor="+strconv.FormatInt(w.Cursor, 10), "", 200, "")
	}
	before := events()
	for _, tc := range tests {
		got := a.expect(t, tc.name, alice, "POST", tc.path, tc.body, 422, api.CodeBadRequest)
		for _, s := range tc.says {
			if !strings.Contains(got, s) {
				t.Errorf("%s: the refusal does not name %q: %.400s", tc.name, s, got)
			}
		}
	}
	if after := events(); after != before {
		t.Fatalf("refused requests wrote events:\nbefore %s\nafter %s", before, after)
	}
	a.expect(t, "create_node complete", alice, "POST", base+"/decisions",
		`{"decision_type":"create_node","base_version":1,"payload":{"node":{"type":"milestone","title":"完成"}}}`, 200, `"version":2`)
	a.expect(t, "a canvas addition complete", alice, "POST", base+"/canvas/changes",
		`{"base_version":2,"client_id":"tab-1","changes":[{"type":"node_added","data":{"type":"milestone","title":"准备"}}]}`, 200, "")
}
