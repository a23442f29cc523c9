package negotiate

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
)

// NotifyParentArgs are the arguments of the NotifyParent step.
type NotifyParentArgs struct {
	ParentChannelID string `json:"parent_channel_id"`
	SubChannelID    string `json:"sub_channel_id"`
	SubDemandID     string `json:"sub_demand_id"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (NotifyParentArgs) Kind() string { return "towow.notify_parent" }

// NotifyParentWorker runs the NotifyParent step.
type NotifyParentWorker struct {
	river.WorkerDefaults[NotifyParentArgs]
	e *Process
}

// Work reports a finished sub-negotiation to the channel that spawned
// it, when its completion did not (Process.addParentNotice): a sub-demand
// that failed before it had a channel, a parent that refused the notice,
// a copied history (a fork) that ends between the two.
func (w *NotifyParentWorker) Work(ctx context.Context, job *river.Job[NotifyParentArgs]) error {
	e := w.e
	a := job.Args
	res := negotiation.SubnetCompleted{ParentChannelID: a.ParentChannelID, SubChannelID: a.SubChannelID, SubDemandID: a.SubDemandID}
	sub, _, err := e.loadChannel(ctx, a.SubChannelID)
	if err != nil {
		return err
	}
	switch {
	case sub.Exists() && sub.Completed:
		res = subnetResult(sub)
	case !sub.Exists(): // the sub-demand failed before it had a channel
		d, _, err := e.loadDemand(ctx, a.SubDemandID)
		if err != nil {
			return err
		}
		if d.Failure == nil {
			return nil
		}
		res.Status, res.FailureReason = negotiation.ChannelStatusFailed, string(d.Failure.Reason)
	default:
		return nil // not finished yet; its completion tells the parent
	}
	_, err = e.channelStep(ctx, "notify parent", a.ParentChannelID, event.ActorChannelAdmin, uow.Causation(job.Kind, job.ID), nil, "",
		func(c *negotiation.Channel) ([]event.Payload, error) { return c.SubnetDone(res) })
	return e.jobError(ctx, "notify parent", err)
}
