package negotiate

import (
	"context"
	"slices"
	"time"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/uow"
)

// reactions derives the follow-up jobs of a step from the events it
// appends. c is the channel after those events (nil for a demand-only
// step), d the demand after them (nil for a channel-only step).
func (e *Process) reactions(ctx context.Context, events []domain.Payload, c *domain.Channel, d *domain.DemandState) ([]uow.Job, error) {
	now := e.cfg.Now()
	var jobs []uow.Job
	for _, ev := range events {
		switch ev := ev.(type) {
		case *domain.DemandSubmitted:
			deadline := now.Add(seconds(e.cfg.Rules.StuckTimeoutSeconds))
			jobs = append(jobs, uow.Job{Args: UnderstandArgs{DemandID: ev.DemandID}},
				uow.Deadlined(DemandStuckArgs{DemandID: ev.DemandID, Deadline: deadline}, deadline))
		case *domain.DemandUnderstood:
			jobs = append(jobs, uow.Job{Args: FilterArgs{DemandID: ev.DemandID}})
		case *domain.ChannelCreated:
			jobs = append(jobs, uow.Job{Args: BroadcastArgs{ChannelID: ev.ChannelID}},
				uow.Deadlined(StuckArgs{ChannelID: ev.ChannelID, Deadline: now.Add(seconds(ev.StuckTimeoutSeconds))},
					now.Add(seconds(ev.StuckTimeoutSeconds))))
		case *domain.NegotiationFailed:
			if ev.ChannelID == "" && d != nil && d.IsSub() { // a sub-demand failed before it had a channel
				jobs = append(jobs, uow.Job{Args: NotifyParentArgs{ParentChannelID: d.ParentChannelID,
					SubChannelID: domain.ChannelIDFor(d.ID), SubDemandID: d.ID}})
			}
		case *domain.ChannelStatusChanged:
			if ev.NewStatus == domain.ChannelStatusCollecting {
				if slices.ContainsFunc(c.Candidates, func(cand domain.Candidate) bool { return e.dir.IsTwin(cand.AgentID) }) {
					jobs = append(jobs, uow.Job{Args: TwinOffersArgs{ChannelID: c.ID}})
				}
				deadline := now.Add(seconds(c.Rules.OfferTimeoutSeconds))
				jobs = append(jobs, uow.Deadlined(OfferTimeoutArgs{ChannelID: c.ID, Deadline: deadline}, deadline))
			}
		case *domain.AggregationStarted:
			jobs = append(jobs, uow.Job{Args: AggregateArgs{ChannelID: ev.ChannelID}})
		case *domain.ProposalDistributed:
			if slices.ContainsFunc(c.RoundMembers(), e.dir.IsTwin) {
				jobs = append(jobs, uow.Job{Args: TwinFeedbackArgs{ChannelID: c.ID, Round: ev.Round}})
			}
			deadline := now.Add(seconds(c.Rules.FeedbackTimeoutSeconds))
			jobs = append(jobs, uow.Deadlined(FeedbackTimeoutArgs{ChannelID: c.ID, Round: ev.Round, Deadline: deadline}, deadline))
		case *domain.ProposalAdjusting:
			jobs = append(jobs, uow.Job{Args: AdjustArgs{ChannelID: ev.ChannelID, Round: ev.Round}})
		case *domain.FeedbackEvaluated:
			if ev.Decision == domain.DecisionForceFinalize {
				jobs = append(jobs, uow.Job{Args: ForceFinalizeArgs{ChannelID: ev.ChannelID}})
			}
		case *domain.ProposalFinalized, *domain.NegotiationForceFinalized:
			jobs = append(jobs, uow.Job{Args: GapsArgs{ChannelID: c.ID}})
		case *domain.GapIdentified:
			if c.AwaitingRecursion() {
				jobs = append(jobs, uow.Job{Args: RecursionArgs{ChannelID: c.ID}})
			}
		case *domain.NegotiationCompleted:
			if c != nil && c.ParentChannelID != "" {
				jobs = append(jobs, uow.Job{Args: NotifyParentArgs{ParentChannelID: c.ParentChannelID,
					SubChannelID: c.ID, SubDemandID: c.DemandID}})
			}
		}
	}
	return jobs, nil
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }
