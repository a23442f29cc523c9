package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// eventHandlers serve the log: the audit query, the event catalog, the
// live streams, the replay and the negotiation tree's view.
type eventHandlers struct {
	events  EventReader
	streams *streamer
	owners  *owners
	// reveal reveals the sealed personal texts of a replay's frames.
	reveal func(ctx context.Context, data []byte) ([]byte, error)
}

// Event is an event as the API sends it: its id, type, time and payload,
// the stream and the cursor, its metadata and its one-line summary; used
// by the audit query and as the data of every SSE message, whose id is the
// cursor.
type Event struct {
	EventID   string          `json:"event_id"`
	EventType string          `json:"event_type" example:"towow.offer.submitted"`
	Timestamp time.Time       `json:"timestamp"`
	Payload   json.RawMessage `json:"payload"`
	StreamID  string          `json:"stream_id" example:"channel-collab-3f9a1c2b4d5e"`
	Cursor    int64           `json:"cursor" doc:"global position; resume after it with Last-Event-ID or after"`
	Metadata  event.Metadata  `json:"metadata"`
	Summary   string          `json:"summary,omitempty" doc:"the event in one line for people (the timeline's text); its type's label is in GET /api/v1/events/catalog"`
}

func envelope(e eventstore.RecordedEvent) Event {
	return Event{EventID: e.EventID.String(), EventType: string(e.Type), Timestamp: e.RecordedAt, Payload: e.Payload,
		StreamID: e.StreamID, Cursor: e.Position, Metadata: e.Metadata, Summary: summarize(e)}
}

// ListEventsInput filters the audit query.
type ListEventsInput struct {
	After      int64     `query:"after" minimum:"0" doc:"only events after this cursor (exclusive)"`
	MinCursor  int64     `query:"min_cursor" minimum:"0" doc:"wait (at most 5 s) until every event up to this cursor can be listed, e.g. the cursor a write returned: the log is read below the oldest write still in flight"`
	Until      int64     `query:"until" minimum:"0" doc:"only events up to this cursor (inclusive); 0: no bound"`
	StreamID   string    `query:"stream_id" doc:"one stream, e.g. channel-collab-3f9a1c2b4d5e"`
	Type       []string  `query:"type" doc:"event types (any of)"`
	TypePrefix string    `query:"type_prefix" doc:"e.g. towow.offer."`
	DemandID   string    `query:"demand_id" doc:"a whole negotiation tree (its root demand id)"`
	Actor      string    `query:"actor" doc:"who produced the event, e.g. agent:user_agent_bob, channel_admin, coordinator, system"`
	Principal  string    `query:"principal" doc:"who the request that recorded it was authenticated as: user:<id>, agent:<id>, admin or system (the server's own steps, and events recorded before principals were)"`
	Since      time.Time `query:"since" doc:"recorded at or after (RFC 3339)"`
	Before     time.Time `query:"before" doc:"recorded before (RFC 3339)"`
	Limit      int       `query:"limit" minimum:"1" maximum:"1000" default:"100"`
}

// ListEventsOutput is one page; NextCursor continues it (0 when done).
type ListEventsOutput struct {
	Body struct {
		Events     []Event `json:"events"`
		NextCursor int64   `json:"next_cursor" doc:"pass as after for the next page; 0 when this page is the last"`
	}
}

func (in *ListEventsInput) filter() eventstore.Filter {
	f := eventstore.Filter{StreamID: in.StreamID, TypePrefix: in.TypePrefix, CorrelationID: in.DemandID, Actor: in.Actor, Principal: in.Principal,
		UntilPosition: in.Until, Since: in.Since, Until: in.Before}
	for _, t := range in.Type {
		f.Types = append(f.Types, event.EventType(t))
	}
	return f
}

// StreamInput is a live stream's resume point: the Last-Event-ID header
// (what EventSource sends on reconnect) or the last_event_id query
// parameter for clients that cannot set headers.
type StreamInput struct {
	LastEventID   string `header:"Last-Event-ID" doc:"resume right after this message's id: a cursor, or <cursor>:<i> (frame i, from 0, of an event the bridge format writes as several messages: that event's later frames come first)"`
	LastEventIDQS int64  `query:"last_event_id" minimum:"0" doc:"same as Last-Event-ID for a whole event's cursor, for clients that cannot set headers"`
}

// streamResume is where a stream resumes: right after the cursor after,
// and, when the client has only the first frames of the event at partOf
// (one the bridge format writes as several messages), without those.
type streamResume struct {
	after  int64
	partOf int64 // the event partly received (0: none)
	frames int   // how many of its first frames the client has
}

// resume reads the resume point. An id `<cursor>:<i>` is frame i of the
// event at cursor, whose later frames the client lacks: the stream
// resumes before that event, without its frames up to i.
func (in StreamInput) resume() (streamResume, error) {
	h := strings.TrimSpace(in.LastEventID)
	if h == "" {
		return streamResume{after: in.LastEventIDQS}, nil
	}
	cursor, frame, partial := strings.Cut(h, ":")
	n, err := strconv.ParseInt(cursor, 10, 64)
	if err != nil || n < 0 {
		return streamResume{}, huma.Error400BadRequest(fmt.Sprintf("Last-Event-ID %q is not a cursor", h))
	}
	if !partial {
		return streamResume{after: n}, nil
	}
	i, err := strconv.Atoi(frame)
	if err != nil || i < 0 || n < 1 {
		return streamResume{}, huma.Error400BadRequest(fmt.Sprintf("Last-Event-ID %q is not a cursor or <cursor>:<frame>", h))
	}
	return streamResume{after: n - 1, partOf: n, frames: i + 1}, nil
}

