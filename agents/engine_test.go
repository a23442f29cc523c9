package agents_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/agents"
	"github.com/towow/towow/commands"
	"github.com/towow/towow/data"
	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

const sampleDemand = "我想在北京办一场AI主题聚会，需要场地和嘉宾"

type harness struct {
	t     testing.TB
	e     *agents.Engine
	c     *commands.Service
	dir   *agents.Directory
	llm   *llm.Client
	store *eventstore.Store
	pool  *pgxpool.Pool
	live  *live
	o     opts
}

type opts struct {
	provider llm.Provider
	rules    domain.Rules
	profiles []domain.AgentProfile
	llmCfg   func(*llm.Config)
	engine   func(*agents.Config)
	noStart  bool
}

// engineConfig is the engine's configuration for o.
func (o opts) engineConfig(t testing.TB) agents.Config {
	cfg := agents.Config{Rules: o.rules, Logger: testLogger(t)}
	if o.engine != nil {
		o.engine(&cfg)
	}
	return cfg
}

func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("TOWOW_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func newHarness(t testing.TB, o opts) *harness {
	t.Helper()
	pool := dbtest.New(t)
	store := eventstore.New(pool, eventstore.Options{})
	if o.provider == nil {
		o.provider = builtin.New()
	}
	cfg := llm.Config{Provider: o.provider, Timeout: 2 * time.Second}
	if o.llmCfg != nil {
		o.llmCfg(&cfg)
	}
	client := llm.NewClient(cfg)
	if o.rules == (domain.Rules{}) {
		o.rules = domain.DefaultRules()
	}
	dir := agents.NewDirectory(store)
	e, err := agents.New(pool, store, dir, client, true, o.engineConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	c := commands.New(e, store, dir, nil)
	if o.profiles == nil {
		ps, errs := domain.ParseProfiles(data.MockProfiles)
		if len(errs) > 0 {
			t.Fatal(errs[0])
		}
		o.profiles = ps
	}
	if _, err := c.RegisterProfiles(context.Background(), o.profiles, "test", false); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, e: e, c: c, dir: dir, llm: client, store: store, pool: pool, o: o, live: &live{}}
	h.watch()
	if !o.noStart {
		h.start()
	}
	return h
}

// restart builds a new engine (a new River client) on the same database,
// as a restarted process would, and starts it.
func (h *harness) restart() *harness {
	h.t.Helper()
	cfg := llm.Config{Provider: h.o.provider, Timeout: 2 * time.Second}
	if h.o.llmCfg != nil {
		h.o.llmCfg(&cfg)
	}
	dir, client := agents.NewDirectory(h.store), llm.NewClient(cfg)
	e, err := agents.New(h.pool, h.store, dir, client, true, h.o.engineConfig(h.t))
	if err != nil {
		h.t.Fatal(err)
	}
	// The first harness's live subscription keeps running; share it.
	h2 := &harness{t: h.t, e: e, c: commands.New(e, h.store, dir, nil), dir: dir, llm: client, store: h.store, pool: h.pool, o: h.o, live: h.live}
	h2.start()
	return h2
}

// channel folds a channel from its events (the caller owns it).
func (h *harness) channel(ctx context.Context, channelID string) (*domain.Channel, error) {
	c := &domain.Channel{}
	_, err := h.store.Fold(ctx, domain.ChannelStream(channelID), c.Apply)
	return c, err
}

// demand folds a demand from its events.
func (h *harness) demand(ctx context.Context, demandID string) (*domain.DemandState, error) {
	d := &domain.DemandState{}
	_, err := h.store.Fold(ctx, domain.DemandStream(demandID), d.Apply)
	return d, err
}

func (h *harness) start() {
	ctx, cancel := context.WithCancel(context.Background())
	if err := h.e.Start(ctx); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() {
		sctx, c := context.WithTimeout(context.Background(), 10*time.Second)
		defer c()
		_ = h.e.Stop(sctx)
		cancel()
	})
}

// outcome is how a negotiation tree ended.
type outcome struct {
	demand  *domain.DemandState
	channel *domain.Channel // nil when the demand failed before a channel existed
}

// wait polls until the demand's negotiation tree completed.
func (h *harness) wait(demandID string, within time.Duration) outcome {
	h.t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(within)
	for {
		d, err := h.demand(ctx, demandID)
		if err != nil {
			h.t.Fatal(err)
		}
		if d.Failure != nil {
			return outcome{demand: d}
		}
		if d.ChannelID != "" {
			c, err := h.channel(ctx, d.ChannelID)
			if err != nil {
				h.t.Fatal(err)
			}
			if c.Completed {
				return outcome{demand: d, channel: c}
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("negotiation %s not complete after %s:\n%s", demandID, within, h.timeline(demandID))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// events returns every event of a negotiation tree.
func (h *harness) events(demandID string) []eventstore.RecordedEvent {
	h.t.Helper()
	evs, err := h.store.ReadAll(context.Background(), 0, eventstore.Filter{CorrelationID: demandID}, eventstore.MaxReadLimit)
	if err != nil {
		h.t.Fatal(err)
	}
	return evs
}

func (h *harness) timeline(demandID string) string {
	var b strings.Builder
	for _, e := range h.events(demandID) {
		fmt.Fprintf(&b, "%5d %-22s %-36s %s %s\n", e.Position, e.StreamID, e.Type, e.Metadata.Actor, trim(string(e.Payload), 140))
	}
	return b.String()
}

func trim(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func TestSampleDemandEndToEnd(t *testing.T) {
	h := newHarness(t, opts{})
	sub, err := h.c.SubmitDemand(context.Background(), "u1", sampleDemand)
	if err != nil {
		t.Fatal(err)
	}
	out := h.wait(sub.DemandID, 60*time.Second)
	t.Logf("timeline:\n%s", h.timeline(sub.DemandID))
	if out.channel == nil {
		t.Fatalf("demand failed: %+v", out.demand.Failure)
	}
	c := out.channel
	if !c.Status.IsTerminal() || c.FinalProposal == nil {
		t.Fatalf("status %s, final proposal %v", c.Status, c.FinalProposal)
	}
	profiles, _ := h.dir.Active(context.Background())
	known := map[string]bool{}
	for _, p := range profiles {
		known[p.AgentID] = true
	}
	if len(c.FinalProposal.Assignments) == 0 {
		t.Fatal("final proposal has no assignments")
	}
	for _, a := range c.FinalProposal.Assignments {
		if !known[a.AgentID] {
			t.Fatalf("assignment names unknown agent %q", a.AgentID)
		}
	}
	h.check(sub.DemandID)
}
