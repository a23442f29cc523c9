package llm

import (
	"context"
	"time"

	"github.com/towow/towow/domain"
)

// PromptKey names one of the eleven prompts: the nine of the design (001
// §3.3, 004), the task prompt of the workflow and the conversation prompt
// of the agent a person talks to about the workflow (issue 13).
// It is also the fallback key of 001 §6.2.1 and the "prompt_key" of the
// recorded call (domain.LLMCall).
type PromptKey string

// The eleven prompts.
const (
	PromptUnderstand PromptKey = "demand_understanding" // 1 需求理解
	PromptFilter     PromptKey = "smart_filter"         // 2 智能筛选
	PromptOffer      PromptKey = "response_generation"  // 3 响应生成
	PromptAggregate  PromptKey = "proposal_aggregation" // 4 方案聚合
	PromptFeedback   PromptKey = "proposal_feedback"    // 5 方案反馈
	PromptAdjust     PromptKey = "proposal_adjustment"  // 6 方案调整
	PromptGaps       PromptKey = "gap_identify"         // 7 缺口识别
	PromptRecursion  PromptKey = "recursion_decision"   // 8 递归判断
	PromptCompromise PromptKey = "compromise"           // 9 妥协方案
	PromptTask       PromptKey = "task_execution"       // 10 任务执行
	PromptConverse   PromptKey = "conversation"         // 11 对话
)

// PromptKeys lists the eleven prompts in design order.
var PromptKeys = []PromptKey{PromptUnderstand, PromptFilter, PromptOffer, PromptAggregate,
	PromptFeedback, PromptAdjust, PromptGaps, PromptRecursion, PromptCompromise, PromptTask, PromptConverse}

// Request is one completion request to a Provider.
type Request struct {
	Key    PromptKey
	System string // system prompt (Chinese)
	Prompt string // the rendered prompt template (Chinese)
	// Input is the typed input the prompt was rendered from: one of
	// *UnderstandInput, *FilterInput, *OfferInput, *AggregateInput,
	// *FeedbackInput, *AdjustInput, *GapInput, *RecursionInput,
	// *CompromiseInput, *TaskInput, *ConverseInput (matching Key). Network
	// providers ignore it; the offline builtin brain reads it instead of
	// the prose.
	Input       any
	MaxTokens   int
	Temperature float64
}

// Response is a Provider's raw answer: text that should contain one JSON
// object (possibly inside prose or a code fence), parsed by this package.
type Response struct {
	Text         string
	Model        string
	InputTokens  int
	OutputTokens int
}

// Provider is one LLM backend: "builtin" (offline simulation), "anthropic"
// or "openai" (any OpenAI-compatible server).
type Provider interface {
	// Name is the provider name recorded with each call.
	Name() string
	// Model is the model name recorded with each call ("" if none).
	Model() string
	// Complete sends one request. It must honour ctx (deadline and
	// cancellation) and return an error for any failure; it never falls
	// back by itself (the Client does, per prompt).
	Complete(ctx context.Context, req Request) (Response, error)
}

// InputReader is implemented by providers that answer from Request.Input
// alone and never read the prose (the offline builtin brain): the Client
// then skips rendering the prompt template, which for smart filtering
// serializes every agent profile.
type InputReader interface {
	ReadsInputOnly() bool
}

// ---- Prompt inputs (what the engine knows) and outputs (what a reply is
// parsed and validated into). Outputs never contain agent ids that were not
// in the input: the parser drops them. Prompts 1, 3 and 5 give the domain's
// own shapes: a domain.Understanding, a domain.OfferAnswer (the decision is
// required; conditions are non-empty iff conditional, decline_reason only
// for decline) and a domain.FeedbackAnswer (adjustment_request non-empty
// iff negotiate); prompt 10 gives a domain.TaskAnswer (valid by its Valid)
// and prompt 11 a domain.AgentStep (a tool of domain.ConversationTools with
// its arguments, or a reply). Node ids in an AgentStep's arguments are not
// dropped: the Coordinator refuses those that name no node.

