package eventtest

import (
	"time"

	"github.com/towow/towow/domain/erasure"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
)

// Sample values shared by the payload samples.
var (
	sampleTime = time.Date(2026, 1, 22, 10, 5, 0, 0, time.UTC)

	Deep = &negotiation.DeepUnderstanding{
		Motivation:        "上个月参加聚会后很兴奋，想当组织者",
		LikelyPreferences: []string{"轻松氛围", "质量优先"},
		EmotionalContext:  "期待、积极",
	}

	Context = &negotiation.DemandContext{
		Location:          "北京",
		ExpectedAttendees: 50,
		Date:              "2026-02-15",
		Budget:            "2000 元",
		Urgency:           negotiation.UrgencyHigh,
	}

	sampleRecursion = negotiation.RecursionDecision{ShouldRecurse: true,
		Conditions:    []negotiation.RecursionCondition{{Name: "需求满足度", Met: new(true), Analysis: "缺口影响需求"}},
		EstimatedCost: &negotiation.SubnetCost{Tokens: 5000, TimeSeconds: 30},
		Budget:        &negotiation.BudgetHold{Limit: 20000, Spent: 12000, PerSubnet: 5000, Asked: 2, Kept: 1}}

	sampleProposal = negotiation.Proposal{
		ProposalID: "prop_001",
		DemandID:   "d-abc12345",
		Version:    2,
		Type:       negotiation.ProposalTypeCompromise,
		Summary:    "2月16日在朝阳区举办30人AI聚会",
		Objective:  "让 AI 爱好者线下交流",
		Assignments: []negotiation.Assignment{{
			AgentID:            "user_agent_bob",
			DisplayName:        "Bob",
			Role:               "场地提供者",
			Need:               "场地提供者",
			SubChannelID:       "collab-abc12345-1",
			Responsibility:     "提供30人会议室，配有投影",
			Dependencies:       []string{"user_agent_alice"},
			Notes:              "费用500元由参与者分摊",
			ConditionsAccepted: true,
		}},
		Alternates: []negotiation.Assignment{{AgentID: "user_agent_carol", DisplayName: "Carol", Role: "场地提供者", Need: "场地提供者", SubChannelID: "collab-abc12345-1",
			Responsibility: "提供40人活动空间", Dependencies: []string{"user_agent_alice"}, Notes: "周末可用", ConditionsAccepted: true}},
		Timeline: &negotiation.Timeline{
			StartDate:  "2026-02-16",
			Milestones: []negotiation.Milestone{{Name: "场地确认", Date: "2026-02-13", Deliverable: "场地预订单"}},
		},
		Rationale:       "Bob 有场地，Alice 能分享",
		Gaps:            []string{"摄影师"},
		Confidence:      negotiation.ConfidenceMedium,
		OpenQuestions:   []string{"是否需要下午茶？"},
		SuccessCriteria: []string{"聚会如期举行，到场约50人"},
		Risks:           []string{"日期未定，档期可能冲突"},
		Compromises:     []negotiation.Compromise{{Issue: "日期", Resolution: "改到16日", Rationale: "多数人15日有事"}},
		Unresolved:      []string{"赞助"},
		Suggestions:     []string{"下次提前两周约"},
		AdjustmentSummary: &negotiation.AdjustmentSummary{
			Round:             2,
			ChangesMade:       []negotiation.ProposalChange{{Aspect: "日期", Before: "2月15日", After: "2月16日", Reason: "Bob 15日有事"}},
			RequestsAddressed: []string{"改日期"},
			RequestsDeclined:  []negotiation.DeclinedRequest{{Request: "换到海淀", Reason: "没有场地"}},
		},
		CreatedAt: sampleTime,
	}
)

