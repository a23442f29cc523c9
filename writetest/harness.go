// Package writetest drives the whole write side end to end for the
// process packages' tests: a Harness wires the write side (app.WriteSide)
// over a test database with the builtin brain or a Scripted provider, runs
// its River workers, and checks the invariants of every finished
// negotiation tree against the log and a live subscription.
package writetest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/data"
	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// SampleDemand is the sample demand of the end-to-end tests.
const SampleDemand = "我想在北京办一场AI主题聚会，需要场地和嘉宾"

// Harness is the write side wired over a test database.
type Harness struct {
	T     testing.TB
	W     *app.WriteSide
	C     *app.Commands
	Dir   *directory.Directory
	LLM   *llm.Client
	Store *eventstore.Store
	Pool  *pgxpool.Pool
	O     Opts
	live  *live
}

// Opts vary the harness.
type Opts struct {
	// Provider answers the prompts (default: the builtin brain).
	Provider llm.Provider
	// Rules are the channels' rules (default: the design's).
	Rules negotiation.Rules
	// Profiles are registered at start (default: the embedded mock
	// profiles).
	Profiles []negotiation.AgentProfile
	// LLMCfg and Write adjust the LLM client's and the write side's
	// configuration.
	LLMCfg func(*llm.Config)
	Write  func(*app.WriteConfig)
	// NoStart leaves the workers stopped (the test starts them).
	NoStart bool
}

// writeConfig is the write side's configuration for o.
func (o Opts) writeConfig(t testing.TB) app.WriteConfig {
	cfg := app.WriteConfig{Rules: o.Rules, Logger: TestLogger(t)}
	if o.Write != nil {
		o.Write(&cfg)
	}
	return cfg
}

// testLogEnv names the environment variable that turns the tests' logging
// on (a raw string: the README's error code check reads quoted TOWOW_*
// literals as error codes).
const testLogEnv = `TOWOW_TEST_LOG`

