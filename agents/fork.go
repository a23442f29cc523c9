package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/llm"
)

// Forks (issue 15). A fork copies a negotiation tree's events up to a
// cursor under the ids of a new tree (every id of a tree carries its root
// demand's id, so the copy is a replacement of that part), records
// towow.negotiation.forked with its change, applies the change, and
// enqueues every step the copied events set off: each step looks at the
// state it finds and does nothing when its phase has passed (as any
// retried step must), so the fork goes on from wherever the original was.
// Every step of the fork asks for reuse of the original's LLM answers
// (forkContext): a call whose input is the original's, ids aside, takes
// the recorded answer; what the change touched asks the provider.

// Fork copies root demand from's tree up to cursor at (extended to the
// end of the step that wrote it) as the tree of newDemandID, applies
// change and starts the fork. Errors are *domain.Error: ErrNotFound (no
// such demand), ErrForkPoint (at is not an event of the tree, the tree is
// a sub-negotiation's, or it had ended by then), ErrForkChange (an unknown
// agent), ErrDuplicate (newDemandID exists); nothing is written then.
func (e *Engine) Fork(ctx context.Context, from, newDemandID string, at int64, change domain.ForkChange) (int64, error) {
	evs, err := eventstore.ReadEvery(ctx, e.store, 0, eventstore.Filter{CorrelationID: from})
	if err != nil {
		return 0, fmt.Errorf("fork %s: %w", from, err)
	}
	if len(evs) == 0 {
		return 0, &domain.Error{Code: domain.ErrNotFound.Code, Message: fmt.Sprintf("no negotiation %s", from)}
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
			return 0, &domain.Error{Code: domain.ErrForkChange.Code, Message: fmt.Sprintf("no agent %q in the directory", change.AgentID)}
		case change.Type == domain.ForkAddAgent && !active:
			return 0, &domain.Error{Code: domain.ErrForkChange.Code, Message: fmt.Sprintf("agent %s is deactivated", change.AgentID)}
		}
		agentName = prof.UserName
	}
	oldTree, newTree := domain.ForkTreeID(from), domain.ForkTreeID(newDemandID)
	copied := evs[:n]
	newText := ""
	if change.Type == domain.ForkChangeDemand {
		d := &domain.DemandState{}
		for _, ev := range copied {
			if ev.StreamID == domain.DemandStream(from) {
				p, err := ev.Decode()
				if err != nil {
					return 0, fmt.Errorf("fork %s: %w", from, err)
				}
				d.Apply(p)
			}
		}
		if newText, err = domain.ForkDemandText(d, change.Text); err != nil {
			return 0, err
		}
	}
	now := e.cfg.Now()
	return e.commit(ctx, "fork", []string{domain.DemandStream(newDemandID)}, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
		if v, err := st.StreamVersion(ctx, domain.DemandStream(newDemandID)); err != nil {
			return nil, err
		} else if v > 0 {
			return nil, &domain.Error{Code: domain.ErrDuplicate.Code, Message: fmt.Sprintf("demand %s exists", newDemandID)}
		}
		p := &plan{}
		versions := map[string]int64{}
		perStream := map[string][]domain.Payload{}
		var order []string
		for _, ev := range copied {
			data, stream, err := rewriteEvent(ev, oldTree, newTree)
			if err != nil {
				return nil, err
			}
			pl, err := domain.DecodePayload(data.Type, data.Metadata.SchemaVersion, data.Payload)
			if err != nil {
				return nil, fmt.Errorf("fork: decode event %d: %w", ev.Position, err)
			}
			if sub, ok := pl.(*domain.DemandSubmitted); ok && change.Type == domain.ForkChangeDemand && sub.DemandID == newDemandID {
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
			if last := len(p.appends) - 1; last >= 0 && p.appends[last].stream == stream {
				p.appends[last].raw = append(p.appends[last].raw, data)
			} else {
				p.appends = append(p.appends, appendOp{stream: stream, expected: eventstore.ExpectedVersion(versions[stream]), raw: []eventstore.EventData{data}})
			}
			versions[stream]++
		}
		// The copied tree as it is at the fork point, and the steps its
		// events set off.
		demands, channels := map[string]*domain.DemandState{}, map[string]*domain.Channel{}
		for _, stream := range order {
			switch {
			case strings.HasPrefix(stream, domain.DemandStream("")):
				d := &domain.DemandState{}
				for _, pl := range perStream[stream] {
					d.Apply(pl)
				}
				demands[stream] = d
			case strings.HasPrefix(stream, domain.ChannelStream("")):
				c := &domain.Channel{}
				for _, pl := range perStream[stream] {
					c.Apply(pl)
				}
				channels[c.ID] = c
			}
		}
		marker := &domain.NegotiationForked{DemandID: newDemandID, ForkedFrom: from, At: copied[len(copied)-1].Position,
			Copied: len(copied), Change: change, ForkedAt: now}
		meta := stepMeta(newDemandID, domain.ActorSystem, "fork:"+from)
		root := domain.DemandStream(newDemandID)
		p.appends = append(p.appends, appendOp{stream: root, expected: eventstore.ExpectedVersion(versions[root]),
			events: []domain.Payload{marker}, meta: meta})
		versions[root]++
		changed, err := domain.ApplyForkChange(channels, change, agentName, now)
		if err != nil {
			return nil, err
		}
		for _, ch := range changed {
			p.appends = append(p.appends, appendOp{stream: ch.Stream, expected: eventstore.ExpectedVersion(versions[ch.Stream]),
				events: ch.Events, meta: meta})
			versions[ch.Stream] += int64(len(ch.Events))
			perStream[ch.Stream] = append(perStream[ch.Stream], ch.Events...)
		}
		for _, stream := range order {
			var jobs []job
			if d := demands[stream]; d != nil {
				jobs, err = e.reactions(ctx, perStream[stream], nil, d)
			} else if c := channels[strings.TrimPrefix(stream, domain.ChannelStream(""))]; c != nil {
				jobs, err = e.reactions(ctx, perStream[stream], c, nil)
			}
			if err != nil {
				return nil, err
			}
			p.jobs = append(p.jobs, jobs...)
		}
		p.jobs = uniqueJobs(p.jobs)
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
		return 0, &domain.Error{Code: domain.ErrForkPoint.Code, Message: fmt.Sprintf("cursor %d is not an event of negotiation %s", at, root)}
	}
	if evs[0].Type != domain.EventDemandSubmitted || evs[0].StreamID != domain.DemandStream(root) {
		return 0, &domain.Error{Code: domain.ErrForkPoint.Code, Message: fmt.Sprintf("%s is not a root negotiation: fork its root", root)}
	}
	for i+1 < len(evs) && evs[i].Metadata.CausationID != "" && evs[i+1].Metadata.CausationID == evs[i].Metadata.CausationID {
		i++
	}
	rootChannel := domain.ChannelStream(domain.ChannelIDFor(root))
	for _, e := range evs[:i+1] {
		ended := (e.Type == domain.EventNegotiationCompleted && e.StreamID == rootChannel) ||
			(e.StreamID == domain.DemandStream(root) && (e.Type == domain.EventDemandRejected || e.Type == domain.EventNegotiationFailed)) ||
			strings.HasPrefix(e.StreamID, domain.WorkflowStream(""))
		if ended {
			return 0, &domain.Error{Code: domain.ErrForkPoint.Code, Message: fmt.Sprintf(
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
func uniqueJobs(jobs []job) []job {
	seen := map[string]bool{}
	out := jobs[:0]
	for _, j := range jobs {
		b, _ := json.Marshal(j.args)
		key := j.args.Kind() + string(b)
		if !seen[key] {
			seen[key] = true
			out = append(out, j)
		}
	}
	return out
}

// forkContext asks for reuse of recorded LLM answers when the step works
// on a forked tree (named by its arguments): the fork's ids are mapped to
// the original's, and the answers are looked up in the original's events.
func (e *Engine) forkContext(ctx context.Context, encodedArgs []byte) context.Context {
	var ids struct {
		DemandID        string `json:"demand_id"`
		ChannelID       string `json:"channel_id"`
		ParentChannelID string `json:"parent_channel_id"`
		WorkflowID      string `json:"workflow_id"`
	}
	if json.Unmarshal(encodedArgs, &ids) != nil {
		return ctx
	}
	tree := ""
	for _, id := range []string{ids.DemandID, ids.ChannelID, ids.ParentChannelID, ids.WorkflowID} {
		if _, rest, ok := strings.Cut(id, "-"); ok && rest != "" {
			tree, _, _ = strings.Cut(rest, "-")
			break
		}
	}
	if tree == "" {
		return ctx
	}
	origin, err := e.forkOrigin(ctx, tree)
	if err != nil || origin == "" {
		return ctx
	}
	oldTree := domain.ForkTreeID(origin)
	return llm.WithReuse(ctx, recordedAnswers{e: e, root: origin, from: oldTree, to: tree},
		func(s string) string { return strings.ReplaceAll(s, tree, oldTree) })
}

// forkOrigin is the root demand a tree was forked from ("" when it is no
// fork), cached once the tree's root demand exists (a fork's marker is in
// the commit that creates it).
func (e *Engine) forkOrigin(ctx context.Context, tree string) (string, error) {
	if v, ok := e.forks.Load(tree); ok {
		return v.(string), nil
	}
	d, _, err := e.loadDemand(ctx, "d-"+tree)
	if err != nil || !d.Exists() {
		return "", err
	}
	origin := ""
	if d.Fork != nil {
		origin = d.Fork.ForkedFrom
	}
	e.forks.Store(tree, origin)
	return origin, nil
}

// forkChange is the change of the fork whose tree d belongs to (nil for a
// tree that is no fork): its later channels keep a removed agent out and
// take changed rules. A root demand carries it; a sub-demand's root is
// loaded.
func (e *Engine) forkChange(ctx context.Context, d *domain.DemandState) (*domain.ForkChange, error) {
	root := d
	if d.RootDemandID != d.ID {
		var err error
		if root, _, err = e.loadDemand(ctx, d.RootDemandID); err != nil {
			return nil, fmt.Errorf("fork change of %s: %w", d.RootDemandID, err)
		}
	}
	if root.Fork == nil {
		return nil, nil
	}
	return &root.Fork.Change, nil
}

// recordedAnswers finds the answers of a tree's recorded LLM calls, with
// the original tree's id part (from) replaced by the fork's (to).
type recordedAnswers struct {
	e        *Engine
	root     string
	from, to string
}

// Answer implements llm.Recorded.
func (r recordedAnswers) Answer(ctx context.Context, key llm.PromptKey, inputHash string) (string, bool, error) {
	answers, err := sqlcdb.New(r.e.pool).RecordedLLMAnswer(ctx, sqlcdb.RecordedLLMAnswerParams{DemandID: r.root,
		PromptKey: string(key), InputHash: inputHash})
	if err != nil {
		return "", false, fmt.Errorf("recorded answer: %w", err)
	}
	if len(answers) == 0 {
		return "", false, nil
	}
	return strings.ReplaceAll(answers[0], r.from, r.to), true, nil
}
