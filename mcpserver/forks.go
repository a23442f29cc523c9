package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/quality"
)

// What if: fork a negotiation, compare two.

// ForkInput is fork_negotiation's input.
type ForkInput struct {
	DemandID string `json:"demand_id" jsonschema:"the root demand of the negotiation to fork"`
	At       int64  `json:"at" jsonschema:"a cursor of its history (the timeline resource lists them): the fork copies the history up to there and goes on with the change"`
	// Change is the API's own body (negotiation.ForkChange): type none,
	// remove_agent, add_agent, replace_offer, replace_feedback,
	// change_rule or change_demand, with the agent, offer, feedback, rules
	// or text it needs.
	Change negotiation.ForkChange `json:"change" jsonschema:"the one change the fork makes: type, and agent_id, offer, feedback, rules or text as the type needs"`
}

// ForkOutput is fork_negotiation's result: a new negotiation, followed
// like any other.
type ForkOutput struct {
	DemandID   string `json:"demand_id" jsonschema:"the fork's root demand: wait_for_outcome and get_negotiation take it"`
	ForkedFrom string `json:"forked_from"`
	Cursor     int64  `json:"cursor" jsonschema:"position of the last event the fork wrote"`
}

// CompareInput is compare_negotiations's input: a fork alone (beside its
// original), or any two negotiations.
type CompareInput struct {
	ForkID string `json:"fork_id,omitempty" jsonschema:"a fork's demand id: compare it with the negotiation it was forked from"`
	Left   string `json:"left,omitempty" jsonschema:"without fork_id: the left negotiation's demand id"`
	Right  string `json:"right,omitempty" jsonschema:"without fork_id: the right negotiation's demand id"`
}

// CompareOutput is two negotiations side by side.
type CompareOutput struct {
	Left     Branch               `json:"left"`
	Right    Branch               `json:"right"`
	PlanDiff negotiation.PlanDiff `json:"plan_diff" jsonschema:"from left to right: assignments added, removed and changed, gaps closed and opened"`
	SamePlan bool                 `json:"same_plan" jsonschema:"both plans assign the same agents on the same terms and leave the same gaps"`
}

// Branch is one side of a comparison.
type Branch struct {
	DemandID     string                `json:"demand_id"`
	RawInput     string                `json:"raw_input"`
	Status       string                `json:"status" jsonschema:"processing, finalized, force_finalized, failed or rejected"`
	Rounds       int                   `json:"rounds"`
	Participants []string              `json:"participants" jsonschema:"the agents the plan assigns, once each"`
	Plan         *negotiation.Proposal `json:"plan,omitempty" jsonschema:"the tree's plan: the merged plan (what sub-negotiations added included), else the root's final proposal; absent without one"`
	Quality      quality.Report        `json:"quality" jsonschema:"need coverage, padding, relevance, stability, welfare, ..."`
	LLM          quality.LLMCost       `json:"llm" jsonschema:"LLM calls spent and reused"`
}

func addForkTools(s *mcp.Server, c *client) {
	addTool(s, &mcp.Tool{Name: "fork_negotiation", Title: "Fork a negotiation (what if)",
		Description: "What if: fork a root negotiation after a cursor of its history with one change (none, " +
			"remove_agent, add_agent, replace_offer, replace_feedback, change_rule, change_demand). The fork is " +
			"a new negotiation: wait_for_outcome on its demand_id, then compare_negotiations with fork_id.",
		InputSchema: forkSchema()},
		func(ctx context.Context, _ *mcp.CallToolRequest, in ForkInput) (*mcp.CallToolResult, ForkOutput, error) {
			var out ForkOutput
			if err := checkID("demand_id", in.DemandID); err != nil {
				return nil, out, err
			}
			err := c.call(ctx, http.MethodPost, "/api/v1/negotiations/"+url.PathEscape(in.DemandID)+"/forks", nil, "",
				map[string]any{"at": in.At, "change": in.Change}, &out)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "compare_negotiations", Title: "Compare two negotiations",
		Description: "Two negotiations side by side: outcome, rounds, participants, plans and the plan's diff, " +
			"quality and LLM cost. Give fork_id for a fork beside its original, or left and right for any two.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in CompareInput) (*mcp.CallToolResult, CompareOutput, error) {
			var out CompareOutput
			switch {
			case in.ForkID != "":
				if err := checkID("fork_id", in.ForkID); err != nil {
					return nil, out, err
				}
				err := c.call(ctx, http.MethodGet, "/api/v1/forks/"+url.PathEscape(in.ForkID)+"/compare", nil, "", nil, &out)
				return nil, out, err
			case in.Left != "" && in.Right != "":
				err := c.call(ctx, http.MethodGet, "/api/v1/negotiations/compare",
					url.Values{"left": {in.Left}, "right": {in.Right}}, "", nil, &out)
				return nil, out, err
			}
			return nil, out, errors.New("give fork_id, or both left and right")
		})
}

// forkChangeText is what each field of a fork's change is (which change
// types need it comes from negotiation.ForkChangeFields).
var forkChangeText = map[string]string{
	"agent_id": "the agent removed or added, or whose offer or feedback is replaced",
	"offer":    "the agent's offer instead of what it would have said",
	"feedback": "the agent's feedback on the proposal out at the fork point instead of what it would have said",
	"rules":    "the rules that change (the others stay)",
	"text":     "the demand's text in the fork",
}

// forkSchema is fork_negotiation's input schema: the change's type an
// enum, and each of its fields described with the change types that need
// it.
func forkSchema() *jsonschema.Schema {
	s := schemaFor[ForkInput]()
	change := s.Properties["change"]
	change.Properties["type"].Enum = enumOf(negotiation.ForkChangeTypes)
	change.Properties["type"].Description = "what the fork changes; the fields each type needs: " +
		variantsSummary(negotiation.ForkChangeTypes, negotiation.ForkChangeFields)
	describeVariants(change, "type", negotiation.ForkChangeTypes, negotiation.ForkChangeFields, forkChangeText)
	return s
}
