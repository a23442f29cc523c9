package api

import (
	"cmp"
	"context"
	"errors"
	"reflect"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/timeline"
)

// sseFrame is one kind of message a stream sends: its `event:` name (""
// for an event of the log, named by its type) and its data's Go type.
type sseFrame struct {
	event string
	data  reflect.Type
	doc   string
}

// The messages the streams send.
var (
	eventFrame  = sseFrame{data: reflect.TypeFor[Event](), doc: "an event of the log; `event:` is its type (towow.*)"}
	bridgeFrame = sseFrame{data: reflect.TypeFor[BridgeMessage](), doc: "with format=bridge: a message of the prototype's SSE bridge (no `event:` line)"}
	ackFrame    = sseFrame{event: AckEventType, data: reflect.TypeFor[CanvasAck](),
		doc: "instead of an event this client caused itself (client_id): its acknowledgement"}
	endFrame = sseFrame{event: StreamEndEventType, data: reflect.TypeFor[StreamEnd](),
		doc: "the last message once what the stream follows has ended (not with follow=true); the stream then closes"}
)

// sseDescription says how a stream's messages are written.
const sseDescription = "messages of `id: <cursor>`, `event: <name>` and `data: <JSON>`, separated by blank lines; every message carries its id; comment lines keep the connection alive"

// sseResponses declares a stream's 200 answer: server-sent events, each
// one of frames (the document's schema of a message: its id, its event
// name and its data).
func sseResponses(api huma.API, frames ...sseFrame) map[string]*huma.Response {
	reg := api.OpenAPI().Components.Schemas
	list := &huma.Schema{}
	for _, f := range frames {
		event := &huma.Schema{Type: huma.TypeString, Description: "the event type"}
		required := []string{"id", "data"}
		if f.event != "" {
			event = &huma.Schema{Type: huma.TypeString, Enum: []any{f.event}}
			required = append(required, "event")
		}
		list.AnyOf = append(list.AnyOf, &huma.Schema{Type: huma.TypeObject, Description: f.doc, Required: required,
			Properties: map[string]*huma.Schema{
				"id":    {Type: huma.TypeString, Description: "the message's id: the cursor to resume after (Last-Event-ID)"},
				"event": event,
				"data":  reg.Schema(f.data, true, ""),
			}})
	}
	if len(list.AnyOf) == 1 {
		list = list.AnyOf[0]
	}
	return map[string]*huma.Response{"200": {Description: "server-sent events",
		Content: map[string]*huma.MediaType{"text/event-stream": {Schema: &huma.Schema{Type: huma.TypeArray,
			Description: sseDescription, Items: list}}}}}
}

// streamer writes the live streams: the log's events as server-sent
// events, from the hub's shared tail when there is one, else from the log
// woken by the process's Notifier.
type streamer struct {
	events   EventReader
	hub      *eventstore.Hub
	notifier *eventstore.Notifier
	// metrics, when set, counts the open streams.
	metrics *metrics.Metrics
	frames  *frameCache
	// shared shares the reads of streams that open on, or end with, the
	// same negotiation tree at once.
	shared *sharedReads
	// heartbeat is the keep-alive interval (<= 0: 15 s); writeTimeout
	// bounds each write to a client (0: 30 s).
	heartbeat, writeTimeout time.Duration
	// reveal reveals the sealed personal texts of the frames made for one
	// client alone (acknowledgements, the bridge format, the terminal
	// frame); the shared frames come revealed from frames, which reveals
	// them again once an erasure may have touched them.
	reveal func(ctx context.Context, data []byte) ([]byte, error)
}

// streamSpec is one client's stream: the events matching filter after the
// resume point, as that client sees them, and, with end, the terminal
// frame once what the stream follows has ended.
type streamSpec struct {
	from   streamResume
	filter eventstore.Filter
	// client, when set, gets the events it caused itself as
	// acknowledgements (echo exclusion).
	client string
	// bridge, when set, writes the bridge format (bridge.go); it has
	// folded the events up to from.after.
	bridge *timeline.Bridge
	// end, when set, has folded the events up to from.after and ends the
	// stream (stream_end.go); nil: the stream never ends.
	end streamEnd
}

