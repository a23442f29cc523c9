package forks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/negotiate"
	"github.com/towow/towow/uow"
)

// Forks replays negotiations with a change: the fork command, and the
// reuse of the original's recorded LLM answers by every step of a fork. It
// is safe for concurrent use.
type Forks struct {
	u     *uow.UnitOfWork
	store *eventstore.Store
	pool  *pgxpool.Pool
	dir   *directory.Directory
	neg   *negotiate.Process
	now   func() time.Time
	// origins caches, by tree id, the root demand each tree was forked
	// from ("" for a tree that is no fork).
	origins sync.Map
}

// New returns the forks writing through u; the copied events set off the
// follow-up jobs of neg.
func New(u *uow.UnitOfWork, dir *directory.Directory, neg *negotiate.Process) *Forks {
	return &Forks{u: u, store: u.Store(), pool: u.Pool(), dir: dir, neg: neg, now: u.Now}
}

// Fork starts a fork of root demand demandID's negotiation after cursor at
// with one change: a new negotiation tree whose history up to
// at is the original's, going on from there with the change applied and
// the original's LLM answers reused wherever its change did not reach. It
// returns the fork's root demand id and the last position written.
// Errors are *event.Error: ErrNotFound, ErrForkPoint, ErrForkChange;
// nothing is written then.
func (e *Forks) Fork(ctx context.Context, demandID string, at int64, change negotiation.ForkChange) (string, int64, error) {
	if !slices.Contains(negotiation.ForkChangeTypes, change.Type) {
		return "", 0, &event.Error{Code: negotiation.ErrForkChange.Code, Message: fmt.Sprintf("unknown change %q", change.Type)}
	}
	if change.NeedsAgent() && strings.TrimSpace(change.AgentID) == "" {
		return "", 0, &event.Error{Code: negotiation.ErrForkChange.Code, Message: fmt.Sprintf("%s needs an agent_id", change.Type)}
	}
	id, err := negotiate.NewDemandID()
	if err != nil {
		return "", 0, err
	}
	pos, err := e.fork(ctx, demandID, id, at, change)
	if err != nil {
		return "", 0, err
	}
	return id, pos, nil
}

// fork copies root demand from's tree up to cursor at (extended to the
// end of the step that wrote it) as the tree of newDemandID, applies
// change and starts the fork. Errors are *event.Error: ErrNotFound (no
// such demand), ErrForkPoint (at is not an event of the tree, the tree is
// a sub-negotiation's, or it had ended by then), ErrForkChange (an unknown
// agent), ErrDuplicate (newDemandID exists); nothing is written then.
func (e *Forks) fork(ctx context.Context, from, newDemandID string, at int64, change negotiation.ForkChange) (int64, error) {
	evs, err := eventstore.ReadEvery(ctx, e.store, 0, eventstore.Filter{CorrelationID: from})
	if err != nil {
		return 0, fmt.Errorf("fork %s: %w", from, err)
	}
	if len(evs) == 0 {
		return 0, &event.Error{Code: negotiation.ErrNotFound.Code, Message: fmt.Sprintf("no negotiation %s", from)}
	}
	n, err := forkPoint(evs, from, at)
	if err != nil {
		return 0, err
	}
	agentName := ""
	if change.AgentID != "" {
		prof, active, ok, err := e.dir.Get(ctx, change.AgentID)
		switch {
		case err != nil:
			return 0, fmt.Errorf("fork %s: %w", from, err)
		case !ok:
			return 0, &event.Error{Code: negotiation.ErrForkChange.Code, Message: fmt.Sprintf("no agent %q in the directory", change.AgentID)}
		case change.Type == negotiation.ForkAddAgent && !active:
			return 0, &event.Error{Code: negotiation.ErrForkChange.Code, Message: fmt.Sprintf("agent %s is deactivated", change.AgentID)}
		}
		agentName = prof.UserName
	}
	oldTree, newTree := negotiation.ForkTreeID(from), negotiation.ForkTreeID(newDemandID)
	copied := evs[:n]
	newText := ""
	if change.Type == negotiation.ForkChangeDemand {
		d := &negotiation.DemandState{}
		for _, ev := range copied {
			if ev.StreamID == negotiation.DemandStream(from) {
				p, err := e.store.Decode(ctx, ev) // its text, to compare with the change's
				if err != nil {
					return 0, fmt.Errorf("fork %s: %w", from, err)
				}
				d.Apply(p)
			}
		}
		if newText, err = negotiation.ForkDemandText(d, change.Text); err != nil {
			return 0, err
		}
	}
	now := e.now()
	return e.u.Commit(ctx, "fork", []string{negotiation.DemandStream(newDemandID)}, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		if v, err := st.StreamVersion(ctx, negotiation.DemandStream(newDemandID)); err != nil {
			return nil, err
		} else if v > 0 {
			return nil, &event.Error{Code: negotiation.ErrDuplicate.Code, Message: fmt.Sprintf("demand %s exists", newDemandID)}
		}
		p := &uow.Plan{}
		versions := map[string]int64{}
		perStream := map[string][]event.Payload{}
		var order []string
		for _, ev := range copied {
			data, stream, err := rewriteEvent(ev, oldTree, newTree)
			if err != nil {
				return nil, err
			}
			pl, err := event.DecodePayload(data.Type, data.Metadata.SchemaVersion, data.Payload)
			if err != nil {
				return nil, fmt.Errorf("fork: decode event %d: %w", ev.Position, err)
			}
			if sub, ok := pl.(*negotiation.DemandSubmitted); ok && change.Type == negotiation.ForkChangeDemand && sub.DemandID == newDemandID {
				// change_demand: the copied submission carries the new
				// text (checked above: nothing read the old one yet).
				sub.RawInput = newText
				if data, err = eventstore.NewEvent(data.ID, sub, data.Metadata); err != nil {
					return nil, err
				}
			}
			if _, seen := perStream[stream]; !seen {
				order = append(order, stream)
			}
			perStream[stream] = append(perStream[stream], pl)
			if last := len(p.Appends) - 1; last >= 0 && p.Appends[last].Stream == stream {
				p.Appends[last].Raw = append(p.Appends[last].Raw, data)
			} else {
				p.Appends = append(p.Appends, uow.Append{Stream: stream, Expected: eventstore.ExpectedVersion(versions[stream]), Raw: []eventstore.EventData{data}})
			}
			versions[stream]++
		}
		// The copied tree as it is at the fork point, and the steps its
		// events set off.
		demands, channels := map[string]*negotiation.DemandState{}, map[string]*negotiation.Channel{}
		for _, stream := range order {
			switch {
			case strings.HasPrefix(stream, negotiation.DemandStream("")):
				d := &negotiation.DemandState{}
				for _, pl := range perStream[stream] {
					d.Apply(pl)
				}
				demands[stream] = d
			case strings.HasPrefix(stream, negotiation.ChannelStream("")):
				c := &negotiation.Channel{}
				for _, pl := range perStream[stream] {
					c.Apply(pl)
				}
				channels[c.ID] = c
			}
		}
		marker := &negotiation.NegotiationForked{DemandID: newDemandID, ForkedFrom: from, At: copied[len(copied)-1].Position,
			Copied: len(copied), Change: change, ForkedAt: now}
		meta := uow.Meta(newDemandID, event.ActorSystem, "fork:"+from)
		root := negotiation.DemandStream(newDemandID)
		p.Appends = append(p.Appends, uow.Append{Stream: root, Expected: eventstore.ExpectedVersion(versions[root]),
			Events: []event.Payload{marker}, Meta: meta})
		versions[root]++
		changed, err := negotiation.ApplyForkChange(channels, change, agentName, now)
		if err != nil {
			return nil, err
		}
		for _, ch := range changed {
			p.Appends = append(p.Appends, uow.Append{Stream: ch.Stream, Expected: eventstore.ExpectedVersion(versions[ch.Stream]),
				Events: ch.Events, Meta: meta})
			versions[ch.Stream] += int64(len(ch.Events))
			perStream[ch.Stream] = append(perStream[ch.Stream], ch.Events...)
		}
		for _, stream := range order {
			var jobs []uow.Job
			if d := demands[stream]; d != nil {
				jobs, err = e.neg.FollowUps(ctx, perStream[stream], nil, d)
			} else if c := channels[strings.TrimPrefix(stream, negotiation.ChannelStream(""))]; c != nil {
				jobs, err = e.neg.FollowUps(ctx, perStream[stream], c, nil)
			}
			if err != nil {
				return nil, err
			}
			p.Jobs = append(p.Jobs, jobs...)
		}
		p.Jobs = uniqueJobs(p.Jobs)
		return p, nil
	})
}

