package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/bench"
	"github.com/towow/towow/internal/llmfault"
	"github.com/towow/towow/projections"
)

func cmdBench(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "negotiate" {
		return cmdBenchNegotiate(ctx, cfg, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "sse" {
		return cmdBenchSSE(ctx, cfg, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "sse-clients" {
		return cmdBenchSSEClients(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "rebuild" {
		return cmdBenchRebuild(ctx, cfg, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "soak" {
		return cmdBenchSoak(ctx, cfg, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "filter" {
		return cmdBenchFilter(ctx, cfg, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "fork" {
		return cmdBenchFork(ctx, cfg, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "faults" {
		return cmdBenchFaults(ctx, cfg, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "scale" {
		return cmdBenchScale(ctx, cfg, args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "append" {
		return fmt.Errorf("%w: towow bench append [--writers 1,4,16] [--duration 2s] [--batch 100] | towow bench negotiate [-n 200] [-c 8] [-llm-latency 2s] [-cpuprofile FILE] [-memprofile FILE] | towow bench sse [-clients 1000] [-n 16] [-c 8] [-follow demand|all] [-llm-latency 1s] [-reader poll|http] [-per-client] [-idle=false] [-cpuprofile FILE] [-mutexprofile FILE] | towow bench sse-clients -url URL [-n 1000] | towow bench rebuild [-n 200] | towow bench soak [-n 1000] [-every 100] [-c 8] | towow bench filter [-sizes 100,1000,10000,100000] [-reps 20] | towow bench fork [-n 50] [-c 4] | towow bench scale [-sizes 100000,1000000] [-templates 12] [-forks 2] [-repeat 20]", errUsage)
	}
	fs := flag.NewFlagSet("bench append", flag.ContinueOnError)
	fs.SetOutput(stderr)
	writers := fs.String("writers", "1,4,16", "comma-separated concurrent writer counts")
	duration := fs.Duration("duration", 2*time.Second, "length of each scenario run")
	batch := fs.Int("batch", 100, "events per batch append")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	opts := bench.AppendOptions{Duration: *duration, BatchSize: *batch}
	for _, w := range strings.Split(*writers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 1 || n > 256 {
			return fmt.Errorf("%w: --writers %q: want numbers between 1 and 256", errUsage, *writers)
		}
		opts.Writers = append(opts.Writers, n)
	}
	if *batch < 1 || *batch > 10000 || *duration <= 0 {
		return fmt.Errorf("%w: --batch must be 1..10000 and --duration positive", errUsage)
	}

	return withScratchDB(ctx, cfg, stderr, func(pool *pgxpool.Pool, name string) error {
		fmt.Fprintf(stdout, "towow bench append: %s per run, writers %v, batches of %d, scratch database %s\n", *duration, opts.Writers, *batch, name)
		results, err := bench.Append(ctx, pool, opts, stdout)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		return bench.Write(stdout, results, *batch)
	})
}

// serveLocal serves a's API on a free port of 127.0.0.1 until stop.
func serveLocal(ctx context.Context, a *app.App) (base string, stop func(), err error) {
	sctx, cancel := context.WithCancel(ctx)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		return "", nil, fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{Handler: a.API().Handler(),
		BaseContext: func(net.Listener) context.Context { return sctx }, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close(); cancel() }, nil
}

// withScratchDB runs fn on a fresh, migrated database next to the
// configured one, dropped afterwards, so benchmarks leave the real log clean.
func withScratchDB(ctx context.Context, cfg config, stderr io.Writer, fn func(pool *pgxpool.Pool, name string) error) error {
	logger := cfg.logger(stderr)
	pool, closeDB, err := openDB(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer closeDB()
	// Database DDL takes an identifier, which cannot be a bind parameter, so
	// this SQL is not in queries/ (sqlc cannot express it).
	name := fmt.Sprintf("towow_bench_%d", time.Now().UnixNano())
	if _, err := pool.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return fmt.Errorf("create scratch database %s (the role needs CREATEDB): %w", name, err)
	}
	defer func() {
		if _, err := pool.Exec(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			logger.Error("drop scratch database", "name", name, "err", err)
		}
	}()
	pcfg := pool.Config().Copy()
	pcfg.ConnConfig.Database = name
	bpool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return fmt.Errorf("open scratch database: %w", err)
	}
	defer bpool.Close()
	if err := migrateUp(ctx, bpool, nil); err != nil {
		return err
	}
	return fn(bpool, name)
}

// startCPUProfile profiles this process into the file path until the
// returned stop is called ("" profiles nothing).
func startCPUProfile(path string) (stop func(), err error) {
	return startProfile(path, "cpuprofile", func(f *os.File) error { return pprof.StartCPUProfile(f) }, func(*os.File) { pprof.StopCPUProfile() })
}

// startMutexProfile samples lock contention (one event in five) until
// stop, which writes the profile to path; no path: nothing.
func startMutexProfile(path string) (stop func(), err error) {
	return startProfile(path, "mutexprofile",
		func(*os.File) error { runtime.SetMutexProfileFraction(5); return nil },
		func(f *os.File) { runtime.SetMutexProfileFraction(0); _ = pprof.Lookup("mutex").WriteTo(f, 0) })
}

// startMemProfile records allocations until stop, which writes the
// allocation profile (every allocation since the process started: the
// run is most of it) to path; no path: nothing.
func startMemProfile(path string) (stop func(), err error) {
	return startProfile(path, "memprofile", func(*os.File) error { return nil },
		func(f *os.File) { _ = pprof.Lookup("allocs").WriteTo(f, 0) })
}

// startProfile creates path and starts a profile into it (begin) until
// stop ends it (end) and closes the file; no path: nothing. flag names the
// profile in errors.
func startProfile(path, flag string, begin func(*os.File) error, end func(*os.File)) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	if err := begin(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return func() { end(f); f.Close() }, nil
}

func cmdBenchNegotiate(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench negotiate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 200, "negotiations to run")
	c := fs.Int("c", 8, "negotiations in flight at once")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run (this process: engine and API) to this file")
	memProfile := fs.String("memprofile", "", "write a profile of this process's allocations (what makes work for the garbage collector) to this file")
	latency := fs.Duration("llm-latency", 0, "the builtin brain answers after exactly this long, as a model would: each tree's time to agreement is printed in model latencies, beside the least its dependency graph allows; 0: at once, the engine flat out")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *n < 1 || *c < 1 || *c > 256 {
		return fmt.Errorf("%w: -n must be at least 1 and -c between 1 and 256", errUsage)
	}
	if *latency < 0 || *latency >= cfg.LLMTimeout {
		return fmt.Errorf("%w: -llm-latency must be at least 0 and under LLM_TIMEOUT (%s)", errUsage, cfg.LLMTimeout)
	}
	cfg.builtinLatency, cfg.builtinExact = *latency, true
	return withBenchApp(ctx, cfg, stderr, "bench negotiate measures orchestration", false, func(a *app.App, pool *pgxpool.Pool, name string) error {
		fmt.Fprintf(stdout, "towow bench negotiate: %d negotiations, %d at a time, builtin brain, scratch database %s\n", *n, *c, name)
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
		stopMemProfile, err := startMemProfile(*memProfile)
		if err != nil {
			return err
		}
		defer stopMemProfile()
		res, err := bench.Negotiate(ctx, a, pool, bench.NegotiateOptions{N: *n, Concurrency: *c, Latency: *latency}, stdout)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		return bench.WriteNegotiate(stdout, res)
	})
}

// cmdBenchFaults runs the fault demands through an OpenAI-compatible
// stand-in that answers as the builtin brain except for a share of
// requests that fail (llmfault), at each rate and through an outage, and
// compares how they end with a run without faults.
func cmdBenchFaults(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench faults", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rates := fs.String("rates", "0,10,30,50", "comma-separated shares of failing requests, in percent")
	outage := fs.Duration("outage", time.Minute, "a provider outage this long in a run without faults (0: none)")
	outageAfter := fs.Duration("outage-after", 500*time.Millisecond, "when the outage starts, after the demands are submitted")
	seed := fs.Uint64("seed", 1, "seed of the faults")
	hang := fs.Duration("hang", llmfault.DefaultHang, "how long a hanging request waits")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	var pcts []int
	for _, r := range strings.Split(*rates, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(r))
		if err != nil || n < 0 || n > 100 {
			return fmt.Errorf("%w: -rates %q: want percentages between 0 and 100", errUsage, *rates)
		}
		pcts = append(pcts, n)
	}
	if *outage < 0 || *outageAfter < 0 || *hang <= 0 {
		return fmt.Errorf("%w: -outage and -outage-after must be 0 or more and -hang positive", errUsage)
	}
	fmt.Fprintf(stdout, "towow bench faults: %d demands at once, through an OpenAI-compatible stand-in answering as the builtin brain; faults %v, equally likely; LLM_TIMEOUT %s, LLM_RETRY_BUDGET %s, LLM_OUTAGE_BUDGET %s\n",
		len(bench.FaultDemands), llmfault.Kinds, cfg.LLMTimeout, cfg.RetryBudget, cfg.OutageBudget)
	run := func(label string, rate float64, down time.Duration) (bench.FaultRun, map[string]bench.Ending, error) {
		srv := llmfault.New(llmfault.Config{Rate: rate, Seed: *seed, Hang: *hang})
		defer srv.Close()
		counter := &bench.CallCounter{}
		var endings map[string]bench.Ending
		fr := bench.FaultRun{Label: label}
		err := withBenchAppConfig(ctx, cfg, stderr, "bench faults", func(ac *app.Config) {
			ac.LLM.Provider, ac.LLM.OnCall, ac.LLM.OnBreakerOpen = srv.Provider(), counter.OnCall, counter.OnBreakerOpen
		}, func(a *app.App, _ *pgxpool.Pool, _ string) error {
			if down > 0 {
				go func() {
					time.Sleep(*outageAfter)
					srv.Down(true)
					time.Sleep(down)
					srv.Down(false)
				}()
			}
			var err error
			endings, fr.Took, err = bench.RunDemands(ctx, a.Commands, a.Store, bench.FaultDemands, 30*time.Minute)
			return err
		})
		fr.Calls = counter.Snapshot()
		st := srv.Stats()
		for _, n := range st.Faults {
			fr.Injected += n
		}
		fr.Injected += st.WhileDown
		fmt.Fprintf(stdout, "  %s: done in %s\n", label, fr.Took.Round(100*time.Millisecond))
		return fr, endings, err
	}
	first, clean, err := run("0 %", 0, 0)
	if err != nil {
		return err
	}
	first.Compare(clean, clean)
	runs := []bench.FaultRun{first}
	for _, p := range pcts {
		if p == 0 {
			continue
		}
		fr, got, err := run(fmt.Sprintf("%d %%", p), float64(p)/100, 0)
		if err != nil {
			return err
		}
		fr.Compare(clean, got)
		runs = append(runs, fr)
	}
	if *outage > 0 {
		fr, got, err := run(fmt.Sprintf("%s outage", *outage), 0, *outage)
		if err != nil {
			return err
		}
		fr.Compare(clean, got)
		runs = append(runs, fr)
	}
	fmt.Fprintln(stdout)
	return bench.WriteFaults(stdout, runs)
}

func cmdBenchFork(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench fork", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 50, "negotiations of three rounds or more to fork")
	c := fs.Int("c", 4, "negotiations in flight at once")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *n < 1 || *c < 1 || *c > 64 {
		return fmt.Errorf("%w: -n must be at least 1 and -c between 1 and 64", errUsage)
	}
	return withBenchApp(ctx, cfg, stderr, "bench fork measures what a fork reuses", false, func(a *app.App, _ *pgxpool.Pool, name string) error {
		fmt.Fprintf(stdout, "towow bench fork: %d negotiations of three rounds or more, each forked at round 2 without one of its first proposal's assignees, %d at a time, builtin brain, scratch database %s\n", *n, *c, name)
		res, err := bench.Fork(ctx, a, bench.ForkOptions{N: *n, Concurrency: *c}, stdout)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		return bench.WriteFork(stdout, res)
	})
}

// cmdBenchSSEClients holds idle SSE followers for `bench sse` (which runs
// it in a child process, so that the server's memory is measured alone);
// the bearer token comes on the first line of standard input.
func cmdBenchSSEClients(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench sse-clients", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "", "the stream the followers open")
	n := fs.Int("n", 1000, "idle followers")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *url == "" || *n < 1 || *n > 10000 {
		return fmt.Errorf("%w: -url is required and -n must be 1..10000", errUsage)
	}
	return bench.HoldIdle(ctx, *url, *n, 2*time.Minute, os.Stdin, stdout)
}

func cmdBenchSSE(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench sse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	clients := fs.Int("clients", 1000, "live SSE clients")
	n := fs.Int("n", 16, "negotiations run while they listen")
	c := fs.Int("c", 8, "negotiations in flight at once")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	mutexProfile := fs.String("mutexprofile", "", "write a profile of the run's lock contention (who waited on which lock, and how long) to this file")
	follow := fs.String("follow", "demand", "what each client follows: demand (a live negotiation's stream, as the frontend does: -clients/-c clients per negotiation) or all (every event)")
	perClient := fs.Bool("per-client", false, "without the shared event hub: each client reads the database on every commit (for comparison)")
	readerKind := fs.String("reader", "", "how the clients read: poll (raw sockets in one epoll loop per core; Linux, the default there) or http (Go's net/http client, a goroutine per client)")
	latency := fs.Duration("llm-latency", time.Second, "the builtin brain answers after about this long (each wait 0.5x-1.5x), as a model would; 0: at once, the engine flat out")
	idle := fs.Bool("idle", true, "first measure the server's memory (RSS) with -clients idle followers, held by a child process over TCP (Linux)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	// The longest simulated wait (1.5x) must end before a call times out.
	if *latency < 0 || *latency*3/2 >= cfg.LLMTimeout {
		return fmt.Errorf("%w: -llm-latency must be at least 0 and under 2/3 of LLM_TIMEOUT (%s)", errUsage, cfg.LLMTimeout)
	}
	cfg.builtinLatency = *latency
	if *clients < 1 || *clients > 10000 || *n < 1 || *c < 1 || *c > 256 {
		return fmt.Errorf("%w: -clients must be 1..10000, -n at least 1 and -c 1..256", errUsage)
	}
	if *follow != "all" && *follow != "demand" {
		return fmt.Errorf("%w: -follow must be all or demand", errUsage)
	}
	if *readerKind != "" && *readerKind != bench.ReaderPoll && *readerKind != bench.ReaderHTTP {
		return fmt.Errorf("%w: -reader must be poll or http", errUsage)
	}
	if cfg.AdminToken == "" { // the clients follow the operator's all-events stream
		t, err := randomAdminToken()
		if err != nil {
			return err
		}
		cfg.AdminToken = t
	}
	return withBenchApp(ctx, cfg, stderr, "bench sse measures delivery", !*perClient, func(a *app.App, pool *pgxpool.Pool, name string) error {
		base, stop, err := serveLocal(ctx, a)
		if err != nil {
			return err
		}
		defer stop()
		mode := "shared hub"
		if *perClient {
			mode = "per-client reads"
		}
		fmt.Fprintf(stdout, "towow bench sse: %d clients following %s (%s), %d negotiations %d at a time, builtin brain answering after about %s, scratch database %s\n",
			*clients, *follow, mode, *n, *c, *latency, name)
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
		stopMutex, err := startMutexProfile(*mutexProfile)
		if err != nil {
			return err
		}
		defer stopMutex()
		// A negotiation takes a few dozen model answers one after another.
		opts := bench.SSEOptions{Clients: *clients, Negotiations: *n, Concurrency: *c, Reader: *readerKind, Token: cfg.AdminToken,
			Timeout: 2*time.Minute + 60**latency}
		if *idle {
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("bench sse: this program's path, for the idle followers' process: %w", err)
			}
			opts.IdleArgv = []string{exe, "bench", "sse-clients", "-n", strconv.Itoa(*clients)}
		}
		run := func() (bench.SSEResult, error) {
			return bench.SSE(ctx, a, pool, base, opts, stdout)
		}
		if *follow == "demand" {
			run = func() (bench.SSEResult, error) {
				return bench.SSENegotiations(ctx, a, base, opts, stdout)
			}
		}
		res, err := run()
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		return bench.WriteSSE(stdout, res)
	})
}

// withBenchApp runs fn with an App (its engine working, the live-stream
// hub when hub is set, no read models) on a scratch database; the engine
// benchmarks measure orchestration, so they need the builtin brain.
func withBenchApp(ctx context.Context, cfg config, stderr io.Writer, what string, hub bool,
	fn func(a *app.App, pool *pgxpool.Pool, name string) error) error {
	return withBenchAppConfig(ctx, cfg, stderr, what, func(ac *app.Config) { ac.Hub = hub }, fn)
}

// withBenchAppConfig is withBenchApp with the App's configuration adjusted
// by setup.
func withBenchAppConfig(ctx context.Context, cfg config, stderr io.Writer, what string, setup func(*app.Config),
	fn func(a *app.App, pool *pgxpool.Pool, name string) error) error {
	if cfg.LLM != "builtin" {
		return fmt.Errorf("%w: %s: run it with TOWOW_LLM=builtin", errUsage, what)
	}
	return withScratchDB(ctx, cfg, stderr, func(pool *pgxpool.Pool, name string) error {
		ac := cfg.app(stderr, true)
		ac.Pool = pool
		setup(&ac)
		a, err := app.New(ctx, ac)
		if err != nil {
			return err
		}
		defer a.Close()
		return fn(a, pool, name)
	})
}

// cmdBenchRebuild builds a log of n negotiations in a scratch database,
// then times rebuilding every read model from it.
func cmdBenchRebuild(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench rebuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 200, "negotiations in the log to rebuild from")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *n < 1 {
		return fmt.Errorf("%w: -n must be at least 1", errUsage)
	}
	return withBenchApp(ctx, cfg, stderr, "bench rebuild builds its log with the engine", false, func(a *app.App, pool *pgxpool.Pool, name string) error {
		fmt.Fprintf(stdout, "towow bench rebuild: building a log of %d negotiations in scratch database %s\n", *n, name)
		if _, err := bench.Negotiate(ctx, a, pool, bench.NegotiateOptions{N: *n, Concurrency: 8}, nil); err != nil {
			return err
		}
		// The engine stops before the models are measured: steps still due
		// after the trees ended (the requester's notices) would append
		// between the catch-up and the rebuild, and the rebuild would then
		// hold events the caught-up model never saw.
		if err := a.WriteSide.Stop(ctx); err != nil {
			return err
		}
		head, err := a.Store.HeadPosition(ctx)
		if err != nil {
			return err
		}
		events, err := a.Store.CountBetween(ctx, 0, head)
		if err != nil {
			return err
		}
		// First the live path: a fresh runner catching up event by event
		// (batches of 500, checkpoint per batch).
		runner := projections.NewRunner(pool, a.Store, nil, nil)
		for _, m := range projections.All() {
			t0 := time.Now()
			if _, err := runner.CatchUp(ctx, m); err != nil {
				return err
			}
			took := time.Since(t0)
			fmt.Fprintf(stdout, "catch-up %-8s %d events in %s (%.0f events/s)\n", m.Name(), events, took.Round(time.Millisecond), float64(events)/took.Seconds())
		}
		fmt.Fprintf(stdout, "rebuild: every read model again from the first event, each in one transaction\n")
		took, err := rebuildModels(ctx, pool, projections.All(), stdout)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "all read models: %d events in %s = %.0f events/s (target >= 20,000)\n", events,
			took.Round(time.Millisecond), float64(events)/took.Seconds())
		return nil
	})
}

// cmdBenchSoak runs many negotiations in one process, as a long-running
// server would (engine, read models, live-stream hub), and prints its
// memory every -every negotiations.
func cmdBenchSoak(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 1000, "negotiations to run")
	every := fs.Int("every", 100, "print the memory after every this many negotiations")
	c := fs.Int("c", 8, "negotiations in flight at once")
	memProfile := fs.String("memprofile", "", "write a heap profile at the end to this file")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *n < 1 || *every < 1 || *c < 1 || *c > 256 {
		return fmt.Errorf("%w: -n and -every must be at least 1, -c 1..256", errUsage)
	}
	return withBenchAppConfig(ctx, cfg, stderr, "bench soak measures the engine's memory",
		func(ac *app.Config) { ac.Hub, ac.ReadModels = true, true },
		func(a *app.App, pool *pgxpool.Pool, name string) error {
			fmt.Fprintf(stdout, "towow bench soak: %d negotiations, %d at a time, builtin brain, read models and hub running, scratch database %s\n", *n, *c, name)
			samples, err := bench.Soak(ctx, a, pool, bench.SoakOptions{N: *n, Every: *every, Concurrency: *c}, stdout)
			if err != nil {
				return err
			}
			if *memProfile != "" {
				f, err := os.Create(*memProfile)
				if err != nil {
					return fmt.Errorf("memprofile: %w", err)
				}
				defer f.Close()
				if err := pprof.WriteHeapProfile(f); err != nil {
					return fmt.Errorf("memprofile: %w", err)
				}
			}
			if len(samples) > 2 {
				first, last := samples[1], samples[len(samples)-1]
				fmt.Fprintf(stdout, "heap in use after %d negotiations is %.2fx that after %d (target <= 1.3x)\n",
					last.Done, float64(last.HeapInuse)/float64(first.HeapInuse), first.Done)
			}
			return nil
		})
}

// cmdBenchFilter measures the smart filter at growing network sizes, each
// on a scratch database of its own.
func cmdBenchFilter(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench filter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("sizes", "100,1000,10000,100000", "comma-separated network sizes (generated profiles)")
	reps := fs.Int("reps", 20, "times each demand is shortlisted per size")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	var ns []int
	for _, v := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 1_000_000 {
			return fmt.Errorf("%w: -sizes %q: want numbers between 1 and 1000000", errUsage, *sizes)
		}
		ns = append(ns, n)
	}
	if *reps < 1 {
		return fmt.Errorf("%w: -reps must be at least 1", errUsage)
	}
	cfg.Profiles = "none"
	fmt.Fprintf(stdout, "towow bench filter: %d demands, %d shortlists each per size, generated networks (mocknet), builtin brain, shortlist of %d\n",
		len(bench.FilterDemands), *reps, cfg.Shortlist)
	var rows []bench.FilterResult
	for _, n := range ns {
		err := withBenchApp(ctx, cfg, stderr, "bench filter measures the builtin filter", false, func(a *app.App, _ *pgxpool.Pool, name string) error {
			fmt.Fprintf(stdout, "%d agents, scratch database %s\n", n, name)
			r, err := bench.Filter(ctx, a, n, *reps, stdout)
			rows = append(rows, r)
			return err
		})
		if err != nil {
			return err
		}
	}
	fmt.Fprintln(stdout)
	return bench.WriteFilter(stdout, rows)
}
