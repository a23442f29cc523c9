package directory

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/towow/towow/domain/erasure"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// Directory is the set of agents, folded from the agent streams
// (towow.agent.*): profiles, whether each may be invited, and the hashes of
// the external agents' API tokens. It catches up with the log on every
// read, so a profile change applies to the next negotiation without a
// restart.
type Directory struct {
	store *eventstore.Store

	mu        sync.Mutex
	syncMu    sync.Mutex // one SyncIndex at a time in this process
	pos       int64
	refreshed time.Time
	agents    map[string]*negotiation.AgentState
	changedAt map[string]int64  // agent id → position of its last event
	tokens    map[string]string // token SHA-256 → agent id (current tokens only)
	externals int               // agents whose profile says they answer for themselves

	// summary's cache, valid at position summaryAt
	summaryAt   int64
	activeCount int
	topTags     []string
}

// directoryMaxAge is how stale the directory may be when a step reads it: a
// profile change reaches the next negotiation within this time.
const directoryMaxAge = 200 * time.Millisecond

// agentEventTypes are the events of the agent streams.
var agentEventTypes = []event.EventType{negotiation.EventAgentRegistered, negotiation.EventAgentUpdated,
	negotiation.EventAgentDeactivated, negotiation.EventAgentReactivated, negotiation.EventAgentTokenIssued,
	negotiation.EventAgentOnline, negotiation.EventAgentOffline, erasure.EventErased}

// presenceEvent reports whether an agent event changes only the agent's
// presence (nothing the agent index holds).
func presenceEvent(t event.EventType) bool {
	return t == negotiation.EventAgentOnline || t == negotiation.EventAgentOffline
}

// NewDirectory returns an empty directory over store.
func NewDirectory(store *eventstore.Store) *Directory {
	return &Directory{store: store, agents: map[string]*negotiation.AgentState{}, changedAt: map[string]int64{}, tokens: map[string]string{}}
}

// RefreshIfStale catches up when the last catch-up is older than
// directoryMaxAge.
func (d *Directory) RefreshIfStale(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if time.Since(d.refreshed) < directoryMaxAge {
		return nil
	}
	// While the directory knows no agent (a process just started, the
	// profiles just registered), what was committed before this read gets
	// a moment to settle (eventstore.SettleBriefly): the log's readers see
	// an event only once every older write transaction has ended, and a
	// directory that read none of the profiles just registered would have
	// the next filter find nobody.
	if len(d.agents) == 0 {
		latest, err := d.store.LatestPosition(ctx)
		if err != nil {
			return fmt.Errorf("agent directory: %w", err)
		}
		d.store.SettleBriefly(ctx, latest)
	}
	return d.refresh(ctx, d.store)
}

// Invalidate makes the next read catch up (after this process wrote to an
// agent stream).
func (d *Directory) Invalidate() {
	d.mu.Lock()
	d.refreshed = time.Time{}
	d.mu.Unlock()
}

// refresh applies agent events committed since the last read, reading
// through st; the caller holds d.mu.
func (d *Directory) refresh(ctx context.Context, st *eventstore.Store) error {
	start := time.Now()
	for {
		evs, err := st.ReadAll(ctx, d.pos, eventstore.Filter{Types: agentEventTypes}, eventstore.MaxReadLimit)
		if err != nil {
			return fmt.Errorf("agent directory: %w", err)
		}
		for _, ev := range evs {
			id, onAgent := strings.CutPrefix(ev.StreamID, negotiation.AgentStream(""))
			if ev.Type == erasure.EventErased {
				// An agent's profile was erased: read again, it holds the
				// marker where its words were (a person's erasure is none
				// of the directory's business).
				if a := d.agents[id]; onAgent && a != nil {
					fresh := &negotiation.AgentState{}
					if _, err := st.Fold(ctx, ev.StreamID, fresh.Apply); err != nil {
						return fmt.Errorf("agent directory: %w", err)
					}
					a.Profile = fresh.Profile
					d.changedAt[id] = ev.Position
				}
				d.pos = ev.Position
				continue
			}
			p, err := st.Decode(ctx, ev) // profiles are matched on their words: revealed, in memory only
			if err != nil {
				return fmt.Errorf("agent directory: %w", err)
			}
			a := d.agents[id]
			if a == nil {
				a = &negotiation.AgentState{}
				d.agents[id] = a
			}
			old, wasExternal := a.TokenSHA256, a.Profile.IsExternal()
			a.Apply(p)
			switch isExternal := a.Profile.IsExternal(); {
			case isExternal && !wasExternal:
				d.externals++
			case wasExternal && !isExternal:
				d.externals--
			}
			if a.TokenSHA256 != old {
				delete(d.tokens, old)
				d.tokens[a.TokenSHA256] = id
			}
			d.pos = ev.Position
			if !presenceEvent(ev.Type) {
				d.changedAt[id] = ev.Position
			}
		}
		if len(evs) < eventstore.MaxReadLimit {
			d.refreshed = start
			return nil
		}
	}
}

