package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// FaultDemands are the ten demands of `towow bench faults` and of the LLM
// fault tests: the sample demands and four more (a large event, an
// English one, a website, a one-person need).
var FaultDemands = append(slices.Clone(SampleDemands),
	"年会需要两位主讲嘉宾、一位主持人和5名志愿者",
	"I need a photographer and a caterer for a 30-person wedding in Shanghai next month",
	"想给我们的开源项目做一个新网站，需要设计师和前端开发",
	"找一位律师帮忙看合同")

// Ending is how a negotiation ended, comparable between runs: the root
// channel's status and its final plan's assignees ("finalized a,b"), or
// why the demand failed before a channel.
type Ending struct {
	// Text is the comparable summary; empty while the negotiation runs.
	Text string
	// NoAnswers counts the last round's feedback that was a twin's no
	// answer, in a finalized plan (it must stay 0: no answer never counts
	// as acceptance).
	NoAnswers int
}

// ReadEnding folds a root demand's streams into its Ending.
func ReadEnding(ctx context.Context, store *eventstore.Store, demandID string) (Ending, error) {
	d := &negotiation.DemandState{}
	if _, err := store.Fold(ctx, negotiation.DemandStream(demandID), func(p event.Payload) { d.Apply(p) }); err != nil {
		return Ending{}, err
	}
	if d.ChannelID == "" {
		if d.Failure != nil {
			return Ending{Text: "failed before a channel: " + string(d.Failure.Reason)}, nil
		}
		return Ending{}, nil
	}
	c := &negotiation.Channel{}
	if _, err := store.Fold(ctx, negotiation.ChannelStream(d.ChannelID), func(p event.Payload) { c.Apply(p) }); err != nil {
		return Ending{}, err
	}
	if !c.Completed && c.Failure == nil {
		return Ending{}, nil
	}
	var ids []string
	if p := c.FinalProposal; p != nil {
		for _, a := range p.Assignments {
			ids = append(ids, a.AgentID)
		}
	}
	slices.Sort(ids)
	e := Ending{Text: strings.TrimSpace(string(c.Status) + " " + strings.Join(ids, ","))}
	if c.Status == negotiation.ChannelStatusFinalized {
		for _, f := range c.Feedback {
			if f.FeedbackType == negotiation.FeedbackNoAnswer {
				e.NoAnswers++
			}
		}
	}
	return e, nil
}

// RunDemands submits demands at once through cmds and waits for each to
// end in store (at most timeout): their endings by demand text, and how
// long the last took.
func RunDemands(ctx context.Context, cmds *app.Commands, store *eventstore.Store, demands []string, timeout time.Duration) (map[string]Ending, time.Duration, error) {
	start := time.Now()
	ids := make([]string, len(demands))
	for i, text := range demands {
		sub, err := cmds.SubmitDemand(ctx, "bench", text)
		if err != nil {
			return nil, 0, err
		}
		ids[i] = sub.DemandID
	}
	out := map[string]Ending{}
	deadline := time.Now().Add(timeout)
	for i, id := range ids {
		for {
			e, err := ReadEnding(ctx, store, id)
			if err != nil {
				return nil, 0, err
			}
			if e.Text != "" {
				out[demands[i]] = e
				break
			}
			if time.Now().After(deadline) {
				return nil, 0, fmt.Errorf("negotiation %s (%s) not finished within %s", id, demands[i], timeout)
			}
			select {
			case <-ctx.Done():
				return nil, 0, ctx.Err()
			case <-time.After(250 * time.Millisecond):
			}
		}
	}
	return out, time.Since(start), nil
}

// CallCounts are the counts of a CallCounter.
type CallCounts struct {
	// Calls is every call; Fallbacks those that used their fallback;
	// Reasked those asked again after an unusable reply; Waited those that
	// found the provider down and waited the outage out; Openings the
	// breaker's openings.
	Calls, Fallbacks, Reasked, Waited, Openings int
}

// CallCounter counts a client's LLM calls (llm.Config.OnCall) and breaker
// openings (llm.Config.OnBreakerOpen). It is safe for concurrent use.
type CallCounter struct {
	mu sync.Mutex
	n  CallCounts
}

// OnCall counts one call's record.
func (c *CallCounter) OnCall(rec event.LLMCall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n.Calls++
	switch {
	case rec.FallbackUsed:
		c.n.Fallbacks++
	case rec.Outcome != event.LLMOutcomeOK:
		c.n.Waited++
	}
	for _, at := range rec.Attempts {
		if at.Outcome == event.LLMOutcomeParseError {
			c.n.Reasked++
			break
		}
	}
}

// OnBreakerOpen counts one opening.
func (c *CallCounter) OnBreakerOpen() {
	c.mu.Lock()
	c.n.Openings++
	c.mu.Unlock()
}

// Snapshot returns the counts so far.
func (c *CallCounter) Snapshot() CallCounts {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// FaultRun is one row of `towow bench faults`.
type FaultRun struct {
	// Label names the run ("30 %", "60 s outage").
	Label string
	// Same is how many negotiations ended as without faults, of N.
	Same, N int
	// Calls are the run's LLM calls.
	Calls CallCounts
	// Injected is the number of faulted requests.
	Injected int
	// FinalizedOnNoAnswer counts finalized plans whose last round had a
	// no-answer feedback.
	FinalizedOnNoAnswer int
	// Took is how long the whole run took, submission to the last ending.
	Took time.Duration
	// Differences lists the negotiations that ended otherwise.
	Differences []string
}

// Compare fills run's Same, N, FinalizedOnNoAnswer and Differences from
// its endings against the endings without faults.
func (run *FaultRun) Compare(clean, got map[string]Ending) {
	run.N = len(clean)
	for text, want := range clean {
		g := got[text]
		if g.NoAnswers > 0 {
			run.FinalizedOnNoAnswer++
		}
		if g.Text == want.Text {
			run.Same++
		} else {
			run.Differences = append(run.Differences, fmt.Sprintf("%s: %s (without faults: %s)", text, g.Text, want.Text))
		}
	}
	slices.Sort(run.Differences)
}

// WriteFaults prints the runs as a table.
func WriteFaults(w io.Writer, runs []FaultRun) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "faults\tended as without faults\tLLM calls\tinjected\tasked again\twaited out\tfallbacks\tbreaker openings\tfinalized on no answer\ttook")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%d/%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", r.Label, r.Same, r.N, r.Calls.Calls, r.Injected, r.Calls.Reasked,
			r.Calls.Waited, r.Calls.Fallbacks, r.Calls.Openings, r.FinalizedOnNoAnswer, r.Took.Round(100*time.Millisecond))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range runs {
		for _, d := range r.Differences {
			fmt.Fprintf(w, "  %s: %s\n", r.Label, d)
		}
	}
	return nil
}
