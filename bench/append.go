// Package bench measures the event store on a real database: append
// throughput for single events and batches, conflicts on a contended stream,
// and the lag from commit to subscriber delivery. `towow bench append` prints
// its report.
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// AppendOptions configures Append.
type AppendOptions struct {
	Writers   []int         // concurrent writer counts, default 1, 4, 16
	Duration  time.Duration // per scenario and writer count, default 2s
	BatchSize int           // events per batch append, default 100
}

// Result is one scenario at one writer count.
type Result struct {
	Scenario  string // "single", "batch" or "contended"
	Writers   int
	Elapsed   time.Duration
	Commits   int64
	Events    int64
	Conflicts int64
	// Lag is commit → subscriber delivery, sampled by a probe that commits
	// one event every 5 ms while the writers run (timed from just before
	// its COMMIT is sent, so it includes the commit itself).
	LagP50, LagP99, LagMax time.Duration
	LagSamples             int
}

// CommitsPerSec, EventsPerSec and ConflictsPerSec are rates over Elapsed.
func (r Result) CommitsPerSec() float64   { return float64(r.Commits) / r.Elapsed.Seconds() }
func (r Result) EventsPerSec() float64    { return float64(r.Events) / r.Elapsed.Seconds() }
func (r Result) ConflictsPerSec() float64 { return float64(r.Conflicts) / r.Elapsed.Seconds() }

// payload is a realistic ~250-byte event body.
var payload = []byte(`{"channel_id":"ch-0b7e","agent_id":"agent-42","decision":"participate","contribution":"可以提供北京朝阳区的场地，容纳50人","conditions":["需要提前一周确认"],"reasoning":"matches venue capability","confidence":"high"}`)

// Append runs every scenario against the (scratch) database behind pool and
// returns the results. progress receives one line per finished run.
func Append(ctx context.Context, pool *pgxpool.Pool, opts AppendOptions, progress io.Writer) ([]Result, error) {
	if len(opts.Writers) == 0 {
		opts.Writers = []int{1, 4, 16}
	}
	if opts.Duration <= 0 {
		opts.Duration = 2 * time.Second
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = 100
	}
	store := eventstore.New(pool, eventstore.Options{})
	notifier := eventstore.NewNotifier(pool.Config().ConnConfig, nil)
	nctx, stopNotifier := context.WithCancel(ctx)
	defer stopNotifier()
	go func() { _ = notifier.Run(nctx) }()
	select {
	case <-notifier.Ready():
	case <-time.After(10 * time.Second):
		return nil, errors.New("bench: listener did not start")
	}
	lag := newLagMeter()
	sub := make(chan error, 1)
	go func() {
		head, _ := store.HeadPosition(nctx)
		sub <- store.Subscribe(nctx, eventstore.SubscribeOptions{After: head, Notifier: notifier},
			func(_ context.Context, batch []eventstore.RecordedEvent) error {
				now := time.Now()
				for _, e := range batch {
					lag.delivered(e.Position, now)
				}
				return nil
			})
	}()

	var results []Result
	run := 0
	for _, scenario := range []string{"single", "batch", "contended"} {
		for _, w := range opts.Writers {
			run++
			lag.reset()
			r, err := runScenario(ctx, store, pool, scenario, w, run, opts, lag)
			if err != nil {
				return results, err
			}
			// Let the subscriber drain before reading the lag figures.
			head, err := store.HeadPosition(ctx)
			if err != nil {
				return results, err
			}
			if err := lag.waitDelivered(ctx, head, 10*time.Second); err != nil {
				return results, err
			}
			r.LagP50, r.LagP99, r.LagMax, r.LagSamples = lag.percentiles()
			results = append(results, r)
			if progress != nil {
				fmt.Fprintf(progress, "  %-9s %2d writers: %8.0f commits/s %9.0f events/s\n", scenario, w, r.CommitsPerSec(), r.EventsPerSec())
			}
		}
	}
	stopNotifier()
	if err := <-sub; err != nil && !errors.Is(err, context.Canceled) {
		return results, fmt.Errorf("bench subscriber: %w", err)
	}
	return results, nil
}

func runScenario(ctx context.Context, store *eventstore.Store, pool *pgxpool.Pool, scenario string, writers, run int,
	opts AppendOptions, lag *lagMeter) (Result, error) {
	r := Result{Scenario: scenario, Writers: writers}
	var commits, events, conflicts atomic.Int64
	deadline := time.Now().Add(opts.Duration)
	var wg sync.WaitGroup
	errc := make(chan error, writers+1)
	start := time.Now()
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := probe(ctx, store, pool, fmt.Sprintf("bench-%d-probe", run), deadline, lag); err != nil {
			errc <- err
		}
	}()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream := fmt.Sprintf("bench-%d-%s-%d", run, scenario, w)
			if scenario == "contended" {
				stream = fmt.Sprintf("bench-%d-contended", run)
			}
			n := 1
			if scenario == "batch" {
				n = opts.BatchSize
			}
			var version int64
			for time.Now().Before(deadline) {
				if scenario == "contended" {
					v, err := store.StreamVersion(ctx, stream)
					if err != nil {
						errc <- err
						return
					}
					version = v
				}
				err := appendOnce(ctx, store, pool, stream, version, n, lag)
				var conflict *eventstore.VersionConflictError
				switch {
				case errors.As(err, &conflict):
					conflicts.Add(1)
					continue
				case err != nil:
					errc <- err
					return
				}
				version += int64(n)
				commits.Add(1)
				events.Add(int64(n))
			}
		}()
	}
	wg.Wait()
	r.Elapsed = time.Since(start)
	close(errc)
	if err := <-errc; err != nil {
		return r, fmt.Errorf("bench %s with %d writers: %w", scenario, writers, err)
	}
	r.Commits, r.Events, r.Conflicts = commits.Load(), events.Load(), conflicts.Load()
	return r, nil
}

