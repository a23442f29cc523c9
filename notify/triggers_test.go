package notify

import (
	"reflect"
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
)

// agents is a directory as Triggers reads it: the external agents' ids.
type agents []string

func (a agents) IsTwin(id string) bool { return !slices.Contains(a, id) }
func (a agents) HasExternal() bool     { return len(a) > 0 }

// TestTriggers: the events that may need someone start one notice job per
// commit with an item each; the others start none. Invitations need their
// agent to be external, proposals some agent to be.
func TestTriggers(t *testing.T) {
	invitesAndProposal := []event.Payload{
		&negotiation.ChannelInviteSent{ChannelID: "c", DemandID: "d", AgentID: "a1"},
		&negotiation.ChannelInviteSent{ChannelID: "c", DemandID: "d", AgentID: "x1"},
		&negotiation.ProposalDistributed{ChannelID: "c", DemandID: "d", Round: 2}}
	for _, tc := range []struct {
		name     string
		events   []event.Payload
		external agents
		want     []NoticeItem
	}{
		{"nothing that needs anyone", []event.Payload{&negotiation.OfferSubmitted{}, &workflow.NodeStarted{NodeType: workflow.NodeTask}}, agents{"x1"}, nil},
		{"an agreement", []event.Payload{&negotiation.NegotiationCompleted{ChannelID: "c", DemandID: "d", Status: negotiation.ChannelStatusFinalized}}, nil,
			[]NoticeItem{{About: notice.KindAgreed, DemandID: "d", ChannelID: "c"}}},
		{"a failure", []event.Payload{&negotiation.NegotiationCompleted{ChannelID: "c", DemandID: "d", Status: negotiation.ChannelStatusFailed}}, nil,
			[]NoticeItem{{About: notice.KindFailed, DemandID: "d", ChannelID: "c"}}},
		{"invitations and a proposal, one job: the external agent's invitation", invitesAndProposal, agents{"x1"},
			[]NoticeItem{{About: notice.KindInvited, DemandID: "d", ChannelID: "c", AgentID: "x1"},
				{About: notice.KindReview, DemandID: "d", ChannelID: "c", Round: 2}}},
		{"invitations of twins, a proposal, an external agent elsewhere", invitesAndProposal, agents{"x9"},
			[]NoticeItem{{About: notice.KindReview, DemandID: "d", ChannelID: "c", Round: 2}}},
		{"invitations and a proposal in a network of twins", invitesAndProposal, nil, nil},
		{"an approval starts", []event.Payload{&workflow.NodeStarted{WorkflowID: "w", NodeID: "ok", NodeType: workflow.NodeApproval}}, nil,
			[]NoticeItem{{About: notice.KindApproval, WorkflowID: "w", NodeID: "ok"}}},
		{"a workflow ends", []event.Payload{&workflow.WorkflowCompleted{WorkflowID: "w"}, &workflow.WorkflowFailed{WorkflowID: "v", FailedNode: "n"}}, nil,
			[]NoticeItem{{About: notice.KindWorkflowCompleted, WorkflowID: "w"}, {About: notice.KindWorkflowFailed, WorkflowID: "v", NodeID: "n"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jobs := Triggers(tc.events, tc.external)
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
