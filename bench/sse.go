package bench

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// SSEOptions configures SSE.
type SSEOptions struct {
	Clients      int // live SSE clients (default 1000)
	Negotiations int // negotiations run while they listen (default 16)
	Concurrency  int // negotiations in flight at once (default 8)
	// Timeout bounds the wait for every client to receive every event
	// (default 2 minutes).
	Timeout time.Duration
	// Reader is how the clients read their streams: ReaderPoll (default
	// where available) or ReaderHTTP.
	Reader string
	// Token is the bearer token the clients send: the admin token (the
	// all-events stream is the operator's).
	Token string
	// IdleArgv, when set, is the command line of a child process that
	// holds Clients idle followers (`towow bench sse-clients`, with the
	// stream's URL appended as -url; it is given Token): the run first
	// measures what idle followers cost this process (MeasureIdle).
	IdleArgv []string
}

// The clients' readers.
const (
	// ReaderPoll reads every stream from raw sockets in a few epoll loops
	// (Linux only): a light load generator, so the figures are the
	// server's rather than the clients'.
	ReaderPoll = "poll"
	// ReaderHTTP reads each stream with Go's net/http client on a
	// goroutine of its own, as a Go program following a stream would.
	ReaderHTTP = "http"
)

// SSEResult holds the figures of a run.
type SSEResult struct {
	Clients, Negotiations int
	// PerNegotiation is how many clients watched each negotiation's own
	// stream (SSENegotiations); 0 when every client followed every event.
	PerNegotiation int
	Events         int64 // events appended while the clients listened
	Delivered      int64 // event deliveries counted by the clients
	// Expected is how many deliveries the log holds for the clients: each
	// client's events up to the last it read (none lost, none twice).
	Expected      int64
	P50, P99, Max time.Duration
	// Idle is what Clients idle followers cost the server, measured
	// before the run (zero without SSEOptions.IdleArgv).
	Idle    IdleMemory
	Elapsed time.Duration
}

// idleURL is a stream that stays idle: a type no event has.
func idleURL(baseURL string) string { return baseURL + "/api/v1/events/stream?type=towow.bench.none" }

