package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/negotiation"
)

// demandHandlers serve the demands: submission and clarification (the
// command side) and the demands read model's reads.
type demandHandlers struct {
	commands Commands
	reads    ReadModels
	limits   *limiter
}

// SubmitDemandInput is the body of POST /api/v1/demand/submit: the
// demand's text and who submits it.
type SubmitDemandInput struct {
	Body struct {
		RawInput string `json:"raw_input" doc:"The demand in the user's own words (Chinese or English), at most 10,000 characters" example:"我想在北京办一场AI主题聚会，需要场地和嘉宾"`
		UserID   string `json:"user_id,omitempty" maxLength:"128" doc:"Leave it out: the demand is the signed-in user's. Only the operator (admin token) names a user here; a user_id that is not the caller's is 422 TOWOW_AUTH_003"`
	}
}

// SubmitDemandOutput answers at once; the negotiation runs in the
// background and streams on /api/v1/events/negotiations/{demand_id}/stream.
type SubmitDemandOutput struct {
	Body struct {
		DemandID  string `json:"demand_id" example:"d-3f9a1c2b4d5e"`
		ChannelID string `json:"channel_id" example:"collab-3f9a1c2b4d5e"`
		Status    string `json:"status" enum:"processing" doc:"always processing: the negotiation has started"`
		Cursor    int64  `json:"cursor" doc:"global position of the submission event: pass it as min_cursor (or Last-Event-ID) to read from there"`
	}
}

// ClarifyDemandInput answers a rejected demand's questions.
type ClarifyDemandInput struct {
	DemandID string `path:"demand_id" maxLength:"64"`
	Body     struct {
		Text string `json:"text" minLength:"1" maxLength:"2000" doc:"the user's answer to the rejection's questions" example:"在北京办AI聚会，需要一个能坐50人的场地和两位演讲嘉宾"`
	}
}

func (h *demandHandlers) registerDemands(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID:   "submit-demand",
		Method:        http.MethodPost,
		Path:          "/api/v1/demand/submit",
		Summary:       "Submit a demand and start its negotiation",
		Description:   "Returns at once with status processing. An empty demand is TOWOW_DEMAND_002, one over 10,000 characters TOWOW_DEMAND_001 (422); nothing is written then.",
		Tags:          []string{"demands"},
		DefaultStatus: http.StatusAccepted,
		MaxBodyBytes:  64 << 10,
	}, func(ctx context.Context, in *SubmitDemandInput) (*SubmitDemandOutput, error) {
		userID, err := actingUser(ctx, in.Body.UserID, "body.user_id")
		if err != nil {
			return nil, err
		}
		if err := h.limits.newWork(ctx, true); err != nil {
			return nil, err
		}
		sub, err := h.commands.SubmitDemand(ctx, userID, in.Body.RawInput)
		if err != nil {
			return nil, problem(err)
		}
		return submitted(sub), nil
	})

	huma.Register(api, huma.Operation{
		OperationID:   "clarify-demand",
		Method:        http.MethodPost,
		Path:          "/api/v1/demands/{demand_id}/clarify",
		Summary:       "Answer a rejected demand's questions: a new demand, linked to it, starts negotiating",
		Description:   "Only a demand that ended with towow.demand.rejected can be clarified (else 409 TOWOW_DEMAND_004). The new demand's text is the rejected one's followed by the answer; its towow.demand.submitted names the rejected demand in clarifies. Nothing is written on error.",
		Tags:          []string{"demands"},
		DefaultStatus: http.StatusAccepted,
		MaxBodyBytes:  16 << 10,
	}, func(ctx context.Context, in *ClarifyDemandInput) (*SubmitDemandOutput, error) {
		if err := h.limits.newWork(ctx, true); err != nil {
			return nil, err
		}
		sub, err := h.commands.ClarifyDemand(ctx, in.DemandID, in.Body.Text)
		if err != nil {
			return nil, problem(err)
		}
		return submitted(sub), nil
	})
}

// submitted is the answer to an accepted demand.
func submitted(sub negotiation.DemandSubmission) *SubmitDemandOutput {
	out := &SubmitDemandOutput{}
	out.Body.DemandID, out.Body.ChannelID, out.Body.Status, out.Body.Cursor = sub.DemandID, sub.ChannelID, "processing", sub.Position
	return out
}
