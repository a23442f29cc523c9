package directory

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

// Commands is the agent directory's write side: registering, updating,
// deactivating and reactivating agents, issuing the external agents' API
// tokens and checking them. Every change is an event on the agent's stream
// (agent-<id>) and applies to the next negotiation without a restart. It is
// safe for concurrent use.
type Commands struct {
	w       *Writer
	dir     *Directory
	contact func(context.Context, negotiation.AgentState) (int64, error)
}

// NewCommands returns the directory's commands writing through w. contact
// records an authenticated agent's contact (presence's AgentContact; nil:
// none is recorded).
func NewCommands(w *Writer, dir *Directory, contact func(context.Context, negotiation.AgentState) (int64, error)) *Commands {
	if contact == nil {
		contact = func(context.Context, negotiation.AgentState) (int64, error) { return 0, nil }
	}
	return &Commands{w: w, dir: dir, contact: contact}
}

// newToken draws a fresh agent API token (256 random bits) and returns it
// with its SHA-256, which is what the log stores.
func newToken() (token, sha string, err error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", fmt.Errorf("agent token: %w", err)
	}
	token = negotiation.AgentTokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	return token, negotiation.AgentTokenSHA256(token), nil
}

// decideAgent runs decide on one agent stream and returns the change.
func (s *Commands) decideAgent(ctx context.Context, step, agentID, actor string,
	decide func(a *negotiation.AgentState) ([]event.Payload, error)) (negotiation.AgentChange, error) {
	a, pos, err := s.w.DecideAgent(ctx, step, agentID, actor, decide)
	return negotiation.AgentChange{Agent: a, Position: pos}, err
}

// CreateAgent registers a new agent. An external agent is issued its API
// token at once (AgentChange.Token). Errors: ErrAgentInvalid (the profile
// does not validate), ErrAgentExists.
func (s *Commands) CreateAgent(ctx context.Context, actor string, p negotiation.AgentProfile) (negotiation.AgentChange, error) {
	p = negotiation.NormalizeProfile(p)
	var token, sha string
	if p.IsExternal() {
		var err error
		if token, sha, err = newToken(); err != nil {
			return negotiation.AgentChange{}, err
		}
	}
	res, err := s.decideAgent(ctx, "create agent", p.AgentID, actor, func(a *negotiation.AgentState) ([]event.Payload, error) {
		return a.Register(p, "api", sha)
	})
	if err == nil {
		res.Token = token
	}
	return res, err
}

// UpdateAgent replaces an agent's profile (its agent_id is fixed). An agent
// that becomes external and has no token yet is issued one. Errors:
// ErrNotFound, ErrAgentInvalid.
func (s *Commands) UpdateAgent(ctx context.Context, actor string, p negotiation.AgentProfile) (negotiation.AgentChange, error) {
	var token string
	res, err := s.decideAgent(ctx, "update agent", p.AgentID, actor, func(a *negotiation.AgentState) ([]event.Payload, error) {
		token = ""
		evs, err := a.Update(p)
		if err != nil || len(evs) == 0 {
			return evs, err
		}
		if u := evs[0].(*negotiation.AgentUpdated); u.Profile.IsExternal() && a.TokenSHA256 == "" && a.Active {
			var sha string
			if token, sha, err = newToken(); err != nil {
				return nil, err
			}
			evs = append(evs, &negotiation.AgentTokenIssued{AgentID: a.ID, TokenSHA256: sha})
		}
		return evs, nil
	})
	if err == nil {
		res.Token = token
	}
	return res, err
}

// DeactivateAgent takes an agent out of the pool of candidates (the
// negotiations it is in go on). Errors: ErrNotFound, ErrAgentState.
func (s *Commands) DeactivateAgent(ctx context.Context, actor, agentID, reason string) (negotiation.AgentChange, error) {
	return s.decideAgent(ctx, "deactivate agent", agentID, actor, func(a *negotiation.AgentState) ([]event.Payload, error) {
		return a.Deactivate(reason)
	})
}

// ReactivateAgent puts a deactivated agent back in the pool. Errors:
// ErrNotFound, ErrAgentState.
func (s *Commands) ReactivateAgent(ctx context.Context, actor, agentID string) (negotiation.AgentChange, error) {
	return s.decideAgent(ctx, "reactivate agent", agentID, actor, func(a *negotiation.AgentState) ([]event.Payload, error) {
		return a.Reactivate()
	})
}

