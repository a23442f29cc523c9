package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/domain/negotiation"
)

// The negotiation tools: submit, read, wait.

// SubmitDemandInput is submit_demand's input.
type SubmitDemandInput struct {
	Text   string `json:"text" jsonschema:"the demand in the user's own words, Chinese or English, e.g. 我想在北京办一场AI主题聚会，需要场地和嘉宾"`
	UserID string `json:"user_id,omitempty" jsonschema:"leave it out: the demand is the signed-in user's (only the operator names a user here)"`
}

// SubmitDemandOutput is submit_demand's result: the negotiation started.
type SubmitDemandOutput struct {
	DemandID  string `json:"demand_id" jsonschema:"the demand's id: pass it to wait_for_outcome, get_negotiation and the timeline resource"`
	ChannelID string `json:"channel_id" jsonschema:"the channel its negotiation runs in"`
	Status    string `json:"status" jsonschema:"processing: the negotiation has started"`
	Cursor    int64  `json:"cursor" jsonschema:"position of the submission in the event log"`
}

// DemandInput names a negotiation by its root demand.
type DemandInput struct {
	DemandID string `json:"demand_id" jsonschema:"the demand id submit_demand returned"`
}

// Negotiation is a demand as the read model has it: status, outcome,
// final proposal and sub-negotiations.
type Negotiation struct {
	DemandID    string `json:"demand_id"`
	UserID      string `json:"user_id"`
	RawInput    string `json:"raw_input" jsonschema:"the demand's text"`
	Status      string `json:"status" jsonschema:"processing, completed or failed"`
	Outcome     string `json:"outcome,omitempty" jsonschema:"finalized, force_finalized or failed (the channel's end), or the failure reason"`
	ErrorCode   string `json:"error_code,omitempty" jsonschema:"the TOWOW_* code of a failure"`
	ChannelID   string `json:"channel_id,omitempty"`
	RoundsTaken int    `json:"rounds_taken,omitempty"`
	// Understanding and FinalProposal are the API's own values (the
	// domain's types).
	Understanding   *negotiation.DemandUnderstood `json:"understanding,omitempty" jsonschema:"how the coordinator understood the demand: summary, tags, needs"`
	FinalProposal   *negotiation.Proposal         `json:"final_proposal,omitempty" jsonschema:"the agreed plan: assignments (role, agent, responsibility), gaps, timeline"`
	SubNegotiations []SubNegotiation              `json:"sub_negotiations" jsonschema:"the negotiations its gaps spawned"`
	LastPosition    int64                         `json:"last_position" jsonschema:"cursor of the last event folded into this view"`
	UpdatedAt       string                        `json:"updated_at,omitempty"`
}

// SubNegotiation is a sub-demand a gap spawned.
type SubNegotiation struct {
	DemandID      string                `json:"demand_id"`
	RawInput      string                `json:"raw_input"`
	Status        string                `json:"status" jsonschema:"processing, completed or failed"`
	Outcome       string                `json:"outcome,omitempty"`
	ChannelID     string                `json:"channel_id,omitempty"`
	FinalProposal *negotiation.Proposal `json:"final_proposal,omitempty" jsonschema:"the plan it ended with"`
}

// WaitInput is wait_for_outcome's input.
type WaitInput struct {
	DemandID       string `json:"demand_id" jsonschema:"the demand id submit_demand returned"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"how long to wait at most, 1 to 600 seconds (default 120)"`
}

// WaitOutput is wait_for_outcome's result.
type WaitOutput struct {
	Done        bool        `json:"done" jsonschema:"true when the negotiation ended (completed or failed); false: still running, call again"`
	Status      string      `json:"status" jsonschema:"processing, completed or failed"`
	Outcome     string      `json:"outcome,omitempty" jsonschema:"finalized, force_finalized or failed, or the failure reason"`
	Waited      float64     `json:"waited_seconds"`
	Negotiation Negotiation `json:"negotiation"`
}

// Wait bounds of wait_for_outcome.
const (
	defaultWait = 120 * time.Second
	maxWait     = 600 * time.Second
)

