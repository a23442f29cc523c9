package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/apifuzz"
	"github.com/towow/towow/app"
	"github.com/towow/towow/identity"
)

// cmdFuzz runs the OpenAPI fuzzer against an in-process server on a
// scratch database whose engine is idle, so that only accepted commands
// write and a refused one that writes is caught.
func cmdFuzz(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 100000, "requests to send")
	seed := fs.Uint64("seed", 1, "the same seed sends the same requests")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *n < 1 {
		return fmt.Errorf("%w: -n must be at least 1", errUsage)
	}
	if cfg.AdminToken == "" { // the admin operations need one to be reached
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		cfg.AdminToken = hex.EncodeToString(b)
	}
	// Two signed-in users (a key of this run): each probes the other's
	// resources as well as its own.
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("fuzz: %w", err)
	}
	people := identity.NewLocalWith(identity.NewSigner(key))
	var users []string
	for _, name := range []string{"fuzz_a", "fuzz_b"} {
		tok, err := people.MintLocalToken(name, time.Hour)
		if err != nil {
			return fmt.Errorf("fuzz: %w", err)
		}
		users = append(users, tok)
	}
	setup := func(ac *app.Config) { ac.Idle, ac.ReadModels, ac.Hub, ac.People = true, true, true, people }
	return withBenchAppConfig(ctx, cfg, stderr, "fuzz runs its own server", setup, func(a *app.App, _ *pgxpool.Pool, name string) error {
		base, stop, err := serveLocal(ctx, a)
		if err != nil {
			return err
		}
		defer stop()
		fmt.Fprintf(stdout, "towow fuzz: %d requests, seed %d, server %s, scratch database %s\n", *n, *seed, base, name)
		t0 := time.Now()
		rep, err := apifuzz.Run(ctx, apifuzz.Options{BaseURL: base, Requests: *n, Seed: *seed, AdminToken: cfg.AdminToken,
			UserTokens: users, Head: a.Store.LatestPosition})
		fmt.Fprintf(stdout, "%d requests over %d operations in %s: %d bodies validated, %d streams read, %d unsendable\n",
			rep.Requests, rep.Operations, time.Since(t0).Round(time.Millisecond), rep.Validated, rep.Streams, rep.Unsendable)
		for _, s := range slices.Sorted(maps.Keys(rep.Statuses)) {
			fmt.Fprintf(stdout, "  %d × %d\n", rep.Statuses[s], s)
		}
		if err != nil {
			return fmt.Errorf("fuzz: %w", err)
		}
		fmt.Fprintln(stdout, "no violation")
		return nil
	})
}
