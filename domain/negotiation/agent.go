package negotiation

import (
	"reflect"
	"time"

	"github.com/towow/towow/domain/event"
)

// AgentState is an agent folded from its stream (agent-<id>): its profile,
// whether it may be invited, the SHA-256 of its current API token and its
// presence (external agents only).
type AgentState struct {
	ID          string
	Profile     AgentProfile
	Active      bool
	TokenSHA256 string
	// Online is true between an agent's towow.agent.online and its next
	// towow.agent.offline; LastOnlineAt and LastOfflineAt are the times
	// those events name (zero when never, or when an event did not say).
	Online                      bool
	LastOnlineAt, LastOfflineAt time.Time
}

// Exists reports whether the agent was registered.
func (a *AgentState) Exists() bool { return a.ID != "" }

// Apply evolves the state by one event of the agent's stream.
func (a *AgentState) Apply(p event.Payload) {
	switch e := p.(type) {
	case *AgentRegistered:
		a.ID, a.Profile, a.Active = e.AgentID, e.Profile, true
	case *AgentUpdated:
		a.Profile = e.Profile
	case *AgentDeactivated:
		a.Active = false
	case *AgentReactivated:
		a.Active = true
	case *AgentTokenIssued:
		a.TokenSHA256 = e.TokenSHA256
	case *AgentOnline:
		a.Online, a.LastOnlineAt = true, e.OnlineAt
	case *AgentOffline:
		a.Online, a.LastOfflineAt = false, e.OfflineAt
	}
}

// checkProfile normalizes and validates a profile given to a command.
func checkProfile(p AgentProfile) (AgentProfile, error) {
	p = NormalizeProfile(p)
	if err := ValidateProfile(p); err != nil {
		return p, event.Errorf(ErrAgentInvalid, "%v", err)
	}
	return p, nil
}

// Register decides the registration of a new agent. tokenSHA256, when not
// empty, is the hash of the token issued with it; it is only accepted for
// an external agent.
func (a *AgentState) Register(p AgentProfile, source, tokenSHA256 string) ([]event.Payload, error) {
	p, err := checkProfile(p)
	if err != nil {
		return nil, err
	}
	if a.Exists() {
		return nil, event.Errorf(ErrAgentExists, "agent %s already exists", p.AgentID)
	}
	evs := []event.Payload{&AgentRegistered{AgentID: p.AgentID, Profile: p, Source: source}}
	if tokenSHA256 != "" {
		if !p.IsExternal() {
			return nil, event.Errorf(ErrAgentNotExternal, "agent %s is answered by its twin; only external agents get a token", p.AgentID)
		}
		evs = append(evs, &AgentTokenIssued{AgentID: p.AgentID, TokenSHA256: tokenSHA256})
	}
	return evs, nil
}

// Update decides the replacement of an agent's profile. The agent id is
// fixed: a profile naming another agent is refused. An unchanged profile
// decides nothing (nil, nil).
func (a *AgentState) Update(p AgentProfile) ([]event.Payload, error) {
	p, err := checkProfile(p)
	if err != nil {
		return nil, err
	}
	switch {
	case !a.Exists():
		return nil, event.Errorf(ErrNotFound, "agent %s does not exist", p.AgentID)
	case p.AgentID != a.ID:
		return nil, event.Errorf(ErrAgentInvalid, "agent_id: %s cannot be renamed to %s", a.ID, p.AgentID)
	case reflect.DeepEqual(p, a.Profile):
		return nil, nil
	}
	return []event.Payload{&AgentUpdated{AgentID: a.ID, Profile: p}}, nil
}

// Deactivate decides that the agent is no longer invited to new
// negotiations (the ones it is already in go on).
func (a *AgentState) Deactivate(reason string) ([]event.Payload, error) {
	switch {
	case !a.Exists():
		return nil, event.Errorf(ErrNotFound, "agent does not exist")
	case !a.Active:
		return nil, event.Errorf(ErrAgentState, "agent %s is already deactivated", a.ID)
	}
	return []event.Payload{&AgentDeactivated{AgentID: a.ID, Reason: reason}}, nil
}

// Reactivate decides that a deactivated agent may be invited again.
func (a *AgentState) Reactivate() ([]event.Payload, error) {
	switch {
	case !a.Exists():
		return nil, event.Errorf(ErrNotFound, "agent does not exist")
	case a.Active:
		return nil, event.Errorf(ErrAgentState, "agent %s is already active", a.ID)
	}
	return []event.Payload{&AgentReactivated{AgentID: a.ID}}, nil
}

// IssueToken decides a new API token (given as its SHA-256) for an external
// agent; it replaces the previous one.
func (a *AgentState) IssueToken(tokenSHA256 string) ([]event.Payload, error) {
	switch {
	case !a.Exists():
		return nil, event.Errorf(ErrNotFound, "agent does not exist")
	case !a.Profile.IsExternal():
		return nil, event.Errorf(ErrAgentNotExternal, "agent %s is answered by its twin; set mode external first", a.ID)
	case !a.Active:
		return nil, event.Errorf(ErrAgentState, "agent %s is deactivated", a.ID)
	case len(tokenSHA256) != 64:
		return nil, event.Errorf(ErrAgentInvalid, "token hash must be 64 hex digits")
	}
	return []event.Payload{&AgentTokenIssued{AgentID: a.ID, TokenSHA256: tokenSHA256}}, nil
}
