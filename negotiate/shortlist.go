package negotiate

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/sqlcdb"
)

// The smart filter's first stage: SQL shortlists at most Config.Shortlist
// agents over the agent index, spread over the demand's needs; prompt 2
// then reads only those profiles, so its prompt stays the same size however
// large the network grows.

// shortlistQuery is what the first stage looks for.
type shortlistQuery struct {
	Needs    []negotiation.Need
	Location string // the demand's city
	Salt     string // spreads equal agents across demands (the demand's text)
	Exclude  []string
	Max      int
}

// shortlist returns at most q.Max active profiles for q's needs: for each
// need the agents carrying all its tags first (then local, then in an order
// drawn from the salt), taken in turns over the needs so that every need
// gets its share and a need with few matches leaves its share to the
// others; places left over go to local or remote agents. Nobody carrying
// a need's tag: an empty shortlist.
func (e *Process) shortlist(ctx context.Context, q shortlistQuery) ([]negotiation.AgentProfile, error) {
	if err := e.dir.SyncIndex(ctx, e.pool); err != nil {
		return nil, err
	}
	db := sqlcdb.New(e.pool)
	lists := make([][]string, 0, len(q.Needs))
	for _, n := range q.Needs {
		if len(n.CapabilityTags) == 0 {
			continue
		}
		rows, err := db.ShortlistAgents(ctx, sqlcdb.ShortlistAgentsParams{Tags: n.CapabilityTags, Exclude: nonNilStrings(q.Exclude),
			Location: q.Location, Salt: q.Salt, MaxRows: int32(q.Max)})
		if err != nil {
			return nil, fmt.Errorf("shortlist: %w", err)
		}
		lists = append(lists, rows)
	}
	seen := map[string]bool{}
	var out []negotiation.AgentProfile
	for turn := 0; len(out) < q.Max; turn++ {
		more := false
		for _, ids := range lists {
			if turn >= len(ids) {
				continue
			}
			more = true
			id := ids[turn]
			if seen[id] || len(out) == q.Max {
				continue
			}
			seen[id] = true
			if p, active, ok := e.dir.Lookup(id); ok && active {
				out = append(out, p)
			}
		}
		if !more {
			break
		}
	}
	if len(out) == 0 || len(out) >= q.Max {
		return out, nil // nobody serves any need: nothing to fill (the demand is rejected without a call)
	}
	// Fewer matches than places: the best of the rest (local or remote)
	// fill it, so that prompt 2 may find the possibly related, and its
	// size does not depend on how many happened to match.
	exclude := slices.Concat(q.Exclude, slices.Collect(maps.Keys(seen)))
	ids, err := db.FillShortlist(ctx, sqlcdb.FillShortlistParams{Locations: []string{q.Location, "远程", "线上", "remote"},
		Exclude: exclude, Salt: q.Salt, MaxRows: int32(q.Max - len(out))})
	if err != nil {
		return nil, fmt.Errorf("shortlist: %w", err)
	}
	for _, id := range ids {
		if p, active, ok := e.dir.Lookup(id); ok && active {
			out = append(out, p)
		}
	}
	return out, nil
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// knownTagsInPrompt is how many of the network's tags prompt 1 reads.
const knownTagsInPrompt = 60

// Shortlist is the filter's first stage on its own (for `towow bench
// filter`): at most Config.Shortlist active profiles for the needs, local
// ones first, spread by salt.
func (e *Process) Shortlist(ctx context.Context, needs []negotiation.Need, location, salt string) ([]negotiation.AgentProfile, error) {
	return e.shortlist(ctx, shortlistQuery{Needs: needs, Location: location, Salt: salt, Max: e.cfg.Shortlist})
}
