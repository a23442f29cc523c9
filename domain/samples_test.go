package domain

import "time"

// Sample values shared by the payload samples.
var (
	sampleTime = time.Date(2026, 1, 22, 10, 5, 0, 0, time.UTC)

	sampleDeep = &DeepUnderstanding{
		Motivation:        "上个月参加聚会后很兴奋，想当组织者",
		LikelyPreferences: []string{"轻松氛围", "质量优先"},
		EmotionalContext:  "期待、积极",
	}

	sampleContext = &DemandContext{
		Location:          "北京",
		ExpectedAttendees: 50,
		Date:              "2026-02-15",
		Budget:            "2000 元",
		Urgency:           UrgencyHigh,
	}

	sampleRecursion = RecursionDecision{ShouldRecurse: true,
		Conditions:    []RecursionCondition{{Name: "需求满足度", Met: new(true), Analysis: "缺口影响需求"}},
		EstimatedCost: &SubnetCost{Tokens: 5000, TimeSeconds: 30}}

	sampleProposal = Proposal{
		ProposalID: "prop_001",
		DemandID:   "d-abc12345",
		Version:    2,
		Type:       ProposalTypeCompromise,
		Summary:    "2月16日在朝阳区举办30人AI聚会",
		Objective:  "让 AI 爱好者线下交流",
		Assignments: []Assignment{{
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
		Alternates: []Assignment{{AgentID: "user_agent_carol", DisplayName: "Carol", Role: "场地提供者", Need: "场地提供者", SubChannelID: "collab-abc12345-1",
			Responsibility: "提供40人活动空间", Dependencies: []string{"user_agent_alice"}, Notes: "周末可用", ConditionsAccepted: true}},
		Timeline: &Timeline{
			StartDate:  "2026-02-16",
			Milestones: []Milestone{{Name: "场地确认", Date: "2026-02-13", Deliverable: "场地预订单"}},
		},
		Rationale:       "Bob 有场地，Alice 能分享",
		Gaps:            []string{"摄影师"},
		Confidence:      ConfidenceMedium,
		OpenQuestions:   []string{"是否需要下午茶？"},
		SuccessCriteria: []string{"聚会如期举行，到场约50人"},
		Risks:           []string{"日期未定，档期可能冲突"},
		Compromises:     []Compromise{{Issue: "日期", Resolution: "改到16日", Rationale: "多数人15日有事"}},
		Unresolved:      []string{"赞助"},
		Suggestions:     []string{"下次提前两周约"},
		AdjustmentSummary: &AdjustmentSummary{
			Round:             2,
			ChangesMade:       []ProposalChange{{Aspect: "日期", Before: "2月15日", After: "2月16日", Reason: "Bob 15日有事"}},
			RequestsAddressed: []string{"改日期"},
			RequestsDeclined:  []DeclinedRequest{{Request: "换到海淀", Reason: "没有场地"}},
		},
		CreatedAt: sampleTime,
	}
)

// samplePayloads holds one fully filled payload per catalog entry. Every
// field must be non-zero (see TestSamplesFillEveryField) so that the round
// trip covers it.
var samplePayloads = []Payload{
	&DemandSubmitted{
		DemandID: "d-abc12345", UserID: "user_alice",
		RawInput:          "我想在北京办一场AI主题聚会，需要场地和嘉宾",
		SurfaceDemand:     "想在北京办一场AI主题聚会",
		DeepUnderstanding: sampleDeep,
		RootDemandID:      "d-root", ParentDemandID: "d-parent", ParentChannelID: "collab-parent", RecursionDepth: 1,
		GapType: "摄影师", CapabilityTags: []string{"摄影"}, NeedCount: 2, Clarifies: "d-rejected1",
	},
	&DemandUnderstood{
		DemandID: "d-abc12345", SurfaceDemand: "想在北京办一场AI主题聚会",
		CapabilityTags: []string{"场地提供", "演讲嘉宾"}, Confidence: ConfidenceHigh,
		Needs:             []Need{{Role: "场地提供者", CapabilityTags: []string{"场地提供"}, Count: 1}, {Role: "演讲嘉宾", CapabilityTags: []string{"演讲嘉宾"}, Count: 2}},
		DeepUnderstanding: sampleDeep, Context: sampleContext,
		Uncertainties: []string{"具体日期未定"},
	},
	&DemandBroadcast{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", RecipientsCount: 12,
		RequesterID: "agent_alice", SurfaceDemand: "AI 聚会", CapabilityTags: []string{"场地"},
		LocationHint: "北京", Urgency: UrgencyHigh,
	},
	&DemandAccepted{DemandID: "d-abc12345", ChannelID: "collab-abc12345", CandidateCount: 12},
	&DemandRejected{DemandID: "d-abc12345", Reason: RejectNoMatch, Message: "协作网络中没有人能满足这项需求",
		Suggestion: NoCandidatesSuggestion, Questions: []string{UnclearQuestion}, UnservedNeeds: []string{"赞助商"}},
	&FilterStarted{DemandID: "d-abc12345", TotalAgents: 120},
	&FilterCompleted{
		DemandID: "d-abc12345", ChannelID: "collab-abc12345", CandidatesCount: 1,
		Candidates: []Candidate{{
			AgentID: "user_agent_bob", DisplayName: "Bob", Reason: "场地资源", RelevanceScore: 90,
		}},
		TotalAgents: 120, FilterDurationMS: 1500,
	},
	&ChannelCreated{
		ChannelID: "collab-sub-1", DemandID: "d-sub-1", ParticipantsCount: 3,
		InvitedAgents: []string{"user_agent_bob"}, ParentChannel: "collab-abc12345", RecursionDepth: 1,
		ParentDemandID: "d-abc12345", RootDemandID: "d-abc12345",
		Candidates: []Candidate{{AgentID: "user_agent_bob", DisplayName: "Bob", Reason: "场地资源", RelevanceScore: 90}},
		MaxRounds:  5, OfferTimeoutSeconds: 300, FeedbackTimeoutSeconds: 120, StuckTimeoutSeconds: 600, MaxDepth: 1, AcceptPercent: 80, FailPercent: 50,
		CreatedAt: time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC),
	},
	&ChannelInviteSent{ChannelID: "collab-abc12345", AgentID: "user_agent_bob", DemandSummary: "AI 聚会", DemandID: "d-abc12345", DisplayName: "Bob",
		Reason: "假设分支：加入候选人", Broadcast: true},
	&ChannelStatusChanged{
		ChannelID: "collab-abc12345", OldStatus: ChannelStatusBroadcasting,
		NewStatus: ChannelStatusCollecting, Reason: "broadcast_complete",
	},
	&ChannelClosed{ChannelID: "collab-abc12345", Status: ChannelStatusForceFinalized, Reason: "max_rounds"},
	&ChannelRulesChanged{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Rules: Rules{MaxRounds: 2, OfferTimeoutSeconds: 300,
		FeedbackTimeoutSeconds: 120, StuckTimeoutSeconds: 600, MaxDepth: 1, AcceptPercent: 70, FailPercent: 40}, Reason: "假设分支：改变规则"},
	&OfferRequested{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", AgentID: "user_agent_bob",
		Round: 1, FilterReason: "场地资源", MatchScore: 90,
	},
	&OfferSubmitted{
		ChannelID: "collab-abc12345", DisplayName: "Bob",
		Offer: Offer{
			OfferID: "offer_001", AgentID: "user_agent_bob", DemandID: "d-abc12345",
			OfferAnswer: OfferAnswer{
				Decision: OfferDecisionConditional, Contribution: "可以提供朝阳区30人会议室",
				Conditions: []string{"需要提前3天确认"}, Reasoning: "对AI聚会感兴趣",
				DeclineReason: "周末可能有事", Confidence: 80,
			},
			SubmittedAt: sampleTime,
		},
	},
	&OfferTimeout{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", OffersCount: 4,
		MissingAgents: []string{"user_agent_carol"},
	},
	&AggregationStarted{ChannelID: "collab-abc12345", DemandID: "d-abc12345", OffersCount: 4},
	&ProposalDistributed{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Proposal: sampleProposal, Round: 2},
	&ProposalFeedback{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", AgentID: "user_agent_bob",
		ProposalVersion: 1, Round: 1, FeedbackAnswer: FeedbackAnswer{
			FeedbackType: FeedbackNegotiate, Reasoning: "时间冲突",
			AdjustmentRequest: "能否改到2月16日？", Concerns: []string{"日期"}, Confidence: 70,
			ProposedChanges: []ProposedChange{{Field: "timeline.start_date", Value: "2026-02-16", Reason: "时间冲突"}},
		},
	},
	&ProposalAdjusting{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Round: 2},
	&ProposalFinalized{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", FinalProposal: sampleProposal,
		ParticipantsCount: 3, RoundsTaken: 2,
		Participants: []string{"user_agent_bob", "user_agent_alice"}, TotalDurationSeconds: 3600,
	},
	&FeedbackEvaluated{
		ChannelID: "collab-abc12345", Accepts: 3, Rejects: 1, Negotiates: 1, Replaced: 1,
		AcceptRate: 0.6, Round: 2, Decision: DecisionNextRound,
	},
	&NegotiationRoundStarted{ChannelID: "collab-abc12345", DemandID: "d-abc12345", Round: 2, MaxRounds: 5},
	&NegotiationForceFinalized{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", FinalProposal: sampleProposal,
		ConfirmedParticipants: []string{"user_agent_bob"}, OptionalParticipants: []string{"user_agent_carol"},
		RoundsTaken: 5, AcceptRate: 0.75,
	},
	&NegotiationFailed{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345",
		Reason: FailureLowAcceptance, LastProposal: &sampleProposal,
		ErrorCode: "TOWOW_PROPOSAL_004", Suggestion: "放宽时间要求后重试",
	},
	&NegotiationForked{DemandID: "d-fork1234", ForkedFrom: "d-abc12345", At: 1234, Copied: 57,
		// One change uses one of offer, feedback and rules; the sample sets
		// them all so that the round trip covers every field.
		Change: ForkChange{Type: ForkReplaceOffer, AgentID: "user_agent_bob",
			Offer: &OfferAnswer{Decision: OfferDecisionConditional, Contribution: "只能提供半天场地", Conditions: []string{"下午场"},
				Reasoning: "上午有别的活动", DeclineReason: "全天没空", Confidence: 60},
			Feedback: &FeedbackAnswer{FeedbackType: FeedbackNegotiate, Reasoning: "时间冲突", AdjustmentRequest: "改到周日",
				Concerns: []string{"日期"}, Confidence: 70, ProposedChanges: []ProposedChange{{Field: "timeline.start_date", Value: "周日", Reason: "时间冲突"}}},
			Rules: &RulesChange{MaxRounds: new(2), OfferTimeoutSeconds: new(60), FeedbackTimeoutSeconds: new(30),
				StuckTimeoutSeconds: new(600), MaxDepth: new(2), AcceptPercent: new(70), FailPercent: new(40)},
			Text: "我想在上海办一场AI主题聚会"},
		ForkedAt: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)},
	&NegotiationCompleted{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", Status: ChannelStatusFinalized,
		FinalProposal: &sampleProposal, RoundsTaken: 2, MergedPlan: &sampleProposal,
		SubResults: []SubnetCompleted{{
			ParentChannelID: "collab-abc12345", SubChannelID: "collab-sub-1", SubDemandID: "d-sub-1",
			Status: ChannelStatusFinalized, Success: true, Result: &sampleProposal, FailureReason: "none",
		}},
		RecursionDecision: &sampleRecursion,
	},
	&GapIdentified{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345",
		Gaps: []Gap{{
			GapType: "摄影师", Importance: 70, Reason: "需要记录活动内容",
			SuggestedCapabilityTags: []string{"摄影"}, Description: "缺少活动摄影",
		}},
		OverallCompletion: 80, IsComplete: true, Analysis: "方案基本完整，摄影是次要缺口",
	},
	&SubnetTriggered{
		ParentChannelID: "collab-abc12345", ParentDemandID: "d-abc12345",
		SubDemandID: "d-sub-1", SubChannelID: "collab-sub-1", GapType: "摄影师", RecursionDepth: 1,
		SubDemand: &SubDemand{Description: "寻找摄影师", CapabilityTags: []string{"摄影"}, Priority: "high"}, NeedCount: 2,
		Decision: &sampleRecursion,
	},
	&SubnetCompleted{
		ParentChannelID: "collab-abc12345", SubChannelID: "collab-sub-1", SubDemandID: "d-sub-1",
		Status: ChannelStatusFailed, Success: true,
		Result: &sampleProposal, FailureReason: "partial: no video",
	},
	&AgentOnline{
		AgentID: "user_agent_bob", AgentType: AgentTypeUserAgent, Capabilities: []string{"场地"},
		Profile: &AgentProfile{
			AgentID: "user_agent_bob", UserName: "Bob", ProfileSummary: "朝阳区创业者，有会议室",
			Location: "北京", Tags: []string{"场地"}, Capabilities: map[string]string{"场地": "30人会议室"},
			Interests: []string{"AI"}, Availability: "周末", Mode: AgentModeExternal,
		},
		OnlineAt: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC),
	},
	&AgentRegistered{AgentID: "user_agent_bob", Profile: AgentProfile{
		AgentID: "user_agent_bob", UserName: "Bob", ProfileSummary: "朝阳区创业者，有会议室",
		Location: "北京", Tags: []string{"场地"}, Capabilities: map[string]string{"场地": "30人会议室"},
		Interests: []string{"AI"}, Availability: "周末", Mode: AgentModeExternal,
	}, Source: "data/mock_profiles.json"},
	&AgentUpdated{AgentID: "user_agent_bob", Profile: AgentProfile{
		AgentID: "user_agent_bob", UserName: "Bob", ProfileSummary: "朝阳区创业者，有会议室",
		Location: "北京", Tags: []string{"场地"}, Capabilities: map[string]string{"场地": "30人会议室"},
		Interests: []string{"AI"}, Availability: "周末", Mode: AgentModeExternal,
	}},
	&AgentDeactivated{AgentID: "user_agent_bob", Reason: "left the platform"},
	&AgentReactivated{AgentID: "user_agent_bob"},
	&AgentTokenIssued{AgentID: "user_agent_ext", TokenSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
	&AgentOffline{AgentID: "user_agent_bob", Reason: "silent for 5m0s",
		LastContactAt: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), OfflineAt: time.Date(2026, 11, 25, 10, 5, 0, 0, time.UTC)},
	&AgentWithdrawn{
		ChannelID: "collab-abc12345", DemandID: "d-abc12345", AgentID: "user_agent_bob",
		DisplayName: "Bob", Reason: "时间冲突",
	},
	&ErrorOccurred{
		ErrorCode: "TOWOW_FILTER_002", ErrorMessage: "LLM筛选超时",
		Context: map[string]string{"demand_id": "d-abc12345"}, Recoverable: true,
	},
	// Workflows.
	&WorkflowCreated{WorkflowID: "wf-abc12345", DemandID: "d-abc12345", ChannelID: "collab-abc12345", UserID: "user_alice",
		Title: "AI聚会执行", Participants: []string{"user_agent_bob"}, Nodes: []WorkflowNode{sampleNode},
		Edges: []WorkflowEdge{{From: "task-1", To: "milestone-1"}}, CreatedAt: sampleTime},
	&WorkflowNodeAdded{WorkflowChange: sampleChange, Node: sampleNode},
	&WorkflowNodeUpdated{WorkflowChange: sampleChange, Node: sampleNode},
	&WorkflowNodeDeleted{WorkflowChange: sampleChange, NodeID: "task-1", Edges: []WorkflowEdge{{From: "task-1", To: "milestone-1"}}},
	&WorkflowNodeMoved{WorkflowChange: sampleChange, NodeID: "task-1", Position: Position{X: 10, Y: 20}},
	&WorkflowEdgeAdded{WorkflowChange: sampleChange, Edge: WorkflowEdge{From: "task-1", To: "milestone-1"}},
	&WorkflowEdgeDeleted{WorkflowChange: sampleChange, Edge: WorkflowEdge{From: "task-1", To: "milestone-1"}},
	&WorkflowStarted{WorkflowID: "wf-abc12345", DecisionID: "dec-2", NodeCount: 2, Order: []string{"task-1", "milestone-1"}},
	&WorkflowCompleted{WorkflowID: "wf-abc12345", Status: "completed", Results: []NodeOutcome{{NodeID: "task-1", Result: sampleResult}}},
	&WorkflowFailed{WorkflowID: "wf-abc12345", Status: "failed", FailedNode: "task-1", Error: "场地不可用",
		Results: []NodeOutcome{{NodeID: "milestone-0", Result: sampleResult}}},
	&WorkflowCancelled{WorkflowID: "wf-abc12345", DecisionID: "dec-3", Reason: "活动取消"},
	&NodeStarted{WorkflowID: "wf-abc12345", NodeID: "task-1", NodeType: NodeTask, Attempt: 1, Deadline: sampleTime},
	&NodeCompleted{WorkflowID: "wf-abc12345", NodeID: "task-1", NodeType: NodeTask, Attempt: 1, Result: sampleResult},
	&NodeFailed{WorkflowID: "wf-abc12345", NodeID: "task-1", NodeType: NodeHTTP, Attempt: 1, Error: "503", Retry: true, RetryAt: sampleTime},
	&NodeSkipped{WorkflowID: "wf-abc12345", NodeID: "milestone-1", NodeType: NodeMilestone, Reason: "depends on task-1, which failed"},
	&DecisionValidated{WorkflowID: "wf-abc12345", Decision: sampleDecision, Corrections: []Correction{{Rule: "node_fields",
		Field: "payload.node.timeout_seconds", From: "0", To: "1", Message: "clamped"}}, Version: 2, DecidedAt: sampleTime},
	&DecisionRejected{WorkflowID: "wf-abc12345", Decision: sampleDecision, Rule: "acyclic", Reason: "cycle",
		Errors: []FieldError{{Field: "payload", Message: "cycle"}}, Version: 1, DecidedAt: sampleTime},
	&ConversationMessage{WorkflowID: "wf-abc12345", MessageID: "msg-1", Text: "把场地确认提前到第一周", ClientID: "tab-1",
		UserID: "user_alice", SentAt: sampleTime},
	&ConversationStep{WorkflowID: "wf-abc12345", MessageID: "msg-1", Step: 1, Action: AgentStep{Thought: "找到场地节点",
		Tool: "update_node", Args: sampleDecision.Payload, Confidence: 0.8, Reply: "r"}, Observation: "ok",
		DecisionID: "msg-1-1", Rejected: true},
	&ConversationReplied{WorkflowID: "wf-abc12345", MessageID: "msg-1", Reply: "已提前", Steps: 2, Question: true},
}

