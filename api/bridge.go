package api

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/timeline"
)

// The negotiation stream's bridge format (?format=bridge): the OpenAgents
// prototype's SSE bridge (its event names and their data), for a frontend
// written against that prototype. Each message is `data: {"event", "data", "timestamp"}` with
// no `event:` line (that frontend reads the name from the JSON, through
// EventSource's onmessage, which a named event would bypass); timeline.Bridge
// says which towow.* events give which bridge events and folds their data.
// Every message carries an id: an event's last (often only) frame
// `id: <cursor>`, each frame before it `id: <cursor>:<i>` (i its index,
// from 0), so an id says how much of the event the client has: resuming
// from `<cursor>` sends nothing of that event again, resuming from
// `<cursor>:<i>` sends its frames after i and then goes on, so a
// connection lost between two frames of an event loses none of them and
// repeats none. Events with no bridge counterpart send nothing.

// FormatBridge is the negotiation stream's format=bridge: the
// prototype's SSE bridge frames (the default, "events", is every event in
// the Event envelope).
const FormatBridge = "bridge"

// BridgeMessage is one message of the bridge format: the prototype's SSE
// event, {event, data, timestamp}.
type BridgeMessage struct {
	Event     string    `json:"event" example:"channel_status" doc:"the bridge event: channel_created, channel_status, agent_response, agent_feedback, negotiation_progress, proposal_sent, subnet_created, channel_completed or channel_failed"`
	Data      any       `json:"data" doc:"the bridge event's data, as the prototype frontend reads it, with channel_id"`
	Timestamp time.Time `json:"timestamp" doc:"when the event was recorded (RFC 3339, UTC)"`
}

// encodeBridge is e's bridge messages after folding it into b (none when
// e has no bridge counterpart), from its frame skip on (the client has
// the ones before): the last carries `id: <cursor>`, each one before it
// `id: <cursor>:<i>`.
func encodeBridge(b *timeline.Bridge, e eventstore.RecordedEvent, skip int) ([]byte, error) {
	p, err := e.Decode()
	if err != nil {
		return nil, fmt.Errorf("bridge event %d: %w", e.Position, err)
	}
	frames := b.Frames(p)
	var out []byte
	for i, f := range frames {
		if i < skip {
			continue
		}
		data, err := json.Marshal(BridgeMessage{Event: f.Event, Data: f.Data, Timestamp: e.RecordedAt.UTC()})
		if err != nil {
			return nil, fmt.Errorf("encode bridge event %d: %w", e.Position, err)
		}
		if i == len(frames)-1 {
			out = fmt.Appendf(out, "id: %d\n", e.Position)
		} else {
			out = fmt.Appendf(out, "id: %d:%d\n", e.Position, i)
		}
		out = fmt.Appendf(out, "data: %s\n\n", data)
	}
	return out, nil
}

// bridgeAt is a Bridge that has folded the negotiation tree's events up to
// the cursor after (inclusive), so a resumed bridge stream's progress and
// analysis are those of an unbroken one.
func (h *eventHandlers) bridgeAt(ctx context.Context, demandID string, after int64) (*timeline.Bridge, error) {
	b := timeline.NewBridge()
	if after == 0 {
		return b, nil
	}
	evs, err := eventstore.ReadEvery(ctx, h.events, 0, eventstore.Filter{CorrelationID: demandID, UntilPosition: after})
	if err != nil {
		return nil, fmt.Errorf("bridge of %s: %w", demandID, err)
	}
	for _, e := range evs {
		p, err := e.Decode()
		if err != nil {
			return nil, fmt.Errorf("bridge event %d: %w", e.Position, err)
		}
		b.Frames(p)
	}
	return b, nil
}