// Get returns an agent's profile and whether it is active.
func (d *Directory) Get(ctx context.Context, agentID string) (p negotiation.AgentProfile, active, ok bool, err error) {
	if err := d.RefreshIfStale(ctx); err != nil {
		return p, false, false, err
	}
	p, active, ok = d.Lookup(agentID)
	return p, active, ok, nil
}

// Lookup reads the directory as last refreshed (no I/O: safe inside a
// step's transaction).
func (d *Directory) Lookup(agentID string) (p negotiation.AgentProfile, active, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.agents[agentID]
	if a == nil || !a.Exists() {
		return p, false, false
	}
	return a.Profile, a.Active, true
}

// Active returns every active profile, ordered by agent id.
func (d *Directory) Active(ctx context.Context) ([]negotiation.AgentProfile, error) {
	if err := d.RefreshIfStale(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []negotiation.AgentProfile
	for _, a := range d.agents {
		if a.Exists() && a.Active {
			out = append(out, a.Profile)
		}
	}
	slices.SortFunc(out, func(a, b negotiation.AgentProfile) int { return strings.Compare(a.AgentID, b.AgentID) })
	return out, nil
}

// ByToken returns the agent whose current token has this SHA-256. A hash
// it does not know makes it catch up with the log once before answering
// false, so a token issued by another process a moment ago is found; a
// token replaced or an agent deactivated by another process is seen within
// the directory's refresh interval (200 ms), in this process at once.
func (d *Directory) ByToken(ctx context.Context, tokenSHA256 string) (negotiation.AgentState, bool, error) {
	if err := d.RefreshIfStale(ctx); err != nil {
		return negotiation.AgentState{}, false, err
	}
	if a, ok := d.byToken(tokenSHA256); ok {
		return a, true, nil
	}
	d.Invalidate()
	if err := d.RefreshIfStale(ctx); err != nil {
		return negotiation.AgentState{}, false, err
	}
	a, ok := d.byToken(tokenSHA256)
	return a, ok, nil
}

// byToken returns the agent whose current token has this SHA-256.
func (d *Directory) byToken(tokenSHA256 string) (negotiation.AgentState, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id, ok := d.tokens[tokenSHA256]
	if !ok {
		return negotiation.AgentState{}, false
	}
	return *d.agents[id], true
}

// IsTwin reports whether ToWow answers for the agent (it is not
// external), from the directory as last refreshed. Unknown agents count as
// twins: their step finds no profile and does nothing, and the round's
// timeout settles for them.
func (d *Directory) IsTwin(agentID string) bool {
	p, _, ok := d.Lookup(agentID)
	return !ok || !p.IsExternal()
}

// HasExternal reports whether any agent, active or not, answers for
// itself (is external), from the directory as last refreshed (no I/O).
// When none does, nobody is to be told of invitations and proposals: the
// twins answer in-process.
func (d *Directory) HasExternal() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.externals > 0
}

// Online returns the ids of the agents online, sorted, from the directory
// after it caught up with the log.
func (d *Directory) Online(ctx context.Context) ([]string, error) {
	if err := d.RefreshIfStale(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for id, a := range d.agents {
		if a.Online {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

// RequireExternal refuses commands for an agent whose twin answers (its
// answers come from its LLM twin) or that does not exist.
func (d *Directory) RequireExternal(ctx context.Context, agentID string) error {
	p, _, ok, err := d.Get(ctx, agentID)
	switch {
	case err != nil:
		return err
	case !ok:
		return &event.Error{Code: negotiation.ErrNotFound.Code, Message: fmt.Sprintf("agent %s does not exist", agentID)}
	case !p.IsExternal():
		return &event.Error{Code: negotiation.ErrNotParticipant.Code, Message: fmt.Sprintf("agent %s is answered by its twin, not by commands", agentID)}
	}
	return nil
}
