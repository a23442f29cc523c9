package notify

import (
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/uow"
)

// Agents is what Triggers asks the agent directory (as last refreshed;
// no I/O): which agents answer for themselves (external agents), the only
// ones told of invitations and proposals (a twin answers in-process).
type Agents interface {
	IsTwin(agentID string) bool
	HasExternal() bool
}

// Triggers are the notice jobs that committed events start (the unit of
// work's Follow): one job for the events of one commit that may need
// someone (none when no event does); the job finds who. An invitation
// needs someone only when its agent is external, and a proposal only when
// some agent is (its recipients, the channel's external participants, are
// the job's to find).
func Triggers(events []event.Payload, agents Agents) []uow.Job {
	var items []NoticeItem
	add := func(a NoticeItem) { items = append(items, a) }
	for _, p := range events {
		switch e := p.(type) {
		case *negotiation.NegotiationCompleted:
			kind := notice.KindAgreed
			if e.Status == negotiation.ChannelStatusFailed {
				kind = notice.KindFailed
			}
			add(NoticeItem{About: kind, DemandID: e.DemandID, ChannelID: e.ChannelID})
		case *negotiation.ChannelInviteSent:
			if agents.IsTwin(e.AgentID) {
				continue
			}
			add(NoticeItem{About: notice.KindInvited, DemandID: e.DemandID, ChannelID: e.ChannelID, AgentID: e.AgentID})
		case *negotiation.ProposalDistributed:
			if !agents.HasExternal() {
				continue
			}
			add(NoticeItem{About: notice.KindReview, DemandID: e.DemandID, ChannelID: e.ChannelID, Round: e.Round})
		case *workflow.NodeStarted:
			if e.NodeType == workflow.NodeApproval {
				add(NoticeItem{About: notice.KindApproval, WorkflowID: e.WorkflowID, NodeID: e.NodeID})
			}
		case *workflow.WorkflowCompleted:
			add(NoticeItem{About: notice.KindWorkflowCompleted, WorkflowID: e.WorkflowID})
		case *workflow.WorkflowFailed:
			add(NoticeItem{About: notice.KindWorkflowFailed, WorkflowID: e.WorkflowID, NodeID: e.FailedNode})
		}
	}
	if len(items) == 0 {
		return nil
	}
	return []uow.Job{{Args: NoticeArgs{Items: items}}}
}
