package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
)

// The end of a stream. A negotiation tree's stream and a workflow's stream
// end once what they follow has ended: the stream sends what the log holds
// up to then (the rest of the commit that ended it included), then one
// terminal frame, `event: towow.stream.end` with a StreamEnd as its data
// and the stream's position as its `id:`, and closes. A client that
// connects (or resumes) after the end gets the history after its resume
// point and the terminal frame at once. With follow=true there is no
// terminal frame: the stream follows the log as long as the client stays,
// as every other stream does. The terminal frame is the stream's, not an
// event of the log.

// StreamEndEventType is the SSE event name of the terminal frame.
const StreamEndEventType = "towow.stream.end"

// StreamEnd is the data of the terminal frame (`event: towow.stream.end`)
// of a negotiation tree's or a workflow's stream: what ended, how, and the
// stream's position.
type StreamEnd struct {
	DemandID   string `json:"demand_id,omitempty" doc:"the negotiation tree's root demand (on a negotiation stream)"`
	WorkflowID string `json:"workflow_id,omitempty" doc:"the workflow (on a workflow stream)"`
	Status     string `json:"status" enum:"finalized,force_finalized,failed,completed,cancelled" doc:"a negotiation tree: how its root ended (finalized, force_finalized or failed); a workflow: completed, failed or cancelled"`
	Reason     string `json:"reason,omitempty" doc:"why the root negotiation failed (e.g. no_candidates, demand_rejected, no_participants, stuck_timeout); only with status failed on a negotiation stream"`
	Cursor     int64  `json:"cursor" doc:"the frame's id: the global position of the last event the stream sent before it (the resume point when it sent none); resuming from it sends only what the log gained since, then this frame again"`
}

// FollowInput is the follow parameter of a stream that ends.
type FollowInput struct {
	Follow bool `query:"follow" doc:"true: keep the stream open after the end (no towow.stream.end frame; the stream follows the log as long as the client stays). false (the default): after the end, send the terminal frame towow.stream.end and close"`
}

// errStreamEnded stops following the log: what the stream follows has
// ended.
var errStreamEnded = errors.New("the stream's subject has ended")

// streamEnd decides when a stream ends: it folds the events the stream
// sends and, once they end what it follows, gives the terminal frame.
type streamEnd interface {
	// apply folds one event the stream sent.
	apply(e eventstore.RecordedEvent) error
	// ended reports whether the events folded so far end the stream.
	ended() bool
	// data is the terminal frame's data, the stream's position being
	// cursor.
	data(cursor int64) StreamEnd
}

// encodeStreamEnd is the terminal frame: id = the stream's position,
// event = towow.stream.end, data = the StreamEnd.
func encodeStreamEnd(end StreamEnd) ([]byte, error) {
	data, err := json.Marshal(end)
	if err != nil {
		return nil, fmt.Errorf("encode the end of the stream: %w", err)
	}
	return fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", end.Cursor, StreamEndEventType, data), nil
}

// treeEnd ends a negotiation tree's stream once the tree has ended
// (negotiation.TreeEnd: its root and every sub-negotiation).
type treeEnd struct {
	demandID string
	fold     *negotiation.TreeEnd
	// decode decodes an event's payload: the frame cache's, which decodes
	// each event once for every stream that folds it.
	decode func(eventstore.RecordedEvent) (event.Payload, error)
}

// treeEndAt is the end of the tree of the root demand demandID as its
// events up to the cursor after (inclusive) leave it: read with the
// streams that open on the same tree at once, decoded once for them all.
func (s *streamer) treeEndAt(ctx context.Context, demandID string, after int64) (*treeEnd, error) {
	t := &treeEnd{demandID: demandID, fold: negotiation.NewTreeEnd(demandID), decode: s.frames.payload}
	if after == 0 {
		return t, nil
	}
	evs, err := eventstore.ReadEvery(ctx, s.shared, 0, eventstore.Filter{CorrelationID: demandID,
		Types: negotiation.TreeEndTypes, UntilPosition: after})
	if err != nil {
		return nil, fmt.Errorf("end of the tree %s: %w", demandID, err)
	}
	for _, e := range evs {
		if err := t.apply(e); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *treeEnd) apply(e eventstore.RecordedEvent) error {
	if !slices.Contains(negotiation.TreeEndTypes, e.Type) {
		return nil
	}
	p, err := t.decode(e)
	if err != nil {
		return fmt.Errorf("end of the tree %s: %w", t.demandID, err)
	}
	t.fold.Apply(p)
	return nil
}

func (t *treeEnd) ended() bool { return t.fold.Ended() }

func (t *treeEnd) data(cursor int64) StreamEnd {
	status, reason := t.fold.Outcome()
	return StreamEnd{DemandID: t.demandID, Status: string(status), Reason: string(reason), Cursor: cursor}
}

// workflowEnd ends a workflow's stream at the workflow's end: completed,
// failed or cancelled.
type workflowEnd struct {
	workflowID string
	status     workflow.WorkflowStatus // "" until the end
}

// workflowEndTypes are the events that end a workflow, with the status
// each ends it in.
var workflowEndTypes = map[event.EventType]workflow.WorkflowStatus{
	workflow.EventWorkflowCompleted: workflow.WorkflowStatusCompleted,
	workflow.EventWorkflowFailed:    workflow.WorkflowStatusFailed,
	workflow.EventWorkflowCancelled: workflow.WorkflowStatusCancelled,
}

// workflowEndAt is the end of the workflow id as its events up to the
// cursor after (inclusive) leave it.
func workflowEndAt(ctx context.Context, events EventReader, id string, after int64) (*workflowEnd, error) {
	w := &workflowEnd{workflowID: id}
	if after == 0 {
		return w, nil
	}
	f := eventstore.Filter{StreamID: workflow.WorkflowStream(id), UntilPosition: after}
	for t := range workflowEndTypes {
		f.Types = append(f.Types, t)
	}
	evs, err := events.ReadAll(ctx, 0, f, 1)
	if err != nil {
		return nil, fmt.Errorf("end of the workflow %s: %w", id, err)
	}
	for _, e := range evs {
		_ = w.apply(e)
	}
	return w, nil
}

func (w *workflowEnd) apply(e eventstore.RecordedEvent) error {
	if s, ok := workflowEndTypes[e.Type]; ok && w.status == "" {
		w.status = s
	}
	return nil
}

func (w *workflowEnd) ended() bool { return w.status != "" }

func (w *workflowEnd) data(cursor int64) StreamEnd {
	return StreamEnd{WorkflowID: w.workflowID, Status: string(w.status), Cursor: cursor}
}

// workflowStream is a workflow's stream as one client (client_id) sees
// it, ending with the workflow unless the client follows on.
func (h *workflowHandlers) workflowStream(ctx context.Context, in *WorkflowStreamInput) (*huma.StreamResponse, error) {
	from, err := in.resume()
	if err != nil {
		return nil, err
	}
	if err := h.workflows.workflowExists(ctx, in.WorkflowID); err != nil {
		return nil, err
	}
	spec := streamSpec{from: from, filter: eventstore.Filter{StreamID: workflow.WorkflowStream(in.WorkflowID)}, client: in.ClientID}
	if !in.Follow {
		if spec.end, err = workflowEndAt(ctx, h.workflows.events, in.WorkflowID, from.after); err != nil {
			return nil, problem(err)
		}
	}
	return h.streams.open(spec), nil
}
