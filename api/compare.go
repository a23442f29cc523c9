package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/quality"
)

// Comparing two negotiations: both branches side by side, what
// the plan gained and lost, their quality and what they cost.

// CompareInput names the two negotiations.
type CompareInput struct {
	Left  string `query:"left" required:"true" maxLength:"64" doc:"a root demand: the branch compared from"`
	Right string `query:"right" required:"true" maxLength:"64" doc:"another root demand: the branch compared to"`
}

// NegotiationBranch is one side of a comparison.
type NegotiationBranch struct {
	DemandID string `json:"demand_id"`
	RawInput string `json:"raw_input"`
	// Status is processing, finalized, force_finalized, failed or rejected.
	Status string `json:"status" enum:"processing,finalized,force_finalized,failed,rejected"`
	Rounds int    `json:"rounds" doc:"rounds the root channel took"`
	// Participants are the agents the tree's plan assigns, once each (as
	// the demands list counts them).
	Participants []string              `json:"participants" doc:"the agents the tree's plan assigns (sub-negotiations merged in), once each"`
	Plan         *negotiation.Proposal `json:"plan,omitempty" doc:"the tree's plan: the merged plan, else the root's final proposal"`
	// LLM is what the tree's LLM calls cost: provider calls and tokens
	// spent, and answers reused.
	LLM     quality.LLMCost `json:"llm" doc:"the whole tree's LLM calls: provider calls and tokens spent, answers reused from recorded calls"`
	Quality quality.Report  `json:"quality"`
}

// CompareOutput is the comparison.
type CompareOutput struct {
	Body struct {
		Left  NegotiationBranch `json:"left"`
		Right NegotiationBranch `json:"right"`
		// Diff is the plan's change from left to right.
		Diff negotiation.PlanDiff `json:"plan_diff" doc:"from left to right: assignments added, removed and changed (by agent), gaps closed and opened"`
		// SamePlan: the same agents on the same terms, the same gaps.
		SamePlan bool `json:"same_plan" doc:"both plans assign the same agents on the same terms and leave the same gaps"`
	}
}

func (h *qualityHandlers) registerCompare(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "compare-negotiations",
		Method:      http.MethodGet,
		Path:        "/api/v1/negotiations/compare",
		Summary:     "Two negotiations side by side: outcome, rounds, participants, the plan's diff, quality and LLM cost",
		Description: "Each side is scored from its tree's events as GET /api/v1/demands/{demand_id}/quality does (a running negotiation: as it is so far, quality.final false). The diff goes from left to right.",
		Tags:        []string{"demands", "quality"},
	}, func(ctx context.Context, in *CompareInput) (*CompareOutput, error) {
		for _, id := range []string{in.Left, in.Right} {
			if err := h.owners.seeDemand(ctx, id); err != nil {
				return nil, err
			}
		}
		return h.compare(ctx, in.Left, in.Right)
	})
}

// compare puts two negotiations side by side.
func (h *qualityHandlers) compare(ctx context.Context, left, right string) (*CompareOutput, error) {
	tags := map[string][]string{}
	out := &CompareOutput{}
	for _, side := range []struct {
		id  string
		dst *NegotiationBranch
	}{{left, &out.Body.Left}, {right, &out.Body.Right}} {
		b, err := h.branch(ctx, side.id, tags)
		if err != nil {
			return nil, err
		}
		// Texts are compared as written: each copy of a text is sealed
		// on its own, so two sealed copies of one text differ.
		if err := revealInto(ctx, h.reveal, &b.Plan); err != nil {
			return nil, problem(err)
		}
		*side.dst = b
	}
	out.Body.Diff = negotiation.DiffPlans(out.Body.Left.Plan, out.Body.Right.Plan)
	out.Body.SamePlan = out.Body.Diff.Same()
	return out, nil
}