func appendOnce(ctx context.Context, store *eventstore.Store, _ *pgxpool.Pool, stream string, version int64, n int, lag *lagMeter) error {
	evs := make([]eventstore.EventData, n)
	for i := range evs {
		evs[i] = eventstore.EventData{ID: uuid.Must(uuid.NewV7()), Type: negotiation.EventOfferSubmitted, Payload: payload,
			Metadata: event.Metadata{CorrelationID: "bench", Actor: "bench"}}
	}
	// Store.Append is one autocommit statement (one round trip).
	_, err := store.Append(ctx, stream, eventstore.ExpectedVersion(version), evs...)
	return err
}

// probe appends one event every probeEvery in an explicit transaction and
// times it from just before COMMIT: the lag a subscriber sees for an event
// committed while the writers run.
func probe(ctx context.Context, store *eventstore.Store, pool *pgxpool.Pool, stream string, until time.Time, lag *lagMeter) error {
	for time.Now().Before(until) {
		tx, err := pool.Begin(ctx)
		if err != nil {
			return err
		}
		ev := eventstore.EventData{ID: uuid.Must(uuid.NewV7()), Type: negotiation.EventOfferSubmitted, Payload: payload,
			Metadata: event.Metadata{CorrelationID: "bench-probe", Actor: "bench"}}
		res, err := store.AppendTx(ctx, tx, stream, eventstore.AnyVersion, ev)
		if err != nil {
			_ = tx.Rollback(ctx)
			return err
		}
		lag.record(res.LastPosition, time.Now())
		if err := tx.Commit(ctx); err != nil {
			return err
		}
		store.Committed()
		time.Sleep(probeEvery)
	}
	return nil
}

const probeEvery = 5 * time.Millisecond

// Write prints results as a table.
func Write(w io.Writer, results []Result, batchSize int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\twriters\tcommits/s\tevents/s\tconflicts/s\tlag p50\tlag p99\tlag max\t")
	for _, r := range results {
		name := r.Scenario
		if name == "batch" {
			name = fmt.Sprintf("batch of %d", batchSize)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.0f\t%s\t%s\t%s\t\n", name, r.Writers, r.CommitsPerSec(), r.EventsPerSec(),
			r.ConflictsPerSec(), fmtDur(r.LagP50), fmtDur(r.LagP99), fmtDur(r.LagMax))
	}
	return tw.Flush()
}

func fmtDur(d time.Duration) string {
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

// lagMeter pairs "about to commit position P" with "subscriber got P".
type lagMeter struct {
	mu        sync.Mutex
	pending   map[int64]time.Time
	early     map[int64]time.Time
	samples   []time.Duration
	lastSeen  int64
	lastSeenC chan struct{}
}

func newLagMeter() *lagMeter {
	return &lagMeter{pending: map[int64]time.Time{}, early: map[int64]time.Time{}, lastSeenC: make(chan struct{}, 1)}
}

func (l *lagMeter) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.samples = l.samples[:0]
}

// record notes when the append of position pos started; the subscriber
// may have delivered it already (then the lag is taken now).
func (l *lagMeter) record(pos int64, start time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if at, ok := l.early[pos]; ok {
		l.samples = append(l.samples, at.Sub(start))
		delete(l.early, pos)
		return
	}
	l.pending[pos] = start
}

func (l *lagMeter) delivered(pos int64, now time.Time) {
	l.mu.Lock()
	if t, ok := l.pending[pos]; ok {
		l.samples = append(l.samples, now.Sub(t))
		delete(l.pending, pos)
	} else if len(l.early) < 1<<16 {
		l.early[pos] = now // delivered before the writer recorded it
	}
	l.lastSeen = pos
	l.mu.Unlock()
	select {
	case l.lastSeenC <- struct{}{}:
	default:
	}
}

func (l *lagMeter) waitDelivered(ctx context.Context, pos int64, within time.Duration) error {
	deadline := time.After(within)
	for {
		l.mu.Lock()
		seen := l.lastSeen
		l.mu.Unlock()
		if seen >= pos {
			return nil
		}
		select {
		case <-l.lastSeenC:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			return fmt.Errorf("bench: subscriber stuck at position %d, head is %d", seen, pos)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (l *lagMeter) percentiles() (p50, p99, maxLag time.Duration, n int) {
	l.mu.Lock()
	s := slices.Clone(l.samples)
	l.mu.Unlock()
	if len(s) == 0 {
		return 0, 0, 0, 0
	}
	return percentile(s, 0.50), percentile(s, 0.99), slices.Max(s), len(s)
}

// percentile returns the q-quantile of s (0 for none), leaving s as is.
func percentile(s []time.Duration, q float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	s = slices.Clone(s)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}
