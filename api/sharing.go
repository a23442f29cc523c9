package api

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/negotiation"
)

// sharingHandlers serve a negotiation tree's collaborators: the owner
// shares the tree (its channels, sub-negotiations, workflow and
// conversation) with other users as viewer or editor.
type sharingHandlers struct {
	commands Commands
	owners   *owners
}

// Collaborator is one user a negotiation is shared with.
type Collaborator struct {
	UserID string           `json:"user_id"`
	Role   negotiation.Role `json:"role" enum:"viewer,editor" doc:"viewer: reads the negotiation and its workflow; editor: also edits the workflow (canvas, chat, decisions)"`
}

// CollaboratorsOutput lists a negotiation's owner and collaborators.
type CollaboratorsOutput struct {
	Body struct {
		DemandID      string         `json:"demand_id" doc:"the tree's root demand"`
		Owner         string         `json:"owner" doc:"the user who submitted it: shares, clarifies and forks"`
		Collaborators []Collaborator `json:"collaborators" doc:"by user id"`
	}
}

// CollaboratorInput names a negotiation (any demand of its tree).
type CollaboratorInput struct {
	DemandID string `path:"demand_id" maxLength:"64"`
}

// ShareInput shares a negotiation with a user.
type ShareInput struct {
	DemandID string `path:"demand_id" maxLength:"64"`
	UserID   string `path:"user_id" maxLength:"128" doc:"the user's id: a local name, or <sub>@<issuer host> with an identity provider (what GET /auth/me says)"`
	Body     struct {
		Role negotiation.Role `json:"role" enum:"viewer,editor"`
	}
}

// UnshareInput takes a collaborator's access back.
type UnshareInput struct {
	DemandID string `path:"demand_id" maxLength:"64"`
	UserID   string `path:"user_id" maxLength:"128"`
}

// SharingOutput answers a change of the sharing.
type SharingOutput struct {
	Body struct {
		Cursor int64 `json:"cursor" doc:"global position of the change (0: nothing changed)"`
	}
}

func (h *sharingHandlers) registerSharing(api huma.API) {
	const path = "/api/v1/negotiations/{demand_id}/collaborators"
	huma.Register(api, huma.Operation{
		OperationID: "list-collaborators",
		Method:      http.MethodGet,
		Path:        path,
		Summary:     "Who a negotiation is shared with: its owner and collaborators",
		Tags:        []string{"sharing"},
	}, func(ctx context.Context, in *CollaboratorInput) (*CollaboratorsOutput, error) {
		t, err := h.owners.of(ctx, demandRes, in.DemandID)
		switch {
		case errors.Is(err, errNoOwner):
			return nil, notFoundFor(demandRes, in.DemandID)
		case err != nil:
			return nil, problem(err)
		}
		var sh negotiation.Sharing
		if _, err := h.owners.events.Fold(ctx, negotiation.SharingStream(t.root), sh.Apply); err != nil {
			return nil, problem(err)
		}
		out := &CollaboratorsOutput{}
		out.Body.DemandID, out.Body.Owner, out.Body.Collaborators = t.root, t.owner, []Collaborator{}
		for user, role := range sh.Roles {
			out.Body.Collaborators = append(out.Body.Collaborators, Collaborator{UserID: user, Role: role})
		}
		slices.SortFunc(out.Body.Collaborators, func(a, b Collaborator) int { return strings.Compare(a.UserID, b.UserID) })
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID:  "share-negotiation",
		Method:       http.MethodPut,
		Path:         path + "/{user_id}",
		Summary:      "The owner shares a negotiation and its workflow with a user, as viewer or editor (again: changes the role)",
		Description:  "Only the owner (or the operator). An unknown role, or the owner themself: 422 TOWOW_SHARE_001.",
		Tags:         []string{"sharing"},
		MaxBodyBytes: 4 << 10,
	}, func(ctx context.Context, in *ShareInput) (*SharingOutput, error) {
		pos, err := h.commands.Share(ctx, in.DemandID, in.UserID, in.Body.Role)
		if err != nil {
			return nil, problem(err)
		}
		out := &SharingOutput{}
		out.Body.Cursor = pos
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "unshare-negotiation",
		Method:      http.MethodDelete,
		Path:        path + "/{user_id}",
		Summary:     "The owner takes a collaborator's access back",
		Tags:        []string{"sharing"},
	}, func(ctx context.Context, in *UnshareInput) (*SharingOutput, error) {
		pos, err := h.commands.Unshare(ctx, in.DemandID, in.UserID)
		if err != nil {
			return nil, problem(err)
		}
		out := &SharingOutput{}
		out.Body.Cursor = pos
		return out, nil
	})
}
