package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/projections"
	"github.com/towow/towow/quality"
)

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
	UserID string    `query:"user_id" maxLength:"128" doc:"only this user's demands"`
	Since  time.Time `query:"since" doc:"submitted at or after (RFC 3339)"`
	Until  time.Time `query:"until" doc:"submitted before (RFC 3339)"`
	Limit  int       `query:"limit" minimum:"1" maximum:"200" default:"100" doc:"the newest this many root demands"`
}

// QualityAggregate sums up the quality of many negotiations.
type QualityAggregate struct {
	// Demands counts the root demands in the range; Final those that
	// ended; Rejected those rejected; Agreed those finalized or
	// force-finalized (the means are over these).
	Demands  int `json:"demands"`
	Final    int `json:"final"`
	Rejected int `json:"rejected"`
	Agreed   int `json:"agreed"`
	// Root and Tree sum up the agreed negotiations' scores (quality.Mean:
	// counts summed, the rest averaged).
	Root quality.Scores `json:"root"`
	Tree quality.Scores `json:"tree"`
	// FairnessGini is the Gini coefficient of assignments (whole trees)
	// over the agents invited in the range: 0 when everyone invited got
	// the same share of places.
	FairnessGini float64 `json:"fairness_gini"`
	// Reports are the negotiations', newest first.
	Reports []quality.Report `json:"reports"`
}

// QualityListOutput is the aggregate.
type QualityListOutput struct {
	Body QualityAggregate
}

func (s *Server) registerQuality(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "demand-quality",
		Method:      http.MethodGet,
		Path:        "/api/v1/demands/{demand_id}/quality",
		Summary:     "A negotiation's quality: need coverage, padding, relevance, rounds, accept rate, stability, welfare, LLM cost, time to agreement",
		Description: "Computed from the negotiation tree's events (a rebuild or replay gives it again), for the root channel and for the whole tree with its sub-negotiations merged in. While the negotiation runs: the scores so far, with final false.",
		Tags:        []string{"demands", "quality"},
	}, func(ctx context.Context, in *QualityInput) (*QualityOutput, error) {
		r, err := s.score(ctx, in.DemandID, map[string][]string{})
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
		Tags:        []string{"quality"},
	}, func(ctx context.Context, in *QualityListInput) (*QualityListOutput, error) {
		demands, err := s.ReadModels.ListDemands(ctx, projections.DemandFilter{UserID: in.UserID, Since: in.Since, Until: in.Until,
			Limit: in.Limit})
		if err != nil {
			return nil, problem(err)
		}
		tags := map[string][]string{}
		agg := QualityAggregate{Demands: len(demands), Reports: []quality.Report{}}
		var roots, trees []quality.Scores
		placed := map[string]int{}
		for _, d := range demands {
			r, err := s.score(ctx, d.DemandID, tags)
			if err != nil {
				return nil, err
			}
			agg.Reports = append(agg.Reports, r)
			if r.Final {
				agg.Final++
			}
			switch r.Status {
			case "rejected":
				agg.Rejected++
			case string(domain.ChannelStatusFinalized), string(domain.ChannelStatusForceFinalized):
				agg.Agreed++
				roots, trees = append(roots, r.Root), append(trees, r.Tree)
			}
			for id, n := range r.Placed {
				placed[id] += n
			}
		}
		agg.Root, agg.Tree = quality.Mean(roots), quality.Mean(trees)
		counts := make([]int, 0, len(placed))
		for _, n := range placed {
			counts = append(counts, n)
		}
		agg.FairnessGini = quality.Gini(counts)
		return &QualityListOutput{Body: agg}, nil
	})
}

// score reads a negotiation tree's events and scores it; tags caches the
// assignees' capability tags across calls.
func (s *Server) score(ctx context.Context, demandID string, tags map[string][]string) (quality.Report, error) {
	v, err := s.Events.StreamVersion(ctx, domain.DemandStream(demandID))
	if err != nil {
		return quality.Report{}, problem(err)
	}
	if v == 0 {
		return quality.Report{}, notFound(fmt.Sprintf("no demand %s", demandID))
	}
	root := demandID
	if _, err := s.Events.Fold(ctx, domain.DemandStream(demandID), func(p domain.Payload) {
		if e, ok := p.(*domain.DemandSubmitted); ok && e.RootDemandID != "" {
			root = e.RootDemandID
		}
	}); err != nil {
		return quality.Report{}, problem(err)
	}
	events, err := quality.Read(ctx, s.Events, root)
	if err != nil {
		return quality.Report{}, problem(err)
	}
	var lookupErr error
	r := quality.Score(demandID, events, func(agentID string) []string {
		if t, ok := tags[agentID]; ok {
			return t
		}
		a, err := s.ReadModels.GetAgent(ctx, agentID)
		if err != nil && !errors.Is(err, projections.ErrNotFound) {
			lookupErr = err
		}
		tags[agentID] = a.Profile.Tags
		return a.Profile.Tags
	})
	if lookupErr != nil {
		return quality.Report{}, problem(lookupErr)
	}
	return r, nil
}
