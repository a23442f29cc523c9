package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/projections"
)

// ListDemandsInput filters GET /api/v1/demands.
type ListDemandsInput struct {
	MinCursor
	Status     string    `query:"status" enum:"processing,completed,failed" doc:"only demands in this status"`
	UserID     string    `query:"user_id" maxLength:"128" doc:"the operator's filter: only this user's demands (a user sees their own; another user_id is 422 TOWOW_AUTH_003)"`
	Since      time.Time `query:"since" doc:"submitted at or after (RFC 3339)"`
	Before     time.Time `query:"before" doc:"submitted before (RFC 3339)"`
	IncludeSub bool      `query:"include_sub" doc:"include the sub-demands spawned for gaps (default: root demands only)"`
	Cursor     int64     `query:"cursor" minimum:"0" doc:"next_cursor of the previous page"`
	Limit      int       `query:"limit" minimum:"1" maximum:"500" default:"50"`
}

// ListDemandsOutput is a page of demands, newest first.
type ListDemandsOutput struct {
	Body struct {
		Demands    []projections.DemandView `json:"demands"`
		NextCursor int64                    `json:"next_cursor,omitempty" doc:"pass as cursor for the next page; absent on the last page"`
	}
}

// GetDemandInput names one demand.
type GetDemandInput struct {
	MinCursor
	DemandID string `path:"demand_id" example:"d-3f9a1c2b4d5e"`
}

// GetDemandOutput is one demand with its sub-negotiations.
type GetDemandOutput struct {
	Body struct {
		projections.DemandView
		SubNegotiations []projections.DemandView `json:"sub_negotiations" doc:"the sub-demands its channel spawned for gaps"`
	}
}

func (h *demandHandlers) registerDemandViews(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "list-demands",
		Method:      http.MethodGet,
		Path:        "/api/v1/demands",
		Summary:     "List demands, newest first",
		Tags:        []string{"demands"},
	}, func(ctx context.Context, in *ListDemandsInput) (*ListDemandsOutput, error) {
		if err := waitFor(ctx, h.reads, in.MinCursor, projections.Demands{}.Name()); err != nil {
			return nil, err
		}
		scope, err := ownScope(ctx, in.UserID)
		if err != nil {
			return nil, err
		}
		rows, err := h.reads.ListDemands(ctx, projections.DemandFilter{Status: in.Status, UserID: scope,
			Since: in.Since, Until: in.Before, IncludeSub: in.IncludeSub, Before: in.Cursor, Limit: in.Limit})
		if err != nil {
			return nil, problem(err)
		}
		out := &ListDemandsOutput{}
		out.Body.Demands = rows
		if len(rows) == in.Limit {
			out.Body.NextCursor = rows[len(rows)-1].Cursor
		}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "get-demand",
		Method:      http.MethodGet,
		Path:        "/api/v1/demands/{demand_id}",
		Summary:     "A demand: its understanding, channel, status, final proposal and sub-negotiations",
		Tags:        []string{"demands"},
	}, func(ctx context.Context, in *GetDemandInput) (*GetDemandOutput, error) {
		if err := waitFor(ctx, h.reads, in.MinCursor, projections.Demands{}.Name()); err != nil {
			return nil, err
		}
		d, err := h.reads.GetDemand(ctx, in.DemandID)
		if errors.Is(err, projections.ErrNotFound) {
			return nil, notFound(fmt.Sprintf("no demand %s", in.DemandID))
		}
		if err != nil {
			return nil, problem(err)
		}
		subs, err := h.reads.SubDemands(ctx, in.DemandID)
		if err != nil {
			return nil, problem(err)
		}
		out := &GetDemandOutput{}
		out.Body.DemandView, out.Body.SubNegotiations = d, subs
		return out, nil
	})
}
