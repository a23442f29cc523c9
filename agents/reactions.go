package agents

import (
	"context"
	"slices"
	"time"

	"github.com/towow/towow/domain"
)

// reactions derives the follow-up jobs of a step from the events it
// appends. c is the channel after those events (nil for a demand-only
// step), d the demand after them (nil for a channel-only step).
func (e *Engine) reactions(ctx context.Context, events []domain.Payload, c *domain.Channel, d *domain.DemandState) ([]job, error) {
	now := e.cfg.Now()
	var jobs []job
	for _, ev := range events {
		switch ev := ev.(type) {
		case *domain.DemandSubmitted:
			deadline := now.Add(seconds(e.cfg.Rules.StuckTimeoutSeconds))
			jobs = append(jobs, job{args: understandArgs{DemandID: ev.DemandID}},
				deadlined(demandStuckArgs{DemandID: ev.DemandID, Deadline: deadline}, deadline))
		case *domain.DemandUnderstood:
			jobs = append(jobs, job{args: filterArgs{DemandID: ev.DemandID}})
		case *domain.ChannelCreated:
			jobs = append(jobs, job{args: broadcastArgs{ChannelID: ev.ChannelID}},
				deadlined(stuckArgs{ChannelID: ev.ChannelID, Deadline: now.Add(seconds(ev.StuckTimeoutSeconds))},
					now.Add(seconds(ev.StuckTimeoutSeconds))))
		case *domain.NegotiationFailed:
			if ev.ChannelID == "" && d != nil && d.IsSub() { // a sub-demand failed before it had a channel
				jobs = append(jobs, job{args: notifyParentArgs{ParentChannelID: d.ParentChannelID,
					SubChannelID: domain.ChannelIDFor(d.ID), SubDemandID: d.ID}})
			}
		case *domain.ChannelStatusChanged:
			if ev.NewStatus == domain.ChannelStatusCollecting {
				if slices.ContainsFunc(c.Candidates, func(cand domain.Candidate) bool { return e.dir.isTwin(cand.AgentID) }) {
					jobs = append(jobs, job{args: twinOffersArgs{ChannelID: c.ID}})
				}
				deadline := now.Add(seconds(c.Rules.OfferTimeoutSeconds))
				jobs = append(jobs, deadlined(offerTimeoutArgs{ChannelID: c.ID, Deadline: deadline}, deadline))
			}
		case *domain.AggregationStarted:
			jobs = append(jobs, job{args: aggregateArgs{ChannelID: ev.ChannelID}})
		case *domain.ProposalDistributed:
			if slices.ContainsFunc(c.RoundMembers(), e.dir.isTwin) {
				jobs = append(jobs, job{args: twinFeedbackArgs{ChannelID: c.ID, Round: ev.Round}})
			}
			deadline := now.Add(seconds(c.Rules.FeedbackTimeoutSeconds))
			jobs = append(jobs, deadlined(feedbackTimeoutArgs{ChannelID: c.ID, Round: ev.Round, Deadline: deadline}, deadline))
		case *domain.ProposalAdjusting:
			jobs = append(jobs, job{args: adjustArgs{ChannelID: ev.ChannelID, Round: ev.Round}})
		case *domain.FeedbackEvaluated:
			if ev.Decision == domain.DecisionForceFinalize {
				jobs = append(jobs, job{args: forceFinalizeArgs{ChannelID: ev.ChannelID}})
			}
		case *domain.ProposalFinalized, *domain.NegotiationForceFinalized:
			jobs = append(jobs, job{args: gapsArgs{ChannelID: c.ID}})
		case *domain.GapIdentified:
			if c.AwaitingRecursion() {
				jobs = append(jobs, job{args: recursionArgs{ChannelID: c.ID}})
			}
		case *domain.NegotiationCompleted:
			if c != nil && c.ParentChannelID != "" {
				jobs = append(jobs, job{args: notifyParentArgs{ParentChannelID: c.ParentChannelID,
					SubChannelID: c.ID, SubDemandID: c.DemandID}})
			}
		}
	}
	return jobs, nil
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }
