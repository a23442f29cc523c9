package negotiate

import (
	"cmp"
	"context"
	"fmt"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/llm"
)

// Prompt 1's user_context (the user's history and preferences): a root
// demand's user's last few root demands submitted before it, each with its text,
// how it had ended by then and the roles agreed. "Before" and "by then"
// are log positions — those of the demand's submission, or for a fork of
// its original's — so a replay or a fork of the same log renders the same
// prompt, and a fork reuses the original's recorded answer.

// userContextDemands is how many earlier demands the context lists, and
// userContextClip how many characters of each text it keeps.
const (
	userContextDemands = 5
	userContextClip    = 120
)

// userContext builds prompt 1's user_context for d: nil for a sub-demand
// (the system wrote it, not the user) and for a user with no earlier root
// demand.
func (e *Process) userContext(ctx context.Context, d *negotiation.DemandState) (*llm.UserContext, error) {
	if d.IsSub() || d.UserID == "" {
		return nil, nil
	}
	origin := d
	for origin.Fork != nil { // a fork's history is its original's
		o, _, err := e.loadDemand(ctx, origin.Fork.ForkedFrom)
		if err != nil {
			return nil, fmt.Errorf("user context: %w", err)
		}
		if !o.Exists() {
			break
		}
		origin = o
	}
	first, err := e.store.ReadStream(ctx, negotiation.DemandStream(origin.ID), 1, 1)
	if err != nil {
		return nil, fmt.Errorf("user context: %w", err)
	}
	if len(first) == 0 {
		return nil, nil
	}
	before := first[0].Position
	q := sqlcdb.New(e.pool)
	rows, err := q.UserEarlierDemands(ctx, sqlcdb.UserEarlierDemandsParams{UserID: d.UserID, Before: before, MaxCount: userContextDemands})
	if err != nil {
		return nil, fmt.Errorf("user context: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	submitted, err := eventstore.Recorded(rows)
	if err != nil {
		return nil, fmt.Errorf("user context: %w", err)
	}
	var streams []string // where a root demand ends: its stream, its channel's
	subs := make([]*negotiation.DemandSubmitted, len(submitted))
	for i, ev := range submitted {
		p, err := e.store.Decode(ctx, ev)
		if err != nil {
			return nil, fmt.Errorf("user context: %w", err)
		}
		s, ok := p.(*negotiation.DemandSubmitted)
		if !ok {
			return nil, fmt.Errorf("user context: event %d is %s", ev.Position, ev.Type)
		}
		subs[i] = s
		streams = append(streams, negotiation.DemandStream(s.DemandID), negotiation.ChannelStream(negotiation.ChannelIDFor(s.DemandID)))
	}
	endRows, err := q.DemandOutcomesBefore(ctx, sqlcdb.DemandOutcomesBeforeParams{StreamIds: streams, Before: before})
	if err != nil {
		return nil, fmt.Errorf("user context: %w", err)
	}
	ends, err := eventstore.Recorded(endRows)
	if err != nil {
		return nil, fmt.Errorf("user context: %w", err)
	}
	endOf := map[string]event.Payload{}
	for _, ev := range ends {
		p, err := e.store.Decode(ctx, ev)
		if err != nil {
			return nil, fmt.Errorf("user context: %w", err)
		}
		endOf[ev.Metadata.CorrelationID] = p
	}
	uc := &llm.UserContext{}
	for _, s := range subs {
		uc.EarlierDemands = append(uc.EarlierDemands, earlierDemand(s, endOf[s.DemandID]))
	}
	return uc, nil
}

// earlierDemand is a submitted root demand as the user context lists it,
// with the event that ended it (nil: still running).
func earlierDemand(s *negotiation.DemandSubmitted, end event.Payload) llm.EarlierDemand {
	ed := llm.EarlierDemand{Text: negotiation.ClipText(s.RawInput, userContextClip), Outcome: "processing"}
	switch x := end.(type) {
	case *negotiation.DemandRejected:
		ed.Outcome, ed.Detail = "rejected", cmp.Or(x.Message, x.Reason)
	case *negotiation.NegotiationFailed:
		ed.Outcome, ed.Detail = "failed", string(x.Reason)
	case *negotiation.NegotiationCompleted:
		ed.Outcome = string(x.Status)
		plan := x.MergedPlan
		if plan == nil {
			plan = x.FinalProposal
		}
		if plan != nil && x.Status != negotiation.ChannelStatusFailed {
			seen := map[string]bool{}
			for _, a := range plan.Assignments {
				if role := cmp.Or(a.Role, a.Need); role != "" && !seen[role] {
					seen[role] = true
					ed.Roles = append(ed.Roles, role)
				}
			}
		}
	}
	return ed
}