// after is the cursor to resume after; for a frame of an event written as
// several messages (which only the bridge format sends), the one before
// that event, so nothing of it is lost.
func (in StreamInput) after() (int64, error) {
	r, err := in.resume()
	return r.after, err
}

// NegotiationStreamInput follows one negotiation tree.
type NegotiationStreamInput struct {
	DemandID string `path:"demand_id" doc:"the root demand" example:"d-3f9a1c2b4d5e"`
	Format   string `query:"format" enum:"events,bridge" default:"events" doc:"events: every event as an Event; bridge: the prototype frontend's SSE bridge frames ({event, data, timestamp}) for a frontend written against it"`
	FollowInput
	StreamInput
}

// AllStreamInput follows every event, optionally filtered.
type AllStreamInput struct {
	Type       []string `query:"type" doc:"event types (any of)"`
	TypePrefix string   `query:"type_prefix"`
	StreamInput
}

// negotiationStreamDescription documents the negotiation stream: its
// messages, their ids, resuming, its end and the bridge format.
const negotiationStreamDescription = "Each message is `id: <cursor>`, `event: <event type>` and `data: <Event>`; a comment line keeps the connection alive every 15 s. Reconnect with Last-Event-ID (or ?last_event_id=) to continue right after the last event received: no gap, no duplicate.\n\n" +
	"The stream ends with the tree: once its root demand and every sub-negotiation have ended (finalized, force-finalized or failed), it sends what the log holds up to then (the rest of the commit that ended it included), then one terminal message `id: <cursor>`, `event: towow.stream.end`, `data: <StreamEnd>` (`{demand_id, status, reason?, cursor}`: how the root ended, and the stream's position, which is the message's id), and closes. A client that connects or resumes after the end gets the history after its resume point and the terminal message at once; resuming from the terminal message's id gives only it again. With `follow=true` there is no terminal message: the stream stays open and follows the tree's log (e.g. the events of the workflow its agreement became) as long as the client stays.\n\n" +
	"With `format=bridge`, the stream speaks the prototype frontend's SSE bridge instead: each message is `data: <BridgeMessage>` (`{event, data, timestamp}`, no `event:` line), named channel_created, channel_status, agent_response, agent_feedback, negotiation_progress (`progress`: offers received / agents asked, \"3/5\"), proposal_sent, subnet_created, channel_completed or channel_failed; an offer gives agent_response then negotiation_progress, events with no bridge counterpart give nothing. Every message carries an id: an event's last message `id: <cursor>`, each message before it (an event written as several) `id: <cursor>:<i>`, i its index from 0. Resuming with Last-Event-ID `<cursor>` sends nothing of that event again; with `<cursor>:<i>`, that event's messages after i come first, so a connection lost between two messages of an event loses none and repeats none. The terminal message is the same `event: towow.stream.end` in both formats."

func (h *eventHandlers) registerEvents(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "list-events",
		Method:      http.MethodGet,
		Path:        "/api/v1/events",
		Summary:     "Audit: events by stream, type, demand, actor, cursor and time",
		Tags:        []string{"events"},
	}, func(ctx context.Context, in *ListEventsInput) (*ListEventsOutput, error) {
		if err := h.owners.oneOfYours(ctx, in.DemandID, "the event list"); err != nil {
			return nil, err
		}
		if err := waitSettled(ctx, h.events, in.MinCursor); err != nil {
			return nil, err
		}
		evs, err := h.events.ReadAll(ctx, in.After, in.filter(), in.Limit)
		if err != nil {
			return nil, problem(err)
		}
		out := &ListEventsOutput{}
		out.Body.Events = make([]Event, len(evs))
		for i, e := range evs {
			out.Body.Events[i] = envelope(e)
		}
		if len(evs) == in.Limit {
			out.Body.NextCursor = evs[len(evs)-1].Position
		}
		return out, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "negotiation-stream",
		Responses:   sseResponses(api, eventFrame, bridgeFrame, endFrame),
		Method:      http.MethodGet,
		Path:        "/api/v1/events/negotiations/{demand_id}/stream",
		Summary:     "Server-sent events of one negotiation tree (sub-negotiations included)",
		Description: negotiationStreamDescription,
		Tags:        []string{"events"},
	}, func(ctx context.Context, in *NegotiationStreamInput) (*huma.StreamResponse, error) {
		from, err := in.resume()
		if err != nil {
			return nil, err
		}
		v, err := h.streams.shared.StreamVersion(ctx, negotiation.DemandStream(in.DemandID))
		if err != nil {
			return nil, problem(err)
		}
		if v == 0 {
			return nil, notFound(fmt.Sprintf("no demand %s", in.DemandID))
		}
		spec := streamSpec{from: from, filter: eventstore.Filter{CorrelationID: in.DemandID}}
		if in.Format == FormatBridge {
			if spec.bridge, err = h.bridgeAt(ctx, in.DemandID, from.after); err != nil {
				return nil, problem(err)
			}
		}
		if !in.Follow {
			if spec.end, err = h.streams.treeEndAt(ctx, in.DemandID, from.after); err != nil {
				return nil, problem(err)
			}
		}
		return h.streams.open(spec), nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "event-stream",
		Responses:   sseResponses(api, eventFrame),
		Method:      http.MethodGet,
		Path:        "/api/v1/events/stream",
		Summary:     "Server-sent events of every negotiation, optionally filtered by type",
		Tags:        []string{"events"},
	}, func(ctx context.Context, in *AllStreamInput) (*huma.StreamResponse, error) {
		from, err := in.resume()
		if err != nil {
			return nil, err
		}
		f := eventstore.Filter{TypePrefix: in.TypePrefix}
		for _, t := range in.Type {
			f.Types = append(f.Types, event.EventType(t))
		}
		return h.streams.open(streamSpec{from: from, filter: f}), nil
	})
}
