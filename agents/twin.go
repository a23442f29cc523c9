package agents

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/logctx"
	"github.com/towow/towow/llm"
)

// The UserAgent twins. One job per stage answers for every twin of a
// channel: the offers (prompt 3) after the broadcast, the feedback (prompt
// 5) of each round. The twins' LLM calls run concurrently, and whatever
// answers have arrived are committed together, so with a real model the
// answers still appear one after another as they come, while a fast model's
// answers cost one commit instead of one each. A retried job answers only
// for the twins that have not answered yet.

// fanOutParallelism bounds the concurrent LLM calls of one stage.
const fanOutParallelism = 16

// answer is one twin's answer.
type answer struct {
	agentID string
	name    string
	offer   *domain.Offer
	fb      *domain.ProposalFeedback
	call    domain.LLMCall
}

func (e *Engine) twinOffers(ctx context.Context, job *river.Job[twinOffersArgs]) error {
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || c.Status != domain.ChannelStatusCollecting {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	var twins []domain.AgentProfile
	reasons := map[string]string{}
	for _, cand := range c.Candidates {
		reasons[cand.AgentID] = cand.Reason
		if _, done := c.Offers[cand.AgentID]; done {
			continue
		}
		prof, active, ok, err := e.dir.Get(ctx, cand.AgentID)
		if err != nil {
			return err
		}
		if ok && active && !prof.IsExternal() { // others: the offer timeout settles
			twins = append(twins, prof)
		}
	}
	ask := func(ctx context.Context, i int) (answer, error) {
		prof := twins[i]
		ctx = logctx.With(ctx, slog.String("agent_id", prof.AgentID))
		res, call, err := llm.Call(ctx, e.llm, llm.Offer, llm.OfferInput{Profile: prof, Demand: understanding(d), RawInput: d.RawInput,
			FilterReason: reasons[prof.AgentID]})
		o := domain.Offer{AgentID: prof.AgentID, OfferAnswer: res}
		return answer{agentID: prof.AgentID, name: prof.UserName, offer: &o, call: call}, err
	}
	err = e.fanOut(ctx, "twin offers", c.ID, causation(job.Kind, job.ID), len(twins), ask,
		func(c *domain.Channel, a answer) ([]domain.Payload, error) {
			evs, err := c.SubmitOffer(*a.offer, a.name, e.cfg.Now())
			if moot(err) {
				return nil, nil
			}
			return evs, err
		})
	return e.jobError(ctx, "twin offers", err)
}

func (e *Engine) twinFeedback(ctx context.Context, job *river.Job[twinFeedbackArgs]) error {
	round := job.Args.Round
	c, _, err := e.loadChannel(ctx, job.Args.ChannelID)
	if err != nil || !c.Exists() || !c.AwaitingFeedback() || c.Round != round {
		return err
	}
	d, _, err := e.loadDemand(ctx, c.DemandID)
	if err != nil {
		return err
	}
	var twins []domain.AgentProfile
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
		res, call, err := llm.Call(ctx, e.llm, llm.Feedback, llm.FeedbackInput{Profile: prof, Demand: understanding(d), Proposal: promptProposal(proposal),
			MyAssignment: assignmentOf(&proposal, prof.AgentID), MyOffer: offerView(c, prof.AgentID), Round: round, MaxRounds: maxRounds})
		f := domain.ProposalFeedback{AgentID: prof.AgentID, FeedbackAnswer: res}
		return answer{agentID: prof.AgentID, fb: &f, call: call}, err
	}
	err = e.fanOut(ctx, "twin feedback", c.ID, causation(job.Kind, job.ID), len(twins), ask,
		func(c *domain.Channel, a answer) ([]domain.Payload, error) {
			evs, err := c.SubmitFeedback(*a.fb, round, e.cfg.Now())
			if moot(err) || (err != nil && !c.AwaitingFeedback()) {
				return nil, nil // the round moved on (evaluated, or timed out)
			}
			return evs, err
		})
	return e.jobError(ctx, "twin feedback", err)
}

// fanOut asks n twins concurrently and commits their answers as they
// arrive: each commit takes every answer that is ready, decides them in
// order on the freshly loaded channel, and appends the result in one
// transaction (each event carrying its own agent's LLM call).
func (e *Engine) fanOut(ctx context.Context, step, channelID, cause string, n int,
	ask func(ctx context.Context, i int) (answer, error),
	decide func(c *domain.Channel, a answer) ([]domain.Payload, error)) error {
	if n == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		a   answer
		err error
	}
	results := make(chan result, n)
	sem := make(chan struct{}, fanOutParallelism)
	for i := range n {
		go func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				results <- result{err: ctx.Err()}
				return
			}
			a, err := ask(ctx, i)
			<-sem
			results <- result{a, err}
		}()
	}
	for pending := n; pending > 0; {
		r := <-results
		pending--
		if r.err != nil {
			return r.err // the caller's context ended: the job is retried
		}
		batch := []answer{r.a}
	drain:
		for pending > 0 {
			select {
			case r := <-results:
				pending--
				if r.err != nil {
					return r.err
				}
				batch = append(batch, r.a)
			default:
				break drain
			}
		}
		if err := e.commitAnswers(ctx, step, channelID, cause, batch, decide); err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) commitAnswers(ctx context.Context, step, channelID, cause string, batch []answer,
	decide func(c *domain.Channel, a answer) ([]domain.Payload, error)) error {
	_, err := e.commit(ctx, step, []string{domain.ChannelStream(channelID)}, func(ctx context.Context, st *eventstore.Store) (*plan, error) {
		c, v, err := e.loadChannelFrom(ctx, st, channelID)
		if err != nil {
			return nil, err
		}
		var evs []domain.Payload
		calls := map[string]*domain.LLMCall{}
		for _, a := range batch {
			out, err := decide(c, a)
			if err != nil {
				return nil, err
			}
			for _, ev := range out {
				c.Apply(ev)
			}
			evs = append(evs, out...)
			call := a.call
			calls[a.agentID] = &call
		}
		if len(evs) == 0 {
			return nil, nil
		}
		jobs, err := e.reactions(ctx, evs, c, nil)
		if err != nil {
			return nil, err
		}
		return &plan{jobs: jobs, appends: []appendOp{{stream: domain.ChannelStream(channelID), expected: v, events: evs,
			meta: stepMeta(c.RootDemandID, domain.ActorChannelAdmin, cause), agentCalls: calls}}}, nil
	})
	return err
}
