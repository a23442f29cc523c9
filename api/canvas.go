package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
)

// The canvas: the workflow as a person edits it, in sync with the
// conversation agent's edits: one version sequence for both, a stale
// structural batch refused with the current canvas (409), and echo
// exclusion on the live stream.

// CanvasView is the canvas: the workflow with its nodes' positions and
// execution state, its version, and the cursor it was folded up to.
type CanvasView struct {
	WorkflowView
	Cursor int64 `json:"cursor" doc:"global position of the last event folded: follow the workflow's stream with last_event_id=cursor for exactly what came after"`
}

// CanvasOutput is the canvas.
type CanvasOutput struct {
	Body CanvasView
}

// CanvasChangesInput is a batch of canvas changes.
type CanvasChangesInput struct {
	WorkflowID string `path:"workflow_id" maxLength:"80"`
	Body       struct {
		ClientID    string                  `json:"client_id" minLength:"1" maxLength:"80" doc:"the client (canvas tab) that made the changes: its stream acknowledges them instead of echoing them"`
		BaseVersion int                     `json:"base_version" minimum:"0" doc:"the version the changes were made on"`
		BatchID     string                  `json:"batch_id,omitempty" maxLength:"64" doc:"idempotency key: the same batch is ruled on once (one is drawn when absent); change i is decision <batch_id>-<i>"`
		UserID      string                  `json:"user_id,omitempty" maxLength:"128" doc:"leave it out: the signed-in user edits (another user's id is 422 TOWOW_AUTH_003)"`
		Changes     []workflow.CanvasChange `json:"changes" minItems:"1" maxItems:"100"`
	}
}

// CanvasChangesOutput is a batch let through.
type CanvasChangesOutput struct {
	Body struct {
		BatchID     string                `json:"batch_id"`
		Version     int                   `json:"version" doc:"the workflow's version after the batch"`
		DecisionIDs []string              `json:"decision_ids" doc:"one decision per change, in order"`
		Corrections []workflow.Correction `json:"corrections" doc:"what the Coordinator corrected before letting the changes through"`
		Repeated    bool                  `json:"repeated" doc:"the batch was ruled on before; nothing was written now"`
		Cursor      int64                 `json:"cursor" doc:"global position of the last event written (0 when nothing was)"`
	}
}

func (r *workflowReader) canvasView(ctx context.Context, w *workflow.Workflow, cursor int64) (CanvasView, error) {
	v, err := r.view(ctx, w)
	return CanvasView{WorkflowView: v, Cursor: cursor}, err
}

func (h *workflowHandlers) registerCanvas(api huma.API) {
	if h.workflows.reads != nil {
		h.registerCanvasView(api)
	}

	huma.Register(api, huma.Operation{
		OperationID: "change-canvas",
		Method:      http.MethodPost,
		Path:        "/api/v1/workflows/{workflow_id}/canvas/changes",
		Summary:     "Apply a batch of canvas changes, all or nothing, each a decision through the Coordinator",
		Description: "Each change (node_added, node_updated, node_deleted, node_moved, edge_added, edge_deleted) is a decision through the Coordinator's validators, on the workflow as the batch's earlier changes left it; the conversation agent's decisions share the same version sequence. " +
			"Let through: 200 with the new version. A change refused: 422 TOWOW_DECISION_REJECTED naming the rule, errors located at changes[i]; its rejection is recorded, nothing else. " +
			"A batch with a structural change made on a stale base_version: 409 TOWOW_CANVAS_CONFLICT with the current canvas and version in the problem body, nothing written: reload and reapply. Moves alone never conflict (last write wins for positions). " +
			"A structural change while the workflow runs, or after it ended: 409 TOWOW_CANVAS_LOCKED (the server wins; moves are still taken while it runs). " +
			"The client's own stream (client_id) acknowledges the changes; every other client receives them.",
		Tags:         []string{"workflows", "canvas"},
		MaxBodyBytes: 256 << 10,
	}, func(ctx context.Context, in *CanvasChangesInput) (*CanvasChangesOutput, error) {
		b := in.Body
		actor, err := userActor(ctx, b.UserID, "body.user_id")
		if err != nil {
			return nil, err
		}
		res, pos, err := h.commands.ChangeCanvas(ctx, in.WorkflowID, workflow.CanvasBatch{BatchID: b.BatchID, ClientID: b.ClientID,
			Actor: actor, BaseVersion: b.BaseVersion, Changes: b.Changes})
		var conflict *workflow.CanvasConflictError
		switch {
		case errors.As(err, &conflict):
			h.countCanvas("conflict")
			return nil, h.canvasConflict(ctx, in.WorkflowID, conflict)
		case errors.Is(err, workflow.ErrDecisionRejected):
			h.countCanvas("rejected")
			return nil, decisionProblem(err, func(field string) string { return canvasField(res.Index, field) })
		case errors.Is(err, workflow.ErrCanvasLocked):
			h.countCanvas("locked")
			return nil, problem(err)
		case err != nil:
			return nil, problem(err)
		}
		outcome := "applied"
		if res.Repeated {
			outcome = "repeated"
		}
		h.countCanvas(outcome)
		out := &CanvasChangesOutput{}
		out.Body.BatchID, out.Body.Version, out.Body.Repeated, out.Body.Cursor = res.BatchID, res.Version, res.Repeated, pos
		out.Body.DecisionIDs, out.Body.Corrections = res.DecisionIDs, res.Corrections
		if out.Body.DecisionIDs == nil {
			out.Body.DecisionIDs = []string{}
		}
		if out.Body.Corrections == nil {
			out.Body.Corrections = []workflow.Correction{}
		}
		return out, nil
	})
}

