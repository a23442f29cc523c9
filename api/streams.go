package api

import (
	"cmp"
	"context"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/timeline"
)

// sseResponses declares a stream's 200 answer: server-sent events, each
// `id: <cursor>`, `event: <type>` and `data: <Event as JSON>`.
func sseResponses() map[string]*huma.Response {
	return map[string]*huma.Response{"200": {Description: "server-sent events",
		Content: map[string]*huma.MediaType{"text/event-stream": {Schema: &huma.Schema{Type: "string",
			Description: "messages of `id: <cursor>`, `event: <event type>` and `data: <Event as JSON>`, separated by blank lines; comment lines keep the connection alive"}}}}}
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
	// heartbeat is the keep-alive interval (<= 0: 15 s); writeTimeout
	// bounds each write to a client (0: 30 s).
	heartbeat, writeTimeout time.Duration
}

// stream writes the events matching f after the cursor as SSE, first the
// backlog, then live, until the client goes away or stops reading: one
// goroutine per client, woken by the hub's shared tail (without a hub, it
// reads the database on every commit, woken by the process's Notifier).
func (s *streamer) stream(after int64, f eventstore.Filter) *huma.StreamResponse {
	return s.streamFor(after, f, "")
}

// streamFor is stream as seen by one client: the events it caused itself
// go out as acknowledgements (echo exclusion; none when client is empty).
func (s *streamer) streamFor(after int64, f eventstore.Filter, client string) *huma.StreamResponse {
	return s.streamWith(after, f, client, nil)
}

// streamWith is streamFor in the bridge format when bridge is set (see
// bridge.go): bridge has folded the events up to after.
func (s *streamer) streamWith(after int64, f eventstore.Filter, client string, bridge *timeline.Bridge) *huma.StreamResponse {
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "text/event-stream")
		hctx.SetHeader("Cache-Control", "no-cache")
		hctx.SetHeader("X-Accel-Buffering", "no")
		ctx, cancel := context.WithCancel(hctx.Context())
		defer cancel()
		sw := newSSEWriter(hctx.BodyWriter(), s.frames, cmp.Or(s.writeTimeout, 30*time.Second), cancel)
		sw.client, sw.bridge = client, bridge
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
		if s.hub != nil {
			_ = s.hub.Follow(ctx, after, f, sw.events)
			return
		}
		_ = s.events.Subscribe(ctx, eventstore.SubscribeOptions{After: after, Filter: f, Notifier: s.notifier}, sw.events)
	}}
}