func addNegotiationTools(s *mcp.Server, c *client) {
	addTool(s, &mcp.Tool{Name: "submit_demand", Title: "Submit a demand",
		Description: "Submit a demand in natural language (Chinese or English). ToWow understands it, picks " +
			"candidate agents and negotiates with them over up to five rounds; this returns at once with the " +
			"demand id. Follow it with wait_for_outcome."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in SubmitDemandInput) (*mcp.CallToolResult, SubmitDemandOutput, error) {
			var out SubmitDemandOutput
			body := map[string]string{"raw_input": in.Text}
			if in.UserID != "" {
				body["user_id"] = in.UserID
			}
			err := c.call(ctx, http.MethodPost, "/api/v1/demand/submit", nil, "", body, &out)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "get_negotiation", Title: "Get a negotiation",
		Description: "A negotiation as it stands: status (processing, completed, failed), outcome, rounds, " +
			"the coordinator's understanding, the final proposal and the sub-negotiations.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in DemandInput) (*mcp.CallToolResult, Negotiation, error) {
			n, err := c.negotiation(ctx, in.DemandID)
			return nil, n, err
		})

	addTool(s, &mcp.Tool{Name: "wait_for_outcome", Title: "Wait for a negotiation's outcome",
		Description: "Wait until a negotiation ends, at most timeout_seconds (default 120, at most 600). " +
			"Returns done=true with the outcome and the negotiation, or done=false with the status while it " +
			"is still running (call again to keep waiting).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in WaitInput) (*mcp.CallToolResult, WaitOutput, error) {
			out, err := c.wait(ctx, in)
			return nil, out, err
		})
}

// negotiation reads a demand's view.
func (c *client) negotiation(ctx context.Context, demandID string) (Negotiation, error) {
	var n Negotiation
	if err := checkID("demand_id", demandID); err != nil {
		return n, err
	}
	err := c.call(ctx, http.MethodGet, "/api/v1/demands/"+url.PathEscape(demandID), nil, "", nil, &n)
	return n, err
}

// wait polls the demand's view until it is no longer processing or the
// timeout passes. A demand the read model has not folded yet (404 right
// after the submit, while the log has its events) is waited for like a
// running one; a demand the log does not know is the API's 404.
func (c *client) wait(ctx context.Context, in WaitInput) (WaitOutput, error) {
	timeout := defaultWait
	switch {
	case in.TimeoutSeconds < 0 || time.Duration(in.TimeoutSeconds)*time.Second > maxWait:
		return WaitOutput{}, fmt.Errorf("timeout_seconds must be between 1 and %d (got %d)", int(maxWait.Seconds()), in.TimeoutSeconds)
	case in.TimeoutSeconds > 0:
		timeout = time.Duration(in.TimeoutSeconds) * time.Second
	}
	if err := checkID("demand_id", in.DemandID); err != nil {
		return WaitOutput{}, err
	}
	start := time.Now()
	deadline := start.Add(timeout)
	pause := 100 * time.Millisecond
	var n Negotiation
	seen, logged := false, false
	for {
		got, err := c.negotiation(ctx, in.DemandID)
		switch {
		case err == nil:
			n, seen = got, true
		case !notFound(err):
			return WaitOutput{}, err
		case !logged:
			if logged, err = c.logged(ctx, in.DemandID, err); err != nil {
				return WaitOutput{}, err
			}
		}
		if seen && n.Status != "processing" {
			return WaitOutput{Done: true, Status: n.Status, Outcome: n.Outcome, Waited: secondsSince(start), Negotiation: n}, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return WaitOutput{Status: cmp.Or(n.Status, "processing"), Waited: secondsSince(start), Negotiation: n}, nil
		}
		t := time.NewTimer(min(pause, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return WaitOutput{}, fmt.Errorf("wait for %s: %w", in.DemandID, ctx.Err())
		case <-t.C:
		}
		pause = min(pause*3/2, time.Second)
	}
}

// logged says whether the log holds events of the demand's tree; missing
// is the error to return when it holds none.
func (c *client) logged(ctx context.Context, demandID string, missing error) (bool, error) {
	var page struct {
		Events []struct{} `json:"events"`
	}
	q := url.Values{"demand_id": {demandID}, "limit": {"1"}}
	if err := c.call(ctx, http.MethodGet, "/api/v1/events", q, "", nil, &page); err != nil {
		return false, err
	}
	if len(page.Events) == 0 {
		return false, missing
	}
	return true, nil
}

// secondsSince is the time since start in seconds, to the millisecond.
func secondsSince(start time.Time) float64 {
	return float64(time.Since(start).Milliseconds()) / 1000
}

// checkID refuses an empty id or one that is not a single path segment
// before it reaches a URL.
func checkID(name, id string) error {
	if strings.TrimSpace(id) == "" {
		return errors.New(name + " is required")
	}
	if strings.ContainsAny(id, "/?#") || id == "." || id == ".." {
		return fmt.Errorf("%s %q is not an id", name, id)
	}
	return nil
}
