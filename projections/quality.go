package projections

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/quality"
)

// Quality keeps one row per root negotiation that ended (finalized,
// force-finalized, failed or rejected): its quality report (package
// quality) as of the event that ended it, and, for the fairness Gini, the
// places each agent invited in the tree holds in its plan. It is what GET
// /api/v1/quality sums up over a user and a time range, whatever the
// number of demands in it.
//
// Unlike the other models it folds in Go, not SQL: the scores are
// quality.Score over the tree's events. When an event ends a root
// negotiation (see endsRoot), Apply reads that tree's events up to and
// including it from the events table, and the assignees' capability tags
// as of it from their latest towow.agent.registered or .updated at or
// before it (the log, not the agents read model, so the rows do not depend
// on how far another model has folded or in what order models rebuild),
// scores them and writes the row. A later ending event of the same tree
// (a failure, then a completion) scores it again and replaces the row.
//
// Apply reads (the log, through q). The runner hands a model's Apply the
// write-only rebuild pipeline only when the model is no SQLRebuilder
// (Runner.Rebuild); Quality declares its own Rebuild, so its Apply always
// runs in the runner's batch transaction, where every event up to the one
// applied has committed. Were it ever handed the pipeline, its first read
// would fail (errPipelineRead) and roll the rebuild back: it cannot write
// wrong rows that way.
type Quality struct{ modelMethods[Quality] }

// Model declares the quality read model.
func (Quality) Model() Model { return qualityModel }

var qualityModel = Model{
	Name:     "quality",
	Types:    []event.EventType{negotiation.EventDemandRejected, negotiation.EventNegotiationFailed, negotiation.EventNegotiationCompleted},
	Apply:    applyQuality,
	Reset:    (*sqlcdb.Queries).DeleteQuality,
	Rebuild:  rebuildQuality,
	Checksum: fingerprint((*sqlcdb.Queries).ChecksumQuality),
}

func applyQuality(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, p event.Payload) error {
	root, ok := endsRoot(e, p)
	if !ok {
		return nil
	}
	return scoreQuality(ctx, q, root, e)
}

// endsRoot reports whether e (payload p) makes quality.Score's report of
// its tree (metadata.correlation_id, the root demand) final: the root
// demand rejected, the root demand failed, or the root channel completed.
// These are exactly the cases where Score sets Final.
func endsRoot(e eventstore.RecordedEvent, p event.Payload) (string, bool) {
	var demandID, channelID string
	switch x := p.(type) {
	case *negotiation.DemandRejected:
		demandID = x.DemandID
	case *negotiation.NegotiationFailed:
		demandID = x.DemandID
	case *negotiation.NegotiationCompleted:
		channelID = x.ChannelID
	}
	return endsRootBy(e, demandID, channelID)
}

// endsRootBy is endsRoot on the two fields it reads (the rebuild reads
// them without decoding the whole payload: a completion carries plans).
func endsRootBy(e eventstore.RecordedEvent, demandID, channelID string) (string, bool) {
	root := e.Metadata.CorrelationID
	if root == "" {
		return "", false
	}
	switch e.Type {
	case negotiation.EventDemandRejected, negotiation.EventNegotiationFailed:
		return root, demandID == root
	case negotiation.EventNegotiationCompleted:
		return root, channelID == negotiation.ChannelIDFor(root)
	}
	return "", false
}

// rebuildQuality folds the table again up to head: for every tree, what
// Apply wrote last, that is the score as of the last event at or before
// head that ended its root (the earlier ones' rows were replaced). Whether
// the tree's root is a root demand only depends on its first submission,
// so a tree Apply skipped at its last ending it skipped at every one.
//
// It scores the trees qualityRebuildChunk at a time, set-based: one read
// of the chunk's trees' events (each up to its own ending), one of its
// assignees' profile events (the tags as of each ending are looked up in
// Go), and three writes (rows, places deleted, places inserted).
func rebuildQuality(q *sqlcdb.Queries, ctx context.Context, head int64) error {
	rows, err := q.QualityEndings(ctx, head)
	if err != nil {
		return fmt.Errorf("rebuild quality: %w", err)
	}
	last := map[string]eventstore.RecordedEvent{}
	var roots []string
	for _, r := range rows {
		e := eventstore.RecordedEvent{Position: r.GlobalPosition, Type: event.EventType(r.EventType), RecordedAt: r.RecordedAt,
			Metadata: event.Metadata{CorrelationID: r.RootDemandID}}
		root, ok := endsRootBy(e, r.DemandID, r.ChannelID)
		if !ok {
			continue
		}
		if _, seen := last[root]; !seen {
			roots = append(roots, root)
		}
		last[root] = e
	}
	for chunk := range slices.Chunk(roots, qualityRebuildChunk) {
		if err := rebuildQualityChunk(ctx, q, chunk, last); err != nil {
			return fmt.Errorf("rebuild quality: %w", err)
		}
	}
	return nil
}