// Payloads holds one fully filled payload per catalog entry. Every
// field must be non-zero (see TestSamplesFillEveryField) so that the round
// trip covers it.
var Payloads = []event.Payload{
	&negotiation.DemandSubmitted{
		DemandID: "d-abc12345", UserID: "user_alice",
		RawInput:          "我想在北京办一场AI主题聚会，需要场地和嘉宾",
		SurfaceDemand:     "想在北京办一场AI主题聚会",
		DeepUnderstanding: Deep,
		RootDemandID:      "d-root", ParentDemandID: "d-parent", ParentChannelID: "collab-parent", RecursionDepth: 1,
		GapType: "摄影师", CapabilityTags: []string{"摄影"}, NeedCount: 2, Clarifies: "d-rejected1",
	},
	&negotiation.DemandUnderstood{
		DemandID: "d-abc12345", SurfaceDemand: "想在北京办一场AI主题聚会",
		CapabilityTags: []string{"场地提供", "演讲嘉宾"}, Confidence: negotiation.ConfidenceHigh,
		Needs:             []negotiation.Need{{Role: "场地提供者", CapabilityTags: []string{"场地提供"}, Count: 1}, {Role: "演讲嘉宾", CapabilityTags: []string{"演讲嘉宾"}, Count: 2}},
		DeepUnderstanding: Deep, Context: Context,
		Uncertainties: []string{"具体日期未定"},
	},
	&negotiation.DemandBroadcast{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", RecipientsCount: 12,
		RequesterID: "agent_alice", SurfaceDemand: "AI 聚会", CapabilityTags: []string{"场地"},
		LocationHint: "北京", Urgency: negotiation.UrgencyHigh,
	},
	&negotiation.DemandAccepted{DemandID: "d-abc12345", ChannelID: "collab-abc12345", CandidateCount: 12},
	&negotiation.DemandRejected{DemandID: "d-abc12345", Reason: negotiation.RejectNoMatch, Message: "协作网络中没有人能满足这项需求",
		Suggestion: negotiation.NoCandidatesSuggestion, Questions: []string{negotiation.UnclearQuestion}, UnservedNeeds: []string{"赞助商"}},
	&negotiation.FilterStarted{DemandID: "d-abc12345", TotalAgents: 120},
	&negotiation.FilterCompleted{
		DemandID: "d-abc12345", ChannelID: "collab-abc12345", CandidatesCount: 1,
		Candidates: []negotiation.Candidate{{
			AgentID: "user_agent_bob", DisplayName: "Bob", Reason: "场地资源", RelevanceScore: 90,
		}},
		TotalAgents: 120, FilterDurationMS: 1500,
	},
	&negotiation.ChannelCreated{
		ChannelID: "collab-sub-1", DemandID: "d-sub-1", ParticipantsCount: 3,
		InvitedAgents: []string{"user_agent_bob"}, ParentChannel: "collab-abc12345", RecursionDepth: 1,
		ParentDemandID: "d-abc12345", RootDemandID: "d-abc12345",
		Candidates: []negotiation.Candidate{{AgentID: "user_agent_bob", DisplayName: "Bob", Reason: "场地资源", RelevanceScore: 90}},
		MaxRounds:  5, OfferTimeoutSeconds: 300, FeedbackTimeoutSeconds: 120, StuckTimeoutSeconds: 600, MaxDepth: 1, AcceptPercent: 80, FailPercent: 50,
		CreatedAt: time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC),
	},
	&negotiation.ChannelInviteSent{ChannelID: "collab-abc12345", AgentID: "user_agent_bob", DemandSummary: "AI 聚会", DemandID: "d-abc12345", DisplayName: "Bob",
		Reason: "假设分支：加入候选人", Broadcast: true},
	&negotiation.ChannelStatusChanged{
		ChannelID: "collab-abc12345", OldStatus: negotiation.ChannelStatusBroadcasting,
		NewStatus: negotiation.ChannelStatusCollecting, Reason: "broadcast_complete",
	},
	&negotiation.ChannelClosed{ChannelID: "collab-abc12345", Status: negotiation.ChannelStatusForceFinalized, Reason: "max_rounds"},
	&negotiation.ChannelRulesChanged{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Rules: negotiation.Rules{MaxRounds: 2, OfferTimeoutSeconds: 300,
		FeedbackTimeoutSeconds: 120, StuckTimeoutSeconds: 600, MaxDepth: 1, AcceptPercent: 70, FailPercent: 40}, Reason: "假设分支：改变规则"},
	&negotiation.OfferRequested{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", AgentID: "user_agent_bob",
		Round: 1, FilterReason: "场地资源", MatchScore: 90,
	},
	&negotiation.OfferSubmitted{
		ChannelID: "collab-abc12345", DisplayName: "Bob",
		Offer: negotiation.Offer{
			OfferID: "offer_001", AgentID: "user_agent_bob", DemandID: "d-abc12345",
			OfferAnswer: negotiation.OfferAnswer{
				Decision: negotiation.OfferDecisionConditional, Contribution: "可以提供朝阳区30人会议室",
				Conditions: []string{"需要提前3天确认"}, Reasoning: "对AI聚会感兴趣",
				DeclineReason: "周末可能有事", Confidence: 80,
			},
			SubmittedAt: sampleTime,
		},
	},
	&negotiation.OfferTimeout{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", OffersCount: 4,
		MissingAgents: []string{"user_agent_carol"},
	},
	&negotiation.AggregationStarted{ChannelID: "collab-abc12345", DemandID: "d-abc12345", OffersCount: 4},
	&negotiation.ProposalDistributed{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Proposal: sampleProposal, Round: 2},
	&negotiation.ProposalFeedback{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", AgentID: "user_agent_bob",
		ProposalVersion: 1, Round: 1, FeedbackAnswer: negotiation.FeedbackAnswer{
			FeedbackType: negotiation.FeedbackNegotiate, Reasoning: "时间冲突",
			AdjustmentRequest: "能否改到2月16日？", Concerns: []string{"日期"}, Confidence: 70,
			ProposedChanges: []negotiation.ProposedChange{{Field: "timeline.start_date", Value: "2026-02-16", Reason: "时间冲突"}},
		},
	},
	&negotiation.ProposalAdjusting{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Round: 2},
	&negotiation.ProposalFinalized{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", FinalProposal: sampleProposal,
		ParticipantsCount: 3, RoundsTaken: 2,
		Participants: []string{"user_agent_bob", "user_agent_alice"}, TotalDurationSeconds: 3600,
	},
	&negotiation.FeedbackEvaluated{
		ChannelID: "collab-abc12345", Accepts: 3, Rejects: 1, Negotiates: 1, Replaced: 1, NoAnswers: 1,
		AcceptRate: 0.5, Round: 2, Decision: negotiation.RoundNext,
	},
	&negotiation.NegotiationRoundStarted{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Round: 2, MaxRounds: 5},
	&negotiation.NegotiationForceFinalized{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", FinalProposal: sampleProposal,
		ConfirmedParticipants: []string{"user_agent_bob"}, OptionalParticipants: []string{"user_agent_carol"},
		RoundsTaken: 5, AcceptRate: 0.75,
	},
	&negotiation.NegotiationFailed{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345",
		Reason: negotiation.FailureLowAcceptance, LastProposal: &sampleProposal,
		ErrorCode: "TOWOW_PROPOSAL_004", Suggestion: "放宽时间要求后重试",
	},
	&negotiation.NegotiationForked{DemandID: "d-fork1234", ForkedFrom: "d-abc12345", At: 1234, Copied: 57,
		// One change uses one of offer, feedback and rules; the sample sets
		// them all so that the round trip covers every field.
		Change: negotiation.ForkChange{Type: negotiation.ForkReplaceOffer, AgentID: "user_agent_bob",
			Offer: &negotiation.OfferAnswer{Decision: negotiation.OfferDecisionConditional, Contribution: "只能提供半天场地", Conditions: []string{"下午场"},
				Reasoning: "上午有别的活动", DeclineReason: "全天没空", Confidence: 60},
			Feedback: &negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackNegotiate, Reasoning: "时间冲突", AdjustmentRequest: "改到周日",
				Concerns: []string{"日期"}, Confidence: 70, ProposedChanges: []negotiation.ProposedChange{{Field: "timeline.start_date", Value: "周日", Reason: "时间冲突"}}},
			Rules: &negotiation.RulesChange{MaxRounds: new(2), OfferTimeoutSeconds: new(60), FeedbackTimeoutSeconds: new(30),
				StuckTimeoutSeconds: new(600), MaxDepth: new(2), AcceptPercent: new(70), FailPercent: new(40)},
			Text: "我想在上海办一场AI主题聚会"},
		ForkedAt: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)},
	&negotiation.NegotiationCompleted{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", Status: negotiation.ChannelStatusFinalized,
		FinalProposal: &sampleProposal, RoundsTaken: 2, MergedPlan: &sampleProposal,
		SubResults: []negotiation.SubnetCompleted{{
			ParentChannelID: "collab-abc12345", SubChannelID: "collab-sub-1", SubDemandID: "d-sub-1",
			Status: negotiation.ChannelStatusFinalized, Success: true, Result: &sampleProposal, FailureReason: "none",
		}},
		RecursionDecision: &sampleRecursion,
	},
	&negotiation.GapIdentified{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345",
		Gaps: []negotiation.Gap{{
			GapType: "摄影师", Importance: 70, Reason: "需要记录活动内容",
			SuggestedCapabilityTags: []string{"摄影"}, Description: "缺少活动摄影",
		}},
		OverallCompletion: 80, IsComplete: true, Analysis: "方案基本完整，摄影是次要缺口",
	},
	&negotiation.SubnetDeclined{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Decision: &sampleRecursion},
	&negotiation.SubnetTriggered{
		ParentChannelID: "collab-abc12345", ParentDemandID: "d-abc12345",
		SubDemandID: "d-sub-1", SubChannelID: "collab-sub-1", GapType: "摄影师", RecursionDepth: 1,
		SubDemand: &negotiation.SubDemand{Description: "寻找摄影师", CapabilityTags: []string{"摄影"}, Priority: "high"}, NeedCount: 2,
		Decision: &sampleRecursion,
	},
	&negotiation.SubnetCompleted{
		ParentChannelID: "collab-abc12345", SubChannelID: "collab-sub-1", SubDemandID: "d-sub-1",
		Status: negotiation.ChannelStatusFailed, Success: true,
		Result: &sampleProposal, FailureReason: "partial: no video",
	},
	&negotiation.AgentOnline{
		AgentID: "user_agent_bob", AgentType: negotiation.AgentTypeUserAgent, Capabilities: []string{"场地"},
		Profile: &negotiation.AgentProfile{
			AgentID: "user_agent_bob", UserName: "Bob", ProfileSummary: "朝阳区创业者，有会议室",
			Location: "北京", Tags: []string{"场地"}, Capabilities: map[string]string{"场地": "30人会议室"},
			Interests: []string{"AI"}, Availability: "周末", Mode: negotiation.AgentModeExternal,
		},
		OnlineAt: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC),
	},
	&negotiation.AgentRegistered{AgentID: "user_agent_bob", Profile: negotiation.AgentProfile{
		AgentID: "user_agent_bob", UserName: "Bob", ProfileSummary: "朝阳区创业者，有会议室",
		Location: "北京", Tags: []string{"场地"}, Capabilities: map[string]string{"场地": "30人会议室"},
		Interests: []string{"AI"}, Availability: "周末", Mode: negotiation.AgentModeExternal,
	}, Source: "data/mock_profiles.json"},
	&negotiation.AgentUpdated{AgentID: "user_agent_bob", Profile: negotiation.AgentProfile{
		AgentID: "user_agent_bob", UserName: "Bob", ProfileSummary: "朝阳区创业者，有会议室",
		Location: "北京", Tags: []string{"场地"}, Capabilities: map[string]string{"场地": "30人会议室"},
		Interests: []string{"AI"}, Availability: "周末", Mode: negotiation.AgentModeExternal,
	}},
	&negotiation.AgentDeactivated{AgentID: "user_agent_bob", Reason: "left the platform"},
	&negotiation.AgentReactivated{AgentID: "user_agent_bob"},
	&negotiation.AgentTokenIssued{AgentID: "user_agent_ext", TokenSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
	&negotiation.CollaboratorAdded{DemandID: "d-1", UserID: "bob", Role: negotiation.RoleEditor},
	&negotiation.CollaboratorRemoved{DemandID: "d-1", UserID: "bob"},
	&workflow.ConversationReported{WorkflowID: "wf-1", ReportID: "r-1", About: "approval.waiting", Text: "「确认预算」等待你审批。", NodeID: "ok"},
	&workflow.ConversationSummarized{WorkflowID: "wf-1", Through: "msg-1", Turns: 3, Summary: "- 用户：把场地确认提前；动作：update_node milestone-1；回复：已修改。"},
	&notice.Posted{NoticeID: "n-1-0", Recipient: "user:alice", Kind: notice.KindApproval, Title: "「确认预算」等待你审批", DemandID: "d-1",
		ChannelID: "collab-1", WorkflowID: "wf-1", NodeID: "ok", Tree: "d-1"},
	&erasure.Erased{ErasureID: "erasure-1a2b3c4d5e6f7a8b", KeyIDs: []string{"4147f136519146b8b5c2e645384c2eff"}, Subjects: 3},
	&notice.Subscribed{SubscriptionID: "wh-1", Owner: "user:alice", URL: "https://hooks.example.com/towow", Kinds: []notice.Kind{notice.KindApproval}},
	&notice.Unsubscribed{SubscriptionID: "wh-1"},
	&notice.Delivered{SubscriptionID: "wh-1", NoticeID: "n-1-0", Attempt: 2, Status: 500, Error: "the receiver answered 500"},
	&negotiation.AgentOffline{AgentID: "user_agent_bob", Reason: "silent for 5m0s",
		LastContactAt: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), OfflineAt: time.Date(2026, 11, 25, 10, 5, 0, 0, time.UTC)},
	&negotiation.AgentWithdrawn{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", AgentID: "user_agent_bob",
		DisplayName: "Bob", Reason: "时间冲突",
	},
	&negotiation.ErrorOccurred{
		ErrorCode: "TOWOW_FILTER_002", ErrorMessage: "LLM筛选超时",
		Context: map[string]string{"demand_id": "d-abc12345"}, Recoverable: true,
	},
	// Workflows.
	&workflow.WorkflowCreated{WorkflowID: "wf-abc12345", DemandID: "d-abc12345", ChannelID: "collab-abc12345", UserID: "user_alice",
		Title: "AI聚会执行", Participants: []string{"user_agent_bob"}, Nodes: []workflow.WorkflowNode{sampleNode},
		Edges: []workflow.WorkflowEdge{{From: "task-1", To: "milestone-1"}}, CreatedAt: sampleTime},
	&workflow.WorkflowNodeAdded{WorkflowChange: sampleChange, Node: sampleNode},
	&workflow.WorkflowNodeUpdated{WorkflowChange: sampleChange, Node: sampleNode},
	&workflow.WorkflowNodeDeleted{WorkflowChange: sampleChange, NodeID: "task-1", Edges: []workflow.WorkflowEdge{{From: "task-1", To: "milestone-1"}}},
	&workflow.WorkflowNodeMoved{WorkflowChange: sampleChange, NodeID: "task-1", Position: workflow.Position{X: 10, Y: 20}},
	&workflow.WorkflowEdgeAdded{WorkflowChange: sampleChange, Edge: workflow.WorkflowEdge{From: "task-1", To: "milestone-1"}},
	&workflow.WorkflowEdgeDeleted{WorkflowChange: sampleChange, Edge: workflow.WorkflowEdge{From: "task-1", To: "milestone-1"}},
	&workflow.WorkflowStarted{WorkflowID: "wf-abc12345", DecisionID: "dec-2", NodeCount: 2, Order: []string{"task-1", "milestone-1"}},
	&workflow.WorkflowCompleted{WorkflowID: "wf-abc12345", Status: "completed", Results: []workflow.NodeOutcome{{NodeID: "task-1", Result: sampleResult}}},
	&workflow.WorkflowFailed{WorkflowID: "wf-abc12345", Status: "failed", FailedNode: "task-1", Error: "场地不可用",
		Results: []workflow.NodeOutcome{{NodeID: "milestone-0", Result: sampleResult}}},
	&workflow.WorkflowCancelled{WorkflowID: "wf-abc12345", DecisionID: "dec-3", Reason: "活动取消"},
	&workflow.NodeStarted{WorkflowID: "wf-abc12345", NodeID: "task-1", NodeType: workflow.NodeTask, Attempt: 1, Deadline: sampleTime},
	&workflow.NodeCompleted{WorkflowID: "wf-abc12345", NodeID: "task-1", NodeType: workflow.NodeTask, Attempt: 1, Result: sampleResult},
	&workflow.NodeFailed{WorkflowID: "wf-abc12345", NodeID: "task-1", NodeType: workflow.NodeHTTP, Attempt: 1, Error: "503", Retry: true, RetryAt: sampleTime},
	&workflow.NodeSkipped{WorkflowID: "wf-abc12345", NodeID: "milestone-1", NodeType: workflow.NodeMilestone, Reason: "depends on task-1, which failed"},
	&workflow.DecisionValidated{WorkflowID: "wf-abc12345", Decision: sampleDecision, Corrections: []workflow.Correction{{Rule: "node_fields",
		Field: "payload.node.timeout_seconds", From: "0", To: "1", Message: "clamped"}}, Version: 2, DecidedAt: sampleTime},
	&workflow.DecisionRejected{WorkflowID: "wf-abc12345", Decision: sampleDecision, Rule: "acyclic", Reason: "cycle",
		Errors: []workflow.FieldError{{Field: "payload", Message: "cycle"}}, Version: 1, DecidedAt: sampleTime},
	&workflow.ConversationMessage{WorkflowID: "wf-abc12345", MessageID: "msg-1", Text: "把场地确认提前到第一周", ClientID: "tab-1",
		UserID: "user_alice", SentAt: sampleTime},
	&workflow.ConversationStep{WorkflowID: "wf-abc12345", MessageID: "msg-1", Step: 1, Action: workflow.AgentStep{Thought: "找到场地节点",
		Tool: "update_node", Args: sampleDecision.Payload, Confidence: 0.8, Reply: "r"}, Observation: "ok",
		DecisionID: "msg-1-1", Rejected: true},
	&workflow.ConversationReplied{WorkflowID: "wf-abc12345", MessageID: "msg-1", Reply: "已提前", Steps: 2, Question: true},
}