// UnderstandInput is prompt 1's input.
type UnderstandInput struct {
	RawInput string `json:"raw_input"`
	UserID   string `json:"user_id"`
	// For a sub-demand (prompt 8 spawned it): the gap it fills and the
	// capability tags prompt 8 suggested; empty for a root demand.
	GapType        string   `json:"gap_type,omitempty"`
	CapabilityTags []string `json:"capability_tags,omitempty"`
	// KnownTags are capability tags the network's agents carry (the most
	// common first, at most 60), so that needs use the network's words.
	KnownTags []string `json:"known_tags,omitempty"`
	// UserContext is the user's history (001 §3.3.1 user_context, "用户历史、
	// 偏好"): nil for a sub-demand and for a user's first demand.
	UserContext *UserContext `json:"user_context,omitempty"`
}

// UserContext is prompt 1's user_context: the user's earlier root
// demands, newest first, as they stood when this demand was submitted
// (by log position, so a replay or a fork of the same log sees the same).
type UserContext struct {
	EarlierDemands []EarlierDemand `json:"earlier_demands"`
}

// EarlierDemand is one of the user's earlier demands and how it ended.
type EarlierDemand struct {
	// Text is the demand's raw text, clipped.
	Text string `json:"text"`
	// Outcome is finalized, force_finalized or failed (the negotiation
	// ended so), rejected (not taken up), or processing (still running
	// when this demand was submitted).
	Outcome string `json:"outcome"`
	// Detail says why it failed or was rejected.
	Detail string `json:"detail,omitempty"`
	// Roles are the roles of the plan agreed, if any.
	Roles []string `json:"roles,omitempty"`
}

// OutcomeLabel is the outcome in the prompt's words.
func (d EarlierDemand) OutcomeLabel() string {
	switch domain.ChannelStatus(d.Outcome) {
	case domain.ChannelStatusFinalized:
		return "已达成协作方案"
	case domain.ChannelStatusForceFinalized:
		return "未完全达成共识，按部分方案定稿"
	case domain.ChannelStatusFailed:
		return "协商失败"
	case "rejected":
		return "未受理"
	case "processing":
		return "仍在进行中"
	}
	return d.Outcome
}

// FilterInput is prompt 2's input.
type FilterInput struct {
	Demand   domain.Understanding  `json:"demand"`
	RawInput string                `json:"raw_input"`
	Profiles []domain.AgentProfile `json:"all_agent_profiles"` // active agents only
	// MaxCandidates bounds the result (the design asks for 10-20).
	MaxCandidates int `json:"max_candidates"`
	// Exclude lists agents that must not be chosen (e.g. the requester, or
	// the participants of the parent negotiation for a sub-demand).
	Exclude []string `json:"exclude,omitempty"`
}

// Candidate is one agent chosen by prompt 2.
type Candidate struct {
	AgentID     string  `json:"agent_id"`
	DisplayName string  `json:"display_name"`
	Reason      string  `json:"reason"`
	MatchType   string  `json:"match_type"` // "explicit" or "inferred"
	Confidence  float64 `json:"confidence"` // 0..1
	// Definitely is true for "definitely_related", false for
	// "possibly_related".
	Definitely bool `json:"definitely"`
}

// FilterResult is prompt 2's validated output: candidates ordered by
// relevance (definitely related first), no duplicates, only known agents,
// at most MaxCandidates.
type FilterResult struct {
	Analysis   string      `json:"analysis"`
	Candidates []Candidate `json:"candidates"`
}

// OfferInput is prompt 3's input: one agent's twin answering the demand.
type OfferInput struct {
	Profile      domain.AgentProfile  `json:"agent_profile"`
	Demand       domain.Understanding `json:"demand"`
	RawInput     string               `json:"raw_input"`
	FilterReason string               `json:"filter_reason"`
}

// OfferView is one offer as the aggregation prompts see it.
type OfferView struct {
	AgentID      string               `json:"agent_id"`
	DisplayName  string               `json:"display_name"`
	Decision     domain.OfferDecision `json:"decision"`
	Contribution string               `json:"contribution"`
	Conditions   []string             `json:"conditions,omitempty"`
	Reasoning    string               `json:"reasoning,omitempty"`
}

