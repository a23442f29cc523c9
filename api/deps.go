package api

import (
	"context"
	"time"

	"github.com/towow/towow/domain/erasure"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/projections"
)

// What the API depends on, declared here: the command side, the log, the
// read models and the operations status. The App wires the real ones
// (app.Commands, *eventstore.Store, *projections.Queries and its status
// source); the API never reaches the write side's processes, the unit of
// work or the LLM client itself.

// Commands is the command side (app.Commands: the negotiation's, the
// workflow execution's, the agent directory's and the forks' commands).
type Commands interface {
	SubmitDemand(ctx context.Context, userID, rawInput string) (negotiation.DemandSubmission, error)
	ClarifyDemand(ctx context.Context, demandID, answer string) (negotiation.DemandSubmission, error)
	Fork(ctx context.Context, demandID string, at int64, change negotiation.ForkChange) (string, int64, error)
	Share(ctx context.Context, demandID, userID string, role negotiation.Role) (int64, error)
	Unshare(ctx context.Context, demandID, userID string) (int64, error)
	Subscribe(ctx context.Context, owner, url string, kinds []notice.Kind) (id, secret string, cursor int64, err error)
	Unsubscribe(ctx context.Context, owner, id string) (int64, error)
	Redeliver(ctx context.Context, owner, id, noticeID string) error
	SubmitOffer(ctx context.Context, channelID, agentID string, answer negotiation.OfferAnswer) (int64, error)
	SubmitFeedback(ctx context.Context, channelID, agentID string, round int, answer negotiation.FeedbackAnswer) (int64, error)
	CreateAgent(ctx context.Context, actor string, p negotiation.AgentProfile) (negotiation.AgentChange, error)
	UpdateAgent(ctx context.Context, actor string, p negotiation.AgentProfile) (negotiation.AgentChange, error)
	DeactivateAgent(ctx context.Context, actor, agentID, reason string) (negotiation.AgentChange, error)
	ReactivateAgent(ctx context.Context, actor, agentID string) (negotiation.AgentChange, error)
	IssueAgentToken(ctx context.Context, actor, agentID string) (negotiation.AgentChange, error)
	AuthenticateAgent(ctx context.Context, token string) (negotiation.AgentState, error)
	RegisterProfiles(ctx context.Context, profiles []negotiation.AgentProfile, source string, issueTokens bool) (negotiation.ProfilesRegistered, error)
	CreateWorkflow(ctx context.Context, userID, title, template string) (*workflow.Workflow, int64, error)
	Decide(ctx context.Context, workflowID string, d workflow.Decision) (workflow.DecisionOutcome, error)
	ChangeCanvas(ctx context.Context, workflowID string, b workflow.CanvasBatch) (workflow.CanvasOutcome, int64, error)
	ReportTask(ctx context.Context, workflowID, nodeID, agentID string, a workflow.TaskAnswer) (int64, error)
	Approve(ctx context.Context, workflowID, nodeID, userID string, approved bool, comment string) (int64, error)
	SendMessage(ctx context.Context, workflowID, text, clientID, userID string) (string, int64, error)
	Conversation(ctx context.Context, workflowID string) ([]workflow.Turn, error)
	EraseUser(ctx context.Context, userID string) (erasure.Erased, int64, error)
	EraseAgent(ctx context.Context, agentID string) (erasure.Erased, int64, error)
}

// EventReader reads the log (*eventstore.Store).
type EventReader interface {
	ReadAll(ctx context.Context, after int64, f eventstore.Filter, limit int) ([]eventstore.RecordedEvent, error)
	ReadStream(ctx context.Context, streamID string, fromVersion int64, limit int) ([]eventstore.RecordedEvent, error)
	StreamVersion(ctx context.Context, streamID string) (int64, error)
	HeadPosition(ctx context.Context) (int64, error)
	Unsettled(ctx context.Context) (int64, error)
	WaitSettled(ctx context.Context, pos int64) error
	Fold(ctx context.Context, streamID string, apply func(event.Payload)) (int64, error)
	Subscribe(ctx context.Context, opts eventstore.SubscribeOptions, handle eventstore.Handler) error
}

// ReadModels is the read side (*projections.Queries).
type ReadModels interface {
	WaitFor(ctx context.Context, pos int64, names ...string) error
	Lag(ctx context.Context, names ...string) (map[string]int64, error)
	Models() []string
	Checksum(ctx context.Context, name string) (projections.Fingerprint, error)
	Rebuild(ctx context.Context, name string) (projections.RebuildResult, error)

	ListDemands(ctx context.Context, f projections.DemandFilter) ([]projections.DemandView, error)
	GetDemand(ctx context.Context, demandID string) (projections.DemandView, error)
	SubDemands(ctx context.Context, demandID string) ([]projections.DemandView, error)
	GetChannel(ctx context.Context, channelID string) (projections.ChannelView, error)
	ChildChannels(ctx context.Context, channelID string) ([]string, error)
	ChannelProposals(ctx context.Context, channelID string) ([]projections.ProposalView, error)
	ChannelOffers(ctx context.Context, channelID string) ([]projections.OfferView, error)
	ChannelFeedback(ctx context.Context, channelID string, version int) ([]projections.FeedbackView, error)
	GetAgent(ctx context.Context, agentID string) (projections.AgentView, error)
	ListAgents(ctx context.Context, f projections.AgentFilter) ([]projections.AgentView, error)
	AgentHistory(ctx context.Context, agentID string, before int64, limit int) ([]projections.Participation, error)
	ListLLMCalls(ctx context.Context, f projections.LLMCallFilter) ([]projections.LLMCallView, error)
	SummarizeLLMCalls(ctx context.Context, f projections.LLMCallFilter) ([]projections.LLMCallSummary, error)
	SummarizeQuality(ctx context.Context, f projections.QualityFilter) (projections.QualitySummary, error)
	Workflow(ctx context.Context, workflowID string) (projections.WorkflowState, error)
	WorkflowTasks(ctx context.Context, agentID string) ([]projections.OpenNode, error)
	PendingApprovals(ctx context.Context, userID string) ([]projections.OpenNode, error)
	UserWorkflows(ctx context.Context, userID string, limit int) ([]*workflow.Workflow, error)
	UserDemandsSince(ctx context.Context, userID string, since time.Time) (projections.Usage, error)
	UserTokensSince(ctx context.Context, userID string, since time.Time) (projections.Usage, error)
}

// StatusSource tells the operations view what runs in this process.
type StatusSource interface {
	// LLMProvider names the LLM provider ("builtin" is the offline
	// simulation); LLMBreaker is its circuit breaker's state (closed,
	// half-open or open).
	LLMProvider() string
	LLMBreaker() string
	// Rules are the rules stamped on new channels.
	Rules() negotiation.Rules
	// Jobs counts the River jobs by state (all processes on the database).
	Jobs(ctx context.Context) (map[string]int64, error)
}

// Pinger checks the database (*pgxpool.Pool).
type Pinger interface {
	Ping(ctx context.Context) error
}
