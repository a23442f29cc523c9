package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/timeline"
)

// TestCatalogAndSummaries: the event catalog lists every registered type
// with its label and context, from the domain; every event of a stream and
// of the audit query carries timeline.Describe's summary, the line `towow
// replay` prints.
func TestCatalogAndSummaries(t *testing.T) {
	a := newAPI(t)
	get := func(path string, v any) {
		t.Helper()
		resp, err := http.Get(a.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	var cat struct{ Events []api.CatalogEntry }
	get("/api/v1/events/catalog", &cat)
	specs := event.Catalog()
	if len(cat.Events) != len(specs) {
		t.Fatalf("%d catalog entries, %d registered types", len(cat.Events), len(specs))
	}
	for i, e := range cat.Events {
		l, _ := timeline.LabelOf(specs[i].Type)
		if e.Type != string(specs[i].Type) || e.Label != l.Label || e.Context != string(l.Context) || e.Description != specs[i].Summary {
			t.Errorf("entry %d: %+v, want %s %+v", i, e, specs[i].Type, l)
		}
	}

	demandID, _ := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	streamed := a.follow(t, demandID, 0, true, func([]message) bool { return false })
	want := func(e api.Event) string {
		p, err := event.DecodePayload(event.EventType(e.EventType), e.Metadata.SchemaVersion, e.Payload)
		if err != nil {
			t.Fatal(err)
		}
		_, _, s := timeline.Describe(p)
		return s
	}
	for _, m := range streamed {
		if m.ev.Summary == "" || m.ev.Summary != want(m.ev) {
			t.Fatalf("stream: %s summary %q, want %q", m.ev.EventType, m.ev.Summary, want(m.ev))
		}
	}
	var page struct{ Events []api.Event }
	get("/api/v1/events?demand_id="+demandID+"&limit=1000", &page)
	if len(page.Events) < len(streamed) {
		t.Fatalf("audit: %d events, the stream had %d", len(page.Events), len(streamed))
	}
	for _, e := range page.Events {
		if e.Summary == "" || e.Summary != want(e) {
			t.Fatalf("audit: %s summary %q, want %q", e.EventType, e.Summary, want(e))
		}
	}
}
