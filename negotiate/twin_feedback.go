package negotiate

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/logctx"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// TwinFeedbackArgs runs the feedback (prompt 5) of every twin in a round.
type TwinFeedbackArgs struct {
	ChannelID string `json:"channel_id"`
	Round     int    `json:"round"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (TwinFeedbackArgs) Kind() string { return "towow.twin_feedback" }

// TwinFeedbackWorker runs the TwinFeedback step.
type TwinFeedbackWorker struct {
	river.WorkerDefaults[TwinFeedbackArgs]
	e *Process
}

// Work answers the round's proposal for every twin that has not yet
// (prompt 5), their calls concurrent.
func (w *TwinFeedbackWorker) Work(ctx context.Context, job *river.Job[TwinFeedbackArgs]) error {
	e := w.e
	round := job.Args.Round
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingFeedback() || c.Round != round {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	var twins []negotiation.AgentProfile
	for _, id := range c.MissingFeedback() {
		prof, _, ok, err := e.dir.Get(ctx, id)
		if err != nil {
			return err
		}
		if ok && !prof.IsExternal() { // others: the feedback timeout settles
			twins = append(twins, prof)
		}
	}
	proposal, maxRounds := *c.Proposal, c.Rules.MaxRounds
	ask := func(ctx context.Context, i int) (answer, error) {
		prof := twins[i]
		ctx = logctx.With(ctx, slog.String("agent_id", prof.AgentID))
		res, call, err := llm.Call(ctx, e.llm, llm.Feedback, llm.FeedbackInput{Profile: prof, Demand: d.PromptUnderstanding(), Proposal: promptProposal(proposal),
			MyAssignment: assignmentOf(&proposal, prof.AgentID), MyOffer: offerView(c, prof.AgentID), Round: round, MaxRounds: maxRounds})
		f := negotiation.ProposalFeedback{AgentID: prof.AgentID, FeedbackAnswer: res}
		return answer{agentID: prof.AgentID, fb: &f, call: call}, err
	}
	err = e.fanOut(ctx, "twin feedback", c.ID, uow.Causation(job.Kind, job.ID), len(twins), ask,
		func(c *negotiation.Channel, a answer) ([]event.Payload, error) {
			evs, err := c.SubmitFeedback(*a.fb, round, e.cfg.Now())
			if moot(err) || (err != nil && !c.AwaitingFeedback()) {
				return nil, nil // the round moved on (evaluated, or timed out)
			}
			return evs, err
		})
	return e.jobError(ctx, "twin feedback", err)
}