// stream writes the events matching f after the cursor as SSE, first the
// backlog, then live, until the client goes away or stops reading.
func (s *streamer) stream(after int64, f eventstore.Filter) *huma.StreamResponse {
	return s.open(streamSpec{from: streamResume{after: after}, filter: f})
}

// open writes spec's stream: first the backlog, then live, until the
// client goes away or stops reading, or, with spec.end, until what it
// follows has ended: then the rest of what the log holds and the terminal
// frame. One goroutine per client, woken by the hub's shared tail (without
// a hub, it reads the database on every commit, woken by the process's
// Notifier).
func (s *streamer) open(spec streamSpec) *huma.StreamResponse {
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "text/event-stream")
		hctx.SetHeader("Cache-Control", "no-cache")
		hctx.SetHeader("X-Accel-Buffering", "no")
		ctx, cancel := context.WithCancel(hctx.Context())
		defer cancel()
		sw := newSSEWriter(hctx.BodyWriter(), s.frames, cmp.Or(s.writeTimeout, 30*time.Second), cancel)
		if s.reveal != nil {
			sw.reveal = func(p []byte) ([]byte, error) { return s.reveal(ctx, p) }
		}
		sw.client, sw.bridge = spec.client, spec.bridge
		sw.partOf, sw.received = spec.from.partOf, spec.from.frames
		defer sw.close()
		if err := sw.comment("towow event stream"); err != nil {
			return
		}
		if s.metrics != nil {
			s.metrics.StreamOpened()
			defer s.metrics.StreamClosed()
		}
		beat := s.heartbeat
		if beat <= 0 {
			beat = 15 * time.Second
		}
		sw.heartbeat(beat)
		if spec.end == nil {
			_ = s.follow(ctx, spec.from.after, spec.filter, sw.events)
			return
		}
		// The stream's position: the last event it handled, else the
		// resume point.
		last := spec.from.after
		if !spec.end.ended() {
			err := s.follow(ctx, last, spec.filter, func(ctx context.Context, batch []eventstore.RecordedEvent) error {
				if err := sw.events(ctx, batch); err != nil {
					return err
				}
				last = batch[len(batch)-1].Position
				for _, e := range batch {
					if err := spec.end.apply(e); err != nil {
						sw.fail()
						return err
					}
				}
				if spec.end.ended() {
					return errStreamEnded
				}
				return nil
			})
			if !errors.Is(err, errStreamEnded) {
				return
			}
		}
		// The end: everything committed by now (the rest of the commit
		// that ended it, and whatever followed), then the terminal frame.
		last, err := s.drain(ctx, last, spec.filter, sw)
		if err != nil {
			return
		}
		frame, err := encodeStreamEnd(spec.end.data(last))
		if err != nil {
			return
		}
		_ = sw.write(frame)
	}}
}

// follow hands handle the events matching f after the cursor after, from
// the hub when there is one, else from the log.
func (s *streamer) follow(ctx context.Context, after int64, f eventstore.Filter, handle eventstore.Handler) error {
	if s.hub != nil {
		return s.hub.Follow(ctx, after, f, handle)
	}
	return s.events.Subscribe(ctx, eventstore.SubscribeOptions{After: after, Filter: f, Notifier: s.notifier}, handle)
}

// drain writes every settled event matching f after the cursor after, and
// returns the position of the last one (after when none). Nothing can
// appear below a settled position, so once a read comes back short nothing
// is left before what it saw. The commit that ended the stream is settled
// by then (the stream saw it), and so is it for a read it shares with
// another stream that reached the same position.
func (s *streamer) drain(ctx context.Context, after int64, f eventstore.Filter, sw *sseWriter) (int64, error) {
	for {
		evs, err := s.shared.ReadAll(ctx, after, f, eventstore.MaxReadLimit)
		if err != nil {
			return after, err
		}
		if len(evs) > 0 {
			if err := sw.events(ctx, evs); err != nil {
				return after, err
			}
			after = evs[len(evs)-1].Position
		}
		if len(evs) < eventstore.MaxReadLimit {
			return after, nil
		}
	}
}