var (
	sampleResult = workflow.NodeResult{Summary: "场地已确认", By: "user_agent_bob", Simulated: true, Output: map[string]string{"status": "200"}}
	sampleChange = workflow.WorkflowChange{WorkflowID: "wf-abc12345", DecisionID: "dec-1", ClientID: "tab-1", Version: 2}
	sampleNode   = workflow.WorkflowNode{ID: "task-1", Type: workflow.NodeHTTP, Title: "通知场地", Description: "POST 确认", AssigneeID: "user_agent_bob",
		Role: "场地提供者", Due: "第一周", WaitUntil: sampleTime, URL: "http://127.0.0.1:9/hook", Method: "PUT", Body: map[string]string{"a": "b"},
		TimeoutSeconds: 30, MaxAttempts: 3, Approver: "bob", SubChannelID: "collab-abc12345-1", Position: workflow.Position{X: 1, Y: 2}}
	sampleDecision = workflow.Decision{DecisionID: "dec-1", Type: workflow.DecisionCreateNode, Actor: event.ActorConversation, ClientID: "tab-1",
		Confidence: 0.9, BaseVersion: 1, Payload: workflow.DecisionPayload{NodeID: "task-1", Node: &sampleNode, After: []string{"a"},
			Before: []string{"b"}, Changes: &workflow.NodeChanges{Title: new("t"), Description: new("d"), AssigneeID: new("x"), Role: new("r"),
				Due: new("d"), WaitUntil: &sampleTime, URL: new("u"), Body: &map[string]string{"k": "v"}, TimeoutSeconds: new(5),
				MaxAttempts: new(2), Method: new("PATCH"), Approver: new("alice")}, From: "a", To: "b", Position: &workflow.Position{X: 3, Y: 4}, Reason: "r"}}
)
