package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// ForkDemands are the demands `towow bench fork` rotates through: with the
// builtin brain each takes at least three rounds.
var ForkDemands = []string{
	"下个月在深圳组织一次黑客马拉松，需要场地、评委和赞助商",
	"下周六的发布会需要直播技术支持和音响设备，在北京",
	"Product launch in Beijing: we need a host, a photographer and printed badges",
	"找一位律师帮忙看合同",
}

// ForkOptions configures Fork.
type ForkOptions struct {
	N           int           // negotiations of at least three rounds to fork (default 50)
	Concurrency int           // negotiations in flight at once (default 4)
	Timeout     time.Duration // bounds one negotiation or fork (default 60s)
}

// ForkResult holds the figures of a run.
type ForkResult struct {
	N, Tried int
	// CallsAfter are the fork's LLM calls after its fork point, Reused
	// those answered from the original's record; Copied the calls that
	// came with the copied history.
	CallsAfter, ReusedAfter, Copied int
	// Times to end: the original from its submission and from the fork
	// point, the fork from its start.
	Original, OriginalAfter, Forked []time.Duration
	Outcomes                        map[string]int
	PlanChanged                     int
}

// Fork runs negotiations of at least three rounds and forks each at the
// start of its second round without one of its first proposal's
// assignees, measuring the LLM calls the fork reused and its time to end
// against the original's.
func Fork(ctx context.Context, a *app.App, opts ForkOptions, progress io.Writer) (ForkResult, error) {
	if opts.N <= 0 {
		opts.N = 50
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	res := ForkResult{Outcomes: map[string]int{}}
	var mu sync.Mutex
	var firstErr error
	next := make(chan int)
	var wg sync.WaitGroup
	for range opts.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, err := forkOne(ctx, a, ForkDemands[i%len(ForkDemands)], opts.Timeout)
				mu.Lock()
				res.Tried++
				switch {
				case err != nil && firstErr == nil:
					firstErr = err
				case err == nil && r != nil && res.N < opts.N:
					res.N++
					res.CallsAfter += r.callsAfter
					res.ReusedAfter += r.reusedAfter
					res.Copied += r.copied
					res.Original = append(res.Original, r.original)
					res.OriginalAfter = append(res.OriginalAfter, r.originalAfter)
					res.Forked = append(res.Forked, r.forked)
					res.Outcomes[r.outcome]++
					if r.planChanged {
						res.PlanChanged++
					}
					if progress != nil && res.N%max(1, opts.N/10) == 0 {
						fmt.Fprintf(progress, "  %d/%d forked\n", res.N, opts.N)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; ; i++ {
		mu.Lock()
		stop := res.N >= opts.N || firstErr != nil || i >= 4*opts.N
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return res, firstErr
	}
	if res.N < opts.N {
		return res, fmt.Errorf("only %d of %d negotiations took three rounds or more", res.N, opts.N)
	}
	return res, nil
}

// forked is one negotiation and its fork, measured; nil when the
// negotiation took fewer than three rounds.
type forked struct {
	callsAfter, reusedAfter, copied int
	original, originalAfter, forked time.Duration
	outcome                         string
	planChanged                     bool
}

func forkOne(ctx context.Context, a *app.App, text string, timeout time.Duration) (*forked, error) {
	sub, err := a.Commands.SubmitDemand(ctx, "bench", text)
	if err != nil {
		return nil, err
	}
	orig, err := waitEnd(ctx, a.Store, sub.DemandID, timeout)
	if err != nil {
		return nil, err
	}
	rootChannel := negotiation.ChannelStream(negotiation.ChannelIDFor(sub.DemandID))
	var at eventstore.RecordedEvent
	var first *negotiation.Proposal
	withdrawn := map[string]bool{}
	threeRounds := false
scan:
	for _, e := range orig {
		if e.StreamID != rootChannel {
			continue
		}
		p, err := e.Decode()
		if err != nil {
			return nil, err
		}
		switch x := p.(type) {
		case *negotiation.ProposalDistributed:
			if first == nil {
				first = &x.Proposal
			}
		case *negotiation.AgentWithdrawn:
			if at.Position == 0 {
				withdrawn[x.AgentID] = true
			}
		case *negotiation.NegotiationRoundStarted:
			if x.Round == 2 {
				at = e
			}
			if x.Round == 3 {
				threeRounds = true
				break scan
			}
		}
	}
	if !threeRounds || at.Position == 0 || first == nil {
		return nil, nil // fewer than three rounds
	}
	gone := ""
	for _, as := range first.Assignments {
		if !withdrawn[as.AgentID] {
			gone = as.AgentID
			break
		}
	}
	if gone == "" {
		return nil, nil
	}
	forkID, _, err := a.Commands.Fork(ctx, sub.DemandID, at.Position, negotiation.ForkChange{Type: negotiation.ForkRemoveAgent, AgentID: gone})
	if err != nil {
		return nil, fmt.Errorf("fork %s at %d: %w", sub.DemandID, at.Position, err)
	}
	fevs, err := waitEnd(ctx, a.Store, forkID, timeout)
	if err != nil {
		return nil, err
	}
	r := &forked{original: endOf(orig).Sub(orig[0].RecordedAt), originalAfter: endOf(orig).Sub(at.RecordedAt)}
	var marker eventstore.RecordedEvent
	for _, e := range fevs {
		if e.Type == negotiation.EventNegotiationForked {
			marker = e
		}
		c := e.Metadata.LLMCall
		switch {
		case c == nil:
		case marker.Position == 0:
			r.copied++
		default:
			r.callsAfter++
			if c.Reused {
				r.reusedAfter++
			}
		}
	}
	r.forked = endOf(fevs).Sub(marker.RecordedAt)
	plan, status := planOf(orig, sub.DemandID)
	fplan, fstatus := planOf(fevs, forkID)
	r.outcome, r.planChanged = fstatus, status != fstatus || !negotiation.DiffPlans(plan, fplan).Same()
	return r, nil
}

// waitEnd polls until the tree's root channel completed (or the demand
// failed before one) and returns the tree's events.
func waitEnd(ctx context.Context, store *eventstore.Store, demandID string, timeout time.Duration) ([]eventstore.RecordedEvent, error) {
	deadline := time.Now().Add(timeout)
	for {
		last, err := store.ReadStreamBackward(ctx, negotiation.ChannelStream(negotiation.ChannelIDFor(demandID)), 1)
		if err != nil {
			return nil, err
		}
		failed, err := store.ReadAll(ctx, 0, eventstore.Filter{StreamID: negotiation.DemandStream(demandID),
			Types: []event.EventType{negotiation.EventNegotiationFailed, negotiation.EventDemandRejected}}, 1)
		if err != nil {
			return nil, err
		}
		if (len(last) == 1 && (last[0].Type == negotiation.EventChannelClosed || last[0].Type == negotiation.EventNegotiationCompleted)) || len(failed) > 0 {
			return eventstore.ReadEvery(ctx, store, 0, eventstore.Filter{CorrelationID: demandID})
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("negotiation %s not finished within %s", demandID, timeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// endOf is when a finished tree's last event was recorded.
func endOf(evs []eventstore.RecordedEvent) time.Time { return evs[len(evs)-1].RecordedAt }

// planOf is a finished tree's plan and how its root ended.
func planOf(evs []eventstore.RecordedEvent, demandID string) (*negotiation.Proposal, string) {
	for _, e := range slices.Backward(evs) {
		if e.Type != negotiation.EventNegotiationCompleted || e.StreamID != negotiation.ChannelStream(negotiation.ChannelIDFor(demandID)) {
			continue
		}
		p, err := e.Decode()
		if err != nil {
			return nil, "undecodable"
		}
		c := p.(*negotiation.NegotiationCompleted)
		if c.MergedPlan != nil {
			return c.MergedPlan, string(c.Status)
		}
		return c.FinalProposal, string(c.Status)
	}
	return nil, "failed"
}

// WriteFork prints a run's figures.
func WriteFork(w io.Writer, r ForkResult) error {
	q := func(ds []time.Duration, p float64) string { return fmtDur(percentile(ds, p)) }
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "negotiations forked\t%d (of %d run; the others took fewer than three rounds)\n", r.N, r.Tried)
	share := 0.0
	if r.CallsAfter > 0 {
		share = 100 * float64(r.ReusedAfter) / float64(r.CallsAfter)
	}
	fmt.Fprintf(tw, "LLM calls after the fork point\t%d, reused %d (%.1f%%), provider %d\n", r.CallsAfter, r.ReusedAfter, share, r.CallsAfter-r.ReusedAfter)
	fmt.Fprintf(tw, "LLM calls copied with the history\t%d (none asked again)\n", r.Copied)
	fmt.Fprintf(tw, "original, submission to end\tp50 %s\tp95 %s\n", q(r.Original, 0.5), q(r.Original, 0.95))
	fmt.Fprintf(tw, "original, fork point to end\tp50 %s\tp95 %s\n", q(r.OriginalAfter, 0.5), q(r.OriginalAfter, 0.95))
	fmt.Fprintf(tw, "fork, start to end\tp50 %s\tp95 %s\n", q(r.Forked, 0.5), q(r.Forked, 0.95))
	fmt.Fprintf(tw, "forks ended\t%v; plan different from the original's in %d\n", r.Outcomes, r.PlanChanged)
	return tw.Flush()
}
