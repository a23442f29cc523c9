package timeline

import (
	"regexp"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/event/eventtest"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// TestDescribe: each event's timeline line names its round, what it is
// about and a summary; long texts are cut, unknown payloads say nothing.
func TestDescribe(t *testing.T) {
	long := strings.Repeat("很长的贡献", 20)
	tests := []struct {
		name    string
		p       event.Payload
		round   int
		subject string
		summary string
	}{
		{"offer", &negotiation.OfferSubmitted{Offer: negotiation.Offer{AgentID: "user_agent_bob", OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionParticipate, Contribution: "望京40人会议室"}}},
			0, "user_agent_bob", "参与：望京40人会议室"},
		{"offer cut at 40 runes", &negotiation.OfferSubmitted{Offer: negotiation.Offer{AgentID: "a", OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionParticipate, Contribution: long}}},
			0, "a", "参与：" + string([]rune(long)[:39]) + "…"},
		{"decline", &negotiation.OfferSubmitted{Offer: negotiation.Offer{AgentID: "a", OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionDecline, DeclineReason: "没空"}}}, 0, "a", "拒绝：没空"},
		{"feedback", &negotiation.ProposalFeedback{AgentID: "a", Round: 2, FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackNegotiate, AdjustmentRequest: "改到\n周日"}},
			2, "a", "协商：改到 周日"},
		{"failure", &negotiation.NegotiationFailed{DemandID: "d-1", Reason: negotiation.FailureNoCandidates, ErrorCode: "TOWOW_FILTER_001"},
			0, "d-1", "没有合适的候选人"},
		{"workflow node skipped", &workflow.NodeSkipped{NodeID: "task-2", Reason: "depends on task-1 which failed"},
			0, "task-2", "所依赖的步骤失败"},
		{"agent online", &negotiation.AgentOnline{AgentID: "user_agent_ext", AgentType: negotiation.AgentTypeUserAgent, Capabilities: []string{"场地", "嘉宾"}},
			0, "user_agent_ext", "能力：场地、嘉宾"},
		{"agent offline", &negotiation.AgentOffline{AgentID: "user_agent_ext", Reason: "silent for 5m0s"}, 0, "user_agent_ext", "5 分钟没有联系"},
		{"offer by name with conditions", &negotiation.OfferSubmitted{DisplayName: "Bob 王博", Offer: negotiation.Offer{AgentID: "user_agent_bob", OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionConditional, Contribution: "会议室", Conditions: []string{"下午场", "提前确认"}}}},
			0, "user_agent_bob", "Bob 王博 有条件参与：会议室；条件：下午场、提前确认"},
		{"status", &negotiation.ChannelStatusChanged{ChannelID: "c-1", OldStatus: negotiation.ChannelStatusProposalSent, NewStatus: negotiation.ChannelStatusNegotiating, Reason: "feedback_started"},
			0, "c-1", "方案已发出 → 协商中"},
		{"evaluation", &negotiation.FeedbackEvaluated{ChannelID: "c-1", Round: 1, Accepts: 2, Negotiates: 1, AcceptRate: 2.0 / 3, Decision: negotiation.RoundNext},
			1, "c-1", "第 1 轮：接受 2 / 协商 1 / 反对 0，接受率 67% → 进入下一轮"},
		{"closed after a failure", &negotiation.ChannelClosed{ChannelID: "c-1", Status: negotiation.ChannelStatusFailed, Reason: string(negotiation.FailureNoParticipants)},
			0, "c-1", "失败：受邀者都拒绝了"},
		{"closed on agreement", &negotiation.ChannelClosed{ChannelID: "c-1", Status: negotiation.ChannelStatusFinalized, Reason: string(negotiation.ChannelStatusFinalized)},
			0, "c-1", "已达成"},
		{"invited by name", &negotiation.ChannelInviteSent{AgentID: "user_agent_bob", DisplayName: "Bob 王博", Broadcast: true, Reason: "场地"},
			0, "user_agent_bob", "已邀请 Bob 王博（场地）"},
		{"sub-negotiation", &negotiation.SubnetTriggered{SubChannelID: "c-2", GapType: "摄影师"}, 0, "c-2", "为「摄影师」开启子协商"},
		{"node skipped after a cancel", &workflow.NodeSkipped{NodeID: "task-3", Reason: "cancelled"}, 0, "task-3", "执行已取消"},
		{"node added", &workflow.WorkflowNodeAdded{Node: workflow.WorkflowNode{ID: "task-1", Type: workflow.NodeApproval, Title: "确认预算"}},
			0, "task-1", "审批「确认预算」"},
		{"nothing", nil, 0, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			round, subject, summary := Describe(tc.p)
			if round != tc.round || subject != tc.subject || summary != tc.summary {
				t.Fatalf("Describe = %d %q %q, want %d %q %q", round, subject, summary, tc.round, tc.subject, tc.summary)
			}
		})
	}
}

// codeWord is a code value (snake_case) or an error code, which a
// summary for people shows as its word or not at all.
var codeWord = regexp.MustCompile(`[a-z]+_[a-z_]+|TOWOW_[A-Z]+_\d+`)

// TestDescribeEveryType: every registered event type has a one-line
// summary for people, so the console, which shows the server's summaries,
// never shows an event without one, and none shows a code value.
func TestDescribeEveryType(t *testing.T) {
	for _, p := range eventtest.Payloads {
		_, _, summary := Describe(p)
		if summary == "" {
			t.Errorf("%s: no summary", p.EventType())
		}
		if code := codeWord.FindString(summary); code != "" {
			t.Errorf("%s: the summary %q shows the code %q, not its word", p.EventType(), summary, code)
		}
	}
}

// TestEventLabels: every registered event type has a label for people and
// a context, and no label names a type the catalog does not register (the
// console's event list is the catalog: it must not lose or invent a type).
func TestEventLabels(t *testing.T) {
	contexts := map[EventContext]bool{ContextNegotiation: true, ContextAgent: true, ContextWorkflow: true, ContextNotice: true, ContextSystem: true}
	for _, s := range event.Catalog() {
		l, ok := LabelOf(s.Type)
		if !ok || l.Label == "" || !contexts[l.Context] {
			t.Errorf("%s: label %+v, %v", s.Type, l, ok)
		}
	}
	for typ := range eventLabels {
		if _, ok := event.Spec(typ); !ok {
			t.Errorf("a label for the unregistered type %s", typ)
		}
	}
	if _, ok := LabelOf("towow.nothing.here"); ok {
		t.Error("an unregistered type has a label")
	}
}
