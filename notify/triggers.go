package notify

import (
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/uow"
)

// Triggers are the notice jobs that committed events start (the unit of
// work's Follow): one per event that may need someone; the job finds who.
func Triggers(events []event.Payload) []uow.Job {
	var out []uow.Job
	add := func(a NoticeArgs) { out = append(out, uow.Job{Args: a}) }
	for _, p := range events {
		switch e := p.(type) {
		case *negotiation.NegotiationCompleted:
			kind := notice.KindAgreed
			if e.Status == negotiation.ChannelStatusFailed {
				kind = notice.KindFailed
			}
			add(NoticeArgs{About: kind, DemandID: e.DemandID, ChannelID: e.ChannelID})
		case *negotiation.ChannelInviteSent:
			add(NoticeArgs{About: notice.KindInvited, DemandID: e.DemandID, ChannelID: e.ChannelID, AgentID: e.AgentID})
		case *negotiation.ProposalDistributed:
			add(NoticeArgs{About: notice.KindReview, DemandID: e.DemandID, ChannelID: e.ChannelID, Round: e.Round})
		case *workflow.NodeStarted:
			if e.NodeType == workflow.NodeApproval {
				add(NoticeArgs{About: notice.KindApproval, WorkflowID: e.WorkflowID, NodeID: e.NodeID})
			}
		case *workflow.WorkflowCompleted:
			add(NoticeArgs{About: notice.KindWorkflowCompleted, WorkflowID: e.WorkflowID})
		case *workflow.WorkflowFailed:
			add(NoticeArgs{About: notice.KindWorkflowFailed, WorkflowID: e.WorkflowID, NodeID: e.FailedNode})
		}
	}
	return out
}
