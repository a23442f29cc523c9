package negotiate_test

import (
	"context"
	"testing"
	"time"

	"github.com/towow/towow/bench"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/llmfault"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/writetest"
)

// faultyHarness is a harness whose LLM is the fault server's provider: a
// client that waits 2 s per attempt, retries for 8 s and waits out an
// outage for up to 10 minutes, with a breaker that probes every 5 s.
func faultyHarness(t *testing.T, srv *llmfault.Server, counter *bench.CallCounter, rules negotiation.Rules) *writetest.Harness {
	return writetest.New(t, writetest.Opts{Provider: srv.Provider(), Rules: rules, LLMCfg: func(c *llm.Config) {
		c.Timeout, c.RetryBudget, c.OutageBudget, c.RecoveryTimeout = 2*time.Second, 8*time.Second, 10*time.Minute, 5*time.Second
		c.OnCall, c.OnBreakerOpen = counter.OnCall, counter.OnBreakerOpen
	}})
}

// cleanEndings are how the fault demands end with the builtin brain and
// no faults.
func cleanEndings(t *testing.T, rules negotiation.Rules) map[string]bench.Ending {
	h := writetest.New(t, writetest.Opts{Rules: rules})
	clean, _, err := bench.RunDemands(context.Background(), h.C, h.Store, bench.FaultDemands, 3*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return clean
}

// report logs a run's figures and fails when a finalized plan counted a
// twin's missing answer.
func report(t *testing.T, run bench.FaultRun, srv *llmfault.Server) {
	t.Helper()
	st := srv.Stats()
	t.Logf("%s: %d of %d ended as without faults; %d requests, faults %v, %d refused while down; calls %+v; took %s",
		run.Label, run.Same, run.N, st.Requests, st.Faults, st.WhileDown, run.Calls, run.Took.Round(time.Second))
	for _, d := range run.Differences {
		t.Logf("  %s", d)
	}
	if run.FinalizedOnNoAnswer > 0 {
		t.Errorf("%d plans were finalized with a twin's missing answer in their last round", run.FinalizedOnNoAnswer)
	}
}

// TestNegotiationsThroughLLMFaults runs ten negotiations through the real
// OpenAI-compatible provider against a server that fails 30 % of requests
// in seven ways (500, 429 with Retry-After, 529, a hang longer than the
// client waits, a dropped connection, a reply cut off halfway, every value
// of the wrong type): at least 9 of 10 end as they do without faults,
// because transport faults are retried, unusable replies are asked again
// and a provider that keeps failing is waited out instead of answered by
// fallbacks; no plan is finalized on a missing answer.
func TestNegotiationsThroughLLMFaults(t *testing.T) {
	clean := cleanEndings(t, negotiation.Rules{})
	srv := llmfault.New(llmfault.Config{Rate: 0.3, Seed: 7})
	t.Cleanup(srv.Close)
	counter := &bench.CallCounter{}
	h := faultyHarness(t, srv, counter, negotiation.Rules{})
	got, took, err := bench.RunDemands(context.Background(), h.C, h.Store, bench.FaultDemands, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	run := bench.FaultRun{Label: "30 % faults", Took: took, Calls: counter.Snapshot()}
	run.Compare(clean, got)
	report(t, run, srv)
	for _, k := range llmfault.Kinds {
		if srv.Stats().Faults[k] == 0 {
			t.Fatalf("fault %s never injected (%v): the test did not test it", k, srv.Stats().Faults)
		}
	}
	if run.Calls.Reasked == 0 {
		t.Error("no unusable reply was asked again")
	}
	if run.Same*10 < run.N*9 {
		t.Fatalf("only %d of %d negotiations ended as they do without faults", run.Same, run.N)
	}
}

// TestNegotiationsWaitOutAnOutage takes the provider down for 60 s while
// ten negotiations run, whose offer and feedback windows (15 s) and stuck
// checks (40 s) are shorter than the outage, and submits one more during
// it: none fails, each waits (its steps snoozed, its deadlines moved on)
// and then ends as it does without faults.
func TestNegotiationsWaitOutAnOutage(t *testing.T) {
	// Windows shorter than the outage: they must be moved on by it, or
	// the offers and the feedback of the waiting twins would be cut off.
	rules := negotiation.DefaultRules()
	rules.OfferTimeoutSeconds, rules.FeedbackTimeoutSeconds, rules.StuckTimeoutSeconds = 15, 15, 40
	clean := cleanEndings(t, rules)
	srv := llmfault.New(llmfault.Config{Seed: 1})
	t.Cleanup(srv.Close)
	counter := &bench.CallCounter{}
	h := faultyHarness(t, srv, counter, rules)
	ctx := context.Background()
	// One more demand is submitted while the provider is down: it waits
	// too, at its first step.
	late := bench.FaultDemands[len(bench.FaultDemands)-1]
	lateID := make(chan string, 1)
	go func() {
		// The demands are under way: their first calls are answered (a
		// fixed wait would let a fast engine finish them first).
		for start := time.Now(); srv.Stats().Requests < 30 && time.Since(start) < 10*time.Second; {
			time.Sleep(time.Millisecond)
		}
		srv.Down(true)
		time.Sleep(5 * time.Second)
		sub, err := h.C.SubmitDemand(ctx, "u-late", late)
		if err != nil {
			t.Error(err)
		}
		lateID <- sub.DemandID
		time.Sleep(55 * time.Second)
		srv.Down(false)
	}()
	got, took, err := bench.RunDemands(ctx, h.C, h.Store, bench.FaultDemands, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	id := <-lateID
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(250 * time.Millisecond) {
		e, err := bench.ReadEnding(ctx, h.Store, id)
		if err != nil {
			t.Fatal(err)
		}
		if e.Text != "" {
			if e.Text != clean[late].Text {
				t.Errorf("the demand submitted during the outage ended %q, without faults %q", e.Text, clean[late].Text)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demand submitted during the outage has not ended")
		}
	}
	run := bench.FaultRun{Label: "60 s outage", Took: took, Calls: counter.Snapshot()}
	run.Compare(clean, got)
	report(t, run, srv)
	switch {
	case srv.Stats().WhileDown == 0:
		t.Fatal("no request reached the provider while it was down: the test did not test the outage")
	case took < time.Minute:
		t.Fatalf("all negotiations ended within %s, during the outage", took)
	case run.Calls.Fallbacks > 0:
		t.Errorf("%d calls used their fallback during a 60 s outage (budget 10 min)", run.Calls.Fallbacks)
	}
	if run.Same != run.N {
		t.Fatalf("%d of %d negotiations ended as without faults", run.Same, run.N)
	}
}
