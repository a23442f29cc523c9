package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// SampleDemands are the demands `towow bench negotiate` rotates through.
var SampleDemands = []string{
	"我想在北京办一场AI主题聚会，需要场地和嘉宾",
	"上海周末办一个50人的产品经理交流会，需要场地、主持和茶歇",
	"在深圳组织一次前端开发workshop，需要讲师和会议室",
	"I want to host an AI meetup in Shanghai for 50 people, need a venue and speakers",
	"杭州的创业团队需要一位UI设计师和一位后端开发，做一个小程序",
	"成都办一场摄影展开幕活动，需要场地、摄影师和餐饮",
}

// NegotiateOptions configures Negotiate.
type NegotiateOptions struct {
	N           int // negotiations in total (default 200)
	Concurrency int // negotiations in flight at once (default 8)
	// Timeout bounds one negotiation (default 60s, or 60 model latencies).
	Timeout time.Duration
	// Latency is the model latency the engine's LLM answers with (0: at
	// once); with it, each tree's time to agreement is also counted in
	// latencies, beside the least its dependency graph allows.
	Latency time.Duration
}

// TreeTiming is one negotiation tree's time to agreement and the least
// number of model calls, one after another, its dependency graph allows
// (CriticalCalls).
type TreeTiming struct {
	Demand        string
	Took          time.Duration
	Outcome       string
	CriticalCalls int
}

// NegotiateResult holds the figures of a run.
type NegotiateResult struct {
	N, Concurrency     int
	Elapsed            time.Duration
	P50, P95, P99, Max time.Duration // submit → terminal (root channel completed)
	Outcomes           map[string]int
	Events             int64
	Jobs               int64
	MedianSteps        int // sequential steps on the critical path (see Steps)
	MedianRounds       int
	MedianChannels     int // channels per negotiation tree (sub-negotiations included)
	MedianCandidates   int
	// Latency is the options' model latency; Trees are the trees in the
	// order they ended (kept only with a latency).
	Latency time.Duration
	Trees   []TreeTiming
}

// Negotiate runs N negotiations, Concurrency at a time, through a started
// engine, and measures them. The engine should use an LLM without latency
// (the builtin brain) so that the figures are the orchestration's own.
func Negotiate(ctx context.Context, a *app.App, pool *pgxpool.Pool, opts NegotiateOptions, progress io.Writer) (NegotiateResult, error) {
	if opts.N <= 0 {
		opts.N = 200
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 8
	}
	if opts.Timeout <= 0 {
		opts.Timeout = max(60*time.Second, 60*opts.Latency)
	}
	store := a.Store
	notifier := eventstore.NewNotifier(pool.Config().ConnConfig, nil)
	nctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = notifier.Run(nctx) }()
	<-notifier.Ready()

	// One subscription watches for endings and wakes the waiting submitter.
	var mu sync.Mutex
	waiting := map[string]chan string{} // root demand id → outcome
	ended := map[string]string{}        // endings seen before their submitter waited
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return NegotiateResult{}, err
	}
	startJobs, err := jobCount(ctx, pool)
	if err != nil {
		return NegotiateResult{}, err
	}
	go func() {
		_ = store.Subscribe(nctx, eventstore.SubscribeOptions{After: head, Notifier: notifier, Filter: eventstore.Filter{
			Types: []event.EventType{negotiation.EventNegotiationCompleted, negotiation.EventNegotiationFailed}}},
			func(_ context.Context, batch []eventstore.RecordedEvent) error {
				for _, ev := range batch {
					root := ev.Metadata.CorrelationID
					p, err := ev.Decode()
					if err != nil {
						continue
					}
					outcome := ""
					switch x := p.(type) {
					case *negotiation.NegotiationCompleted:
						if x.ChannelID == negotiation.ChannelIDFor(root) {
							outcome = string(x.Status)
						}
					case *negotiation.NegotiationFailed:
						if x.ChannelID == "" && x.DemandID == root {
							outcome = "no_candidates"
						}
					}
					if outcome == "" {
						continue
					}
					mu.Lock()
					if ch := waiting[root]; ch != nil {
						ch <- outcome
						delete(waiting, root)
					} else {
						ended[root] = outcome
					}
					mu.Unlock()
				}
				return nil
			})
	}()

	type done struct {
		demandID, text string
		took           time.Duration
		outcome        string
		err            error
	}
	results := make(chan done, opts.N)
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range opts.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ch := make(chan string, 1)
				t0 := time.Now()
				sub, err := a.Commands.SubmitDemand(ctx, "bench", SampleDemands[i%len(SampleDemands)])
				if err == nil {
					mu.Lock()
					if outcome, ok := ended[sub.DemandID]; ok {
						ch <- outcome
						delete(ended, sub.DemandID)
					} else {
						waiting[sub.DemandID] = ch
					}
					mu.Unlock()
				}
				if err != nil {
					results <- done{err: err}
					continue
				}
				select {
				case outcome := <-ch:
					results <- done{demandID: sub.DemandID, text: SampleDemands[i%len(SampleDemands)], took: time.Since(t0), outcome: outcome}
				case <-time.After(opts.Timeout):
					results <- done{demandID: sub.DemandID, err: fmt.Errorf("negotiation %s not finished within %s", sub.DemandID, opts.Timeout)}
				case <-ctx.Done():
					results <- done{err: ctx.Err()}
				}
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range opts.N {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	res := NegotiateResult{N: opts.N, Concurrency: opts.Concurrency, Outcomes: map[string]int{}, Latency: opts.Latency}
	var took []time.Duration
	var ids []string
	var trees []TreeTiming
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
			}
			continue
		}
		took = append(took, r.took)
		ids = append(ids, r.demandID)
		trees = append(trees, TreeTiming{Demand: r.text, Took: r.took, Outcome: r.outcome})
		res.Outcomes[r.outcome]++
		if progress != nil && len(took)%max(1, opts.N/10) == 0 {
			fmt.Fprintf(progress, "  %d/%d negotiations done\n", len(took), opts.N)
		}
	}
	res.Elapsed = time.Since(start)
	if firstErr != nil {
		return res, firstErr
	}
	slices.Sort(took)
	at := func(q float64) time.Duration { return took[min(len(took)-1, int(q*float64(len(took))))] }
	res.P50, res.P95, res.P99, res.Max = at(0.5), at(0.95), at(0.99), took[len(took)-1]
	endHead, err := store.HeadPosition(ctx)
	if err != nil {
		return res, err
	}
	if res.Events, err = store.CountBetween(ctx, head, endHead); err != nil {
		return res, err
	}
	endJobs, err := jobCount(ctx, pool)
	if err != nil {
		return res, err
	}
	res.Jobs = endJobs - startJobs
	var steps, rounds, channels, cands []int
	for i, id := range ids {
		s, err := Steps(ctx, store, id)
		if err != nil {
			return res, err
		}
		steps, rounds, channels, cands = append(steps, s.Sequential), append(rounds, s.Rounds), append(channels, s.Channels), append(cands, s.Candidates)
		trees[i].CriticalCalls = s.CriticalCalls
	}
	if opts.Latency > 0 {
		res.Trees = trees
	}
	res.MedianSteps, res.MedianRounds, res.MedianChannels, res.MedianCandidates = median(steps), median(rounds), median(channels), median(cands)
	return res, nil
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Ints(s)
	return s[len(s)/2]
}

