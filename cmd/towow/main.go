// Command towow is the ToWow backend: one binary for the server, the schema
// migrations, the embedded development database and the benchmarks.
//
//	towow serve                    run the HTTP API and the negotiation workers
//	towow worker                   run the negotiation workers only
//	towow demo "<demand>"          run one negotiation and print it live
//	towow replay <demand_id>       print a stored negotiation (no LLM)
//	towow mcp [--server URL]       serve the MCP tools over stdio
//	towow token --user NAME        print a local-mode API token
//	towow migrate up|down|status   manage the schema
//	towow projections rebuild      fold the read models again from the log
//	towow db start|stop|status|url manage the embedded cluster
//	towow backup FILE              pg_dump the database to FILE
//	towow restore FILE             load a backup into an empty database
//	towow personal seal            seal the personal texts of older events
//	towow bench append             measure the event store
//	towow bench negotiate          measure the negotiation engine
//	towow bench sse                measure live event delivery to SSE clients
//	towow bench soak               measure memory over many negotiations
//
// Run `towow --help` for the environment variables.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	tuneGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// errUsage marks errors caused by a wrong command line (exit code 2).
var errUsage = errors.New("usage")

const usageText = `towow — the ToWow negotiation backend

Usage:
  towow serve                       start the API server and the negotiation workers
                                    (migrates the schema and loads the agent profiles first)
  towow worker                      run the negotiation workers without the API (scale out: any
                                    number of serve and worker processes may share one database)
  towow demo "<demand>"             run one negotiation on the embedded database, printing
                                    its timeline live, then the result; exits 0 at a terminal state
  towow replay <demand_id>          print a stored negotiation's timeline from its events (no LLM)
  towow mcp [--server URL]          serve the MCP tools over stdio for an MCP client (runs ToWow in
                                    this process, or calls a running server's API with --server
                                    and --token TOKEN)
  towow token --user NAME           local mode: print an API token for NAME (Authorization: Bearer;
                                    --ttl 720h), signed by $TOWOW_DATA_DIR/signing-key.pem
  towow migrate up|down|status      apply, roll back one step, or list migrations
  towow projections rebuild [--name streams|demands|channels|llm_calls|agents|quality|workflows]
                                    fold the read models again from the first event while servers
                                    keep serving (readers see the old rows until it commits)
  towow db start|stop|status|url    manage the embedded PostgreSQL cluster
                                    (flag: --data-dir DIR, default $TOWOW_DATA_DIR/pg)
  towow backup FILE                 write the whole database (embedded, or DATABASE_URL) to FILE with
                                    pg_dump, from one consistent snapshot; a running server goes on
  towow restore FILE                load a backup into an empty database (a fresh TOWOW_DATA_DIR, or
                                    an empty DATABASE_URL); the log continues from where it was
  towow personal seal               seal the personal texts of events written before they were
                                    sealed (an upgrade), then rebuild the read models; servers stopped
  towow bench append [flags]        benchmark the event store (towow bench append --help)
  towow bench negotiate [flags]     benchmark the negotiation engine, builtin brain (-n 200 -c 8, -llm-latency 2s, -cpuprofile FILE, -memprofile FILE)
  towow bench sse [flags]           benchmark SSE delivery to live clients (-clients 1000, -follow demand|all, -llm-latency 1s)
                                    and the server's memory per idle follower (RSS, followers in a child process)
  towow bench sse-clients -url URL  hold -n idle SSE followers (token: first line of standard input) until
                                    standard input closes (bench sse runs it in a child process)
  towow bench rebuild [-n 200]      benchmark rebuilding the read models from a log of n negotiations
  towow bench soak [-n 1000]        run n negotiations in one process (engine, read models, hub) and
                                    print its memory every 100 (-every N, -c 8, -memprofile FILE)
  towow bench filter [flags]        measure the smart filter at growing network sizes (-sizes
                                    100,1000,10000,100000, -reps 20): load, SQL stage p50/p99,
                                    prompt 2 tokens, end to end with the builtin brain
  towow bench fork [-n 50] [-c 4]   fork n negotiations of three rounds or more at round 2 without one
                                    agent: LLM calls reused, time to end against the original's
  towow bench faults [flags]        run 10 demands through a model stand-in failing a share of requests
                                    (-rates 0,10,30,50, -outage 1m, -seed 1): how many end as without faults
  towow bench scale [flags]         grow a log to -sizes events (100000,1000000; up to 10000000) by copying
                                    real negotiation trees; at each size time the per-tree queries, the
                                    read models' catch-up and rebuild, and the disk a tree takes
  towow eval [-set dev|holdout]     run the committed scenario suite (116 demands, zh/en, 40 domains, 19
       [-only id,id] [-c 4]         unclear or impossible; a dev half to tune on and a holdout half) on a
                                    scratch database and print each negotiation's quality, its plan
                                    against the needs the scenario names, and a no-negotiation baseline
  towow fuzz [-n 100000] [-seed 1]  send the API n valid, boundary and hostile requests drawn from its
                                    OpenAPI document (scratch database, engine idle) and check every
                                    answer against the document; exits 1 at the first violation
  towow help                        show this text

`

func usage(w io.Writer) {
	fmt.Fprint(w, usageText)
	writeEnvHelp(w)
}

// run executes one command line and returns the process exit code: 0 on
// success, 1 on failure (one readable line on stderr), 2 on a usage error.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "--help", "-help":
		usage(stdout)
		return 0
	}
	if wantsHelp(args[1:]) {
		return commandHelp(ctx, args, getenv, stdout)
	}
	cfg, err := loadConfig(getenv)
	if err == nil {
		switch args[0] {
		case "serve":
			err = cmdServe(ctx, cfg, args[1:], stdout, stderr)
		case "migrate":
			err = cmdMigrate(ctx, cfg, args[1:], stdout, stderr)
		case "db":
			err = cmdDB(ctx, cfg, args[1:], stdout, stderr)
		case "backup":
			err = cmdBackup(ctx, cfg, args[1:], stdout, stderr)
		case "restore":
			err = cmdRestore(ctx, cfg, args[1:], stdout, stderr)
		case "personal":
			err = cmdPersonal(ctx, cfg, args[1:], stdout, stderr)
		case "worker":
			err = cmdWorker(ctx, cfg, args[1:], stdout, stderr)
		case "demo":
			err = cmdDemo(ctx, cfg, args[1:], stdout, stderr)
		case "replay":
			err = cmdReplay(ctx, cfg, args[1:], stdout, stderr)
		case "bench":
			err = cmdBench(ctx, cfg, args[1:], stdout, stderr)
		case "projections":
			err = cmdProjections(ctx, cfg, args[1:], stdout, stderr)
		case "fuzz":
			err = cmdFuzz(ctx, cfg, args[1:], stdout, stderr)
		case "eval":
			err = cmdEval(ctx, cfg, args[1:], stdout, stderr)
		case "mcp":
			err = cmdMCP(ctx, cfg, args[1:], stdout, stderr)
		case "token":
			err = cmdToken(ctx, cfg, args[1:], stdout, stderr)
		default:
			err = fmt.Errorf("%w: unknown command %q (see towow --help)", errUsage, args[0])
		}
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "towow: %v\n", err)
		return 2
	case errors.Is(err, context.Canceled) && ctx.Err() != nil && (args[0] == "serve" || args[0] == "worker" || args[0] == "mcp"):
		return 0 // serve, worker and mcp run until interrupted: that is a clean stop
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "towow: %s interrupted\n", args[0])
		return 1
	default:
		fmt.Fprintf(stderr, "towow: %v\n", err)
		return 1
	}
}
