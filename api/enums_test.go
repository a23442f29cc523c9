package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/projections"
)

// freeText are the properties named like a status or a type that hold
// free text, with why.
var freeText = map[string]string{
	"DemandView.outcome":          "the channel's end, or the failure reason in words",
	"GetDemandOutputBody.outcome": "the channel's end, or the failure reason in words",
	"Event.event_type":            "any towow.* type: the catalog (GET /api/v1/events/catalog) lists them",
	"LLMCallView.event_type":      "the event type the call was made for",
	"NegotiationGap.gap_type":     "what is missing, in the demand's words (e.g. 摄影师)",
	"DemandSubmitted.gap_type":    "what is missing, in the demand's words (e.g. 摄影师)",
	"Gap.gap_type":                "what is missing, in the demand's words (e.g. 摄影师)",
	"SubnetTriggered.gap_type":    "what is missing, in the demand's words (e.g. 摄影师)",
	"CatalogEntry.type":           "any towow.* type",
	"HealthOutputBody.status":     "a fixed word for monitors",
	"ReadyOutputBody.status":      "a fixed word for monitors",
	"Problem.type":                "RFC 9457: a URI naming the problem type",
}

// TestEnumsInDocument: every property of the document named status, type,
// mode, kind or *_type is an enum unless it is free text (freeText), and
// every channel status enum lists the domain's channel statuses, so a
// generated client can switch over them exhaustively.
func TestEnumsInDocument(t *testing.T) {
	h := (&api.Server{Commands: &app.Commands{}, ReadModels: &projections.Queries{}}).Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/openapi.json", nil))
	body, _ := io.ReadAll(rec.Body)
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Type        any    `json:"type"`
					Enum        []any  `json:"enum"`
					Ref         string `json:"$ref"`
					Description string `json:"description"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	var channel []any
	for _, s := range negotiation.ChannelStatuses {
		channel = append(channel, string(s))
	}
	checked := 0
	for name, s := range doc.Components.Schemas {
		for p, ps := range s.Properties {
			named := p == "status" || p == "type" || p == "mode" || p == "kind" || strings.HasSuffix(p, "_type")
			if !named || ps.Type != "string" {
				continue
			}
			checked++
			key := name + "." + p
			if _, ok := freeText[key]; ok {
				continue
			}
			if len(ps.Enum) == 0 {
				t.Errorf("%s is a plain string: make it an enum, or list it in freeText with why", key)
			}
			if slices.Contains(ps.Enum, any("proposal_sent")) && !slices.Equal(ps.Enum, channel) {
				t.Errorf("%s lists %v, the channel statuses are %v", key, ps.Enum, channel)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d properties checked: the document's shape changed", checked)
	}
}

// anyValue are the schemas that take any JSON value, with why.
var anyValue = map[string]string{
	"ErrorDetail.value": "the value a request sent and the API refused, echoed as it came",
}

// TestSchemasTyped: no schema of the document takes any value (no bare
// true, no {} with nothing but a description) but those of anyValue, so a
// generated client reads every answer without unknown.
func TestSchemasTyped(t *testing.T) {
	h := (&api.Server{Commands: &app.Commands{}, ReadModels: &projections.Queries{}}).Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/openapi.json", nil))
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.NewDecoder(rec.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	annotations := []string{"description", "examples", "example", "readOnly", "title", "deprecated", "default"}
	var walk func(s any, at string)
	walk = func(s any, at string) {
		m, ok := s.(map[string]any)
		if !ok {
			if _, free := anyValue[at]; !free {
				t.Errorf("%s is %v, which takes any value", at, s)
			}
			return
		}
		shape := false
		for k := range m {
			shape = shape || !slices.Contains(annotations, k)
		}
		if _, free := anyValue[at]; !shape && !free {
			t.Errorf("%s takes any value: give it a type, or list it in anyValue with why", at)
		}
		props, _ := m["properties"].(map[string]any)
		for name, p := range props {
			walk(p, at+"."+name)
		}
		if items, ok := m["items"]; ok {
			walk(items, at+"[]")
		}
		if ap, ok := m["additionalProperties"].(map[string]any); ok {
			walk(ap, at+"{}")
		}
		for _, k := range []string{"oneOf", "anyOf", "allOf"} {
			list, _ := m[k].([]any)
			for i, sub := range list {
				walk(sub, fmt.Sprintf("%s|%s%d", at, k, i))
			}
		}
	}
	if len(doc.Components.Schemas) < 100 {
		t.Fatalf("only %d schemas: the document's shape changed", len(doc.Components.Schemas))
	}
	for name, s := range doc.Components.Schemas {
		walk(s, name)
	}
}