// measureIdle runs MeasureIdle when opts asks for it.
func measureIdle(ctx context.Context, baseURL string, opts SSEOptions, n int, progress io.Writer) (IdleMemory, error) {
	if len(opts.IdleArgv) == 0 {
		return IdleMemory{}, nil
	}
	argv := append(slices.Clip(opts.IdleArgv), "-url", idleURL(baseURL))
	m, err := MeasureIdle(ctx, argv, opts.Token, n, opts.Timeout)
	if err != nil {
		return m, err
	}
	if progress != nil {
		fmt.Fprintf(progress, "  %d idle followers: RSS %s → %s (%.1f KiB each), %s %s after they left; goroutines %d → %d → %d\n",
			n, mib(m.RSSBefore), mib(m.RSSWith), m.PerClient()/1024, mib(m.RSSAfter), idleSettle, m.GoroutinesBefore, m.GoroutinesWith, m.GoroutinesAfter)
	}
	return m, nil
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// SSE connects Clients to baseURL's all-events stream, runs Negotiations
// through the started engine while they listen, and measures how long each
// event takes from its insert (recorded_at, the database clock at append)
// to each client reading it. The server is this process's (api.Server on
// baseURL), so the memory figure counts both ends of each connection.
func SSE(ctx context.Context, a *app.App, pool *pgxpool.Pool, baseURL string, opts SSEOptions, progress io.Writer) (SSEResult, error) {
	opts.Clients = cmp.Or(opts.Clients, 1000)
	opts.Negotiations = cmp.Or(opts.Negotiations, 16)
	opts.Concurrency = cmp.Or(opts.Concurrency, 8)
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Minute
	}
	res := SSEResult{Clients: opts.Clients, Negotiations: opts.Negotiations}
	head, err := a.Store.HeadPosition(ctx)
	if err != nil {
		return res, err
	}
	rd, err := newReader(opts.Reader, opts.Clients, opts.Token)
	if err != nil {
		return res, err
	}
	defer rd.close()
	if res.Idle, err = measureIdle(ctx, baseURL, opts, opts.Clients, progress); err != nil {
		return res, err
	}
	fl, err := connect(ctx, rd, fmt.Sprintf("%s/api/v1/events/stream?last_event_id=%d", baseURL, head), opts.Clients, &stamps{}, opts.Timeout)
	if err != nil {
		return res, err
	}
	defer fl.close()
	if progress != nil {
		fmt.Fprintf(progress, "  %d clients connected\n", opts.Clients)
	}
	clients, errs := fl.clients, fl.errs

	start := time.Now()
	if _, err := Negotiate(ctx, a, pool, NegotiateOptions{N: opts.Negotiations, Concurrency: opts.Concurrency}, nil); err != nil {
		return res, err
	}
	end, err := a.Store.HeadPosition(ctx)
	if err != nil {
		return res, err
	}
	if res.Events, err = a.Store.CountBetween(ctx, head, end); err != nil {
		return res, err
	}
	deadline := time.Now().Add(opts.Timeout)
	for _, c := range clients {
		for c.last.Load() < end {
			select {
			case err := <-errs:
				return res, fmt.Errorf("sse client: %w", err)
			default:
			}
			if time.Now().After(deadline) {
				return res, fmt.Errorf("a client reached cursor %d of %d within %s", c.last.Load(), end, opts.Timeout)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	res.Elapsed = time.Since(start)
	fl.close()
	// Events committed after the negotiations ended (a notice, say) may
	// have reached some clients before they closed: each client is owed
	// the log's events up to the last it read.
	owed := map[int64]int64{}
	for _, c := range clients {
		last := c.last.Load()
		if _, ok := owed[last]; !ok {
			if owed[last], err = a.Store.CountBetween(ctx, head, last); err != nil {
				return res, err
			}
		}
		res.Expected += owed[last]
	}
	return res, res.summarize(clients)
}

// fleet is a set of clients following one stream.
type fleet struct {
	clients []*sseClient
	errs    chan error // the clients' failures
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// connect opens n clients on url and waits until each has received the
// stream's opening line.
func connect(ctx context.Context, rd reader, url string, n int, shared *stamps, timeout time.Duration) (*fleet, error) {
	cctx, cancel := context.WithCancel(ctx)
	fl := &fleet{clients: make([]*sseClient, n), errs: make(chan error, n), cancel: cancel}
	var connected sync.WaitGroup
	for i := range fl.clients {
		c := &sseClient{stamps: shared, connected: sync.OnceFunc(connected.Done)}
		fl.clients[i] = c
		connected.Add(1)
		fl.wg.Add(1)
		go func() {
			defer fl.wg.Done()
			defer c.connected() // also when it failed to connect
			if err := rd.read(cctx, url, c); err != nil && cctx.Err() == nil {
				fl.errs <- err
			}
		}()
	}
	waitCh := make(chan struct{})
	go func() { connected.Wait(); close(waitCh) }()
	select {
	case <-waitCh:
		select { // a client that failed also counted as connected
		case err := <-fl.errs:
			fl.close()
			return nil, fmt.Errorf("sse client: %w", err)
		default:
		}
	case err := <-fl.errs:
		fl.close()
		return nil, fmt.Errorf("sse client: %w", err)
	case <-time.After(timeout):
		fl.close()
		return nil, fmt.Errorf("%d clients not connected within %s", n, timeout)
	}
	return fl, nil
}

// close disconnects the clients and waits for their readers to return.
func (fl *fleet) close() {
	fl.cancel()
	fl.wg.Wait()
}

// summarize fills the delivery count and latency quantiles.
func (res *SSEResult) summarize(clients []*sseClient) error {
	var all []time.Duration
	for _, c := range clients {
		all = append(all, c.lat...)
		res.Delivered += int64(c.delivered)
	}
	if len(all) == 0 {
		return fmt.Errorf("no event was delivered")
	}
	slices.Sort(all)
	at := func(q float64) time.Duration { return all[min(len(all)-1, int(q*float64(len(all))))] }
	res.P50, res.P99, res.Max = at(0.50), at(0.99), all[len(all)-1]
	return nil
}

// SSENegotiations runs Negotiations, Concurrency at a time, each watched
// by Clients/Concurrency clients on its own negotiation stream (so about
// Clients are connected while the run is in full flow): the frontend's
// case. Each client connects right after its demand is submitted, resumes
// from the cursor before the submission (nothing is missed), and stops at
// the root's completion; latency counts the events recorded after it
// connected.
func SSENegotiations(ctx context.Context, a *app.App, baseURL string, opts SSEOptions, progress io.Writer) (SSEResult, error) {
	opts.Clients = cmp.Or(opts.Clients, 1000)
	opts.Negotiations = cmp.Or(opts.Negotiations, 16)
	opts.Concurrency = cmp.Or(opts.Concurrency, 8)
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Minute
	}
	per := max(1, opts.Clients/opts.Concurrency)
	res := SSEResult{Clients: per * opts.Concurrency, Negotiations: opts.Negotiations, PerNegotiation: per}
	rd, err := newReader(opts.Reader, opts.Clients, opts.Token)
	if err != nil {
		return res, err
	}
	defer rd.close()
	if res.Idle, err = measureIdle(ctx, baseURL, opts, res.Clients, progress); err != nil {
		return res, err
	}
	shared := &stamps{}
	var mu sync.Mutex
	var clients []*sseClient
	var firstErr error
	start := time.Now()
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range opts.Negotiations {
			next <- i
		}
	}()
	var wg sync.WaitGroup
	for range opts.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				watched, events, err := watchOne(ctx, a, rd, baseURL, SampleDemands[i%len(SampleDemands)], per, shared, opts.Timeout)
				mu.Lock()
				clients = append(clients, watched...)
				res.Events += int64(events)
				res.Expected += int64(events) * int64(len(watched)) // each watcher checked it got the whole tree
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				if progress != nil && (i+1)%max(1, opts.Negotiations/5) == 0 {
					fmt.Fprintf(progress, "  %d/%d negotiations watched\n", i+1, opts.Negotiations)
				}
			}
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	if firstErr != nil {
		return res, firstErr
	}
	return res, res.summarize(clients)
}

// watchOne submits one demand and follows it with n clients until the
// root completes, checking that each received the whole tree; it returns
// the clients and the tree's event count.
func watchOne(ctx context.Context, a *app.App, rd reader, baseURL, text string, n int, shared *stamps,
	timeout time.Duration) ([]*sseClient, int, error) {
	head, err := a.Store.HeadPosition(ctx)
	if err != nil {
		return nil, 0, err
	}
	sub, err := a.Commands.SubmitDemand(ctx, "bench", text)
	if err != nil {
		return nil, 0, err
	}
	root := []byte(`"channel_id":"` + negotiation.ChannelIDFor(sub.DemandID) + `"`)
	stop := func(typ string, data []byte) bool {
		switch event.EventType(typ) {
		case negotiation.EventNegotiationCompleted:
			return bytes.Contains(data, root)
		case negotiation.EventNegotiationFailed:
			return bytes.Contains(data, []byte(`"channel_id":""`)) || !bytes.Contains(data, []byte(`"channel_id"`))
		}
		return false
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := fmt.Sprintf("%s/api/v1/events/negotiations/%s/stream?last_event_id=%d", baseURL, sub.DemandID, head)
	clients := make([]*sseClient, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range clients {
		c := &sseClient{stamps: shared, live: true, stop: stop, connected: func() {}}
		clients[i] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := rd.read(wctx, url, c); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, 0, fmt.Errorf("watch %s: %w", sub.DemandID, err)
	}
	tree, err := a.Store.ReadAll(ctx, head, eventstore.Filter{CorrelationID: sub.DemandID, UntilPosition: clients[0].last.Load()}, eventstore.MaxReadLimit)
	if err != nil {
		return nil, 0, err
	}
	for _, c := range clients {
		if c.delivered != len(tree) {
			return nil, 0, fmt.Errorf("watch %s: a client got %d events, the tree has %d", sub.DemandID, c.delivered, len(tree))
		}
	}
	return clients, len(tree), nil
}

// WriteSSE prints an SSE run's figures.
func WriteSSE(w io.Writer, r SSEResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "clients\tnegotiations\tevents\tdeliveries\tdeliveries/s\tp50\tp99\tmax\tRSS/idle follower\telapsed\n")
	mem := "-"
	if r.Idle.Clients > 0 {
		mem = fmt.Sprintf("%.1f KiB", r.Idle.PerClient()/1024)
	}
	fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.0f\t%s\t%s\t%s\t%s\t%s\n", r.Clients, r.Negotiations, r.Events, r.Delivered,
		float64(r.Delivered)/r.Elapsed.Seconds(), r.P50.Round(10*time.Microsecond), r.P99.Round(10*time.Microsecond), r.Max.Round(10*time.Microsecond),
		mem, r.Elapsed.Round(time.Millisecond))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "latency: recorded_at (database clock at insert) → the client read the event's data line; p99 target ≤ 25 ms")
	if m := r.Idle; m.Clients > 0 {
		fmt.Fprintf(w, "memory: the server's RSS %s with no follower, %s with %d idle followers over TCP from another process (%.1f KiB each, target ≤ 64 KiB), %s %s after they left\n",
			mib(m.RSSBefore), mib(m.RSSWith), m.Clients, m.PerClient()/1024, mib(m.RSSAfter), idleSettle)
	}
	watchers := r.Clients
	if r.PerNegotiation > 0 {
		watchers = r.PerNegotiation
		fmt.Fprintf(w, "each negotiation watched by %d clients on its own stream; latency counts events recorded after a client connected\n", r.PerNegotiation)
	}
	if r.Delivered != r.Expected {
		return fmt.Errorf("deliveries %d, want %d (each watcher's events up to the last it read; %d events × %d watchers)",
			r.Delivered, r.Expected, r.Events, watchers)
	}
	return nil
}

