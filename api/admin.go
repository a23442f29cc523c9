package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/projections"
)

// RebuildInput names the read model to rebuild.
type RebuildInput struct {
	Name string `path:"name" doc:"a read model: streams, demands, channels, llm_calls or agents" example:"channels"`
}

// RebuildOutput reports a rebuild: how far it folded, how long it took,
// and the rows' fingerprint before and after (equal: the rebuild changed
// nothing).
type RebuildOutput struct {
	Body struct {
		Name      string                  `json:"name"`
		Cursor    int64                   `json:"cursor" doc:"the log position folded up to"`
		ElapsedMS int64                   `json:"elapsed_ms"`
		Before    projections.Fingerprint `json:"before"`
		After     projections.Fingerprint `json:"after"`
		Identical bool                    `json:"identical" doc:"the rebuilt rows equal the rows before, row for row (false also when events arrived meanwhile)"`
	}
}

func (h *opsHandlers) registerAdmin(api huma.API) {
	huma.Register(api, h.guard.admin(api, huma.Operation{
		OperationID: "rebuild-read-model",
		Method:      http.MethodPost,
		Path:        "/api/v1/admin/projections/{name}/rebuild",
		Summary:     "Rebuild a read model from the first event",
		Description: "Runs in one transaction while the server keeps serving: readers see the old rows until it commits, " +
			"and that model's live projector waits meanwhile. Same as `towow projections rebuild --name <name>`.",
		Tags: []string{"admin"},
	}), func(ctx context.Context, in *RebuildInput) (*RebuildOutput, error) {
		if !slices.Contains(h.reads.Models(), in.Name) {
			return nil, notFound(fmt.Sprintf("no read model %q (there are %s)", in.Name, strings.Join(h.reads.Models(), ", ")))
		}
		out := &RebuildOutput{}
		b := &out.Body
		var err error
		if b.Before, err = h.reads.Checksum(ctx, in.Name); err != nil {
			return nil, problem(err)
		}
		res, err := h.reads.Rebuild(ctx, in.Name)
		if err != nil {
			return nil, problem(err)
		}
		if b.After, err = h.reads.Checksum(ctx, in.Name); err != nil {
			return nil, problem(err)
		}
		b.Name, b.Cursor, b.ElapsedMS, b.Identical = in.Name, res.Position, res.Elapsed.Milliseconds(), b.Before == b.After
		return out, nil
	})
}
