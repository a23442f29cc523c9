package timeline

import (
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
			0, "user_agent_bob", "participate: 望京40人会议室"},
		{"offer cut at 40 runes", &negotiation.OfferSubmitted{Offer: negotiation.Offer{AgentID: "a", OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionParticipate, Contribution: long}}},
			0, "a", "participate: " + string([]rune(long)[:39]) + "…"},
		{"decline", &negotiation.OfferSubmitted{Offer: negotiation.Offer{AgentID: "a", OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionDecline, DeclineReason: "没空"}}}, 0, "a", "decline: 没空"},
		{"feedback", &negotiation.ProposalFeedback{AgentID: "a", Round: 2, FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackNegotiate, AdjustmentRequest: "改到\n周日"}},
			2, "a", "negotiate: 改到 周日"},
		{"failure", &negotiation.NegotiationFailed{DemandID: "d-1", Reason: negotiation.FailureNoCandidates, ErrorCode: "TOWOW_FILTER_001"},
			0, "d-1", "no_candidates (TOWOW_FILTER_001)"},
		{"workflow node skipped", &workflow.NodeSkipped{NodeID: "task-2", Reason: "depends on task-1 which failed"},
			0, "task-2", "depends on task-1 which failed"},
		{"agent online", &negotiation.AgentOnline{AgentID: "user_agent_ext", AgentType: negotiation.AgentTypeUserAgent, Capabilities: []string{"场地", "嘉宾"}},
			0, "user_agent_ext", "online: 场地, 嘉宾"},
		{"agent offline", &negotiation.AgentOffline{AgentID: "user_agent_ext", Reason: "silent for 5m0s"}, 0, "user_agent_ext", "offline: silent for 5m0s"},
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

// TestDescribeEveryType: every registered event type has a one-line
// summary for people, so the console, which shows the server's summaries,
// never shows an event without one.
func TestDescribeEveryType(t *testing.T) {
	for _, p := range eventtest.Payloads {
		if _, _, summary := Describe(p); summary == "" {
			t.Errorf("%s: no summary", p.EventType())
		}
	}
}

// TestEventLabels: every registered event type has a label for people and
// a context, and no label names a type the catalog does not register (the
// console's event list is the catalog: it must not lose or invent a type).
func TestEventLabels(t *testing.T) {
	contexts := map[EventContext]bool{ContextNegotiation: true, ContextAgent: true, ContextWorkflow: true, ContextSystem: true}
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
