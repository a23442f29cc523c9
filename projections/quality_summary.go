package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/quality"
)

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
			IrrelevantAssignees: int(m.IrrelevantAssignees), NeedCoverage: m.NeedCoverage, Relevance: m.Relevance,
			Rounds: int(m.Rounds), FinalAcceptRate: m.FinalAcceptRate,
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
