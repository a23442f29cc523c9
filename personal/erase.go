package personal

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/towow/towow/domain/erasure"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/uow"
)

// ErrNotSealed is an erasure asked of a process that seals nothing.
var ErrNotSealed = errors.New("personal: this process keeps no personal data keys")

// Eraser carries out erasures on request: it destroys the keys of a
// person's data subjects and records the erasure as an event.
type Eraser struct {
	u    *uow.UnitOfWork
	keys *Keys
	// agentErased, when set, is told that an agent's erasure was
	// recorded (the agent directory reads it at once).
	agentErased func()
}

// NewEraser returns the eraser of keys, recording through u;
// agentErased (may be nil) is called after an agent's erasure is recorded.
func NewEraser(u *uow.UnitOfWork, keys *Keys, agentErased func()) *Eraser {
	return &Eraser{u: u, keys: keys, agentErased: agentErased}
}

// EraseUser erases a person's data: their own subject (notices that name
// no tree) and every negotiation tree and workflow they started, with
// everything written in them (their demands and messages, the offers and
// plans made for them). Their texts read Erased from then on, wherever
// they were copied; ids, counts and outcomes stay, so negotiations still
// fold and figures still add up. The erasure is final: what a step still
// running writes for those subjects later is stored erased. It returns
// the recorded erasure and its cursor. Erasing again records the keys
// made since (none, usually).
func (e *Eraser) EraseUser(ctx context.Context, userID string) (erasure.Erased, int64, error) {
	if e == nil {
		return erasure.Erased{}, 0, ErrNotSealed
	}
	roots, err := sqlcdb.New(e.u.Pool()).TreesOfUser(ctx, userID)
	if err != nil {
		return erasure.Erased{}, 0, fmt.Errorf("erase user data: %w", err)
	}
	subjects := []string{event.PrincipalSubject(identity.User(userID, "").Actor())}
	for _, r := range roots {
		subjects = append(subjects, event.TreeSubject(r))
	}
	return e.erase(ctx, erasure.Stream, subjects)
}

// EraseAgent erases an agent's profile (its name, summary, capabilities,
// interests and availability): every version of it reads Erased from
// then on. The erasure is recorded on the agent's own stream, where every
// process's agent directory sees it and reads the profile again. What the
// agent said in other people's negotiations belongs to those negotiations
// and stays. An unknown agent is negotiation.ErrNotFound.
func (e *Eraser) EraseAgent(ctx context.Context, agentID string) (erasure.Erased, int64, error) {
	if e == nil {
		return erasure.Erased{}, 0, ErrNotSealed
	}
	stream := negotiation.AgentStream(agentID)
	if v, err := e.u.Store().StreamVersion(ctx, stream); err != nil {
		return erasure.Erased{}, 0, fmt.Errorf("erase agent data: %w", err)
	} else if v == 0 {
		return erasure.Erased{}, 0, event.Errorf(negotiation.ErrNotFound, "no agent %s", agentID)
	}
	rec, pos, err := e.erase(ctx, stream, []string{event.PrincipalSubject(identity.Agent(agentID).Actor())})
	if err == nil && e.agentErased != nil {
		e.agentErased()
	}
	return rec, pos, err
}

// erase destroys the keys of subjects, forgets what this process decoded
// before, and records the erasure on stream.
func (e *Eraser) erase(ctx context.Context, stream string, subjects []string) (erasure.Erased, int64, error) {
	id, err := uow.NewID("erasure-", 8)
	if err != nil {
		return erasure.Erased{}, 0, err
	}
	rec := erasure.Erased{ErasureID: id, KeyIDs: []string{}, Subjects: len(subjects)}
	for _, s := range subjects {
		key, had, err := e.keys.Erase(ctx, s)
		if err != nil {
			return erasure.Erased{}, 0, fmt.Errorf("erase: %w", err)
		}
		if had {
			rec.KeyIDs = append(rec.KeyIDs, strings.ReplaceAll(key.String(), "-", ""))
		}
	}
	// Texts this process decoded before are not decided on again.
	e.u.Forget()
	ev := rec
	pos, err := e.u.Commit(ctx, "erase", []string{stream}, func(ctx context.Context, _ *eventstore.Store) (*uow.Plan, error) {
		return &uow.Plan{Appends: []uow.Append{{Stream: stream, Expected: eventstore.AnyVersion,
			Events: []event.Payload{&ev}, Meta: uow.Meta("", identity.From(ctx).Actor(), id)}}}, nil
	})
	if err != nil {
		return erasure.Erased{}, 0, err
	}
	return rec, pos, nil
}
