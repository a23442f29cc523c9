package negotiate

import (
	"context"
	"fmt"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/uow"
)

// Share gives userID role on the negotiation tree demandID belongs to (any
// demand of the tree: the sharing is its root's), or changes their role.
// Who may share is the API's to check (the owner, or the admin). Errors
// are *event.Error: ErrNotFound, ErrShareInvalid. It returns the position
// written (0: they had that role already).
func (s *Commands) Share(ctx context.Context, demandID, userID string, role negotiation.Role) (int64, error) {
	return s.sharing(ctx, "share", demandID, func(sh *negotiation.Sharing, root, owner string) ([]event.Payload, error) {
		return sh.Share(root, owner, userID, role)
	})
}

// Unshare takes userID's access to the tree demandID belongs to back
// (0: they had none).
func (s *Commands) Unshare(ctx context.Context, demandID, userID string) (int64, error) {
	return s.sharing(ctx, "unshare", demandID, func(sh *negotiation.Sharing, root, _ string) ([]event.Payload, error) {
		return sh.Unshare(root, userID), nil
	})
}

// sharing decides on the sharing stream of demandID's tree.
func (s *Commands) sharing(ctx context.Context, step, demandID string,
	decide func(sh *negotiation.Sharing, root, owner string) ([]event.Payload, error)) (int64, error) {
	d := &negotiation.DemandState{}
	if _, err := s.p.store.Fold(ctx, negotiation.DemandStream(demandID), d.Apply); err != nil {
		return 0, err
	}
	if !d.Exists() {
		return 0, event.Errorf(negotiation.ErrNotFound, "no demand %s", demandID)
	}
	root := d.RootDemandID
	stream := negotiation.SharingStream(root)
	return s.p.u.Commit(ctx, step, []string{stream}, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		var sh negotiation.Sharing
		v, err := st.Fold(ctx, stream, sh.Apply)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", stream, err)
		}
		evs, err := decide(&sh, root, d.UserID)
		if err != nil || len(evs) == 0 {
			return nil, err
		}
		actor := identity.From(ctx).Actor()
		return &uow.Plan{Appends: []uow.Append{{Stream: stream, Expected: eventstore.ExpectedVersion(v), Events: evs,
			Meta: uow.Meta(root, actor, actor)}}}, nil
	})
}
