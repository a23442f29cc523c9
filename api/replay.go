package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/eventstore"
)

// ReplayInput selects a stored negotiation and the replay speed.
type ReplayInput struct {
	DemandID string  `path:"demand_id" example:"d-3f9a1c2b4d5e"`
	Speed    float64 `query:"speed" minimum:"0" default:"1" doc:"divide the original gaps between events by this; 0 replays as fast as possible"`
}

// maxReplayGap caps the wait between two replayed events.
const maxReplayGap = 30 * time.Second

func (h *eventHandlers) registerReplay(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "replay-negotiation",
		Responses:   sseResponses(api, eventFrame),
		Method:      http.MethodGet,
		Path:        "/api/v1/negotiations/{demand_id}/replay",
		Summary:     "Re-emit a stored negotiation as server-sent events with its original relative timing",
		Description: "Same messages as the live stream, from the stored events only (no LLM), spaced by their original gaps divided by speed (each gap capped at 30 s); the stream closes after the last event.",
		Tags:        []string{"events"},
	}, func(ctx context.Context, in *ReplayInput) (*huma.StreamResponse, error) {
		evs, err := h.events.ReadAll(ctx, 0, eventstore.Filter{CorrelationID: in.DemandID}, eventstore.MaxReadLimit)
		if err != nil {
			return nil, problem(err)
		}
		if len(evs) == 0 {
			return nil, notFound(fmt.Sprintf("no demand %s", in.DemandID))
		}
		return &huma.StreamResponse{Body: func(hctx huma.Context) {
			ctx := hctx.Context()
			hctx.SetHeader("Content-Type", "text/event-stream")
			hctx.SetHeader("Cache-Control", "no-cache")
			w := hctx.BodyWriter()
			prev := evs[0].RecordedAt
			for _, e := range evs {
				if in.Speed > 0 {
					gap := min(time.Duration(float64(e.RecordedAt.Sub(prev))/in.Speed), maxReplayGap)
					select {
					case <-ctx.Done():
						return
					case <-time.After(gap):
					}
				}
				prev = e.RecordedAt
				frame, err := encodeFrame(e)
				if err == nil {
					frame, err = h.reveal(ctx, frame)
				}
				if err != nil {
					return
				}
				if _, err := w.Write(frame); err != nil {
					return
				}
				if fl, ok := w.(http.Flusher); ok {
					fl.Flush()
				}
			}
		}}, nil
	})
}
