package agents

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
)

// The agent directory's write side: registering, updating, deactivating
// and reactivating agents, and issuing the external agents' API tokens.
// Every change is an event on the agent's stream (agent-<id>) and applies
// to the next negotiation without a restart.

// TokenPrefix starts every agent API token, so a leaked token is easy to
// recognise (and to search for in logs and repositories).
const TokenPrefix = "towow_agent_"

// NewToken draws a fresh agent API token (256 random bits) and returns it
// with its SHA-256, which is what the log stores.
func NewToken() (token, sha string, err error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", fmt.Errorf("agent token: %w", err)
	}
	token = TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	return token, TokenSHA256(token), nil
}

// TokenSHA256 is the hex SHA-256 of a token, as stored in
// towow.agent.token_issued.
func TokenSHA256(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// AgentChange is the result of an agent command.
type AgentChange struct {
	Agent domain.AgentState
	// Position is the last global position written; 0 when the command
	// changed nothing (an update to the same profile).
	Position int64
	// Token is the new API token, when the command issued one. It is shown
	// this once: only its SHA-256 is stored.
	Token string
}

// agentStep decides on one agent stream in one transaction, retrying on
// conflict; decide sees the freshly folded agent each attempt.
func (e *Engine) agentStep(ctx context.Context, step, agentID, actor string,
	decide func(a *domain.AgentState) ([]domain.Payload, error)) (AgentChange, error) {
	var res AgentChange
	stream := domain.AgentStream(agentID)
	pos, err := e.commit(ctx, step, []string{stream}, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
		a := &domain.AgentState{}
		v, err := foldFresh(ctx, st, stream, a.Apply)
		if err != nil {
			return nil, err
		}
		evs, err := decide(a)
		for _, ev := range evs {
			a.Apply(ev)
		}
		res.Agent = *a
		if err != nil || len(evs) == 0 {
			return nil, err
		}
		return &plan{appends: []appendOp{{stream: stream, expected: eventstore.ExpectedVersion(v), events: evs,
			meta: domain.Metadata{Actor: actor, CausationID: "api:" + step}}}}, nil
	})
	e.dir.invalidate()
	res.Position = pos
	return res, err
}