// branch is one negotiation as a side of a comparison.
func (h *qualityHandlers) branch(ctx context.Context, demandID string, tags map[string][]string) (NegotiationBranch, error) {
	r, raw, err := h.score(ctx, demandID, tags)
	if err != nil {
		return NegotiationBranch{}, err
	}
	b := NegotiationBranch{DemandID: demandID, RawInput: raw, Status: r.Status, Rounds: r.Root.Rounds,
		Participants: []string{}, Plan: r.Plan, LLM: r.Tree.LLM, Quality: r}
	if r.Plan != nil {
		for _, a := range r.Plan.Assignments {
			if a.AgentID != "" && !slices.Contains(b.Participants, a.AgentID) {
				b.Participants = append(b.Participants, a.AgentID)
			}
		}
	}
	return b, nil
}

// ForkInput is a fork to start.
type ForkInput struct {
	DemandID string `path:"demand_id" maxLength:"64" doc:"the root demand of the negotiation to fork"`
	Body     struct {
		At     int64                  `json:"at" minimum:"1" doc:"a cursor of the negotiation's history (an SSE id): the fork copies it up to there (and the rest of the step that wrote it)"`
		Change negotiation.ForkChange `json:"change"`
	}
}

// ForkOutput is a started fork.
type ForkOutput struct {
	Body struct {
		DemandID   string `json:"demand_id" doc:"the fork's root demand: follow it like any negotiation"`
		ForkedFrom string `json:"forked_from"`
		Cursor     int64  `json:"cursor" doc:"global position of the last event the fork wrote"`
	}
}

// ForkCompareInput names a fork.
type ForkCompareInput struct {
	ForkID string `path:"fork_id" maxLength:"64" doc:"a fork's root demand"`
}

func (h *qualityHandlers) registerForks(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID:   "fork-negotiation",
		Method:        http.MethodPost,
		Path:          "/api/v1/negotiations/{demand_id}/forks",
		Summary:       "What if: fork a negotiation after a cursor of its history with one change",
		Description:   "A new negotiation tree (new ids) whose history up to at is the original's, recorded with towow.negotiation.forked, goes on live from there with the change applied: none, remove_agent (the agent declines an offer it owes, withdraws from the round it must answer and is invited nowhere later), add_agent (it joins the candidates where offers are still collected), replace_offer or replace_feedback (its answer, owed at that point, is the one given), change_rule (max rounds, timeouts, depth, accept and fail thresholds: from then on, in the channels running and those opened later), change_demand (forked at the submission: the demand reads another text). Every LLM call whose input is the original's (ids aside) takes the recorded answer, recorded as reused, with no provider call. 202 at once. A cursor that is not an event of the negotiation, or after it ended: 422 TOWOW_FORK_001; an unknown agent or change, or a replacement nothing awaits then: 422 TOWOW_FORK_002. Nothing is written then.",
		Tags:          []string{"demands"},
		DefaultStatus: http.StatusAccepted,
		MaxBodyBytes:  16 << 10,
	}, func(ctx context.Context, in *ForkInput) (*ForkOutput, error) {
		if err := h.limits.newWork(ctx, true); err != nil {
			return nil, err
		}
		id, pos, err := h.commands.Fork(ctx, in.DemandID, in.Body.At, in.Body.Change)
		if err != nil {
			return nil, problem(err)
		}
		out := &ForkOutput{}
		out.Body.DemandID, out.Body.ForkedFrom, out.Body.Cursor = id, in.DemandID, pos
		return out, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "compare-fork",
		Method:      http.MethodGet,
		Path:        "/api/v1/forks/{fork_id}/compare",
		Summary:     "A fork beside the negotiation it was forked from (left: the original, right: the fork)",
		Tags:        []string{"demands", "quality"},
	}, func(ctx context.Context, in *ForkCompareInput) (*CompareOutput, error) {
		var d negotiation.DemandState
		if _, err := h.events.Fold(ctx, negotiation.DemandStream(in.ForkID), d.Apply); err != nil {
			return nil, problem(err)
		}
		if d.Fork == nil {
			return nil, notFound(fmt.Sprintf("no fork %s", in.ForkID))
		}
		return h.compare(ctx, d.Fork.ForkedFrom, in.ForkID)
	})
}
