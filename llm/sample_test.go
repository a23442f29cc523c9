package llm

import (
	"time"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// Fixed sample inputs shared by the golden, parser, fuzz and client tests.

func sampleDemand() negotiation.Understanding {
	return negotiation.Understanding{
		SurfaceDemand: "在北京组织一场 50 人的 AI 技术沙龙",
		DeepUnderstanding: negotiation.DeepUnderstanding{
			Motivation:        "希望认识同行、交流大模型落地经验",
			LikelyPreferences: []string{"交通方便", "有投影"},
			EmotionalContext:  "期待但担心冷场",
		},
		CapabilityTags: []string{"场地", "演讲嘉宾", "摄影"},
		Context:        negotiation.DemandContext{Location: "北京", ExpectedAttendees: 50, Date: "2026-03-14", Budget: "5000 元"},
		Uncertainties:  []string{"是否需要茶歇"},
		Confidence:     negotiation.ConfidenceHigh,
	}
}

const sampleRaw = "下个月想在北京办一场 50 人左右的 AI 技术沙龙，需要场地、演讲嘉宾，最好还有人帮忙拍照 <预算 5000>"

func sampleProfiles() []negotiation.AgentProfile {
	return []negotiation.AgentProfile{
		{AgentID: "user_agent_bob", UserName: "Bob", ProfileSummary: "在中关村经营共享办公空间，可容纳 80 人。", Location: "北京",
			Tags: []string{"场地", "活动空间"}, Capabilities: map[string]string{"venue": "80 人会议厅", "equipment": "投影、音响"},
			Interests: []string{"创业", "AI"}, Availability: "周末"},
		{AgentID: "user_agent_alice", UserName: "Alice", ProfileSummary: "大模型工程师，做过多次技术分享。", Location: "北京",
			Tags: []string{"演讲嘉宾", "AI"}, Interests: []string{"LLM"}, Availability: "周六下午"},
		{AgentID: "user_agent_carol", UserName: "Carol", ProfileSummary: "自由摄影师，擅长活动拍摄。", Location: "上海",
			Tags: []string{"摄影", "活动拍摄"}},
		{AgentID: "user_agent_dave", UserName: "Dave", ProfileSummary: "平面设计师。", Location: "北京", Tags: []string{"设计"}},
		{AgentID: "user_agent_eve", UserName: "Eve", ProfileSummary: "需求发起人。", Location: "北京", Tags: []string{"场地"}},
	}
}

func sampleUnderstandInput() UnderstandInput {
	return UnderstandInput{RawInput: sampleRaw, UserID: "user_eve", KnownTags: []string{"场地提供", "演讲嘉宾", "摄影", "活动策划"},
		UserContext: &UserContext{EarlierDemands: []EarlierDemand{
			{Text: "上个月在北京办一场30人的AI读书会，需要场地", Outcome: "finalized", Roles: []string{"场地提供者"}},
			{Text: "找一位会拍活动照片的摄影师", Outcome: "failed", Detail: "没有合适的协作者"},
		}}}
}

func sampleFilterInput() FilterInput {
	return FilterInput{Demand: sampleDemand(), RawInput: sampleRaw, Profiles: sampleProfiles(), MaxCandidates: 3,
		Exclude: []string{"user_agent_eve"}}
}

func sampleOfferInput() OfferInput {
	return OfferInput{Profile: sampleProfiles()[0], Demand: sampleDemand(), RawInput: sampleRaw, FilterReason: "拥有 80 人会议厅"}
}

func sampleOffers() []OfferView {
	return []OfferView{
		{AgentID: "user_agent_bob", DisplayName: "Bob", Decision: negotiation.OfferDecisionParticipate, Contribution: "提供 80 人会议厅和投影"},
		{AgentID: "user_agent_alice", DisplayName: "Alice", Decision: negotiation.OfferDecisionConditional, Contribution: "做 30 分钟大模型落地分享",
			Conditions: []string{"安排在下午"}, Reasoning: "周六下午有空"},
	}
}

func sampleAggregateInput() AggregateInput {
	return AggregateInput{Demand: sampleDemand(), RawInput: sampleRaw, Offers: sampleOffers()}
}

func sampleProposal() negotiation.Proposal {
	return negotiation.Proposal{
		ProposalID: "prop_001", DemandID: "d-1", Version: 1, Type: negotiation.ProposalTypeNormal,
		Summary: "AI 技术沙龙协作方案", Objective: "3 月 14 日在中关村举办 50 人沙龙",
		Assignments: []negotiation.Assignment{
			{AgentID: "user_agent_bob", DisplayName: "Bob", Role: "场地提供者", Responsibility: "提供会议厅和投影", ConditionsAccepted: true},
			{AgentID: "user_agent_alice", DisplayName: "Alice", Role: "演讲嘉宾", Responsibility: "下午做 30 分钟分享",
				Dependencies: []string{"场地确认"}, ConditionsAccepted: true},
		},
		Timeline: &negotiation.Timeline{StartDate: "2026-03-01", Milestones: []negotiation.Milestone{
			{Name: "场地确认", Date: "2026-03-05", Deliverable: "场地预订单"},
		}},
		Rationale:  "Bob 有场地，Alice 有分享经验",
		Gaps:       []string{"摄影师"},
		Confidence: negotiation.ConfidenceMedium,
		CreatedAt:  time.Date(2026, 2, 1, 10, 0, 0, 0, time.UTC),
	}
}

func sampleFeedbackInput() FeedbackInput {
	p := sampleProposal()
	return FeedbackInput{Profile: sampleProfiles()[1], Demand: sampleDemand(), Proposal: p, MyAssignment: &p.Assignments[1],
		MyOffer: sampleOffers()[1], Round: 1, MaxRounds: 5}
}

func sampleFeedbacks() []FeedbackView {
	return []FeedbackView{
		{AgentID: "user_agent_bob", DisplayName: "Bob", FeedbackType: negotiation.FeedbackAccept, Reasoning: "角色合适"},
		{AgentID: "user_agent_alice", DisplayName: "Alice", FeedbackType: negotiation.FeedbackNegotiate, Reasoning: "时间太早",
			AdjustmentRequest: "把分享挪到 15:00 之后", Concerns: []string{"上午有课"}},
		{AgentID: "user_agent_carol", DisplayName: "Carol", FeedbackType: negotiation.FeedbackWithdraw, Reasoning: "人在上海"},
	}
}

func sampleAdjustInput() AdjustInput {
	return AdjustInput{Demand: sampleDemand(), RawInput: sampleRaw, Current: sampleProposal(), Feedbacks: sampleFeedbacks(),
		Round: 2, MaxRounds: 5, Participants: sampleOffers()}
}

func sampleGaps() []negotiation.Gap {
	return []negotiation.Gap{{GapType: "摄影师", Importance: 70, Reason: "需要记录活动", SuggestedCapabilityTags: []string{"摄影", "活动拍摄"}}}
}

func sampleGapInput() GapInput {
	return GapInput{Demand: sampleDemand(), RawInput: sampleRaw, Offers: sampleOffers()}
}

func sampleRecursionInput() RecursionInput {
	return RecursionInput{Demand: sampleDemand(), RawInput: sampleRaw, Gaps: sampleGaps(), Offers: sampleOffers(), Depth: 0, MaxDepth: 1,
		EstimatedCost: negotiation.SubnetCost{Tokens: 9800, TimeSeconds: 21}}
}

func sampleCompromiseInput() CompromiseInput {
	offers := append(sampleOffers(), OfferView{AgentID: "user_agent_carol", DisplayName: "Carol",
		Decision: negotiation.OfferDecisionDecline, Reasoning: "人在上海"})
	return CompromiseInput{Demand: sampleDemand(), RawInput: sampleRaw, Available: sampleProposal().Assignments[:1],
		Offers: offers, Gaps: sampleGaps(), Feedbacks: sampleFeedbacks(), Reason: "partial_agreement"}
}

func sampleTaskInput() TaskInput {
	p := sampleProposal()
	a := p.Assignments[1]
	return TaskInput{Profile: sampleProfiles()[1], Demand: sampleDemand(), RawInput: sampleRaw, Plan: p.Summary,
		Task: workflow.WorkflowNode{ID: "task-2", Type: workflow.NodeTask, Title: a.Role + "（" + a.DisplayName + "）",
			Description: a.Responsibility, AssigneeID: a.AgentID, Role: a.Role, Due: "2026-03-14"},
		Before: []workflow.NodeOutcome{{NodeID: "task-1", Result: workflow.NodeResult{Summary: "已完成：场地提供者——提供会议厅和投影",
			By: "user_agent_bob"}}}}
}

// sampleWorkflow is the workflow the sample proposal became
// (workflow.PlanWorkflow: task-1 Bob's venue, task-2 Alice's talk, both
// before milestone-1 场地确认), running, with Bob's task failed.
func sampleWorkflow() WorkflowState {
	wf := workflow.PlanWorkflow(workflow.PlanInput{DemandID: "d-1", ChannelID: "c-1", UserID: "user_eve", Plan: sampleProposal(),
		Now: time.Date(2026, 2, 1, 10, 0, 0, 0, time.UTC)})
	st := WorkflowState{WorkflowID: wf.WorkflowID, Title: wf.Title, Status: workflow.WorkflowStatusRunning, Version: 3,
		Participants: wf.Participants, Edges: wf.Edges}
	for _, n := range wf.Nodes {
		ns := NodeState{WorkflowNode: n, Status: workflow.NodeStatusPending}
		if n.ID == "task-1" {
			ns.Status, ns.Error = workflow.NodeStatusFailed, "会议厅 3 月 3 日已被预订"
		}
		if n.ID == "milestone-1" {
			ns.Due = "2026-03-03" // the earlier turn moved it
		}
		st.Nodes = append(st.Nodes, ns)
	}
	return st
}

// sampleConverseInput: after an earlier turn that moved 场地确认, the
// person asks for a rehearsal assigned to someone outside the agreement;
// the first step was refused.
func sampleConverseInput() ConverseInput {
	at := time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC)
	due := "2026-03-03"
	create := workflow.AgentStep{Thought: "用户要在场地确认之后加彩排，由 Zoe 负责", Tool: string(workflow.DecisionCreateNode),
		Args: workflow.DecisionPayload{Node: &workflow.WorkflowNode{Type: workflow.NodeTask, Title: "彩排", AssigneeID: "Zoe"},
			After: []string{"milestone-1"}}, Confidence: 0.7}
	return ConverseInput{
		Workflow: sampleWorkflow(),
		History: []workflow.Turn{{MessageID: "m-1", Text: "把场地确认提前到 3 月 3 日", SentAt: at, Done: true,
			Steps: []workflow.ConversationStep{{WorkflowID: "wf-1", MessageID: "m-1", Step: 1,
				Action: workflow.AgentStep{Thought: "改场地确认的截止时间", Tool: string(workflow.DecisionUpdateNode),
					Args: workflow.DecisionPayload{NodeID: "milestone-1", Changes: &workflow.NodeChanges{Due: &due}}, Confidence: 0.9},
				Observation: "validated: version 3", DecisionID: "dec-1"}},
			Reply: "已把「场地确认」的截止时间改为 2026-03-03。"}},
		Message: "在场地确认之后加一个彩排，由 Zoe 负责",
		Steps: []workflow.ConversationStep{{WorkflowID: "wf-1", MessageID: "m-2", Step: 1, Action: create, DecisionID: "dec-2", Rejected: true,
			Observation: "refused by rule assignee: Zoe is not a participant of the agreement (user_agent_bob, user_agent_alice)"}},
		Now:     at.Add(time.Hour),
		Speaker: "user_alice",
		Summary: "- 用户：先把工作流看一遍；动作：get_workflow；回复：工作流有 4 个节点。",
		Since: []workflow.Change{{What: "completed", By: "user_agent_bob", NodeID: "task-1", Detail: "场地已确认"},
			{What: "create_node", By: "user:user_alice", NodeID: "approval-1", Detail: "预算审批"}},
	}
}