// IssueAgentToken gives an external agent a new API token; the previous
// one stops working. Errors: ErrNotFound, ErrAgentNotExternal,
// ErrAgentState (deactivated).
func (s *Commands) IssueAgentToken(ctx context.Context, actor, agentID string) (negotiation.AgentChange, error) {
	token, sha, err := newToken()
	if err != nil {
		return negotiation.AgentChange{}, err
	}
	res, err := s.decideAgent(ctx, "issue agent token", agentID, actor, func(a *negotiation.AgentState) ([]event.Payload, error) {
		return a.IssueToken(sha)
	})
	if err == nil {
		res.Token = token
	}
	return res, err
}

// AuthenticateAgent returns the active external agent whose current token
// this is. A token issued by another process a moment ago works; a token
// replaced or an agent deactivated by another process stops working within
// the directory's refresh interval (200 ms), in this process at once.
// Each authentication is the agent's contact: its time is recorded, and an
// agent not online comes online (towow.agent.online, see
// package presence). Errors: negotiation.ErrBadAgentToken, or
// ErrAgentState for a deactivated agent.
func (s *Commands) AuthenticateAgent(ctx context.Context, token string) (negotiation.AgentState, error) {
	if !strings.HasPrefix(token, negotiation.AgentTokenPrefix) {
		return negotiation.AgentState{}, negotiation.ErrBadAgentToken
	}
	a, ok, err := s.dir.ByToken(ctx, negotiation.AgentTokenSHA256(token))
	switch {
	case err != nil:
		return negotiation.AgentState{}, err
	case !ok:
		return negotiation.AgentState{}, negotiation.ErrBadAgentToken
	case !a.Active:
		return a, &event.Error{Code: negotiation.ErrAgentState.Code, Message: fmt.Sprintf("agent %s is deactivated", a.ID)}
	}
	if _, err := s.contact(ctx, a); err != nil {
		return negotiation.AgentState{}, err
	}
	return a, nil
}

// RegisterProfiles makes the agent streams match profiles: a new agent is
// registered, a changed profile is updated, an unchanged one is left alone
// (so loading the same file at every start writes nothing). All in one
// transaction: one invalid profile writes nothing at all. With issueTokens,
// each newly registered external agent gets an API token (returned once in
// Tokens); otherwise external agents loaded from a file get theirs later,
// from IssueAgentToken.
func (s *Commands) RegisterProfiles(ctx context.Context, profiles []negotiation.AgentProfile, source string, issueTokens bool) (negotiation.ProfilesRegistered, error) {
	var res negotiation.ProfilesRegistered
	ids := make([]string, len(profiles))
	for i, p := range profiles {
		ids[i] = p.AgentID
	}
	md := event.Metadata{Actor: event.ActorSystem, CausationID: "profiles:" + source}
	pos, err := s.w.DecideAgents(ctx, "register profiles", md, ids, func(states map[string]*negotiation.AgentState) ([]AgentEvents, error) {
		res = negotiation.ProfilesRegistered{Tokens: map[string]string{}}
		var out []AgentEvents
		seen := map[string]int{}
		for i, prof := range profiles {
			if j, dup := seen[prof.AgentID]; dup {
				return nil, &event.Error{Code: negotiation.ErrAgentInvalid.Code,
					Message: fmt.Sprintf("profile #%d (%s): agent_id repeats profile #%d", i, prof.AgentID, j)}
			}
			seen[prof.AgentID] = i
			a := states[prof.AgentID]
			var evs []event.Payload
			var err error
			if !a.Exists() {
				var sha string
				if issueTokens && negotiation.NormalizeProfile(prof).IsExternal() {
					token, h, err := newToken()
					if err != nil {
						return nil, err
					}
					res.Tokens[prof.AgentID], sha = token, h
				}
				evs, err = a.Register(prof, source, sha)
				res.Registered++
			} else if evs, err = a.Update(prof); len(evs) > 0 {
				res.Updated++
			} else if err == nil {
				res.Unchanged++
			}
			var de *event.Error
			if errors.As(err, &de) {
				return nil, &event.Error{Code: de.Code, Message: fmt.Sprintf("profile #%d (%s): %s", i, prof.AgentID, de.Message)}
			} else if err != nil {
				return nil, err
			}
			for _, ev := range evs {
				a.Apply(ev)
			}
			out = append(out, AgentEvents{AgentID: prof.AgentID, Events: evs})
		}
		return out, nil
	})
	res.Position = pos
	return res, err
}
