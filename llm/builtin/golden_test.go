package builtin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

var updateReplies = flag.Bool("update", false, "rewrite testdata/replies.golden")

// repliesGolden holds, for every negotiation of the test demands (and the
// three compromise requests, the task requests of each agreed
// negotiation's workflow and the conversation requests on a small
// workflow), the number of replies and the SHA-256 of
// their texts. The builtin brain is deterministic and its replies are
// recorded in the events (and drive every later step), so a refactoring
// must leave them byte for byte as they were; only a deliberate change of
// the brain may rewrite this file (go test ./llm/builtin -run
// TestRepliesAreStable -update).
const repliesGolden = "testdata/replies.golden"

func TestRepliesAreStable(t *testing.T) {
	var b bytes.Buffer
	line := func(name string, texts []string) {
		fmt.Fprintf(&b, "%s\t%d\t%x\n", name, len(texts), sha256.Sum256([]byte(strings.Join(texts, "\x00"))))
	}
	e := newTestEngine(t, testProfiles(60))
	var last negotiation
	tasks := map[int][]llm.Request{} // by demand, for the agreed ones
	for i, raw := range append(slices.Clone(testDemands), generatedDemands()...) {
		from := len(e.texts)
		n := e.run(raw)
		subs := 0
		for _, sd := range n.recursion.SubDemands { // the sub-negotiations' first steps
			var u neg.Understanding
			e.call(llm.PromptUnderstand, &llm.UnderstandInput{RawInput: string(sd.Description), UserID: "requester",
				GapType: string(sd.GapType), CapabilityTags: []string(sd.CapabilityTags)}, &u)
			var exclude []string
			for _, c := range n.candidates {
				exclude = append(exclude, string(c.AgentID))
			}
			e.call(llm.PromptFilter, &llm.FilterInput{Demand: u, RawInput: string(sd.Description), Profiles: e.profiles,
				MaxCandidates: 10, Exclude: exclude}, new(map[string]any))
			subs++
		}
		line(fmt.Sprintf("demand %02d %s, %d sub-demands", i, n.outcome, subs), e.texts[from:])
		if n.outcome != "no_participants" && n.outcome != "failed" {
			last = n
			tasks[i] = taskRequests(e.profiles, n)
		}
	}
	var offers []llm.OfferView
	for _, id := range last.order {
		o := last.offers[id]
		offers = append(offers, llm.OfferView{AgentID: id, Decision: o.Decision, Contribution: o.Contribution,
			Conditions: o.Conditions, Reasoning: orDefault(o.DeclineReason, o.Reasoning)})
	}
	for _, in := range []*llm.CompromiseInput{
		{Demand: last.u, RawInput: last.raw, Available: last.final.Assignments, Offers: offers, Gaps: last.gaps.Gaps,
			Reason: "partial_agreement"},
		{Demand: last.u, RawInput: last.raw, Offers: offers, Reason: "no_offers"},
		{Demand: last.u, RawInput: last.raw, Reason: "no_participants"},
	} {
		resp, err := New().Complete(context.Background(), llm.Request{Key: llm.PromptCompromise, Input: in})
		if err != nil {
			t.Fatal(err)
		}
		line("compromise "+in.Reason, []string{resp.Text})
	}
	if len(tasks) == 0 {
		t.Fatal("no task requests")
	}
	for i := range len(testDemands) + len(generatedDemands()) {
		if len(tasks[i]) == 0 {
			continue
		}
		var texts []string
		for _, req := range tasks[i] {
			resp, err := New().Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, resp.Text)
		}
		line(fmt.Sprintf("tasks of demand %02d", i), texts)
	}
	var conv []string
	for _, req := range converseRequests() {
		resp, err := New().Complete(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		conv = append(conv, resp.Text)
	}
	line("conversation", conv)
	for _, k := range llm.PromptKeys() {
		if k != llm.PromptCompromise && k != llm.PromptTask && k != llm.PromptConverse && len(e.requests[k]) == 0 {
			t.Fatalf("no request for %s", k)
		}
	}
	if *updateReplies {
		if err := os.WriteFile(repliesGolden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(repliesGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s line %d:\ngot  %s\nwant %s", repliesGolden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", repliesGolden, len(gl), len(wl))
	}
}
