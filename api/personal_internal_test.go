package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/towow/towow/domain/event"
)

// plainKeys is a Personal for tests of the responses' encoding: it opens
// nothing (no body below holds a sealed text), so what is measured is the
// encoding itself.
type plainKeys struct{}

func (plainKeys) RevealHeld(_ context.Context, text string, _ bool) (string, func() bool, error) {
	return text, nil, nil
}

// eventsPage is a page of 200 events like the audit query's answer.
func eventsPage() ListEventsOutput {
	var out ListEventsOutput
	payload := json.RawMessage(`{"demand_id":"d-3f9a1c2b4d5e","channel_id":"collab-3f9a1c2b4d5e","agent_id":"user_agent_lihua","decision":"participate","contribution":"` +
		strings.Repeat("可提供北京朝阳区一处容纳80人的场地，含投影与音响。", 12) + `","conditions":["周末","提前一周确认"],"round":1}`)
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for i := range 200 {
		out.Body.Events = append(out.Body.Events, Event{EventID: fmt.Sprintf("01a21f3f-f8c2-7df7-86dd-%012d", i), EventType: "towow.offer.submitted",
			Timestamp: at.Add(time.Duration(i) * time.Millisecond), Payload: payload, StreamID: "channel-collab-3f9a1c2b4d5e", Cursor: int64(1000 + i),
			Metadata: event.Metadata{CorrelationID: "d-3f9a1c2b4d5e", CausationID: "01a21f3f-f8c2-7df7-86dd-000000000000", Actor: "agent:user_agent_lihua", SchemaVersion: 1},
			Summary:  "李华 愿意参与：可提供北京朝阳区一处容纳80人的场地…"})
	}
	out.Body.NextCursor = 1200
	return out
}

// BenchmarkResponseEncoding measures what the response transformers and
// the JSON serializer do to one page of 200 events, as a GET of the audit
// query writes it.
func BenchmarkResponseEncoding(b *testing.B) {
	s := &Server{Personal: plainKeys{}}
	page := eventsPage()
	ctx := humatest.NewContext(nil, httptest.NewRequest("GET", "/", nil), httptest.NewRecorder())
	b.ReportAllocs()
	for b.Loop() {
		v, err := noNullLists(ctx, "200", &page.Body)
		if err == nil {
			v, err = s.revealPersonal(ctx, "200", v)
		}
		if err != nil {
			b.Fatal(err)
		}
		if err := jsonFormat.Marshal(io.Discard, v); err != nil {
			b.Fatal(err)
		}
	}
}

// TestResponseEncodingUnchanged: a body with nothing sealed goes out
// byte for byte as Huma's serializer alone would write it, HTML
// characters, line breaks and non-ASCII text included, though it is
// encoded once, by the transformer.
func TestResponseEncodingUnchanged(t *testing.T) {
	s := &Server{Personal: plainKeys{}}
	ctx := humatest.NewContext(nil, httptest.NewRequest("GET", "/", nil), httptest.NewRecorder())
	page := eventsPage()
	page.Body.Events[0].Summary = `<b>场地</b> & "嘉宾"` + "\n\u2028"
	for _, body := range []any{&page.Body, map[string]any{"text": "a < b && c > d", "n": 1.5}, []string{"x"}} {
		var want strings.Builder
		if err := huma.DefaultJSONFormat.Marshal(&want, body); err != nil {
			t.Fatal(err)
		}
		v, err := s.revealPersonal(ctx, "200", body)
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		if err := jsonFormat.Marshal(&got, v); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("encoded through the transformer:\n%s\nby the serializer alone:\n%s", got.String(), want.String())
		}
	}
}