// sseClient follows one stream and records each event's delivery latency.
type sseClient struct {
	last   atomic.Int64 // highest cursor read
	lat    []time.Duration
	stamps *stamps
	// live, when set, counts latency only for events recorded after the
	// client connected (the backlog it caught up on is not a delivery
	// delay); delivered counts every event either way.
	live      bool
	since     time.Time
	delivered int
	// stop, when set, ends the stream after the event it accepts.
	stop func(eventType string, data []byte) bool
	// connected is called once the stream's first line arrived.
	connected func()
	// The reader's parse state.
	started bool
	id      int64
	evType  string
}

// stamps caches each event's parsed timestamp, shared by the clients, so
// the bench's own parsing weighs little on the machine it measures.
type stamps struct{ m sync.Map } // cursor → time.Time

func (s *stamps) recordedAt(id int64, data []byte) (time.Time, error) {
	if t, ok := s.m.Load(id); ok {
		return t.(time.Time), nil
	}
	i := bytes.Index(data, tsKey)
	if i < 0 {
		return time.Time{}, fmt.Errorf("event %d without timestamp", id)
	}
	rest := data[i+len(tsKey):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return time.Time{}, fmt.Errorf("event %d: unterminated timestamp", id)
	}
	t, err := time.Parse(time.RFC3339Nano, string(rest[:j]))
	if err != nil {
		return time.Time{}, fmt.Errorf("event %d timestamp: %w", id, err)
	}
	s.m.Store(id, t)
	return t, nil
}

