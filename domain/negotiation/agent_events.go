package negotiation

import (
	"time"

	"github.com/towow/towow/domain/event"
)

// AgentType is the kind of an agent that comes online.
type AgentType string

// Agent types.
const (
	AgentTypeCoordinator  AgentType = "coordinator"
	AgentTypeChannelAdmin AgentType = "channel_admin"
	AgentTypeUserAgent    AgentType = "user_agent"
)

// AgentOnline is the payload of [EventAgentOnline] (its type and
// capabilities; Profile may carry a user agent's [AgentProfile]). The
// engine writes it on an external agent's first contact, and on its first
// contact after it went offline ([AgentState.Contact]); it leaves Profile
// empty (the profile is the registered one), and the fold ignores it.
// OnlineAt, the contact's time, came after the first version (omitted when
// zero, so earlier payloads read the same).
type AgentOnline struct {
	AgentID      string        `json:"agent_id"`
	AgentType    AgentType     `json:"agent_type" enum:"coordinator,channel_admin,user_agent"`
	Capabilities []string      `json:"capabilities,omitempty"`
	Profile      *AgentProfile `json:"profile,omitempty"`
	OnlineAt     time.Time     `json:"online_at,omitzero"`
}

// EventType implements [event.Payload].
func (*AgentOnline) EventType() event.EventType { return EventAgentOnline }

// AgentOffline is the payload of [EventAgentOffline]. The engine
// writes it when an online external agent stayed silent past the offline
// window ([AgentState.Silence]): LastContactAt is its last contact seen and
// OfflineAt the time of the check (both omitted when zero).
type AgentOffline struct {
	AgentID       string    `json:"agent_id"`
	Reason        string    `json:"reason,omitempty"`
	LastContactAt time.Time `json:"last_contact_at,omitzero"`
	OfflineAt     time.Time `json:"offline_at,omitzero"`
}

// EventType implements [event.Payload].
func (*AgentOffline) EventType() event.EventType { return EventAgentOffline }

// AgentWithdrawn is the payload of [EventAgentWithdrawn]: who left which
// channel, and why.
type AgentWithdrawn struct {
	ChannelID   string `json:"channel_id"`
	DemandID    string `json:"demand_id"`
	AgentID     string `json:"agent_id"`
	DisplayName string `json:"display_name" personal:"true"`
	Reason      string `json:"reason" personal:"true"`
}

// EventType implements [event.Payload].
func (*AgentWithdrawn) EventType() event.EventType { return EventAgentWithdrawn }

// ErrorOccurred is the payload of [EventErrorOccurred]. ErrorCode is one
// of the TOWOW_* codes or the design's API codes E001-E009. Context's
// values are strings (ids, names), which keeps it deterministic.
type ErrorOccurred struct {
	ErrorCode    string            `json:"error_code"`
	ErrorMessage string            `json:"error_message" personal:"true"`
	Context      map[string]string `json:"context,omitempty"`
	Recoverable  bool              `json:"recoverable"`
}

// EventType implements [event.Payload].
func (*ErrorOccurred) EventType() event.EventType { return EventErrorOccurred }

// AgentRegistered is the payload of [EventAgentRegistered]: the first event
// of an agent's stream, with its profile.
type AgentRegistered struct {
	AgentID string       `json:"agent_id"`
	Profile AgentProfile `json:"profile"`
	Source  string       `json:"source,omitempty"` // e.g. "data/mock_profiles.json"
}

// EventType implements [event.Payload].
func (*AgentRegistered) EventType() event.EventType { return EventAgentRegistered }

// AgentUpdated is the payload of [EventAgentUpdated]: the agent's profile
// was replaced; it applies from the next negotiation on.
type AgentUpdated struct {
	AgentID string       `json:"agent_id"`
	Profile AgentProfile `json:"profile"`
}

// EventType implements [event.Payload].
func (*AgentUpdated) EventType() event.EventType { return EventAgentUpdated }

// AgentDeactivated is the payload of [EventAgentDeactivated]: the agent is
// no longer considered for new negotiations.
type AgentDeactivated struct {
	AgentID string `json:"agent_id"`
	Reason  string `json:"reason,omitempty" personal:"true"`
}

// EventType implements [event.Payload].
func (*AgentDeactivated) EventType() event.EventType { return EventAgentDeactivated }

// AgentReactivated is the payload of [EventAgentReactivated]: a deactivated
// agent may be invited to new negotiations again.
type AgentReactivated struct {
	AgentID string `json:"agent_id"`
}

// EventType implements [event.Payload].
func (*AgentReactivated) EventType() event.EventType { return EventAgentReactivated }

// AgentTokenIssued is the payload of [EventAgentTokenIssued]. The token
// itself is shown once to whoever asked for it and never stored: the log
// keeps its SHA-256 (hex), which is all authentication needs. A new token
// replaces the previous one.
type AgentTokenIssued struct {
	AgentID     string `json:"agent_id"`
	TokenSHA256 string `json:"token_sha256"`
}

// EventType implements [event.Payload].
func (*AgentTokenIssued) EventType() event.EventType { return EventAgentTokenIssued }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[AgentOnline]("An agent came online."),
		event.NewSpec[AgentOffline]("An agent went offline."),
		event.NewSpec[AgentWithdrawn]("An agent withdrew from a negotiation channel."),
		event.NewSpec[AgentRegistered]("An agent profile was registered."),
		event.NewSpec[AgentUpdated]("An agent's profile was replaced."),
		event.NewSpec[AgentDeactivated]("An agent was deactivated and is no longer invited."),
		event.NewSpec[AgentReactivated]("A deactivated agent was reactivated and may be invited again."),
		event.NewSpec[AgentTokenIssued]("An external agent was issued a new API token; earlier tokens stop working."),
		event.NewSpec[ErrorOccurred]("An error occurred."),
	)
}
