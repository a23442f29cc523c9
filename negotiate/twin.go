package negotiate

import (
	"cmp"
	"context"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/uow"
)

// The UserAgent twins. One job per stage answers for every twin of a
// channel: the offers (prompt 3) after the broadcast, the feedback (prompt
// 5) of each round. The twins' LLM calls run concurrently, and the answers
// that arrive within Config.AnswerGather of each other are committed
// together, so with a real model the answers still appear one after
// another as they come, while a fast model's answers cost one commit
// instead of one each. A retried job answers only for the twins that have
// not answered yet.

// fanOutParallelism bounds the concurrent LLM calls of one stage.
const fanOutParallelism = 16

// DefaultAnswerGather is how long a stage waits, after an answer arrives,
// for more to commit with it while others are still due: answers a model
// gives within a few milliseconds of each other are one commit, not one
// each (people cannot tell the difference; the database can), and the
// last answer is committed at once.
const DefaultAnswerGather = 10 * time.Millisecond

// answer is one twin's answer.
type answer struct {
	agentID string
	name    string
	offer   *negotiation.Offer
	fb      *negotiation.ProposalFeedback
	call    event.LLMCall
}

// fanOut asks n twins concurrently and commits their answers as they
// arrive: each commit takes an answer and every other that arrives within
// Config.AnswerGather of it (or until none is due), decides them in order
// on the freshly loaded channel, and appends the result in one transaction
// (each event carrying its own agent's LLM call).
func (e *Process) fanOut(ctx context.Context, step, channelID, cause string, n int,
	ask func(ctx context.Context, i int) (answer, error),
	decide func(c *negotiation.Channel, a answer) ([]event.Payload, error)) error {
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
	// A twin whose model is unavailable (llm.OutageError) does not stop the
	// others: the answers that came are committed, and then the job waits
	// the outage out and asks again for the twins still without an answer.
	var waiting error
	take := func(r result) (answer, bool, error) {
		switch {
		case r.err == nil:
			return r.a, true, nil
		case llm.IsOutage(r.err):
			waiting = cmp.Or(waiting, r.err)
			return answer{}, false, nil
		}
		return answer{}, false, r.err // the caller's context ended: the job is retried
	}
	for pending := n; pending > 0; {
		var batch []answer
		a, ok, err := take(<-results)
		pending--
		if err != nil {
			return err
		}
		if ok {
			batch = append(batch, a)
		}
		gathered := time.NewTimer(e.cfg.AnswerGather)
	drain:
		for pending > 0 {
			select {
			case r := <-results:
				pending--
				a, ok, err := take(r)
				if err != nil {
					gathered.Stop()
					return err
				}
				if ok {
					batch = append(batch, a)
				}
			case <-gathered.C:
				break drain
			}
		}
		gathered.Stop()
		if len(batch) == 0 {
			continue
		}
		if err := e.commitAnswers(ctx, step, channelID, cause, batch, decide); err != nil {
			return err
		}
	}
	return waiting
}

func (e *Process) commitAnswers(ctx context.Context, step, channelID, cause string, batch []answer,
	decide func(c *negotiation.Channel, a answer) ([]event.Payload, error)) error {
	_, err := e.u.Commit(ctx, step, []string{negotiation.ChannelStream(channelID)}, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		c, v, err := e.loadChannelFrom(ctx, st, channelID)
		if err != nil {
			return nil, err
		}
		var evs []event.Payload
		calls := map[string]*event.LLMCall{}
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
		// An agreement reached by these answers may complete the tree (its
		// gaps and sub-negotiations done while the rounds ran): what that
		// writes is planned as in every channel step.
		return e.planChannelAppend(ctx, st, c, uow.Append{Stream: negotiation.ChannelStream(channelID), Expected: v, Events: evs,
			Meta: uow.Meta(c.RootDemandID, event.ActorChannelAdmin, cause), AgentCalls: calls})
	})
	return err
}