// setsConditions says whether the offer came with conditions (a
// conditional offer, or conditions listed), which a proposal must take in
// for its conditions_accepted.
func (o OfferView) setsConditions() bool {
	return o.Decision == domain.OfferDecisionConditional || len(o.Conditions) > 0
}

// AggregateInput is prompt 4's input. Offers holds only participate and
// conditional offers.
type AggregateInput struct {
	Demand   domain.Understanding `json:"demand"`
	RawInput string               `json:"raw_input"`
	Offers   []OfferView          `json:"offers"`
}

// ProposalResult is the validated output of prompts 4, 6 and 9: a proposal
// whose assignments name only agents from the input (at most one assignment
// per agent). The engine sets ids, version, demand id and timestamps.
type ProposalResult struct {
	Proposal domain.Proposal `json:"proposal"`
}

// FeedbackInput is prompt 5's input: one participant's twin reviewing the
// current proposal.
type FeedbackInput struct {
	Profile      domain.AgentProfile  `json:"agent_profile"`
	Demand       domain.Understanding `json:"demand"`
	Proposal     domain.Proposal      `json:"proposal"`
	MyAssignment *domain.Assignment   `json:"my_assignment,omitempty"`
	// MyOffer is the agent's own offer (its conditions matter when judging).
	MyOffer   OfferView `json:"my_offer"`
	Round     int       `json:"round"`
	MaxRounds int       `json:"max_rounds"`
}

// FeedbackView is one participant's feedback as prompts 6, 7 and 9 see it.
type FeedbackView struct {
	AgentID           string                  `json:"agent_id"`
	DisplayName       string                  `json:"display_name"`
	FeedbackType      domain.FeedbackType     `json:"feedback_type"`
	Reasoning         string                  `json:"reasoning,omitempty"`
	AdjustmentRequest string                  `json:"adjustment_request,omitempty"`
	Concerns          []string                `json:"concerns,omitempty"`
	ProposedChanges   []domain.ProposedChange `json:"proposed_changes,omitempty"`
}

// AdjustInput is prompt 6's input. Participants are the agents still in
// the negotiation (withdrawn agents removed); the adjusted proposal may only
// assign them.
type AdjustInput struct {
	Demand       domain.Understanding `json:"demand"`
	RawInput     string               `json:"raw_input"`
	Current      domain.Proposal      `json:"current_proposal"`
	Feedbacks    []FeedbackView       `json:"feedbacks"`
	Round        int                  `json:"round"` // the round the adjusted proposal is for
	MaxRounds    int                  `json:"max_rounds"`
	Participants []OfferView          `json:"participants"`
}

// GapInput is prompt 7's input.
type GapInput struct {
	Demand    domain.Understanding `json:"demand"`
	RawInput  string               `json:"raw_input"`
	Proposal  domain.Proposal      `json:"final_proposal"`
	Feedbacks []FeedbackView       `json:"agent_feedbacks"`
}

// GapResult is prompt 7's validated output (importance clamped to 0-100).
type GapResult struct {
	IsComplete bool         `json:"is_complete"`
	Analysis   string       `json:"analysis"`
	Gaps       []domain.Gap `json:"gaps"`
}

// RecursionInput is prompt 8's input.
type RecursionInput struct {
	Demand   domain.Understanding `json:"demand"`
	RawInput string               `json:"raw_input"`
	Gaps     []domain.Gap         `json:"gaps"`
	Proposal domain.Proposal      `json:"current_proposal"`
	Depth    int                  `json:"depth"`     // depth of the channel deciding (0 = root)
	MaxDepth int                  `json:"max_depth"` // sub-negotiations allowed while Depth < MaxDepth
	// EstimatedCost is what a sub-negotiation is expected to cost (001
	// §3.3.8): the engine measures it on the deciding channel.
	EstimatedCost domain.SubnetCost `json:"estimated_cost"`
}

// RecursionResult is prompt 8's validated output: at most 3 sub-demands,
// each naming the gap it fills; none when ShouldRecurse is false.
type RecursionResult struct {
	ShouldRecurse bool   `json:"should_recurse"`
	Analysis      string `json:"analysis"` // the three conditions' analyses, joined
	// Conditions are the three conditions one by one (001 §3.3.8).
	Conditions []domain.RecursionCondition `json:"conditions,omitempty"`
	SubDemands []SubDemandResult           `json:"sub_demands"`
}

// Decision is the record of r for the channel's events, with the cost
// estimate the prompt was given.
func (r RecursionResult) Decision(cost domain.SubnetCost) *domain.RecursionDecision {
	return &domain.RecursionDecision{ShouldRecurse: r.ShouldRecurse, Conditions: r.Conditions, EstimatedCost: &cost}
}

// SubDemandResult is one sub-demand of prompt 8.
type SubDemandResult struct {
	GapType string           `json:"gap_type"`
	Demand  domain.SubDemand `json:"demand"`
}

// CompromiseInput is prompt 9's input: what is available when there are no
// participants, the offers ran out, or the rounds ended in partial
// agreement.
type CompromiseInput struct {
	Demand    domain.Understanding `json:"demand"`
	RawInput  string               `json:"raw_input"`
	Available []domain.Assignment  `json:"available_resources"` // may be empty
	Offers    []OfferView          `json:"offers"`              // every offer, declines included
	Gaps      []domain.Gap         `json:"gaps"`
	Feedbacks []FeedbackView       `json:"feedbacks"`
	Reason    string               `json:"reason"` // "no_participants", "no_offers", "partial_agreement"
}

// TaskInput is prompt 10's input: the assignee's twin reporting on one
// task of the workflow an agreed plan became (issue 13), whether the person
// did its part.
type TaskInput struct {
	Profile  domain.AgentProfile  `json:"agent_profile"` // the assignee
	Demand   domain.Understanding `json:"demand"`
	RawInput string               `json:"raw_input"`
	Plan     string               `json:"plan"` // the agreed plan's summary
	// Task is the task node: its title, role, responsibility (Description)
	// and due date as the plan wrote it.
	Task domain.WorkflowNode `json:"task"`
	// Before are the results of the steps the task waits for (empty when
	// it waits for none).
	Before []domain.NodeOutcome `json:"before,omitempty"`
}

// NodeState is a workflow node as the conversation prompt sees it.
type NodeState struct {
	domain.WorkflowNode
	Status domain.NodeStatus `json:"status"`
	Error  string            `json:"error,omitempty"`
	Result string            `json:"result,omitempty"`
}

// WorkflowState is a workflow as the conversation prompt sees it.
type WorkflowState struct {
	WorkflowID   string                `json:"workflow_id"`
	Title        string                `json:"title"`
	Status       domain.WorkflowStatus `json:"status"`
	Version      int                   `json:"version"`
	Participants []string              `json:"participants"`
	Nodes        []NodeState           `json:"nodes"`
	Edges        []domain.WorkflowEdge `json:"edges"`
}

// StateOf is w as the conversation prompt sees it: each node with its
// status, last error and result summary.
func StateOf(w *domain.Workflow) WorkflowState {
	st := WorkflowState{WorkflowID: w.ID, Title: w.Title, Status: w.Status, Version: w.Version,
		Participants: w.Participants, Edges: w.Edges, Nodes: []NodeState{}}
	for _, n := range w.Nodes {
		r := w.Run(n.ID)
		ns := NodeState{WorkflowNode: n, Status: r.Status, Error: r.Error}
		if r.Result != nil {
			ns.Result = r.Result.Summary
		}
		st.Nodes = append(st.Nodes, ns)
	}
	return st
}

// ConverseInput is prompt 11's input: the conversation agent deciding its
// next step (a tool call or the reply) on the workflow as it is now.
type ConverseInput struct {
	Workflow WorkflowState
	History  []domain.Turn             // earlier turns (done)
	Message  string                    // what the person said now
	Steps    []domain.ConversationStep // this turn's steps so far
	Now      time.Time
}
