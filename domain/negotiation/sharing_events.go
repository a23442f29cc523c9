package negotiation

import "github.com/towow/towow/domain/event"

// The sharing of a negotiation tree with collaborators.
const (
	// EventCollaboratorAdded: the owner let a user see (viewer) or also
	// edit (editor) the negotiation tree and its workflow; adding a
	// collaborator again changes their role.
	EventCollaboratorAdded event.EventType = "towow.collaborator.added"
	// EventCollaboratorRemoved: the owner took a collaborator's access back.
	EventCollaboratorRemoved event.EventType = "towow.collaborator.removed"
)

// CollaboratorAdded is the payload of [EventCollaboratorAdded]: on the
// tree's root demand, the user and their role.
type CollaboratorAdded struct {
	DemandID string `json:"demand_id"`
	UserID   string `json:"user_id"`
	Role     Role   `json:"role"`
}

// EventType implements [event.Payload].
func (*CollaboratorAdded) EventType() event.EventType { return EventCollaboratorAdded }

// CollaboratorRemoved is the payload of [EventCollaboratorRemoved].
type CollaboratorRemoved struct {
	DemandID string `json:"demand_id"`
	UserID   string `json:"user_id"`
}

// EventType implements [event.Payload].
func (*CollaboratorRemoved) EventType() event.EventType { return EventCollaboratorRemoved }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[CollaboratorAdded]("The owner shared the negotiation and its workflow with a user, as viewer or editor."),
		event.NewSpec[CollaboratorRemoved]("The owner took a collaborator's access to the negotiation back."),
	)
}