// forkPoint is how many of a tree's events a fork at cursor at copies:
// those up to at, and the rest of the step that wrote it (the events
// after it with the same causation). ErrForkPoint when at is not an event
// of the tree, the tree is a sub-negotiation's, or the negotiation had
// ended by then (a workflow, or its root completed, failed or rejected).
func forkPoint(evs []eventstore.RecordedEvent, root string, at int64) (int, error) {
	i := slices.IndexFunc(evs, func(e eventstore.RecordedEvent) bool { return e.Position == at })
	if i < 0 {
		return 0, &event.Error{Code: negotiation.ErrForkPoint.Code, Message: fmt.Sprintf("cursor %d is not an event of negotiation %s", at, root)}
	}
	if evs[0].Type != negotiation.EventDemandSubmitted || evs[0].StreamID != negotiation.DemandStream(root) {
		return 0, &event.Error{Code: negotiation.ErrForkPoint.Code, Message: fmt.Sprintf("%s is not a root negotiation: fork its root", root)}
	}
	for i+1 < len(evs) && evs[i].Metadata.CausationID != "" && evs[i+1].Metadata.CausationID == evs[i].Metadata.CausationID {
		i++
	}
	rootChannel := negotiation.ChannelStream(negotiation.ChannelIDFor(root))
	for _, e := range evs[:i+1] {
		ended := (e.Type == negotiation.EventNegotiationCompleted && e.StreamID == rootChannel) ||
			(e.StreamID == negotiation.DemandStream(root) && (e.Type == negotiation.EventDemandRejected || e.Type == negotiation.EventNegotiationFailed)) ||
			strings.HasPrefix(e.StreamID, workflow.WorkflowStream(""))
		if ended {
			return 0, &event.Error{Code: negotiation.ErrForkPoint.Code, Message: fmt.Sprintf(
				"negotiation %s had ended by cursor %d (%s at cursor %d): fork it at an earlier cursor", root, at, e.Type, e.Position)}
		}
	}
	return i + 1, nil
}

// rewriteEvent is an original's event as the fork's: the tree's id part
// replaced in the stream, the payload and the metadata; its LLM call
// marked reused (the fork did not ask the provider for it) and its
// causation naming the original's event.
func rewriteEvent(ev eventstore.RecordedEvent, oldTree, newTree string) (eventstore.EventData, string, error) {
	md := ev.Metadata
	md.CorrelationID = strings.ReplaceAll(md.CorrelationID, oldTree, newTree)
	md.CausationID = fmt.Sprintf("fork:%d", ev.Position)
	if md.LLMCall != nil {
		c := *md.LLMCall
		c.Reused = true
		md.LLMCall = &c
	}
	id, err := uuid.NewV7()
	if err != nil {
		return eventstore.EventData{}, "", fmt.Errorf("event id: %w", err)
	}
	payload := bytes.ReplaceAll(ev.Payload, []byte(oldTree), []byte(newTree))
	if !json.Valid(payload) {
		return eventstore.EventData{}, "", fmt.Errorf("fork: event %d does not rewrite to JSON", ev.Position)
	}
	return eventstore.EventData{ID: id, Type: ev.Type, Payload: payload, Metadata: md},
		strings.ReplaceAll(ev.StreamID, oldTree, newTree), nil
}

// uniqueJobs drops repeated jobs (the same kind and arguments).
func uniqueJobs(jobs []uow.Job) []uow.Job {
	seen := map[string]bool{}
	out := jobs[:0]
	for _, j := range jobs {
		b, _ := json.Marshal(j.Args)
		key := j.Args.Kind() + string(b)
		if !seen[key] {
			seen[key] = true
			out = append(out, j)
		}
	}
	return out
}
