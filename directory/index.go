package directory

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/towow/towow/internal/sqlcdb"
)

// The agent index (table agent_index) is the directory as SQL sees it:
// the filter's first stage shortlists over it, so that prompt 2 reads a
// bounded number of profiles however large the network grows.

// indexBatch is how many agents one statement writes to the index.
const indexBatch = 5000

// SyncIndex brings the agent index up to the directory, which first
// catches up with the committed log: it writes every agent whose last
// event is after the index's position. Any process may do it at any time;
// rows only move forward. A process syncs once at a time (the steps that
// wait then find the index up to date), and writes the agents in id
// order, so that two processes syncing at once wait for each other's rows
// instead of deadlocking on them.
func (d *Directory) SyncIndex(ctx context.Context, db sqlcdb.DBTX) error {
	if err := d.RefreshIfStale(ctx); err != nil {
		return err
	}
	d.syncMu.Lock()
	defer d.syncMu.Unlock()
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
	for _, id := range slices.Sorted(maps.Keys(d.changedAt)) {
		changed := d.changedAt[id]
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

// Summary returns how many agents are active and, when n > 0, the n tags
// they carry most (then by name): prompt 1 reads them to name needs in the
// network's words. Both are computed again only when the directory moved.
func (d *Directory) Summary(ctx context.Context, n int) (active int, tags []string, err error) {
	if err := d.RefreshIfStale(ctx); err != nil {
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