var (
	sampleResult = NodeResult{Summary: "场地已确认", By: "user_agent_bob", Output: map[string]string{"status": "200"}}
	sampleChange = WorkflowChange{WorkflowID: "wf-abc12345", DecisionID: "dec-1", ClientID: "tab-1", Version: 2}
	sampleNode   = WorkflowNode{ID: "task-1", Type: NodeHTTP, Title: "通知场地", Description: "POST 确认", AssigneeID: "user_agent_bob",
		Role: "场地提供者", Due: "第一周", WaitUntil: sampleTime, URL: "http://127.0.0.1:9/hook", Body: map[string]string{"a": "b"},
		TimeoutSeconds: 30, MaxAttempts: 3, SubChannelID: "collab-abc12345-1", Position: Position{X: 1, Y: 2}}
	sampleDecision = Decision{DecisionID: "dec-1", Type: DecisionCreateNode, Actor: ActorConversation, ClientID: "tab-1",
		Confidence: 0.9, BaseVersion: 1, Payload: DecisionPayload{NodeID: "task-1", Node: &sampleNode, After: []string{"a"},
			Before: []string{"b"}, Changes: &NodeChanges{Title: ptr("t"), Description: ptr("d"), AssigneeID: ptr("x"), Role: ptr("r"),
				Due: ptr("d"), WaitUntil: &sampleTime, URL: ptr("u"), Body: &map[string]string{"k": "v"}, TimeoutSeconds: ptr(5),
				MaxAttempts: ptr(2)}, From: "a", To: "b", Position: &Position{X: 3, Y: 4}, Reason: "r"}}
)

func ptr[T any](v T) *T { return &v }
