package notify

import (
	"reflect"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
)

// TestTriggers: the events that may need someone start one notice job per
// commit with an item each; the others start none.
func TestTriggers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []event.Payload
		want   []NoticeItem
	}{
		{"nothing that needs anyone", []event.Payload{&negotiation.OfferSubmitted{}, &workflow.NodeStarted{NodeType: workflow.NodeTask}}, nil},
		{"an agreement", []event.Payload{&negotiation.NegotiationCompleted{ChannelID: "c", DemandID: "d", Status: negotiation.ChannelStatusFinalized}},
			[]NoticeItem{{About: notice.KindAgreed, DemandID: "d", ChannelID: "c"}}},
		{"a failure", []event.Payload{&negotiation.NegotiationCompleted{ChannelID: "c", DemandID: "d", Status: negotiation.ChannelStatusFailed}},
			[]NoticeItem{{About: notice.KindFailed, DemandID: "d", ChannelID: "c"}}},
		{"invitations and a proposal, one job", []event.Payload{
			&negotiation.ChannelInviteSent{ChannelID: "c", DemandID: "d", AgentID: "a1"},
			&negotiation.ChannelInviteSent{ChannelID: "c", DemandID: "d", AgentID: "a2"},
			&negotiation.ProposalDistributed{ChannelID: "c", DemandID: "d", Round: 2}},
			[]NoticeItem{{About: notice.KindInvited, DemandID: "d", ChannelID: "c", AgentID: "a1"},
				{About: notice.KindInvited, DemandID: "d", ChannelID: "c", AgentID: "a2"},
				{About: notice.KindReview, DemandID: "d", ChannelID: "c", Round: 2}}},
		{"an approval starts", []event.Payload{&workflow.NodeStarted{WorkflowID: "w", NodeID: "ok", NodeType: workflow.NodeApproval}},
			[]NoticeItem{{About: notice.KindApproval, WorkflowID: "w", NodeID: "ok"}}},
		{"a workflow ends", []event.Payload{&workflow.WorkflowCompleted{WorkflowID: "w"}, &workflow.WorkflowFailed{WorkflowID: "v", FailedNode: "n"}},
			[]NoticeItem{{About: notice.KindWorkflowCompleted, WorkflowID: "w"}, {About: notice.KindWorkflowFailed, WorkflowID: "v", NodeID: "n"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jobs := Triggers(tc.events)
			if tc.want == nil {
				if len(jobs) != 0 {
					t.Fatalf("jobs %+v", jobs)
				}
				return
			}
			if len(jobs) != 1 || !reflect.DeepEqual(jobs[0].Args.(NoticeArgs).Items, tc.want) {
				t.Fatalf("jobs %+v, want one with %+v", jobs, tc.want)
			}
		})
	}
}

// TestSecret: a subscription's secret is the Standard Webhooks form,
// the same for the same key and id, and differs by id and by key.
func TestSecret(t *testing.T) {
	a, b := &Process{cfg: Config{Key: []byte("k1")}}, &Process{cfg: Config{Key: []byte("k2")}}
	s := a.Secret("wh-1")
	if len(s) < 40 || s[:6] != "whsec_" || s != a.Secret("wh-1") || s == a.Secret("wh-2") || s == b.Secret("wh-1") {
		t.Fatalf("secrets %q %q %q", s, a.Secret("wh-2"), b.Secret("wh-1"))
	}
}
