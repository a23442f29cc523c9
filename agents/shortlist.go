package agents

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/internal/sqlcdb"
)

// The smart filter's first stage (issue 12, 001 ADR-004): SQL shortlists
// at most Config.Shortlist agents over the agent index, spread over the
// demand's needs; prompt 2 then reads only those profiles, so its prompt
// stays the same size however large the network grows.

// indexBatch is how many agents one statement writes to the index.
const indexBatch = 5000

// syncIndex brings the agent index up to the directory, which first
// catches up with the committed log: it writes every agent whose last
// event is after the index's position. Any process may do it at any time;
// rows only move forward.
func (d *Directory) syncIndex(ctx context.Context, db sqlcdb.DBTX) error {
	if err := d.refreshIfStale(ctx); err != nil {
		return err
	}
	q := sqlcdb.New(db)
	at, err := q.AgentIndexPosition(ctx)
	if err != nil {
		return fmt.Errorf("agent index: %w", err)
	}
	d.mu.Lock()
	pos := d.pos
	if pos <= at {
		d.mu.Unlock()
		return nil
	}
	var batches []sqlcdb.UpsertAgentIndexParams
	var b sqlcdb.UpsertAgentIndexParams
	for id, changed := range d.changedAt {
		if changed <= at {
			continue
		}
		a := d.agents[id]
		if !a.Exists() {
			continue
		}
		b.AgentIds = append(b.AgentIds, id)
		b.Actives = append(b.Actives, a.Active)
		b.Modes = append(b.Modes, string(a.Profile.Mode))
		b.Tags = append(b.Tags, strings.Join(a.Profile.Tags, "\x1f"))
		b.Locations = append(b.Locations, a.Profile.Location)
		b.Availabilities = append(b.Availabilities, a.Profile.Availability)
		b.Positions = append(b.Positions, changed)
		if len(b.AgentIds) == indexBatch {
			b.Position = at // only the last batch moves the position
			batches, b = append(batches, b), sqlcdb.UpsertAgentIndexParams{}
		}
	}
	d.mu.Unlock()
	b.Position = pos
	for _, batch := range append(batches, b) {
		if err := q.UpsertAgentIndex(ctx, batch); err != nil {
			return fmt.Errorf("agent index: %w", err)
		}
	}
	return nil
}

// shortlistQuery is what the first stage looks for.
type shortlistQuery struct {
	Needs    []domain.Need
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
func (e *Engine) shortlist(ctx context.Context, q shortlistQuery) ([]domain.AgentProfile, error) {
	if err := e.dir.syncIndex(ctx, e.pool); err != nil {
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
	var out []domain.AgentProfile
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
			if p, active, ok := e.dir.lookup(id); ok && active {
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
		if p, active, ok := e.dir.lookup(id); ok && active {
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

// summary returns how many agents are active and, when n > 0, the n tags
// they carry most (then by name): prompt 1 reads them to name needs in the
// network's words. Both are computed again only when the directory moved.
func (d *Directory) summary(ctx context.Context, n int) (active int, tags []string, err error) {
	if err := d.refreshIfStale(ctx); err != nil {
		return 0, nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.summaryAt != d.pos || d.summaryAt == 0 {
		counts := map[string]int{}
		d.activeCount = 0
		for _, a := range d.agents {
			if !a.Exists() || !a.Active {
				continue
			}
			d.activeCount++
			for _, t := range a.Profile.Tags {
				counts[t]++
			}
		}
		d.topTags = d.topTags[:0]
		for t := range counts {
			d.topTags = append(d.topTags, t)
		}
		slices.SortFunc(d.topTags, func(a, b string) int {
			if counts[a] != counts[b] {
				return counts[b] - counts[a]
			}
			return strings.Compare(a, b)
		})
		d.summaryAt = d.pos
	}
	return d.activeCount, slices.Clone(d.topTags[:min(n, len(d.topTags))]), nil
}

// Shortlist is the filter's first stage on its own (for `towow bench
// filter`): at most Config.Shortlist active profiles for the needs, local
// ones first, spread by salt.
func (e *Engine) Shortlist(ctx context.Context, needs []domain.Need, location, salt string) ([]domain.AgentProfile, error) {
	return e.shortlist(ctx, shortlistQuery{Needs: needs, Location: location, Salt: salt, Max: e.cfg.Shortlist})
}