// registerCanvasView registers the canvas's read: from the workflows read
// model now, or (?at=) folded as it was.
func (h *workflowHandlers) registerCanvasView(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-canvas",
		Method:      http.MethodGet,
		Path:        "/api/v1/workflows/{workflow_id}/canvas",
		Summary:     "A workflow's canvas: nodes with positions and execution state, edges, version and the cursor to follow it from (?at=<cursor>: as it was then)",
		Tags:        []string{"workflows", "canvas"},
	}, func(ctx context.Context, in *WorkflowAtInput) (*CanvasOutput, error) {
		w, cursor, err := h.workflows.read(ctx, in.WorkflowID, in.At)
		if err != nil {
			return nil, err
		}
		v, err := h.workflows.canvasView(ctx, w, cursor)
		if err != nil {
			return nil, err
		}
		return &CanvasOutput{Body: v}, nil
	})
}

// countCanvas counts a batch's outcome in /metrics.
func (h *workflowHandlers) countCanvas(outcome string) {
	if h.metrics != nil {
		h.metrics.CanvasBatch(outcome)
	}
}

// canvasField locates a refused decision's field in change i of a
// canvas batch: the decision's payload.node.title is the change's
// data.title, its payload.from the change's edge.from.
func canvasField(i int, field string) string {
	for _, r := range [][2]string{{"payload.node.", "data."}, {"payload.changes.", "data."}, {"payload.position", "data.position"},
		{"payload.node", "data"}, {"payload.changes", "data"}, {"payload.from", "edge.from"}, {"payload.to", "edge.to"},
		{"payload.", ""}, {"decision_type", "type"}} {
		if rest, ok := strings.CutPrefix(field, r[0]); ok {
			field = r[1] + rest
			break
		}
	}
	return fmt.Sprintf("body.changes[%d].%s", i, field)
}

// canvasConflict is the 409 of a stale batch, with the canvas as it is
// now (read after the refusal, with every event of the stream committed
// by then: the freshest state to reapply on).
func (h *workflowHandlers) canvasConflict(ctx context.Context, workflowID string, c *workflow.CanvasConflictError) error {
	w, cursor, err := h.workflows.read(ctx, workflowID, 0)
	if err != nil {
		return err
	}
	p := newProblem(http.StatusConflict, workflow.ErrCanvasConflict.Code, fmt.Sprintf(
		"the canvas changed since version %d (it is at version %d now): nothing was written; reload it and reapply your changes",
		c.BaseVersion, w.Version))
	v, err := h.workflows.canvasView(ctx, w, cursor)
	if err != nil {
		return err
	}
	p.Canvas, p.Version = &v, w.Version
	return p
}

// CanvasAck is what a client's stream carries instead of an event the
// client caused itself (echo exclusion): SSE `event: towow.canvas.ack`,
// under the event's own id.
type CanvasAck struct {
	AckOf      string    `json:"ack_of" doc:"the type of the event acknowledged" example:"towow.workflow.node_moved"`
	EventID    string    `json:"event_id"`
	Cursor     int64     `json:"cursor"`
	StreamID   string    `json:"stream_id"`
	ClientID   string    `json:"client_id"`
	DecisionID string    `json:"decision_id,omitempty"`
	MessageID  string    `json:"message_id,omitempty"`
	Version    int       `json:"version,omitempty" doc:"the workflow's version after the event (changes and decisions)"`
	Timestamp  time.Time `json:"timestamp"`
}

// AckEventType is the SSE event name of a CanvasAck.
const AckEventType = "towow.canvas.ack"

// echoFields are the fields of a workflow event that say which client
// caused it: a change's client_id, a decision's, a message's.
type echoFields struct {
	ClientID   string `json:"client_id"`
	DecisionID string `json:"decision_id"`
	MessageID  string `json:"message_id"`
	Version    int    `json:"version"`
	Decision   *struct {
		ClientID   string `json:"client_id"`
		DecisionID string `json:"decision_id"`
	} `json:"decision"`
}

// echoOf returns the acknowledgement of e when client caused it: a
// change, a decision or a conversation message it sent.
func echoOf(e eventstore.RecordedEvent, client string) (CanvasAck, bool) {
	t := string(e.Type)
	if !strings.HasPrefix(t, "towow.workflow.") && !strings.HasPrefix(t, "towow.decision.") && e.Type != workflow.EventConversationMessage {
		return CanvasAck{}, false
	}
	var f echoFields
	if err := json.Unmarshal(e.Payload, &f); err != nil {
		return CanvasAck{}, false // sent as it is: the frame's own encoding reports a broken payload
	}
	if f.Decision != nil {
		f.ClientID, f.DecisionID = f.Decision.ClientID, f.Decision.DecisionID
	}
	if f.ClientID != client {
		return CanvasAck{}, false
	}
	return CanvasAck{AckOf: t, EventID: e.EventID.String(), Cursor: e.Position, StreamID: e.StreamID, ClientID: client,
		DecisionID: f.DecisionID, MessageID: f.MessageID, Version: f.Version, Timestamp: e.RecordedAt}, true
}

// encodeAck is an acknowledgement as one SSE message, under the
// acknowledged event's id.
func encodeAck(a CanvasAck) ([]byte, error) {
	data, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("encode ack of event %d: %w", a.Cursor, err)
	}
	return fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", a.Cursor, AckEventType, data), nil
}
