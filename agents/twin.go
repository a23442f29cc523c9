package agents

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/llm"
)

// The UserAgent twin's steps: one per invited agent (offer, prompt 3) and
// one per round member per round (feedback, prompt 5), run in parallel.

func (e *Engine) offer(ctx context.Context, job *river.Job[offerArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || c.Status != domain.ChannelStatusCollecting {
		return err
	}
	if _, done := c.Offers[job.Args.AgentID]; done {
		return nil
	}
	prof, active, ok, err := e.dir.Get(ctx, job.Args.AgentID)
	if err != nil || !ok || !active || prof.IsExternal() {
		return err // no twin answers; the offer timeout settles
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	reason := ""
	for _, cand := range c.Candidates {
		if cand.AgentID == job.Args.AgentID {
			reason = cand.Reason
		}
	}
	res, call, err := e.llm.Offer(ctx, llm.OfferInput{Profile: prof, Demand: understanding(d), RawInput: d.RawInput, FilterReason: reason})
	if err != nil {
		return err
	}
	o := domain.Offer{AgentID: prof.AgentID, Decision: res.Decision, Contribution: res.Contribution, Conditions: res.Conditions,
		Reasoning: res.Reasoning, DeclineReason: res.DeclineReason, Confidence: res.Confidence}
	_, err = e.channelStep(ctx, "generate offer", c.ID, domain.AgentActor(prof.AgentID), causation(job.Kind, job.ID), &call,
		domain.EventOfferSubmitted, func(c *domain.Channel) ([]domain.Payload, error) {
			evs, err := c.SubmitOffer(o, prof.UserName, e.cfg.Now())
			if moot(err) {
				return nil, nil
			}
			return evs, err
		})
	return e.jobError("generate offer", err)
}

func (e *Engine) feedback(ctx context.Context, job *river.Job[feedbackArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingFeedback() || c.Round != job.Args.Round {
		return err
	}
	if _, done := c.Feedback[job.Args.AgentID]; done {
		return nil
	}
	prof, _, ok, err := e.dir.Get(ctx, job.Args.AgentID)
	if err != nil || !ok || prof.IsExternal() {
		return err // the feedback timeout settles
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	res, call, err := e.llm.Feedback(ctx, llm.FeedbackInput{Profile: prof, Demand: understanding(d), Proposal: *c.Proposal,
		MyAssignment: assignmentOf(c.Proposal, prof.AgentID), MyOffer: offerView(c, prof.AgentID), Round: c.Round, MaxRounds: c.Rules.MaxRounds})
	if err != nil {
		return err
	}
	f := domain.ProposalFeedback{AgentID: prof.AgentID, FeedbackType: res.FeedbackType, Reasoning: res.Reasoning,
		AdjustmentRequest: res.AdjustmentRequest, Concerns: res.Concerns, Confidence: res.Confidence}
	_, err = e.channelStep(ctx, "generate feedback", c.ID, domain.AgentActor(prof.AgentID), causation(job.Kind, job.ID), &call,
		domain.EventProposalFeedback, func(c *domain.Channel) ([]domain.Payload, error) {
			evs, err := c.SubmitFeedback(f, job.Args.Round)
			if moot(err) || (err != nil && !c.AwaitingFeedback()) {
				return nil, nil
			}
			return evs, err
		})
	return e.jobError("generate feedback", err)
}
