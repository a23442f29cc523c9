package projections

import (
	"context"
	"fmt"

	"github.com/towow/towow/domain/workflow"
)

// Queries answers the read side's questions from the read models: what the
// HTTP API serves. It waits for, rebuilds and fingerprints the models
// through runner and reads their rows through db.
type Queries struct {
	runner *Runner
	db     DB
	// Reveal, when set, reveals a sealed personal text (the read models
	// keep them sealed): the searches over names and summaries need it.
	Reveal func(ctx context.Context, text string) (string, error)
}

// NewQueries returns the read side over runner's read models, read
// through db (usually the pool).
func NewQueries(runner *Runner, db DB) *Queries { return &Queries{runner: runner, db: db} }

// WaitFor waits until every named read model has folded the log up to pos.
func (q *Queries) WaitFor(ctx context.Context, pos int64, names ...string) error {
	return q.runner.WaitFor(ctx, pos, names...)
}

// Lag is how many positions each named read model trails the log.
func (q *Queries) Lag(ctx context.Context, names ...string) (map[string]int64, error) {
	return q.runner.Lag(ctx, names...)
}

// Models names the read models (see [Names]).
func (q *Queries) Models() []string { return Names() }

// Checksum fingerprints the named read model's rows.
func (q *Queries) Checksum(ctx context.Context, name string) (Fingerprint, error) {
	m, ok := ByName(name)
	if !ok {
		return Fingerprint{}, fmt.Errorf("read model %q: %w", name, ErrNotFound)
	}
	return m.Checksum(ctx, q.db)
}

// Rebuild folds the named read model again from the first event (see
// [Runner.Rebuild]).
func (q *Queries) Rebuild(ctx context.Context, name string) (RebuildResult, error) {
	m, ok := ByName(name)
	if !ok {
		return RebuildResult{}, fmt.Errorf("read model %q: %w", name, ErrNotFound)
	}
	return q.runner.Rebuild(ctx, m)
}

// ListDemands lists demands (see the package function).
func (q *Queries) ListDemands(ctx context.Context, f DemandFilter) ([]DemandView, error) {
	return ListDemands(ctx, q.db, f)
}

// GetDemand returns one demand.
func (q *Queries) GetDemand(ctx context.Context, demandID string) (DemandView, error) {
	return GetDemand(ctx, q.db, demandID)
}

// SubDemands returns a demand's sub-demands.
func (q *Queries) SubDemands(ctx context.Context, demandID string) ([]DemandView, error) {
	return SubDemands(ctx, q.db, demandID)
}

// GetChannel returns one channel.
func (q *Queries) GetChannel(ctx context.Context, channelID string) (ChannelView, error) {
	return GetChannel(ctx, q.db, channelID)
}

// ChildChannels returns the channels a channel spawned.
func (q *Queries) ChildChannels(ctx context.Context, channelID string) ([]string, error) {
	return ChildChannels(ctx, q.db, channelID)
}

// ChannelProposals returns every proposal version of a channel.
func (q *Queries) ChannelProposals(ctx context.Context, channelID string) ([]ProposalView, error) {
	return ChannelProposals(ctx, q.db, channelID)
}

// ChannelOffers returns a channel's offers.
func (q *Queries) ChannelOffers(ctx context.Context, channelID string) ([]OfferView, error) {
	return ChannelOffers(ctx, q.db, channelID)
}

// ChannelFeedback returns a channel's feedback (of one proposal version,
// or all when version is 0).
func (q *Queries) ChannelFeedback(ctx context.Context, channelID string, version int) ([]FeedbackView, error) {
	return ChannelFeedback(ctx, q.db, channelID, version)
}

// GetAgent returns one agent.
func (q *Queries) GetAgent(ctx context.Context, agentID string) (AgentView, error) {
	return GetAgent(ctx, q.db, agentID)
}

// ListAgents lists agents.
func (q *Queries) ListAgents(ctx context.Context, f AgentFilter) ([]AgentView, error) {
	if q.Reveal == nil || f.Query == "" {
		return ListAgents(ctx, q.db, f)
	}
	return searchAgents(ctx, q.db, f, q.Reveal)
}

// AgentHistory returns an agent's negotiations, newest first.
func (q *Queries) AgentHistory(ctx context.Context, agentID string, before int64, limit int) ([]Participation, error) {
	return AgentHistory(ctx, q.db, agentID, before, limit)
}

// ListLLMCalls lists LLM calls.
func (q *Queries) ListLLMCalls(ctx context.Context, f LLMCallFilter) ([]LLMCallView, error) {
	return ListLLMCalls(ctx, q.db, f)
}

// SummarizeLLMCalls summarizes LLM calls per prompt.
func (q *Queries) SummarizeLLMCalls(ctx context.Context, f LLMCallFilter) ([]LLMCallSummary, error) {
	return SummarizeLLMCalls(ctx, q.db, f)
}

// SummarizeQuality sums up the quality of every root negotiation the
// filter selects (see the package function).
func (q *Queries) SummarizeQuality(ctx context.Context, f QualityFilter) (QualitySummary, error) {
	return SummarizeQuality(ctx, q.db, f)
}

// Workflow returns a workflow's row (see [GetWorkflow]).
func (q *Queries) Workflow(ctx context.Context, workflowID string) (WorkflowState, error) {
	return GetWorkflow(ctx, q.db, workflowID)
}

// UserWorkflows returns one user's workflows (every user's for ""),
// newest first.
func (q *Queries) UserWorkflows(ctx context.Context, userID string, limit int) ([]*workflow.Workflow, error) {
	return UserWorkflows(ctx, q.db, userID, limit)
}

// WorkflowTasks returns the running tasks assigned to an agent.
func (q *Queries) WorkflowTasks(ctx context.Context, agentID string) ([]OpenNode, error) {
	return WorkflowTasks(ctx, q.db, agentID)
}

// PendingApprovals returns the running approvals waiting for a user.
func (q *Queries) PendingApprovals(ctx context.Context, userID string) ([]OpenNode, error) {
	return PendingApprovals(ctx, q.db, userID)
}
