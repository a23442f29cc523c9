package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/domain"
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
	Types:    []domain.EventType{domain.EventDemandRejected, domain.EventNegotiationFailed, domain.EventNegotiationCompleted},
	Apply:    applyQuality,
	Reset:    (*sqlcdb.Queries).DeleteQuality,
	Rebuild:  rebuildQuality,
	Checksum: fingerprint((*sqlcdb.Queries).ChecksumQuality),
}

func applyQuality(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, p domain.Payload) error {
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
func endsRoot(e eventstore.RecordedEvent, p domain.Payload) (string, bool) {
	root := e.Metadata.CorrelationID
	if root == "" {
		return "", false
	}
	switch x := p.(type) {
	case *domain.DemandRejected:
		return root, x.DemandID == root
	case *domain.NegotiationFailed:
		return root, x.DemandID == root
	case *domain.NegotiationCompleted:
		return root, x.ChannelID == domain.ChannelIDFor(root)
	}
	return "", false
}

// rebuildQuality folds the table again up to head: for every tree, what
// Apply wrote last, that is the score as of the last event at or before
// head that ended its root (the earlier ones' rows were replaced). Whether
// the tree's root is a root demand only depends on its first submission,
// so a tree Apply skipped at its last ending it skipped at every one.
func rebuildQuality(q *sqlcdb.Queries, ctx context.Context, head int64) error {
	rows, err := q.QualityEndings(ctx, head)
	if err != nil {
		return fmt.Errorf("rebuild quality: %w", err)
	}
	evs, err := eventstore.Recorded(rows)
	if err != nil {
		return fmt.Errorf("rebuild quality: %w", err)
	}
	last := map[string]eventstore.RecordedEvent{}
	var roots []string
	for _, e := range evs {
		p, err := e.Decode()
		if err != nil {
			return fmt.Errorf("rebuild quality: %w", err)
		}
		root, ok := endsRoot(e, p)
		if !ok {
			continue
		}
		if _, seen := last[root]; !seen {
			roots = append(roots, root)
		}
		last[root] = e
	}
	for _, root := range roots {
		if err := scoreQuality(ctx, q, root, last[root]); err != nil {
			return fmt.Errorf("rebuild quality: %w", err)
		}
	}
	return nil
}

// scoreQuality scores the tree of root as of the event end and writes its
// row and places; nothing when root is not a root demand (its first
// towow.demand.submitted in the tree names a parent or another root, or
// there is none).
func scoreQuality(ctx context.Context, q *sqlcdb.Queries, root string, end eventstore.RecordedEvent) error {
	rows, err := q.QualityTreeEvents(ctx, sqlcdb.QualityTreeEventsParams{RootDemandID: root, UntilPosition: end.Position})
	if err != nil {
		return fmt.Errorf("quality of %q: read its events: %w", root, err)
	}
	recs, err := eventstore.Recorded(rows)
	if err != nil {
		return fmt.Errorf("quality of %q: %w", root, err)
	}
	events := make([]quality.Event, 0, len(recs))
	var sub *domain.DemandSubmitted
	var submitted eventstore.RecordedEvent
	for _, r := range recs {
		ev, err := quality.EventOf(r)
		if err != nil {
			return fmt.Errorf("quality of %q: %w", root, err)
		}
		if s, ok := ev.Payload.(*domain.DemandSubmitted); ok && s.DemandID == root && sub == nil {
			sub, submitted = s, r
		}
		events = append(events, ev)
	}
	if sub == nil || (sub.RootDemandID != "" && sub.RootDemandID != root) || sub.ParentDemandID != "" {
		return nil
	}
	tags, err := tagsAsOf(ctx, q, root, events, end.Position)
	if err != nil {
		return err
	}
	r := quality.Score(root, events, func(agentID string) []string { return tags[agentID] })
	rootJSON, err := json.Marshal(r.Root)
	if err != nil {
		return fmt.Errorf("quality of %q: %w", root, err)
	}
	treeJSON, err := json.Marshal(r.Tree)
	if err != nil {
		return fmt.Errorf("quality of %q: %w", root, err)
	}
	if err := q.UpsertQuality(ctx, sqlcdb.UpsertQualityParams{DemandID: root, UserID: sub.UserID,
		SubmittedAt: submitted.RecordedAt, SubmittedPosition: submitted.Position, EndedAt: end.RecordedAt,
		Status: r.Status, Final: r.Final, Root: rootJSON, Tree: treeJSON, Position: end.Position}); err != nil {
		return fmt.Errorf("quality of %q: %w", root, err)
	}
	if err := q.DeleteQualityPlaces(ctx, root); err != nil {
		return fmt.Errorf("quality of %q: places: %w", root, err)
	}
	ids := slices.Sorted(maps.Keys(r.Placed))
	if len(ids) == 0 {
		return nil
	}
	places := make([]int32, len(ids))
	for i, id := range ids {
		places[i] = int32(r.Placed[id])
	}
	if err := q.InsertQualityPlaces(ctx, sqlcdb.InsertQualityPlacesParams{DemandID: root, AgentIds: ids, Places: places}); err != nil {
		return fmt.Errorf("quality of %q: places: %w", root, err)
	}
	return nil
}

// tagsAsOf returns the capability tags, as of position pos, of the agents
// Score asks about for this tree (its plan's assignees): the profile of
// each one's latest towow.agent.registered or .updated at or before pos;
// none for an agent without one. Score asks about the same agents whatever
// the tags are, so a first fold with no tags names them.
func tagsAsOf(ctx context.Context, q *sqlcdb.Queries, root string, events []quality.Event, pos int64) (map[string][]string, error) {
	asked := map[string]bool{}
	quality.Score(root, events, func(agentID string) []string {
		asked[agentID] = true
		return nil
	})
	tags := map[string][]string{}
	if len(asked) == 0 {
		return tags, nil
	}
	rows, err := q.QualityAgentTags(ctx, sqlcdb.QualityAgentTagsParams{AgentIds: slices.Sorted(maps.Keys(asked)), UntilPosition: pos})
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
		case *domain.AgentRegistered:
			tags[x.AgentID] = x.Profile.Tags
		case *domain.AgentUpdated:
			tags[x.AgentID] = x.Profile.Tags
		}
	}
	return tags, nil
}

