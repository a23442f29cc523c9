package negotiate

import (
	"context"
	"slices"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
)

// reactions derives the follow-up jobs of a step from the events it
// appends. c is the channel after those events (nil for a demand-only
// step), d the demand after them (nil for a channel-only step).
func (e *Process) reactions(ctx context.Context, events []event.Payload, c *negotiation.Channel, d *negotiation.DemandState) ([]uow.Job, error) {
	now := e.cfg.Now()
	var jobs []uow.Job
	for _, ev := range events {
		switch ev := ev.(type) {
		case *negotiation.DemandSubmitted:
			deadline := now.Add(seconds(e.cfg.Rules.StuckTimeoutSeconds))
			jobs = append(jobs, uow.Job{Args: UnderstandArgs{DemandID: ev.DemandID}},
				uow.Deadlined(DemandStuckArgs{DemandID: ev.DemandID, Deadline: deadline}, deadline))
		case *negotiation.FilterStarted: // after the understanding; for a sub-demand, beside it
			jobs = append(jobs, uow.Job{Args: FilterArgs{DemandID: ev.DemandID}})
		case *negotiation.ChannelCreated:
			if c.Status == negotiation.ChannelStatusCreated { // opened without its broadcast (a log from before channels opened broadcasting)
				jobs = append(jobs, uow.Job{Args: BroadcastArgs{ChannelID: ev.ChannelID}})
			}
			jobs = append(jobs, uow.Deadlined(StuckArgs{ChannelID: ev.ChannelID, Deadline: now.Add(seconds(ev.StuckTimeoutSeconds))},
				now.Add(seconds(ev.StuckTimeoutSeconds))))
		case *negotiation.NegotiationFailed:
			if ev.ChannelID == "" && d != nil && d.IsSub() { // a sub-demand failed before it had a channel
				jobs = append(jobs, uow.Job{Args: NotifyParentArgs{ParentChannelID: d.ParentChannelID,
					SubChannelID: negotiation.ChannelIDFor(d.ID), SubDemandID: d.ID}})
			}
		case *negotiation.ChannelStatusChanged:
			if ev.NewStatus == negotiation.ChannelStatusCollecting {
				if slices.ContainsFunc(c.Candidates, func(cand negotiation.Candidate) bool { return e.dir.IsTwin(cand.AgentID) }) {
					jobs = append(jobs, uow.Job{Args: TwinOffersArgs{ChannelID: c.ID}})
				}
				deadline := now.Add(seconds(c.Rules.OfferTimeoutSeconds))
				jobs = append(jobs, uow.Deadlined(OfferTimeoutArgs{ChannelID: c.ID, Deadline: deadline}, deadline))
			}
		case *negotiation.AggregationStarted:
			jobs = append(jobs, uow.Job{Args: AggregateArgs{ChannelID: ev.ChannelID}})
			if len(c.ActiveParticipants()) > 0 { // gaps are analysed while the rounds run
				jobs = append(jobs, uow.Job{Args: GapsArgs{ChannelID: ev.ChannelID}})
			}
		case *negotiation.ProposalDistributed:
			if slices.ContainsFunc(c.RoundMembers(), e.dir.IsTwin) {
				jobs = append(jobs, uow.Job{Args: TwinFeedbackArgs{ChannelID: c.ID, Round: ev.Round}})
			}
			deadline := now.Add(seconds(c.Rules.FeedbackTimeoutSeconds))
			jobs = append(jobs, uow.Deadlined(FeedbackTimeoutArgs{ChannelID: c.ID, Round: ev.Round, Deadline: deadline}, deadline))
		case *negotiation.ProposalAdjusting:
			jobs = append(jobs, uow.Job{Args: AdjustArgs{ChannelID: ev.ChannelID, Round: ev.Round}})
		case *negotiation.FeedbackEvaluated:
			if ev.Decision == negotiation.RoundForceFinalize {
				jobs = append(jobs, uow.Job{Args: ForceFinalizeArgs{ChannelID: ev.ChannelID}})
			}
		case *negotiation.ProposalFinalized, *negotiation.NegotiationForceFinalized:
			if c.AwaitingGaps() { // offers closed before gaps were analysed early (older logs)
				jobs = append(jobs, uow.Job{Args: GapsArgs{ChannelID: c.ID}})
			}
		case *negotiation.GapIdentified:
			if c.AwaitingRecursion() {
				jobs = append(jobs, uow.Job{Args: RecursionArgs{ChannelID: c.ID}})
			}
		}
	}
	return jobs, nil
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }
