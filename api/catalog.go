package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/timeline"
)

// CatalogEntry is one registered event type as a client shows it: its
// label for people and its context, both from the domain's catalog.
type CatalogEntry struct {
	Type          string `json:"type" example:"towow.offer.submitted"`
	Label         string `json:"label" example:"回应" doc:"the type's name for people (Chinese, as the console shows it)"`
	Context       string `json:"context" enum:"negotiation,agent,workflow,notice,system" doc:"the part of ToWow the type belongs to"`
	Description   string `json:"description" doc:"what the event means, one English sentence"`
	SchemaVersion int    `json:"schema_version" doc:"the payload's current schema version"`
}

// CatalogOutput lists every registered event type, sorted by type.
type CatalogOutput struct {
	Body struct {
		Events []CatalogEntry `json:"events"`
	}
}

// catalog is the catalog's body, built once from the domain's registry:
// the list of event types exists there only.
var catalog = func() []CatalogEntry {
	specs := event.Catalog()
	out := make([]CatalogEntry, len(specs))
	for i, s := range specs {
		l, _ := timeline.LabelOf(s.Type) // every registered type has one (timeline's TestEventLabels)
		out[i] = CatalogEntry{Type: string(s.Type), Label: l.Label, Context: string(l.Context), Description: s.Summary,
			SchemaVersion: s.SchemaVersion}
	}
	return out
}()

func (h *eventHandlers) registerCatalog(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "event-catalog",
		Method:      http.MethodGet,
		Path:        "/api/v1/events/catalog",
		Summary:     "Every event type: its label for people, its context and what it means",
		Description: "Generated from the domain's event registry. A client follows a stream with a listener per type listed here and names each event by its label; every event the API sends carries its one-line `summary`.",
		Tags:        []string{"events"},
	}, func(context.Context, *struct{}) (*CatalogOutput, error) {
		out := &CatalogOutput{}
		out.Body.Events = catalog
		return out, nil
	})
}

// summarize is an event's one-line summary for people: timeline.Describe's,
// the line `towow demo`, `towow replay` and the MCP timeline print ("" when
// the payload does not decode).
func summarize(e eventstore.RecordedEvent) string {
	p, err := e.Decode()
	if err != nil {
		return ""
	}
	_, _, summary := timeline.Describe(p)
	return summary
}