// qualityRebuildChunk bounds the trees rebuildQuality holds in memory (and
// binds per statement) at once.
const qualityRebuildChunk = 250

// rebuildQualityChunk scores the trees of roots, each as of its ending
// event last[root], and writes their rows and places.
func rebuildQualityChunk(ctx context.Context, q *sqlcdb.Queries, roots []string, last map[string]eventstore.RecordedEvent) error {
	until := make([]int64, len(roots))
	var maxEnd int64
	for i, root := range roots {
		until[i] = last[root].Position
		maxEnd = max(maxEnd, until[i])
	}
	rows, err := q.QualityTreesEvents(ctx, sqlcdb.QualityTreesEventsParams{PayloadTypes: qualityPayloadTypes,
		RootDemandIds: roots, UntilPositions: until})
	if err != nil {
		return fmt.Errorf("read the trees' events: %w", err)
	}
	byRoot := make(map[string][]sqlcdb.QualityTreesEventsRow, len(roots))
	for _, r := range rows {
		byRoot[r.RootDemandID] = append(byRoot[r.RootDemandID], r)
	}
	for _, tree := range byRoot {
		slices.SortFunc(tree, func(a, b sqlcdb.QualityTreesEventsRow) int { return cmp.Compare(a.GlobalPosition, b.GlobalPosition) })
	}
	type scored struct {
		root  string // "": not a root demand
		tree  qualityTree
		asked []string
	}
	// Decoding is most of the work: the trees are decoded (and their
	// assignees named) on every core, while the database waits.
	decoded := make([]scored, len(roots))
	errs := make([]error, len(roots))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(roots)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(roots); i = int(next.Add(1)) - 1 {
				t, ok, err := scoredTreeOf(roots[i], byRoot[roots[i]])
				if err != nil || !ok {
					errs[i] = err
					continue
				}
				decoded[i] = scored{root: roots[i], tree: t, asked: t.asked()}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var trees []scored
	asked := map[string]bool{}
	for _, s := range decoded {
		if s.root == "" {
			continue
		}
		for _, id := range s.asked {
			asked[id] = true
		}
		trees = append(trees, s)
	}
	if len(trees) == 0 {
		return nil
	}
	profiles, err := agentProfiles(ctx, q, slices.Sorted(maps.Keys(asked)), maxEnd)
	if err != nil {
		return err
	}
	var w qualityWrites
	for _, s := range trees {
		pos := last[s.root].Position
		row, err := s.tree.row(last[s.root], func(agentID string) []string { return profiles.tagsAt(agentID, pos) })
		if err != nil {
			return err
		}
		w.add(row)
	}
	return w.write(ctx, q)
}

// qualityPayloadTypes are the types of the events whose payloads
// QualityTreesEvents returns (quality.ScoredTypes).
var qualityPayloadTypes = func() []string {
	out := make([]string, len(quality.ScoredTypes))
	for i, t := range quality.ScoredTypes {
		out[i] = string(t)
	}
	return out
}()

// scoredTreeOf is qualityTreeOf over QualityTreesEvents' rows: the same
// tree for quality.Score, but only the payloads Score reads are decoded
// (the query returns no other), and only the LLM call of the metadata.
func scoredTreeOf(root string, rows []sqlcdb.QualityTreesEventsRow) (qualityTree, bool, error) {
	t := qualityTree{root: root, events: make([]quality.Event, len(rows))}
	for i, r := range rows {
		ev := quality.Event{StreamID: r.StreamID, RecordedAt: r.RecordedAt}
		if len(r.LlmCall) > 0 {
			if err := json.Unmarshal(r.LlmCall, &ev.LLMCall); err != nil {
				return t, false, fmt.Errorf("quality of %q: event at position %d: metadata: %w", root, r.GlobalPosition, err)
			}
		}
		if r.Payload != nil {
			p, err := event.DecodePayload(event.EventType(r.EventType), int(r.SchemaVersion), r.Payload)
			if err != nil {
				return t, false, fmt.Errorf("quality of %q: event at position %d: %w", root, r.GlobalPosition, err)
			}
			ev.Payload = p
			if s, ok := p.(*negotiation.DemandSubmitted); ok && s.DemandID == root && t.sub == nil {
				t.sub = s
				t.submitted = eventstore.RecordedEvent{Position: r.GlobalPosition, RecordedAt: r.RecordedAt}
			}
		}
		t.events[i] = ev
	}
	return t, t.isRoot(), nil
}

// agentTags are agents' capability tags over the log: for each agent,
// every registration or update, in log order.
type agentTags map[string][]profileAt

type profileAt struct {
	position int64
	tags     []string
}

// agentProfiles reads the registrations and updates of agentIDs up to pos.
func agentProfiles(ctx context.Context, q *sqlcdb.Queries, agentIDs []string, pos int64) (agentTags, error) {
	out := agentTags{}
	if len(agentIDs) == 0 {
		return out, nil
	}
	rows, err := q.QualityAgentProfiles(ctx, sqlcdb.QualityAgentProfilesParams{AgentIds: agentIDs, UntilPosition: pos})
	if err != nil {
		return nil, fmt.Errorf("agent tags: %w", err)
	}
	recs, err := eventstore.Recorded(rows)
	if err != nil {
		return nil, fmt.Errorf("agent tags: %w", err)
	}
	for _, r := range recs {
		p, err := r.Decode()
		if err != nil {
			return nil, fmt.Errorf("agent tags: %w", err)
		}
		switch x := p.(type) {
		case *negotiation.AgentRegistered:
			out[x.AgentID] = append(out[x.AgentID], profileAt{r.Position, x.Profile.Tags})
		case *negotiation.AgentUpdated:
			out[x.AgentID] = append(out[x.AgentID], profileAt{r.Position, x.Profile.Tags})
		}
	}
	return out, nil
}

// tagsAt is the agent's tags as of position pos: those of its latest
// registration or update at or before pos (nil: none).
func (a agentTags) tagsAt(agentID string, pos int64) []string {
	ps := a[agentID]
	// The first registration or update after pos (none equals it).
	i, _ := slices.BinarySearchFunc(ps, pos, func(p profileAt, pos int64) int {
		if p.position <= pos {
			return -1
		}
		return 1
	})
	if i == 0 {
		return nil
	}
	return ps[i-1].tags
}

// scoreQuality scores the tree of root as of the event end and writes its
// row and places (Apply); nothing when root is not a root demand (see
// qualityTreeOf).
func scoreQuality(ctx context.Context, q *sqlcdb.Queries, root string, end eventstore.RecordedEvent) error {
	rows, err := q.QualityTreeEvents(ctx, sqlcdb.QualityTreeEventsParams{RootDemandID: root, UntilPosition: end.Position})
	if err != nil {
		return fmt.Errorf("quality of %q: read its events: %w", root, err)
	}
	recs, err := eventstore.Recorded(rows)
	if err != nil {
		return fmt.Errorf("quality of %q: %w", root, err)
	}
	t, ok, err := qualityTreeOf(root, recs)
	if err != nil || !ok {
		return err
	}
	tags, err := tagsAsOf(ctx, q, root, t.asked(), end.Position)
	if err != nil {
		return err
	}
	row, err := t.row(end, func(agentID string) []string { return tags[agentID] })
	if err != nil {
		return err
	}
	var w qualityWrites // the rebuild's statements, for one row
	w.add(row)
	if err := w.write(ctx, q); err != nil {
		return fmt.Errorf("quality of %q: %w", root, err)
	}
	return nil
}

// qualityTree is a root negotiation's tree decoded for quality.Score.
type qualityTree struct {
	root      string
	events    []quality.Event
	sub       *negotiation.DemandSubmitted // the root's first submission
	submitted eventstore.RecordedEvent
}

// qualityTreeOf decodes a tree's events (in log order); ok is false when
// root is not a root demand (its first towow.demand.submitted in the tree
// names a parent or another root, or there is none).
func qualityTreeOf(root string, recs []eventstore.RecordedEvent) (qualityTree, bool, error) {
	t := qualityTree{root: root, events: make([]quality.Event, 0, len(recs))}
	for _, r := range recs {
		ev, err := quality.EventOf(r)
		if err != nil {
			return t, false, fmt.Errorf("quality of %q: %w", root, err)
		}
		if s, ok := ev.Payload.(*negotiation.DemandSubmitted); ok && s.DemandID == root && t.sub == nil {
			t.sub, t.submitted = s, r
		}
		t.events = append(t.events, ev)
	}
	return t, t.isRoot(), nil
}

// isRoot reports whether the tree's root is a root demand: its first
// submission in the tree names no parent nor another root.
func (t qualityTree) isRoot() bool {
	return t.sub != nil && (t.sub.RootDemandID == "" || t.sub.RootDemandID == t.root) && t.sub.ParentDemandID == ""
}

// asked lists, sorted, the agents whose tags Score asks about for this
// tree (its plan's assignees). Score asks about the same agents whatever
// the tags are, so a first fold with no tags names them.
func (t qualityTree) asked() []string {
	asked := map[string]bool{}
	quality.Score(t.root, t.events, func(agentID string) []string {
		asked[agentID] = true
		return nil
	})
	return slices.Sorted(maps.Keys(asked))
}

// qualityRow is a root negotiation's row and places.
type qualityRow struct {
	DemandID, UserID, Status    string
	SubmittedAt, EndedAt        time.Time
	SubmittedPosition, Position int64
	Final                       bool
	Root, Tree                  json.RawMessage
	agentIDs                    []string // sorted
	places                      []int32
}

// row scores the tree as of the event end, with the assignees' tags.
func (t qualityTree) row(end eventstore.RecordedEvent, tags func(agentID string) []string) (qualityRow, error) {
	r := quality.Score(t.root, t.events, tags)
	rootJSON, err := json.Marshal(r.Root)
	if err != nil {
		return qualityRow{}, fmt.Errorf("quality of %q: %w", t.root, err)
	}
	treeJSON, err := json.Marshal(r.Tree)
	if err != nil {
		return qualityRow{}, fmt.Errorf("quality of %q: %w", t.root, err)
	}
	row := qualityRow{DemandID: t.root, UserID: t.sub.UserID,
		SubmittedAt: t.submitted.RecordedAt, SubmittedPosition: t.submitted.Position, EndedAt: end.RecordedAt,
		Status: r.Status, Final: r.Final, Root: rootJSON, Tree: treeJSON, Position: end.Position}
	row.agentIDs = slices.Sorted(maps.Keys(r.Placed))
	row.places = make([]int32, len(row.agentIDs))
	for i, id := range row.agentIDs {
		row.places[i] = int32(r.Placed[id])
	}
	return row, nil
}

// qualityWrites gathers rows (each root negotiation once) for the
// set-based statements that write them: many in a rebuild, one live.
type qualityWrites struct {
	rows   sqlcdb.UpsertQualitiesParams
	places sqlcdb.InsertQualitiesPlacesParams
}

func (w *qualityWrites) add(r qualityRow) {
	w.rows.DemandIds = append(w.rows.DemandIds, r.DemandID)
	w.rows.UserIds = append(w.rows.UserIds, r.UserID)
	w.rows.SubmittedAts = append(w.rows.SubmittedAts, r.SubmittedAt)
	w.rows.SubmittedPositions = append(w.rows.SubmittedPositions, r.SubmittedPosition)
	w.rows.EndedAts = append(w.rows.EndedAts, r.EndedAt)
	w.rows.Statuses = append(w.rows.Statuses, r.Status)
	w.rows.Finals = append(w.rows.Finals, r.Final)
	w.rows.Roots = append(w.rows.Roots, string(r.Root))
	w.rows.Trees = append(w.rows.Trees, string(r.Tree))
	w.rows.Positions = append(w.rows.Positions, r.Position)
	for i, id := range r.agentIDs {
		w.places.DemandIds = append(w.places.DemandIds, r.DemandID)
		w.places.AgentIds = append(w.places.AgentIds, id)
		w.places.Places = append(w.places.Places, r.places[i])
	}
}

func (w *qualityWrites) write(ctx context.Context, q *sqlcdb.Queries) error {
	if len(w.rows.DemandIds) == 0 {
		return nil
	}
	if err := q.UpsertQualities(ctx, w.rows); err != nil {
		return fmt.Errorf("write the rows: %w", err)
	}
	if err := q.DeleteQualitiesPlaces(ctx, w.rows.DemandIds); err != nil {
		return fmt.Errorf("write the places: %w", err)
	}
	if len(w.places.DemandIds) == 0 {
		return nil
	}
	if err := q.InsertQualitiesPlaces(ctx, w.places); err != nil {
		return fmt.Errorf("write the places: %w", err)
	}
	return nil
}

// tagsAsOf returns the capability tags, as of position pos, of the agents
// asked (Apply): the profile of each one's latest towow.agent.registered
// or .updated at or before pos; none for an agent without one.
func tagsAsOf(ctx context.Context, q *sqlcdb.Queries, root string, asked []string, pos int64) (map[string][]string, error) {
	tags := map[string][]string{}
	if len(asked) == 0 {
		return tags, nil
	}
	rows, err := q.QualityAgentTags(ctx, sqlcdb.QualityAgentTagsParams{AgentIds: asked, UntilPosition: pos})
	if err != nil {
		return nil, fmt.Errorf("quality of %q: agent tags: %w", root, err)
	}
	recs, err := eventstore.Recorded(rows)
	if err != nil {
		return nil, fmt.Errorf("quality of %q: agent tags: %w", root, err)
	}
	for _, r := range recs {
		p, err := r.Decode()
		if err != nil {
			return nil, fmt.Errorf("quality of %q: agent tags: %w", root, err)
		}
		switch x := p.(type) {
		case *negotiation.AgentRegistered:
			tags[x.AgentID] = x.Profile.Tags
		case *negotiation.AgentUpdated:
			tags[x.AgentID] = x.Profile.Tags
		}
	}
	return tags, nil
}
