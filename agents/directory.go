package agents

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
)

// Directory is the set of agent profiles, folded from the agent streams
// (towow.agent.registered / updated / deactivated). It catches up with the
// log on every read, so a profile change applies to the next negotiation
// without a restart.
type Directory struct {
	store *eventstore.Store

	mu       sync.Mutex
	pos      int64
	profiles map[string]domain.AgentProfile
	active   map[string]bool
}

// NewDirectory returns an empty directory over store.
func NewDirectory(store *eventstore.Store) *Directory {
	return &Directory{store: store, profiles: map[string]domain.AgentProfile{}, active: map[string]bool{}}
}

// refresh applies agent events committed since the last read.
func (d *Directory) refresh(ctx context.Context) error {
	for {
		evs, err := d.store.ReadAll(ctx, d.pos, eventstore.Filter{Types: []domain.EventType{
			domain.EventAgentRegistered, domain.EventAgentUpdated, domain.EventAgentDeactivated}}, eventstore.MaxReadLimit)
		if err != nil {
			return fmt.Errorf("agent directory: %w", err)
		}
		for _, ev := range evs {
			p, err := ev.Decode()
			if err != nil {
				return fmt.Errorf("agent directory: %w", err)
			}
			switch e := p.(type) {
			case *domain.AgentRegistered:
				d.profiles[e.AgentID], d.active[e.AgentID] = e.Profile, true
			case *domain.AgentUpdated:
				d.profiles[e.AgentID] = e.Profile
			case *domain.AgentDeactivated:
				d.active[e.AgentID] = false
			}
			d.pos = ev.Position
		}
		if len(evs) < eventstore.MaxReadLimit {
			return nil
		}
	}
}

// Get returns an agent's profile and whether it is active.
func (d *Directory) Get(ctx context.Context, agentID string) (p domain.AgentProfile, active, ok bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.refresh(ctx); err != nil {
		return p, false, false, err
	}
	p, ok = d.profiles[agentID]
	return p, d.active[agentID], ok, nil
}

// Active returns every active profile, ordered by agent id.
func (d *Directory) Active(ctx context.Context) ([]domain.AgentProfile, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.refresh(ctx); err != nil {
		return nil, err
	}
	var out []domain.AgentProfile
	for id, p := range d.profiles {
		if d.active[id] {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b domain.AgentProfile) int { return cmpString(a.AgentID, b.AgentID) })
	return out, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// isTwin reports whether the engine answers for the agent (it is not
// external). Unknown agents count as twins: their step finds no profile and
// does nothing, and the round's timeout settles for them.
func (d *Directory) isTwin(ctx context.Context, agentID string) (bool, error) {
	p, _, ok, err := d.Get(ctx, agentID)
	if err != nil {
		return false, err
	}
	return !ok || !p.IsExternal(), nil
}

// RegisterResult counts what RegisterProfiles did.
type RegisterResult struct {
	Registered, Updated, Unchanged int
}

// RegisterProfiles makes the agent streams match profiles: a new agent is
// registered, a changed profile is updated, an unchanged one is left alone
// (so loading the same file at every start writes nothing). All in one
// transaction.
func (e *Engine) RegisterProfiles(ctx context.Context, profiles []domain.AgentProfile, source string) (RegisterResult, error) {
	var res RegisterResult
	_, err := e.commit(ctx, "register profiles", func(ctx context.Context) (*plan, error) {
		res = RegisterResult{}
		p := &plan{}
		for _, prof := range profiles {
			cur, _, ok, err := e.dir.Get(ctx, prof.AgentID)
			if err != nil {
				return nil, err
			}
			md := domain.Metadata{Actor: domain.ActorSystem, CausationID: "profiles:" + source}
			switch {
			case !ok:
				res.Registered++
				p.appends = append(p.appends, appendOp{stream: domain.AgentStream(prof.AgentID), expected: eventstore.NoStream, meta: md,
					events: []domain.Payload{&domain.AgentRegistered{AgentID: prof.AgentID, Profile: prof, Source: source}}})
			case !reflect.DeepEqual(cur, prof):
				res.Updated++
				v, err := e.store.StreamVersion(ctx, domain.AgentStream(prof.AgentID))
				if err != nil {
					return nil, err
				}
				p.appends = append(p.appends, appendOp{stream: domain.AgentStream(prof.AgentID), expected: eventstore.ExpectedVersion(v), meta: md,
					events: []domain.Payload{&domain.AgentUpdated{AgentID: prof.AgentID, Profile: prof}}})
			default:
				res.Unchanged++
			}
		}
		return p, nil
	})
	return res, err
}