// QualityFilter selects the root negotiations SummarizeQuality sums up;
// zero fields do not filter.
type QualityFilter struct {
	UserID       string
	Since, Until time.Time // submitted in [Since, Until)
	Limit        int       // the reports listed (default 100, at most 500); the sums cover every demand
}

// QualitySummary sums up the quality of every root negotiation a filter
// selects.
type QualitySummary struct {
	// Demands counts the root demands in the range: those that ended
	// (Final, the quality model's rows) and those the demands read model
	// holds that have not ended (still running, or ended but not yet
	// folded by the quality model).
	Demands int
	// Final counts the negotiations that ended; Rejected those rejected;
	// Agreed those finalized or force-finalized.
	Final, Rejected, Agreed int
	// Root and Tree are quality.Mean of the agreed negotiations' scores
	// (counts summed, rates averaged to three decimals, rounds and time to
	// agreement to whole numbers), computed in SQL over all of them.
	Root, Tree quality.Scores
	// Placed is, for every agent invited in a negotiation that ended, the
	// places it holds in their plans, summed; FairnessGini is the Gini
	// coefficient of these counts.
	Placed       map[string]int
	FairnessGini float64
	// Reports are the newest Limit negotiations that ended, by
	// submission (their Placed is not filled).
	Reports []quality.Report
}