// CreateAgent registers a new agent. An external agent is issued its API
// token at once (AgentChange.Token). Errors: ErrAgentInvalid (the profile
// does not validate), ErrAgentExists.
func (e *Engine) CreateAgent(ctx context.Context, actor string, p domain.AgentProfile) (AgentChange, error) {
	p = domain.NormalizeProfile(p)
	var token, sha string
	if p.IsExternal() {
		var err error
		if token, sha, err = NewToken(); err != nil {
			return AgentChange{}, err
		}
	}
	res, err := e.agentStep(ctx, "create agent", p.AgentID, actor, func(a *domain.AgentState) ([]domain.Payload, error) {
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
func (e *Engine) UpdateAgent(ctx context.Context, actor string, p domain.AgentProfile) (AgentChange, error) {
	var token string
	res, err := e.agentStep(ctx, "update agent", p.AgentID, actor, func(a *domain.AgentState) ([]domain.Payload, error) {
		token = ""
		evs, err := a.Update(p)
		if err != nil || len(evs) == 0 {
			return evs, err
		}
		if u := evs[0].(*domain.AgentUpdated); u.Profile.IsExternal() && a.TokenSHA256 == "" && a.Active {
			var sha string
			if token, sha, err = NewToken(); err != nil {
				return nil, err
			}
			evs = append(evs, &domain.AgentTokenIssued{AgentID: a.ID, TokenSHA256: sha})
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
func (e *Engine) DeactivateAgent(ctx context.Context, actor, agentID, reason string) (AgentChange, error) {
	return e.agentStep(ctx, "deactivate agent", agentID, actor, func(a *domain.AgentState) ([]domain.Payload, error) {
		return a.Deactivate(reason)
	})
}

// ReactivateAgent puts a deactivated agent back in the pool. Errors:
// ErrNotFound, ErrAgentState.
func (e *Engine) ReactivateAgent(ctx context.Context, actor, agentID string) (AgentChange, error) {
	return e.agentStep(ctx, "reactivate agent", agentID, actor, func(a *domain.AgentState) ([]domain.Payload, error) {
		return a.Reactivate()
	})
}

// IssueAgentToken gives an external agent a new API token; the previous
// one stops working. Errors: ErrNotFound, ErrAgentNotExternal,
// ErrAgentState (deactivated).
func (e *Engine) IssueAgentToken(ctx context.Context, actor, agentID string) (AgentChange, error) {
	token, sha, err := NewToken()
	if err != nil {
		return AgentChange{}, err
	}
	res, err := e.agentStep(ctx, "issue agent token", agentID, actor, func(a *domain.AgentState) ([]domain.Payload, error) {
		return a.IssueToken(sha)
	})
	if err == nil {
		res.Token = token
	}
	return res, err
}

// AuthenticateAgent returns the active external agent whose current token
// this is. A token it does not know makes it catch up with the log once
// before refusing, so a token issued by another process a moment ago works;
// a token replaced or an agent deactivated by another process stops working
// within the directory's refresh interval (200 ms), in this process at once.
// Errors: ErrBadToken, or ErrAgentState for a deactivated agent.
func (e *Engine) AuthenticateAgent(ctx context.Context, token string) (domain.AgentState, error) {
	if !strings.HasPrefix(token, TokenPrefix) {
		return domain.AgentState{}, ErrBadToken
	}
	sha := TokenSHA256(token)
	if err := e.dir.refreshIfStale(ctx); err != nil {
		return domain.AgentState{}, err
	}
	a, ok := e.dir.byToken(sha)
	if !ok {
		e.dir.invalidate()
		if err := e.dir.refreshIfStale(ctx); err != nil {
			return domain.AgentState{}, err
		}
		if a, ok = e.dir.byToken(sha); !ok {
			return domain.AgentState{}, ErrBadToken
		}
	}
	if !a.Active {
		return a, &domain.Error{Code: domain.ErrAgentState.Code, Message: fmt.Sprintf("agent %s is deactivated", a.ID)}
	}
	return a, nil
}

// ErrBadToken is an agent token that is malformed, unknown or replaced by a
// newer one.
var ErrBadToken = errors.New("invalid agent token")

// RegisterResult counts what RegisterProfiles did.
type RegisterResult struct {
	Registered, Updated, Unchanged int
	// Position is the last global position written (0: nothing written).
	Position int64
	// Tokens are the API tokens issued to newly registered external agents
	// (agent id → token), when asked for: shown once, never stored.
	Tokens map[string]string
}

// RegisterProfiles makes the agent streams match profiles: a new agent is
// registered, a changed profile is updated, an unchanged one is left alone
// (so loading the same file at every start writes nothing). All in one
// transaction: one invalid profile writes nothing at all. With issueTokens,
// each newly registered external agent gets an API token (returned once in
// Tokens); otherwise external agents loaded from a file get theirs later,
// from IssueAgentToken.
func (e *Engine) RegisterProfiles(ctx context.Context, profiles []domain.AgentProfile, source string, issueTokens bool) (RegisterResult, error) {
	var res RegisterResult
	pos, err := e.commit(ctx, "register profiles", nil, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
		res = RegisterResult{Tokens: map[string]string{}}
		p := &plan{}
		e.dir.mu.Lock()
		err := e.dir.refresh(ctx, st) // a conflict reruns this with the newer profiles
		states := map[string]*domain.AgentState{}
		for _, prof := range profiles {
			a := &domain.AgentState{}
			if cur := e.dir.agents[prof.AgentID]; cur != nil {
				*a = *cur
			}
			states[prof.AgentID] = a
		}
		e.dir.mu.Unlock()
		if err != nil {
			return nil, err
		}
		md := domain.Metadata{Actor: domain.ActorSystem, CausationID: "profiles:" + source}
		versions := map[string]int64{}
		seen := map[string]int{}
		for i, prof := range profiles {
			if j, dup := seen[prof.AgentID]; dup {
				return nil, &domain.Error{Code: domain.ErrAgentInvalid.Code,
					Message: fmt.Sprintf("profile #%d (%s): agent_id repeats profile #%d", i, prof.AgentID, j)}
			}
			seen[prof.AgentID] = i
			a := states[prof.AgentID]
			var evs []domain.Payload
			if !a.Exists() {
				var sha string
				if issueTokens && domain.NormalizeProfile(prof).IsExternal() {
					token, h, err := NewToken()
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
			var de *domain.Error
			if errors.As(err, &de) {
				return nil, &domain.Error{Code: de.Code, Message: fmt.Sprintf("profile #%d (%s): %s", i, prof.AgentID, de.Message)}
			} else if err != nil {
				return nil, err
			}
			if len(evs) == 0 {
				continue
			}
			for _, ev := range evs {
				a.Apply(ev)
			}
			stream := domain.AgentStream(prof.AgentID)
			v, seen := versions[stream]
			if !seen {
				if v, err = st.StreamVersion(ctx, stream); err != nil {
					return nil, err
				}
			}
			versions[stream] = v + int64(len(evs))
			p.appends = append(p.appends, appendOp{stream: stream, expected: eventstore.ExpectedVersion(v), meta: md, events: evs})
		}
		return p, nil
	})
	e.dir.invalidate() // the refresh inside the transaction could not see its own writes
	res.Position = pos
	return res, err
}
