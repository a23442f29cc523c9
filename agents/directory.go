package agents

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
)

// Directory is the set of agent profiles, folded from the agent streams
// (towow.agent.registered / updated / deactivated). It catches up with the
// log on every read, so a profile change applies to the next negotiation
// without a restart.
type Directory struct {
	store *eventstore.Store

	mu        sync.Mutex
	pos       int64
	refreshed time.Time
	profiles  map[string]domain.AgentProfile
	active    map[string]bool
}

// directoryMaxAge is how stale the directory may be when a step reads it: a
// profile change reaches the next negotiation within this time.
const directoryMaxAge = 200 * time.Millisecond

// NewDirectory returns an empty directory over store.
func NewDirectory(store *eventstore.Store) *Directory {
	return &Directory{store: store, profiles: map[string]domain.AgentProfile{}, active: map[string]bool{}}
}

// refreshIfStale catches up when the last catch-up is older than
// directoryMaxAge.
func (d *Directory) refreshIfStale(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if time.Since(d.refreshed) < directoryMaxAge {
		return nil
	}
	return d.refresh(ctx, d.store)
}

// refresh applies agent events committed since the last read, reading
// through st; the caller holds d.mu.
func (d *Directory) refresh(ctx context.Context, st *eventstore.Store) error {
	start := time.Now()
	for {
		evs, err := st.ReadAll(ctx, d.pos, eventstore.Filter{Types: []domain.EventType{
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
			d.refreshed = start
			return nil
		}
	}
}

// Get returns an agent's profile and whether it is active.
func (d *Directory) Get(ctx context.Context, agentID string) (p domain.AgentProfile, active, ok bool, err error) {
	if err := d.refreshIfStale(ctx); err != nil {
		return p, false, false, err
	}
	p, active, ok = d.lookup(agentID)
	return p, active, ok, nil
}

// lookup reads the directory as last refreshed (no I/O: safe inside a
// step's transaction).
func (d *Directory) lookup(agentID string) (p domain.AgentProfile, active, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok = d.profiles[agentID]
	return p, d.active[agentID], ok
}

// Active returns every active profile, ordered by agent id.
func (d *Directory) Active(ctx context.Context) ([]domain.AgentProfile, error) {
	if err := d.refreshIfStale(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []domain.AgentProfile
	for id, p := range d.profiles {
		if d.active[id] {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b domain.AgentProfile) int { return strings.Compare(a.AgentID, b.AgentID) })
	return out, nil
}

// isTwin reports whether the engine answers for the agent (it is not
// external), from the directory as last refreshed. Unknown agents count as
// twins: their step finds no profile and does nothing, and the round's
// timeout settles for them.
func (d *Directory) isTwin(agentID string) bool {
	p, _, ok := d.lookup(agentID)
	return !ok || !p.IsExternal()
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
	_, err := e.commit(ctx, "register profiles", nil, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
		res = RegisterResult{}
		p := &plan{}
		e.dir.mu.Lock()
		err := e.dir.refresh(ctx, st) // a conflict reruns this with the newer profiles
		e.dir.mu.Unlock()
		if err != nil {
			return nil, err
		}
		for _, prof := range profiles {
			cur, _, ok := e.dir.lookup(prof.AgentID)
			md := domain.Metadata{Actor: domain.ActorSystem, CausationID: "profiles:" + source}
			switch {
			case !ok:
				res.Registered++
				p.appends = append(p.appends, appendOp{stream: domain.AgentStream(prof.AgentID), expected: eventstore.NoStream, meta: md,
					events: []domain.Payload{&domain.AgentRegistered{AgentID: prof.AgentID, Profile: prof, Source: source}}})
			case !reflect.DeepEqual(cur, prof):
				res.Updated++
				v, err := st.StreamVersion(ctx, domain.AgentStream(prof.AgentID))
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
	// The refresh inside the transaction could not see its own writes.
	e.dir.mu.Lock()
	e.dir.refreshed = time.Time{}
	e.dir.mu.Unlock()
	return res, err
}
