package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/projections"
	"github.com/towow/towow/quality"
)

// qualityHandlers serve what the negotiations are worth and cost: the
// quality reports, the LLM calls' audit, comparisons and the forks
// compared with their originals.
type qualityHandlers struct {
	commands Commands
	events   EventReader
	reads    ReadModels
	owners   *owners
	limits   *limiter
	// reveal reveals the sealed texts of the plans compared.
	reveal func(ctx context.Context, data []byte) ([]byte, error)
}

// QualityInput names a negotiation.
type QualityInput struct {
	DemandID string `path:"demand_id" maxLength:"64" doc:"a root demand (a sub-demand is scored as the root of its own sub-tree)"`
}

// QualityOutput is a negotiation's quality report.
type QualityOutput struct {
	Body quality.Report
}

// QualityListInput selects the negotiations an aggregate covers.
type QualityListInput struct {
	MinCursor
	UserID string    `query:"user_id" maxLength:"128" doc:"the operator's filter: only this user's demands (a user's summary covers their own; another user_id is 422 TOWOW_AUTH_003)"`
	Since  time.Time `query:"since" doc:"submitted at or after (RFC 3339)"`
	Until  time.Time `query:"until" doc:"submitted before (RFC 3339)"`
	Limit  int       `query:"limit" minimum:"1" maximum:"200" default:"100" doc:"how many reports to list (the newest negotiations that ended); the counts, means and Gini cover every root demand in the range whatever the limit"`
}

// QualityAggregate sums up the quality of many negotiations. The counts,
// means and Gini cover every root demand in the range (the quality read
// model's rows, one per root negotiation that ended); only Reports is
// bounded by the limit.
type QualityAggregate struct {
	// Demands counts the root demands in the range, running ones
	// included; Final those that ended; Rejected those rejected; Agreed
	// those finalized or force-finalized (the means are over these).
	Demands  int `json:"demands" doc:"root demands submitted in the range, all of them (not only the listed reports): those that ended (final) and those still running, counted from the demands read model"`
	Final    int `json:"final" doc:"root negotiations in the range that ended (finalized, force_finalized, failed or rejected)"`
	Rejected int `json:"rejected" doc:"root demands in the range that were rejected"`
	Agreed   int `json:"agreed" doc:"root negotiations in the range that were finalized or force-finalized: the means are over these"`
	// Root and Tree sum up the agreed negotiations' scores (quality.Mean:
	// counts summed, the rest averaged).
	Root quality.Scores `json:"root" doc:"the root channels' scores over every agreed negotiation in the range: counts (needs, places, assignees, padding, LLM cost) summed, rates averaged (three decimals), rounds and time to agreement averaged to whole numbers"`
	Tree quality.Scores `json:"tree" doc:"the same over the whole trees (sub-negotiations merged in)"`
	// FairnessGini is the Gini coefficient of assignments (whole trees)
	// over the agents invited in the range: 0 when everyone invited got
	// the same share of places.
	FairnessGini float64 `json:"fairness_gini" doc:"Gini coefficient of the places held (whole trees' plans) across every agent invited in a negotiation of the range that ended: 0 when all got the same share"`
	// Reports are the negotiations', newest first.
	Reports []quality.Report `json:"reports" doc:"the newest limit negotiations of the range that ended, newest submission first, each scored as of the event that ended it; running ones are not listed (GET /api/v1/demands/{demand_id}/quality scores one so far)"`
}

// readModelsOfQuality are the read models GET /api/v1/quality reads: the
// quality rows, and the demands for the ones still running.
var readModelsOfQuality = []string{projections.Quality{}.Name(), projections.Demands{}.Name()}

// QualityListOutput is the aggregate.
type QualityListOutput struct {
	Body QualityAggregate
}

func (h *qualityHandlers) registerQuality(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "demand-quality",
		Method:      http.MethodGet,
		Path:        "/api/v1/demands/{demand_id}/quality",
		Summary:     "A negotiation's quality: need coverage, padding, relevance, rounds, accept rate, stability, welfare, LLM cost, time to agreement",
		Description: "Computed from the negotiation tree's events (a rebuild or replay gives it again), for the root channel and for the whole tree with its sub-negotiations merged in. While the negotiation runs: the scores so far, with final false.",
		Tags:        []string{"demands", "quality"},
	}, func(ctx context.Context, in *QualityInput) (*QualityOutput, error) {
		r, _, err := h.score(ctx, in.DemandID, map[string][]string{})
		if err != nil {
			return nil, err
		}
		return &QualityOutput{Body: r}, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "quality",
		Method:      http.MethodGet,
		Path:        "/api/v1/quality",
		Summary:     "Quality over many negotiations: means of the agreed ones, counts, and the fairness of assignments across agents",
		Description: "Sums up the quality read model (one row per root negotiation that ended, scored from its events when it ended) over every root demand submitted in the range, however many: limit bounds only the reports listed. Demands still running count in demands and nowhere else.",
		Tags:        []string{"quality"},
	}, func(ctx context.Context, in *QualityListInput) (*QualityListOutput, error) {
		if err := waitFor(ctx, h.reads, in.MinCursor, readModelsOfQuality...); err != nil {
			return nil, err
		}
		scope, err := ownScope(ctx, in.UserID)
		if err != nil {
			return nil, err
		}
		sum, err := h.reads.SummarizeQuality(ctx, projections.QualityFilter{UserID: scope, Since: in.Since, Until: in.Until,
			Limit: in.Limit})
		if err != nil {
			return nil, problem(err)
		}
		agg := QualityAggregate{Demands: sum.Demands, Final: sum.Final, Rejected: sum.Rejected, Agreed: sum.Agreed,
			Root: sum.Root, Tree: sum.Tree, FairnessGini: sum.FairnessGini, Reports: sum.Reports}
		if agg.Reports == nil {
			agg.Reports = []quality.Report{}
		}
		return &QualityListOutput{Body: agg}, nil
	})
}

// score reads a negotiation tree's events and scores it; tags caches the
// assignees' capability tags across calls. It also returns the demand's
// text.
func (h *qualityHandlers) score(ctx context.Context, demandID string, tags map[string][]string) (quality.Report, string, error) {
	var d negotiation.DemandState
	v, err := h.events.Fold(ctx, negotiation.DemandStream(demandID), d.Apply)
	if err != nil {
		return quality.Report{}, "", problem(err)
	}
	if v == 0 {
		return quality.Report{}, "", notFound(fmt.Sprintf("no demand %s", demandID))
	}
	root, raw := d.RootDemandID, d.RawInput
	events, err := quality.Read(ctx, h.events, root)
	if err != nil {
		return quality.Report{}, "", problem(err)
	}
	var lookupErr error
	r := quality.Score(demandID, events, func(agentID string) []string {
		if t, ok := tags[agentID]; ok {
			return t
		}
		a, err := h.reads.GetAgent(ctx, agentID)
		if err != nil && !errors.Is(err, projections.ErrNotFound) {
			lookupErr = err
		}
		tags[agentID] = a.Profile.Tags
		return a.Profile.Tags
	})
	if lookupErr != nil {
		return quality.Report{}, "", problem(lookupErr)
	}
	return r, raw, nil
}