// TestLogger logs to stderr at debug level with TOWOW_TEST_LOG set, and
// nowhere otherwise.
func TestLogger(t testing.TB) *slog.Logger {
	if os.Getenv(testLogEnv) != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// New wires the write side over a new test database, registers the
// profiles and, unless o.NoStart, starts the workers.
func New(t testing.TB, o Opts) *Harness {
	t.Helper()
	pool := dbtest.New(t)
	store := eventstore.New(pool, eventstore.Options{})
	if o.Provider == nil {
		o.Provider = builtin.New()
	}
	cfg := llm.Config{Provider: o.Provider, Timeout: 2 * time.Second}
	if o.LLMCfg != nil {
		o.LLMCfg(&cfg)
	}
	client := llm.NewClient(cfg)
	if o.Rules == (negotiation.Rules{}) {
		o.Rules = negotiation.DefaultRules()
	}
	dir := directory.NewDirectory(store)
	w, err := app.NewWriteSide(pool, store, dir, client, true, o.writeConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if o.Profiles == nil {
		ps, errs := negotiation.ParseProfiles(data.MockProfiles)
		if len(errs) > 0 {
			t.Fatal(errs[0])
		}
		o.Profiles = ps
	}
	if _, err := w.Commands.RegisterProfiles(context.Background(), o.Profiles, "test", false); err != nil {
		t.Fatal(err)
	}
	h := &Harness{T: t, W: w, C: w.Commands, Dir: dir, LLM: client, Store: store, Pool: pool, O: o, live: &live{}}
	h.watch()
	if !o.NoStart {
		h.Start()
	}
	return h
}

// Restart wires a new write side (a new River client) on the same
// database, as a restarted process would, and starts it.
func (h *Harness) Restart() *Harness {
	h.T.Helper()
	cfg := llm.Config{Provider: h.O.Provider, Timeout: 2 * time.Second}
	if h.O.LLMCfg != nil {
		h.O.LLMCfg(&cfg)
	}
	dir, client := directory.NewDirectory(h.Store), llm.NewClient(cfg)
	w, err := app.NewWriteSide(h.Pool, h.Store, dir, client, true, h.O.writeConfig(h.T))
	if err != nil {
		h.T.Fatal(err)
	}
	// The first harness's live subscription keeps running; share it.
	h2 := &Harness{T: h.T, W: w, C: w.Commands, Dir: dir, LLM: client, Store: h.Store, Pool: h.Pool, O: h.O, live: h.live}
	h2.Start()
	return h2
}

// Channel folds a channel from its events (the caller owns it).
func (h *Harness) Channel(ctx context.Context, channelID string) (*negotiation.Channel, error) {
	c := &negotiation.Channel{}
	_, err := h.Store.Fold(ctx, negotiation.ChannelStream(channelID), c.Apply)
	return c, err
}

// Demand folds a demand from its events.
func (h *Harness) Demand(ctx context.Context, demandID string) (*negotiation.DemandState, error) {
	d := &negotiation.DemandState{}
	_, err := h.Store.Fold(ctx, negotiation.DemandStream(demandID), d.Apply)
	return d, err
}

// Start starts the workers; they stop when the test ends.
func (h *Harness) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	if err := h.W.Start(ctx); err != nil {
		h.T.Fatal(err)
	}
	h.T.Cleanup(func() {
		sctx, c := context.WithTimeout(context.Background(), 10*time.Second)
		defer c()
		_ = h.W.Stop(sctx)
		cancel()
	})
}

// Outcome is how a negotiation tree ended.
type Outcome struct {
	Demand  *negotiation.DemandState
	Channel *negotiation.Channel // nil when the demand failed before a channel existed
}

// Agreed reports whether the root channel ended in (partial) agreement;
// false when the demand failed before a channel existed.
func (o Outcome) Agreed() bool { return o.Channel != nil && o.Channel.Agreed() }

// Wait polls until the demand's negotiation tree ended: its root demand
// failed or its root channel completed, as the process sees them, and then
// every demand of the tree ended in the log as its readers see it (the
// settled log, which Events and Check read: an event the process already
// reads may wait there for an older transaction to end, and a root that
// failed does not wait for a sub-negotiation still running, which ends on
// its own). The outcome is the process's view after that.
func (h *Harness) Wait(demandID string, within time.Duration) Outcome {
	h.T.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(within)
	for {
		out, ended := h.outcome(ctx, demandID)
		if ended && h.treeEnded(ctx, demandID) {
			out, _ = h.outcome(ctx, demandID)
			return out
		}
		if time.Now().After(deadline) {
			h.T.Fatalf("negotiation %s not complete after %s:\n%s", demandID, within, h.Timeline(demandID))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// outcome is the demand's root as the process sees it, and whether it
// ended.
func (h *Harness) outcome(ctx context.Context, demandID string) (Outcome, bool) {
	h.T.Helper()
	d, err := h.Demand(ctx, demandID)
	if err != nil {
		h.T.Fatal(err)
	}
	if d.Failure != nil {
		return Outcome{Demand: d}, true
	}
	if d.ChannelID == "" {
		return Outcome{Demand: d}, false
	}
	c, err := h.Channel(ctx, d.ChannelID)
	if err != nil {
		h.T.Fatal(err)
	}
	return Outcome{Demand: d, Channel: c}, c.Completed
}

// treeEnded reports whether the settled log holds the end of the tree and
// of every demand in it.
func (h *Harness) treeEnded(ctx context.Context, demandID string) bool {
	h.T.Helper()
	evs, err := eventstore.ReadEvery(ctx, h.Store, 0, eventstore.Filter{CorrelationID: demandID, Types: negotiation.TreeEndTypes})
	if err != nil {
		h.T.Fatal(err)
	}
	end := negotiation.NewTreeEnd(demandID)
	for _, e := range evs {
		p, err := e.Decode()
		if err != nil {
			h.T.Fatal(err)
		}
		end.Apply(p)
	}
	return end.Ended()
}

// Events returns every event of a negotiation tree.
func (h *Harness) Events(demandID string) []eventstore.RecordedEvent {
	h.T.Helper()
	evs, err := h.Store.ReadAll(context.Background(), 0, eventstore.Filter{CorrelationID: demandID}, eventstore.MaxReadLimit)
	if err != nil {
		h.T.Fatal(err)
	}
	return evs
}

// Timeline is a negotiation tree's events, one line each (for failure
// messages).
func (h *Harness) Timeline(demandID string) string {
	var b strings.Builder
	for _, e := range h.Events(demandID) {
		fmt.Fprintf(&b, "%5d %-22s %-36s %s %s\n", e.Position, e.StreamID, e.Type, e.Metadata.Actor, Trim(string(e.Payload), 140))
	}
	return b.String()
}

// Trim clips s to n runes.
func Trim(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Head is the log's last committed position, settled or not: it moves
// exactly when something is appended.
func (h *Harness) Head() int64 {
	h.T.Helper()
	p, err := h.Store.LatestPosition(context.Background())
	if err != nil {
		h.T.Fatal(err)
	}
	return p
}

// Refused runs a command and checks that it failed with want and wrote
// nothing: no event by an agent (the commands' actor) after it started;
// the write side's own steps may go on meanwhile.
func (h *Harness) Refused(t testing.TB, name string, want error, cmd func() error) {
	t.Helper()
	before := h.Head()
	if err := cmd(); !errors.Is(err, want) {
		t.Fatalf("%s: %v, want %v", name, err, want)
	}
	h.Store.SettleBriefly(context.Background(), h.Head()) // what it may have written is readable
	evs, err := h.Store.ReadAll(context.Background(), before, eventstore.Filter{}, eventstore.MaxReadLimit)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if strings.HasPrefix(e.Metadata.Actor, "agent:") {
			t.Fatalf("%s: wrote %s by %s", name, e.Type, e.Metadata.Actor)
		}
	}
}

// ErrorsOf returns the codes of the towow.error.occurred events of a
// negotiation tree, in order.
func (h *Harness) ErrorsOf(demandID string) []string {
	var codes []string
	for _, e := range h.Events(demandID) {
		if e.Type == negotiation.EventErrorOccurred {
			p, _ := e.Decode()
			codes = append(codes, p.(*negotiation.ErrorOccurred).ErrorCode)
		}
	}
	return codes
}

// WaitWorkflow polls until the workflow exists and cond holds.
func (h *Harness) WaitWorkflow(id string, within time.Duration, cond func(w *workflow.Workflow) bool) *workflow.Workflow {
	h.T.Helper()
	deadline := time.Now().Add(within)
	for {
		w := &workflow.Workflow{}
		if _, err := h.Store.Fold(context.Background(), workflow.WorkflowStream(id), w.Apply); err != nil {
			h.T.Fatal(err)
		}
		if w.Exists() && cond(w) {
			return w
		}
		if time.Now().After(deadline) {
			h.T.Fatalf("workflow %s: condition not reached in %s (status %q)", id, within, w.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Say sends a message about a workflow and waits for the agent's reply.
func (h *Harness) Say(id, text string) workflow.Turn {
	h.T.Helper()
	msg, _, err := h.C.SendMessage(context.Background(), id, text, "tab-1", "user_alice")
	if err != nil {
		h.T.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		turns, err := h.C.Conversation(context.Background(), id)
		if err != nil {
			h.T.Fatal(err)
		}
		for _, t := range turns {
			if t.MessageID == msg && t.Done {
				return t
			}
		}
		if time.Now().After(deadline) {
			h.T.Fatalf("no reply to %q", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WaitFor polls until cond holds, failing t after within.
func WaitFor(t testing.TB, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// AgentsFeedback is an external agent's feedback of type ft.
func AgentsFeedback(ft negotiation.FeedbackType) negotiation.FeedbackAnswer {
	return negotiation.FeedbackAnswer{FeedbackType: ft, Reasoning: "external"}
}

// RootPlan is the plan a tree's root channel completed with.
func RootPlan(t testing.TB, evs []eventstore.RecordedEvent, demandID string) (*negotiation.Proposal, negotiation.ChannelStatus) {
	t.Helper()
	for _, e := range evs {
		if e.Type != negotiation.EventNegotiationCompleted || e.StreamID != negotiation.ChannelStream(negotiation.ChannelIDFor(demandID)) {
			continue
		}
		p, err := e.Decode()
		if err != nil {
			t.Fatal(err)
		}
		c := p.(*negotiation.NegotiationCompleted)
		if c.MergedPlan != nil {
			return c.MergedPlan, c.Status
		}
		return c.FinalProposal, c.Status
	}
	t.Fatalf("%s did not complete", demandID)
	return nil, ""
}

// FirstOf is the position of the first event of type typ on stream.
func FirstOf(t testing.TB, evs []eventstore.RecordedEvent, typ event.EventType, stream string) int64 {
	t.Helper()
	for _, e := range evs {
		if e.Type == typ && e.StreamID == stream {
			return e.Position
		}
	}
	t.Fatalf("no %s on %s", typ, stream)
	return 0
}