// SummarizeQuality sums up the quality model's rows (and counts the
// running demands from the demands model) over f, in one read-only
// snapshot when db can begin one (a pool).
func SummarizeQuality(ctx context.Context, db DB, f QualityFilter) (QualitySummary, error) {
	if b, ok := db.(interface {
		BeginTx(context.Context, pgx.TxOptions) (pgx.Tx, error)
	}); ok {
		var out QualitySummary
		err := pgx.BeginTxFunc(ctx, b, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
			var err error
			out, err = summarizeQuality(ctx, sqlcdb.New(tx), f)
			return err
		})
		return out, err
	}
	return summarizeQuality(ctx, sqlcdb.New(db), f)
}

func summarizeQuality(ctx context.Context, q *sqlcdb.Queries, f QualityFilter) (QualitySummary, error) {
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 100
	}
	user := text(f.UserID)
	var since, until *time.Time
	if !f.Since.IsZero() {
		since = &f.Since
	}
	if !f.Until.IsZero() {
		until = &f.Until
	}
	var out QualitySummary
	counts, err := q.QualityCounts(ctx, sqlcdb.QualityCountsParams{UserID: user, Since: since, Until: until})
	if err != nil {
		return out, fmt.Errorf("quality counts: %w", err)
	}
	open, err := q.CountUnendedRootDemands(ctx, sqlcdb.CountUnendedRootDemandsParams{UserID: user, Since: since, Until: until})
	if err != nil {
		return out, fmt.Errorf("quality counts: %w", err)
	}
	out.Final, out.Rejected, out.Agreed = int(counts.Final), int(counts.Rejected), int(counts.Agreed)
	out.Demands = out.Final + int(open)
	means, err := q.QualityMeans(ctx, sqlcdb.QualityMeansParams{UserID: user, Since: since, Until: until})
	if err != nil {
		return out, fmt.Errorf("quality means: %w", err)
	}
	for _, m := range means {
		s := quality.Scores{Needs: int(m.Needs), Places: int(m.Places), Assignees: int(m.Assignees), Padding: int(m.Padding),
			NeedCoverage: m.NeedCoverage, Relevance: m.Relevance, Rounds: int(m.Rounds), FinalAcceptRate: m.FinalAcceptRate,
			Stability: m.Stability, WelfareUtilitarian: m.WelfareUtilitarian, WelfareNash: m.WelfareNash,
			LLM: quality.LLMCost{Calls: int(m.LlmCalls), InputTokens: int(m.LlmInputTokens), OutputTokens: int(m.LlmOutputTokens),
				Fallbacks: int(m.LlmFallbacks)},
			TimeToAgreementMS: m.TimeToAgreementMs}
		switch m.Kind {
		case "root":
			out.Root = s
		case "tree":
			out.Tree = s
		}
	}
	placed, err := q.QualityPlaces(ctx, sqlcdb.QualityPlacesParams{UserID: user, Since: since, Until: until})
	if err != nil {
		return out, fmt.Errorf("quality places: %w", err)
	}
	out.Placed = make(map[string]int, len(placed))
	gini := make([]int, len(placed))
	for i, p := range placed {
		out.Placed[p.AgentID] = int(p.Places)
		gini[i] = int(p.Places)
	}
	out.FairnessGini = quality.Gini(gini)
	rows, err := q.ListQuality(ctx, sqlcdb.ListQualityParams{UserID: user, Since: since, Until: until, MaxCount: int32(f.Limit)})
	if err != nil {
		return out, fmt.Errorf("quality reports: %w", err)
	}
	out.Reports = make([]quality.Report, len(rows))
	for i, r := range rows {
		rep := quality.Report{DemandID: r.DemandID, Final: r.Final, Status: r.Status}
		if err := json.Unmarshal(r.Root, &rep.Root); err != nil {
			return out, fmt.Errorf("quality of %q: %w", r.DemandID, err)
		}
		if err := json.Unmarshal(r.Tree, &rep.Tree); err != nil {
			return out, fmt.Errorf("quality of %q: %w", r.DemandID, err)
		}
		out.Reports[i] = rep
	}
	return out, nil
}
