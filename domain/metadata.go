package domain

// Metadata travels with every stored event.
type Metadata struct {
	// CorrelationID is the root demand id of the negotiation tree: every
	// event of a demand and of its sub-negotiations shares it.
	CorrelationID string `json:"correlation_id,omitempty"`
	// CausationID is the id of the event or command that caused this one.
	CausationID string `json:"causation_id,omitempty"`
	// Actor is who produced the event: [ActorCoordinator],
	// [ActorChannelAdmin], [ActorSystem], [AgentActor] or [UserActor].
	Actor string `json:"actor,omitempty"`
	// SchemaVersion is the schema version of the payload, as returned by
	// [EncodePayload] and expected by [DecodePayload].
	SchemaVersion int `json:"schema_version"`
}

// Well-known actors.
const (
	ActorCoordinator  = "coordinator"
	ActorChannelAdmin = "channel_admin"
	ActorSystem       = "system"
)

// AgentActor returns the actor name of a user agent: "agent:<id>".
func AgentActor(agentID string) string { return "agent:" + agentID }

// UserActor returns the actor name of a human user: "user:<id>".
func UserActor(userID string) string { return "user:" + userID }