var (
	idPrefix   = []byte("id: ")
	evPrefix   = []byte("event: ")
	dataPrefix = []byte("data: ")
	tsKey      = []byte(`"timestamp":"`)
)

// streamEndEvent is the `event:` name of the API's terminal frame: a
// negotiation's stream sends it once the tree has ended, then closes.
const streamEndEvent = "towow.stream.end"

// line handles one line of the stream read at now; done reports that
// the client's stop condition was met.
func (c *sseClient) line(line []byte, now time.Time) (done bool, err error) {
	if !c.started {
		c.started = true
		c.since = now
		c.connected() // the server's opening comment: subscribed
	}
	switch {
	case bytes.HasPrefix(line, idPrefix):
		if c.id, err = strconv.ParseInt(string(line[len(idPrefix):]), 10, 64); err != nil {
			return false, fmt.Errorf("bad id line %q", line)
		}
	case bytes.HasPrefix(line, dataPrefix):
		if c.evType == streamEndEvent { // what the stream follows has ended: nothing comes after it
			return true, nil
		}
		ts, err := c.stamps.recordedAt(c.id, line)
		if err != nil {
			return false, err
		}
		c.delivered++
		if !c.live || !ts.Before(c.since) {
			c.lat = append(c.lat, now.Sub(ts))
		}
		c.last.Store(c.id)
		return c.stop != nil && c.stop(c.evType, line), nil
	case bytes.HasPrefix(line, evPrefix):
		c.evType = string(line[len(evPrefix):])
	}
	return false, nil
}