func jobCount(ctx context.Context, pool *pgxpool.Pool) (int64, error) {
	var n int64
	// River's own table; counting it is an operations query outside the
	// ToWow schema, so it is not in queries/.
	err := pool.QueryRow(ctx, "SELECT count(*) FROM river_job").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count jobs: %w", err)
	}
	return n, nil
}

// StepStats describe one negotiation tree.
type StepStats struct {
	// Sequential counts the steps (jobs) whose events the tree holds: the
	// steps run one after another, and the twins of a stage answer inside
	// one job.
	Sequential int
	Rounds     int // rounds of the root channel
	Channels   int
	Candidates int // invited to the root channel
	// CriticalCalls is the least number of model calls one after another
	// that the tree's dependency graph allows (CriticalCalls).
	CriticalCalls int
}

// Steps computes StepStats from a negotiation tree's events.
func Steps(ctx context.Context, store *eventstore.Store, rootDemandID string) (StepStats, error) {
	evs, err := store.ReadAll(ctx, 0, eventstore.Filter{CorrelationID: rootDemandID}, eventstore.MaxReadLimit)
	if err != nil {
		return StepStats{}, err
	}
	var s StepStats
	seen := map[string]bool{}
	for _, ev := range evs {
		cause := ev.Metadata.CausationID
		if cause != "" && !seen[cause] {
			seen[cause] = true
			s.Sequential++
		}
		switch ev.Type {
		case negotiation.EventChannelCreated:
			s.Channels++
			if ev.StreamID == negotiation.ChannelStream(negotiation.ChannelIDFor(rootDemandID)) {
				p, _ := ev.Decode()
				if c, ok := p.(*negotiation.ChannelCreated); ok {
					s.Candidates = len(c.InvitedAgents)
				}
			}
		case negotiation.EventNegotiationRoundStarted:
			if ev.StreamID == negotiation.ChannelStream(negotiation.ChannelIDFor(rootDemandID)) {
				s.Rounds++
			}
		}
	}
	s.CriticalCalls = CriticalCalls(evs, negotiation.ChannelIDFor(rootDemandID))
	return s, nil
}

// WriteNegotiate prints a run's figures.
func WriteNegotiate(w io.Writer, r NegotiateResult) error {
	secs := r.Elapsed.Seconds()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "negotiations\t%d (%d at a time) in %.1fs\n", r.N, r.Concurrency, secs)
	fmt.Fprintf(tw, "submit → terminal\tp50 %s  p95 %s  p99 %s  max %s\n", fmtDur(r.P50), fmtDur(r.P95), fmtDur(r.P99), fmtDur(r.Max))
	fmt.Fprintf(tw, "throughput\t%.1f negotiations/s  %.0f events/s  %.0f jobs/s\n", float64(r.N)/secs, float64(r.Events)/secs, float64(r.Jobs)/secs)
	fmt.Fprintf(tw, "per negotiation (median)\t%d sequential steps, %d rounds, %d channels, %d candidates\n",
		r.MedianSteps, r.MedianRounds, r.MedianChannels, r.MedianCandidates)
	var outs []string
	for k, v := range r.Outcomes {
		outs = append(outs, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(outs)
	fmt.Fprintf(tw, "outcomes\t%s\n", strings.Join(outs, ", "))
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Latency <= 0 || len(r.Trees) == 0 {
		return nil
	}
	// Per tree: wall time in model latencies against the least the
	// dependency graph allows; the difference is the engine's own time.
	fmt.Fprintf(w, "\ntime to agreement at %.1fs a model call (wall time ÷ latency = latencies on the critical path; the dependency graph's least):\n", r.Latency.Seconds())
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "demand\toutcome\ttime\tlatencies\tleast\tleast time")
	for _, t := range r.Trees {
		fmt.Fprintf(tw, "%s\t%s\t%.1fs\t%.1f\t%d\t%.1fs\n", negotiation.ClipText(t.Demand, 24), t.Outcome, t.Took.Seconds(),
			t.Took.Seconds()/r.Latency.Seconds(), t.CriticalCalls, float64(t.CriticalCalls)*r.Latency.Seconds())
	}
	return tw.Flush()
}
