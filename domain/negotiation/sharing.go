package negotiation

import (
	"fmt"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
)

// Role is what a collaborator may do on a negotiation tree they were
// shared: a viewer reads everything the owner reads (the negotiation, its
// events and streams, replay, quality, the workflow and its conversation);
// an editor also edits the workflow on the canvas, talks to its
// conversation agent and sends its decisions. Only the owner shares,
// clarifies and forks.
type Role string

// The roles.
const (
	RoleViewer Role = "viewer"
	RoleEditor Role = "editor"
)

// Valid reports whether r is a role.
func (r Role) Valid() bool { return r == RoleViewer || r == RoleEditor }

// Allows reports whether a collaborator with role r may do what needs
// edit (else: read).
func (r Role) Allows(edit bool) bool { return r == RoleEditor || (!edit && r == RoleViewer) }

// SharingStream is the stream of a negotiation tree's collaborators, by
// its root demand.
func SharingStream(rootDemandID string) string { return "sharing-" + rootDemandID }

// ErrShareInvalid is a sharing that cannot be: an unknown role, the owner
// as their own collaborator, a user id that cannot be one.
var ErrShareInvalid = &event.Error{Code: "TOWOW_SHARE_001", Message: "invalid sharing"}

// MaxUserIDLen bounds a user id, in characters.
const MaxUserIDLen = 128

// Sharing is a negotiation tree's collaborators, folded from its
// sharing stream.
type Sharing struct {
	// Roles are the collaborators' roles, by user id.
	Roles map[string]Role
}

// Apply folds one event of the sharing stream.
func (s *Sharing) Apply(p event.Payload) {
	if s.Roles == nil {
		s.Roles = map[string]Role{}
	}
	switch e := p.(type) {
	case *CollaboratorAdded:
		s.Roles[e.UserID] = e.Role
	case *CollaboratorRemoved:
		delete(s.Roles, e.UserID)
	}
}

// Share gives userID role on the tree rootDemandID that owner owns;
// nothing when they have it already. Errors: ErrShareInvalid.
func (s *Sharing) Share(rootDemandID, owner, userID string, role Role) ([]event.Payload, error) {
	switch {
	case !role.Valid():
		return nil, event.Errorf(ErrShareInvalid, "role %q: want viewer or editor", role)
	case userID == "" || utf8.RuneCountInString(userID) > MaxUserIDLen:
		return nil, event.Errorf(ErrShareInvalid, "a collaborator is a user id of 1 to %d characters", MaxUserIDLen)
	case userID == owner:
		return nil, event.Errorf(ErrShareInvalid, "%s owns this negotiation already", userID)
	case s.Roles[userID] == role:
		return nil, nil
	}
	return []event.Payload{&CollaboratorAdded{DemandID: rootDemandID, UserID: userID, Role: role}}, nil
}

// Unshare takes userID's access back; nothing when they had none.
func (s *Sharing) Unshare(rootDemandID, userID string) []event.Payload {
	if _, ok := s.Roles[userID]; !ok {
		return nil
	}
	return []event.Payload{&CollaboratorRemoved{DemandID: rootDemandID, UserID: userID}}
}

// RoleOf is userID's role ("" when none).
func (s *Sharing) RoleOf(userID string) Role { return s.Roles[userID] }

// String lists the collaborators, for tests and logs.
func (s *Sharing) String() string { return fmt.Sprint(s.Roles) }
