package notify

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/uow"
)

// NoticeArgs are the arguments of the Notice step: what happened, in one
// commit.
type NoticeArgs struct {
	Items []NoticeItem `json:"items"`
}

// NoticeItem is one thing that happened that may need someone.
type NoticeItem struct {
	About      notice.Kind `json:"kind"`
	DemandID   string      `json:"demand_id,omitempty"`
	ChannelID  string      `json:"channel_id,omitempty"`
	WorkflowID string      `json:"workflow_id,omitempty"`
	NodeID     string      `json:"node_id,omitempty"`
	AgentID    string      `json:"agent_id,omitempty"`
	Round      int         `json:"round,omitempty"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (NoticeArgs) Kind() string { return "towow.notice" }

// NoticeWorker runs the Notice step.
type NoticeWorker struct {
	river.WorkerDefaults[NoticeArgs]
	p *Process
}

// Work finds who is to be told, posts a notice to each one's inbox and
// starts a delivery to each of their webhooks that wants its kind, in one
// commit.
func (w *NoticeWorker) Work(ctx context.Context, job *river.Job[NoticeArgs]) error {
	p := w.p
	var posts []notice.Posted
	for _, it := range job.Args.Items {
		more, err := p.notices(ctx, it)
		if err != nil {
			return p.u.JobError(ctx, "notice", err)
		}
		if len(more) > 0 { // one item's notices are all about one tree
			tree, err := p.treeOf(ctx, more[0])
			if err != nil {
				return p.u.JobError(ctx, "notice", err)
			}
			for i := range more {
				more[i].Tree = tree
			}
		}
		posts = append(posts, more...)
	}
	if len(posts) == 0 {
		return nil
	}
	// One append per inbox: a commit may hold several notices for one
	// recipient.
	byRecipient := map[string][]notice.Posted{}
	var order, lock []string
	for i, n := range posts {
		n.NoticeID = fmt.Sprintf("n-%d-%d", job.ID, i) // the same on a retry of this job: a repeated post is skipped below
		if _, seen := byRecipient[n.Recipient]; !seen {
			order = append(order, n.Recipient)
			lock = append(lock, notice.InboxStream(n.Recipient), notice.WebhooksStream(n.Recipient))
		}
		byRecipient[n.Recipient] = append(byRecipient[n.Recipient], n)
	}
	cause := uow.Causation(job.Kind, job.ID)
	_, err := p.u.Commit(ctx, "notice", lock, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		plan := &uow.Plan{}
		for _, who := range order {
			inbox := notice.InboxStream(who)
			v, err := st.StreamVersion(ctx, inbox)
			if err != nil {
				return nil, err
			}
			recent, err := st.ReadStream(ctx, inbox, max(v-50, 0), 51)
			if err != nil {
				return nil, err
			}
			var hooks notice.Webhooks
			if _, err := st.Fold(ctx, notice.WebhooksStream(who), hooks.Apply); err != nil {
				return nil, err
			}
			var evs []event.Payload
			for _, n := range byRecipient[who] {
				if posted(recent, n.NoticeID) {
					continue
				}
				post := n
				evs = append(evs, &post)
				for _, s := range hooks.Subs {
					if s.Wants(n.Kind) {
						plan.Jobs = append(plan.Jobs, uow.Job{Args: DeliverArgs{Owner: who, SubscriptionID: s.ID, Notice: post}})
					}
				}
			}
			if len(evs) > 0 {
				plan.Appends = append(plan.Appends, uow.Append{Stream: inbox, Expected: eventstore.ExpectedVersion(v), Events: evs,
					Meta: uow.Meta("", event.ActorSystem, cause)}) // the recipient's, not the tree's
			}
		}
		return plan, nil
	})
	return p.u.JobError(ctx, "notice", err)
}

// posted reports whether evs hold the notice id.
func posted(evs []eventstore.RecordedEvent, id string) bool {
	for _, e := range evs {
		if p, err := e.Decode(); err == nil {
			if n, ok := p.(*notice.Posted); ok && n.NoticeID == id {
				return true
			}
		}
	}
	return false
}

// notices are the notices a job's event gives.
func (p *Process) notices(ctx context.Context, a NoticeItem) ([]notice.Posted, error) {
	st := p.u.Store()
	user := func(id string) string { return identity.User(id, "").Actor() }
	switch a.About {
	case notice.KindAgreed, notice.KindFailed:
		d := &negotiation.DemandState{}
		if _, err := p.u.Fold(ctx, st, negotiation.DemandStream(a.DemandID), d.Apply); err != nil || !d.Exists() || d.RootDemandID != d.ID {
			return nil, err // a sub-negotiation's end is its tree's business, not its owner's
		}
		what := negotiation.ClipText(d.RawInput, 40)
		out := []notice.Posted{{Recipient: user(d.UserID), Kind: a.About, DemandID: d.ID, ChannelID: a.ChannelID,
			Title: "你的协商「" + what + "」已达成协议"}}
		if a.About == notice.KindFailed {
			out[0].Title = "你的协商「" + what + "」没有达成协议"
			return out, nil
		}
		c := &negotiation.Channel{}
		if _, err := p.u.Fold(ctx, st, negotiation.ChannelStream(a.ChannelID), c.Apply); err != nil {
			return nil, err
		}
		if plan := c.FinalProposal; plan != nil {
			for _, as := range plan.Assignments {
				if p.external(ctx, as.AgentID) {
					out = append(out, notice.Posted{Recipient: identity.Agent(as.AgentID).Actor(), Kind: notice.KindFinalPlan,
						DemandID: d.ID, ChannelID: c.ID, Title: "你参与的方案已定稿：你的角色是" + as.Role})
				}
			}
		}
		return out, nil
	case notice.KindInvited:
		if !p.external(ctx, a.AgentID) {
			return nil, nil // a twin answers for itself
		}
		d := &negotiation.DemandState{}
		if _, err := p.u.Fold(ctx, st, negotiation.DemandStream(a.DemandID), d.Apply); err != nil {
			return nil, err
		}
		return []notice.Posted{{Recipient: identity.Agent(a.AgentID).Actor(), Kind: a.About, DemandID: a.DemandID, ChannelID: a.ChannelID,
			Title: "你被邀请参加一场协商：" + negotiation.ClipText(d.RawInput, 40)}}, nil
	case notice.KindReview:
		c := &negotiation.Channel{}
		if _, err := p.u.Fold(ctx, st, negotiation.ChannelStream(a.ChannelID), c.Apply); err != nil {
			return nil, err
		}
		var out []notice.Posted
		for _, id := range c.ActiveParticipants() {
			if p.external(ctx, id) {
				out = append(out, notice.Posted{Recipient: identity.Agent(id).Actor(), Kind: a.About, DemandID: c.DemandID, ChannelID: c.ID,
					Title: fmt.Sprintf("第 %d 轮方案等你反馈", a.Round)})
			}
		}
		return out, nil
	case notice.KindApproval, notice.KindWorkflowCompleted, notice.KindWorkflowFailed:
		var wf workflow.Workflow
		if _, err := p.u.Fold(ctx, st, workflow.WorkflowStream(a.WorkflowID), wf.Apply); err != nil || !wf.Exists() {
			return nil, err
		}
		n := notice.Posted{Recipient: user(wf.UserID), Kind: a.About, DemandID: wf.DemandID, WorkflowID: wf.ID, NodeID: a.NodeID}
		switch a.About {
		case notice.KindApproval:
			node := wf.Node(a.NodeID)
			if node == nil {
				return nil, nil
			}
			n.Recipient, n.Title = user(wf.ApproverOf(*node)), "「"+node.Title+"」等待你审批"
		case notice.KindWorkflowCompleted:
			n.Title = "执行计划「" + wf.Title + "」已完成"
		default:
			n.Title = "执行计划「" + wf.Title + "」失败了"
			if node := wf.Node(a.NodeID); node != nil {
				n.Title += "：「" + node.Title + "」没有完成"
			}
		}
		return []notice.Posted{n}, nil
	}
	return nil, nil
}

// treeOf is the root demand of the tree a notice is about (the
// correlation of its demand's or workflow's first event): the notice's
// title quotes that tree's texts, and is sealed under its key.
func (p *Process) treeOf(ctx context.Context, n notice.Posted) (string, error) {
	stream := ""
	switch {
	case n.DemandID != "":
		stream = negotiation.DemandStream(n.DemandID)
	case n.WorkflowID != "":
		stream = workflow.WorkflowStream(n.WorkflowID)
	default:
		return "", nil
	}
	evs, err := p.u.Store().ReadStream(ctx, stream, 0, 1)
	if err != nil || len(evs) == 0 {
		return "", err
	}
	return evs[0].Metadata.CorrelationID, nil
}

// external reports whether agentID is an external agent (a twin needs no
// notice: it answers for itself).
func (p *Process) external(ctx context.Context, agentID string) bool {
	prof, _, ok, err := p.dir.Get(ctx, agentID)
	return err == nil && ok && prof.IsExternal()
}
