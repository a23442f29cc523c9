package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	evt "github.com/towow/towow/domain/event"
	tl "github.com/towow/towow/timeline"
)

// The timeline resource: a negotiation tree's events, one line each.

// TimelineTemplate is the URI template of a negotiation's timeline.
const TimelineTemplate = "towow://negotiations/{demand_id}/timeline"

// maxTimelineEvents bounds a timeline (a negotiation has a few hundred).
const maxTimelineEvents = 20000

// event is an event as GET /api/v1/events answers it.
type event struct {
	Cursor    int64           `json:"cursor"`
	Type      string          `json:"event_type"`
	Timestamp time.Time       `json:"timestamp"`
	StreamID  string          `json:"stream_id"`
	Payload   json.RawMessage `json:"payload"`
	Metadata  struct {
		SchemaVersion int `json:"schema_version"`
		LLMCall       *struct {
			FallbackUsed bool   `json:"fallback_used"`
			Outcome      string `json:"outcome"`
		} `json:"llm_call"`
	} `json:"metadata"`
}

func addTimeline(s *mcp.Server, c *client) {
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "negotiation-timeline",
		Title:       "A negotiation's timeline",
		URITemplate: TimelineTemplate,
		MIMEType:    "text/plain",
		Description: "Every event of a negotiation tree (sub-negotiations and its workflow included), one line " +
			"each: cursor, time (UTC), seconds since the first event, event type, round, the agent, channel or " +
			"node it is about, and a short summary. A cursor is what fork_negotiation's at takes.",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		demandID, ok := timelineDemand(uri)
		if !ok {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		text, n, err := c.timeline(ctx, demandID)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
	})
}

// timelineDemand is the demand id of a timeline URI.
func timelineDemand(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, "towow://negotiations/")
	if !ok {
		return "", false
	}
	id, ok := strings.CutSuffix(rest, "/timeline")
	if !ok {
		return "", false
	}
	id, err := url.PathUnescape(id)
	return id, err == nil && checkID("demand_id", id) == nil
}

// timeline renders the negotiation tree's events, reading them page by
// page from the audit endpoint; n is how many there are.
func (c *client) timeline(ctx context.Context, demandID string) (text string, n int, err error) {
	var b strings.Builder
	var start time.Time
	after := int64(0)
	for n < maxTimelineEvents {
		var page struct {
			Events     []event `json:"events"`
			NextCursor int64   `json:"next_cursor"`
		}
		q := url.Values{"demand_id": {demandID}, "limit": {"1000"}, "after": {strconv.FormatInt(after, 10)}}
		if err := c.call(ctx, http.MethodGet, "/api/v1/events", q, "", nil, &page); err != nil {
			return "", 0, err
		}
		for _, e := range page.Events {
			if n == 0 {
				start = e.Timestamp
			}
			b.WriteString(timelineLine(e, start))
			b.WriteByte('\n')
			n++
		}
		if page.NextCursor == 0 || len(page.Events) == 0 {
			return b.String(), n, nil
		}
		after = page.NextCursor
	}
	fmt.Fprintf(&b, "… (the first %d events)\n", n)
	return b.String(), n, nil
}

// timelineLine renders one event: cursor, time, offset, type, round,
// subject and summary (timeline.Describe, as `towow replay` prints it).
func timelineLine(e event, start time.Time) string {
	round, subject, summary := 0, "", ""
	p, err := evt.DecodePayload(evt.EventType(e.Type), e.Metadata.SchemaVersion, e.Payload)
	if err != nil {
		summary = "(undecodable: " + err.Error() + ")"
	} else {
		round, subject, summary = tl.Describe(p)
	}
	if c := e.Metadata.LLMCall; c != nil && c.FallbackUsed {
		summary += " [fallback: " + c.Outcome + "]"
	}
	r := "-"
	if round > 0 {
		r = "r" + strconv.Itoa(round)
	}
	line := fmt.Sprintf("#%d %s %+.2fs %s %s %s %s", e.Cursor, e.Timestamp.UTC().Format("15:04:05.000Z"),
		e.Timestamp.Sub(start).Seconds(), e.Type, r, cmp.Or(subject, "-"), summary)
	return strings.TrimRight(line, " ")
}
