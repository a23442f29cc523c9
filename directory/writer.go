package directory

import (
	"context"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/uow"
)

// Writer is the agent streams' share of the unit of work: the directory's
// commands register, update, deactivate and reactivate agents and issue
// their tokens through DecideAgent and DecideAgents, and presence takes
// agents online and offline through DecideAgent; the directory every step
// reads is invalidated after each such write.
type Writer struct {
	u   *uow.UnitOfWork
	dir *Directory
}

// NewWriter returns the writer of dir's agent streams through u.
func NewWriter(u *uow.UnitOfWork, dir *Directory) *Writer { return &Writer{u: u, dir: dir} }

// DecideAgent decides on one agent stream in one transaction, retrying on
// conflict; decide sees the freshly folded agent each attempt. It returns
// the agent as decided (after the events) and the last position written
// (0 when decide chose nothing).
func (e *Writer) DecideAgent(ctx context.Context, step, agentID, actor string,
	decide func(a *negotiation.AgentState) ([]event.Payload, error)) (negotiation.AgentState, int64, error) {
	var res negotiation.AgentState
	stream := negotiation.AgentStream(agentID)
	pos, err := e.u.Commit(ctx, step, []string{stream}, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		a := &negotiation.AgentState{}
		v, err := st.Fold(ctx, stream, a.Apply)
		if err != nil {
			return nil, err
		}
		evs, err := decide(a)
		for _, ev := range evs {
			a.Apply(ev)
		}
		res = *a
		if err != nil || len(evs) == 0 {
			return nil, err
		}
		return &uow.Plan{Appends: []uow.Append{{Stream: stream, Expected: eventstore.ExpectedVersion(v), Events: evs,
			Meta: event.Metadata{Actor: actor, CausationID: "api:" + step}}}}, nil
	})
	e.dir.Invalidate()
	return res, pos, err
}

// AgentEvents are the events decided for one agent stream.
type AgentEvents struct {
	AgentID string
	Events  []event.Payload
}

// DecideAgents decides on many agent streams in one transaction. decide
// gets the current state of each agent in agentIDs, caught up with the log
// through the transaction (a zero state for an agent that does not exist;
// the states are the caller's to change), and returns the events per
// agent, appended in that order with meta; a conflict reruns it with the
// newer states. Nothing is written when decide fails.
func (e *Writer) DecideAgents(ctx context.Context, step string, meta event.Metadata, agentIDs []string,
	decide func(states map[string]*negotiation.AgentState) ([]AgentEvents, error)) (int64, error) {
	pos, err := e.u.Commit(ctx, step, nil, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		e.dir.mu.Lock()
		err := e.dir.refresh(ctx, st) // a conflict reruns this with the newer profiles
		states := make(map[string]*negotiation.AgentState, len(agentIDs))
		for _, id := range agentIDs {
			a := &negotiation.AgentState{}
			if cur := e.dir.agents[id]; cur != nil {
				*a = *cur
			}
			states[id] = a
		}
		e.dir.mu.Unlock()
		if err != nil {
			return nil, err
		}
		decided, err := decide(states)
		if err != nil {
			return nil, err
		}
		p := &uow.Plan{}
		versions := map[string]int64{}
		for _, d := range decided {
			if len(d.Events) == 0 {
				continue
			}
			stream := negotiation.AgentStream(d.AgentID)
			v, seen := versions[stream]
			if !seen {
				if v, err = st.StreamVersion(ctx, stream); err != nil {
					return nil, err
				}
			}
			versions[stream] = v + int64(len(d.Events))
			p.Appends = append(p.Appends, uow.Append{Stream: stream, Expected: eventstore.ExpectedVersion(v), Meta: meta, Events: d.Events})
		}
		return p, nil
	})
	e.dir.Invalidate() // the refresh inside the transaction could not see its own writes
	return pos, err
}
