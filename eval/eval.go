// Package eval runs the committed scenario suite through a
// running App and scores every negotiation with package quality, next to
// a no-negotiation baseline on the same demands: each need gets the
// top-ranked candidates of the filter's SQL stage, without offers or
// rounds. `towow eval` prints its table; the tests run a slice.
package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/quality"
)

// Scenario is one demand of the suite.
type Scenario struct {
	ID     string `json:"id"`
	Domain string `json:"domain"`
	Text   string `json:"text"`
	// Expect is agree (a plan) or reject (unclear or impossible).
	Expect string `json:"expect"`
	// Needs are the needs a careful reader finds in Text (tags from the
	// network's vocabulary, none for a need no agent can serve) and City
	// the place it names ("" none, 远程 remote work): ground truth written
	// without looking at the brain. A reject has neither.
	Needs []negotiation.Need `json:"needs,omitempty"`
	City  string             `json:"city,omitempty"`
	// Tuned marks a scenario the brain's keyword tables were fitted to
	// before the suite was split: it is in dev, whatever the seed says, so
	// that the holdout holds only demands nobody tuned on.
	Tuned bool `json:"tuned,omitempty"`
}

// ParseScenarios reads a suite (data.EvalScenarios).
func ParseScenarios(b []byte) ([]Scenario, error) {
	var s []Scenario
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("eval scenarios: %w", err)
	}
	return s, nil
}

// Row is one scenario's result.
type Row struct {
	Scenario
	DemandID string
	Status   string         // finalized, force_finalized, failed, rejected
	Tree     quality.Scores // the negotiated plan, sub-negotiations merged in
	Baseline quality.Scores // the no-negotiation plan on the same needs
	// BaselineKept is the baseline's need coverage without the assignees
	// who, asked in the negotiation, declined or withdrew: what the
	// baseline's plan would deliver once people answer (agents the
	// negotiation did not ask are counted as coming).
	BaselineKept float64
	// Fit is the plan against the scenario's own needs and city.
	Fit Fit
	Err error
}

// Totals sum up the rows.
type Totals struct {
	Scenarios, Agreed, Expected int // Expected: rows that ended as the suite expects
	// Otherwise counts the rows that did not, by how they ended
	// (rejected, failed, an error …).
	Otherwise                map[string]int
	Unclear, UnclearRejected int
	// Coverage and stability are means over the scenarios that expect a
	// plan; Padding and Irrelevant are sums of assignees, with the share
	// of irrelevant assignees.
	Coverage, Stability, BaselineCoverage, BaselineStability, BaselineKept float64
	Padding, BaselinePadding, Assignees, Irrelevant                        int
	IrrelevantShare                                                        float64
	// Truth sums the plans' Fit against the scenarios' own needs (the
	// ground truth); TruthCoverage is its Filled over Places.
	Truth         Fit
	TruthCoverage float64
}

// Run submits every scenario (c at a time) to a, waits for each to end
// (at most timeout each) and scores it and its baseline.
func Run(ctx context.Context, a *app.App, scenarios []Scenario, c int, timeout time.Duration) ([]Row, error) {
	// The network the scenarios are measured against, the same for all.
	active, err := a.Directory.Active(ctx)
	if err != nil {
		return nil, fmt.Errorf("the network's agents: %w", err)
	}
	agents := make([]string, len(active))
	for i, p := range active {
		agents[i] = p.AgentID
	}
	rows := make([]Row, len(scenarios))
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, c) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rows[i] = run(ctx, a, scenarios[i], agents, timeout)
			}
		}()
	}
	for i := range scenarios {
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	return rows, ctx.Err()
}

func run(ctx context.Context, a *app.App, s Scenario, agents []string, timeout time.Duration) Row {
	r := Row{Scenario: s}
	// A user of its own per scenario: each is that user's first demand, so
	// prompt 1 sees no user_context built from whichever scenarios the
	// concurrent runs happened to submit before it.
	sub, err := a.Commands.SubmitDemand(ctx, "eval-"+s.ID, s.Text)
	if err != nil {
		r.Err = err
		return r
	}
	r.DemandID = sub.DemandID
	var events []quality.Event
	deadline := time.Now().Add(timeout)
	for {
		events, err = quality.Read(ctx, a.Store, sub.DemandID)
		if err != nil {
			r.Err = err
			return r
		}
		if ended(events, sub.DemandID) {
			break
		}
		if time.Now().After(deadline) {
			r.Err = fmt.Errorf("%s did not end within %s", s.ID, timeout)
			return r
		}
		time.Sleep(50 * time.Millisecond)
	}
	profile := func(id string) (tags []string, location string) {
		p, _, _, err := a.Directory.Get(ctx, id)
		if err != nil {
			return nil, ""
		}
		return p.Tags, p.Location
	}
	tags := func(id string) []string {
		t, _ := profile(id)
		return t
	}
	q := quality.Score(sub.DemandID, events, tags)
	r.Status, r.Tree = q.Status, q.Tree
	var plan []negotiation.Assignment
	if q.Plan != nil {
		plan = q.Plan.Assignments
	}
	r.Fit = fit(s, tree{plan: plan, willing: willingIn(events), read: readIn(events), agents: agents, profile: profile})
	r.Baseline, r.BaselineKept, r.Err = baseline(ctx, a, events, s.Text, tags)
	return r
}

// baseline plans without negotiating: for each need of the demand's
// understanding, the top-ranked shortlisted agents carrying one of its
// tags, up to its count, each placed once; everyone placed counts as
// unconfirmed (no offer, no answer), so stability is 0. kept is its
// coverage without the assignees who, asked anywhere in the negotiation
// tree, declined the demand or withdrew from it.
func baseline(ctx context.Context, a *app.App, events []quality.Event, raw string, tags func(string) []string) (s quality.Scores, kept float64, err error) {
	var u *negotiation.Understanding
	refused := map[string]bool{}
	for _, e := range events {
		switch d := e.Payload.(type) {
		case *negotiation.DemandUnderstood:
			if u == nil {
				x := d.Understanding()
				u = &x
			}
		case *negotiation.OfferSubmitted:
			if d.Decision == negotiation.OfferDecisionDecline {
				refused[d.AgentID] = true
			}
		case *negotiation.AgentWithdrawn:
			refused[d.AgentID] = true
		}
	}
	if u == nil {
		return quality.Scores{}, 0, nil
	}
	needs := negotiation.NeedsOf(*u)
	s = quality.Scores{Needs: len(needs)}
	if len(needs) == 0 {
		s.NeedCoverage, s.Relevance, s.Stability = 1, 1, 0
		return s, 1, nil
	}
	list, err := a.WriteSide.Negotiation.Shortlist(ctx, needs, u.Context.Location, raw)
	if err != nil {
		return s, 0, err
	}
	placed := map[string]bool{}
	filled, relevant, coming := 0, 0, 0
	for _, n := range needs {
		s.Places += n.Count
		got := 0
		for _, p := range list {
			if got == n.Count {
				break
			}
			if !placed[p.AgentID] && n.Serves(p.Tags) {
				placed[p.AgentID] = true
				got++
				if n.Serves(tags(p.AgentID)) {
					relevant++
				}
				if !refused[p.AgentID] {
					coming++
				}
			}
		}
		filled += got
	}
	s.Assignees = len(placed)
	s.NeedCoverage = ratio(filled, s.Places)
	s.Relevance = ratio(relevant, s.Assignees)
	return s, ratio(coming, s.Places), nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(int(float64(a)/float64(b)*1000+0.5)) / 1000
}

// ended reports whether the tree finished: its root channel completed, or
// the demand failed before a channel.
func ended(events []quality.Event, root string) bool {
	return slices.ContainsFunc(events, func(e quality.Event) bool {
		switch p := e.Payload.(type) {
		case *negotiation.NegotiationCompleted:
			return p.ChannelID == negotiation.ChannelIDFor(root)
		case *negotiation.NegotiationFailed:
			return p.ChannelID == "" && p.DemandID == root
		}
		return false
	})
}

// Sum totals the rows.
func Sum(rows []Row) Totals {
	var t Totals
	plans := 0
	for _, r := range rows {
		t.Scenarios++
		if r.Status == "finalized" || r.Status == "force_finalized" {
			t.Agreed++
		}
		rejected := r.Status == "rejected"
		agreed := r.Status == "finalized" || r.Status == "force_finalized"
		switch {
		case (r.Expect == "reject" && rejected) || (r.Expect == "agree" && agreed):
			t.Expected++
		case r.Err != nil:
			t.otherwise("error")
		default:
			t.otherwise(r.Status)
		}
		if r.Expect == "reject" {
			t.Unclear++
			if rejected {
				t.UnclearRejected++
			}
			continue
		}
		plans++
		t.Coverage += r.Tree.NeedCoverage
		t.Stability += r.Tree.Stability
		t.BaselineCoverage += r.Baseline.NeedCoverage
		t.BaselineStability += r.Baseline.Stability
		t.BaselineKept += r.BaselineKept
		t.Padding += r.Tree.Padding
		t.BaselinePadding += r.Baseline.Padding
		t.Assignees += r.Tree.Assignees
		t.Irrelevant += r.Tree.IrrelevantAssignees
		t.Truth.add(r.Fit)
	}
	if t.Truth.Places > 0 {
		t.TruthCoverage = float64(t.Truth.Filled) / float64(t.Truth.Places)
	}
	if plans > 0 {
		n := float64(plans)
		t.Coverage, t.Stability = t.Coverage/n, t.Stability/n
		t.BaselineCoverage, t.BaselineStability, t.BaselineKept = t.BaselineCoverage/n, t.BaselineStability/n, t.BaselineKept/n
	}
	if t.Assignees > 0 {
		t.IrrelevantShare = float64(t.Irrelevant) / float64(t.Assignees)
	}
	return t
}

// otherwise counts a row that ended as status where the suite expects
// otherwise.
func (t *Totals) otherwise(status string) {
	if t.Otherwise == nil {
		t.Otherwise = map[string]int{}
	}
	t.Otherwise[status]++
}

// otherwiseText is " (4 otherwise: 3 rejected, 1 failed)", or "" when
// every row ended as expected.
func (t Totals) otherwiseText() string {
	if len(t.Otherwise) == 0 {
		return ""
	}
	var parts []string
	n := 0
	for _, st := range slices.Sorted(maps.Keys(t.Otherwise)) {
		parts = append(parts, fmt.Sprintf("%d %s", t.Otherwise[st], st))
		n += t.Otherwise[st]
	}
	return fmt.Sprintf(" (%d otherwise: %s)", n, strings.Join(parts, ", "))
}

// Write prints a row per scenario and the totals: of the whole run, then
// of each half of the suite it holds (dev, holdout).
func Write(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tset\tdomain\texpect\toutcome\tneeds\tplaces\tassignees\tcoverage\tpadding\tirrelevant\tstability\trounds\tLLM calls\t| own needs\tcity misses\tunasked\t| baseline coverage\twithout refusers\tbaseline stability\t")
	for _, r := range rows {
		set := SetOf(r.Scenario)
		if r.Err != nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\terror: %v\t\t\t\t\t\t\t\t\t\t|\t\t\t|\t\t\t\n", r.ID, set, r.Domain, r.Expect, r.Err)
			continue
		}
		s, b := r.Tree, r.Baseline
		if r.Status == "rejected" {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t%d\t| %s\t-\t-\t| -\t-\t-\t\n", r.ID, set, r.Domain, r.Expect, r.Status,
				s.LLM.Calls, ownNeeds(r.Fit))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%.0f%%\t%d\t%d\t%.0f%%\t%d\t%d\t| %s\t%d\t%d\t| %.0f%%\t%.0f%%\t%.0f%%\t\n", r.ID, set, r.Domain,
			r.Expect, r.Status, s.Needs, s.Places, s.Assignees, s.NeedCoverage*100, s.Padding, s.IrrelevantAssignees, s.Stability*100,
			s.Rounds, s.LLM.Calls, ownNeeds(r.Fit), r.Fit.CityMisses, r.Fit.Unasked, b.NeedCoverage*100, r.BaselineKept*100, b.Stability*100)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeTotals(w, "", rows); err != nil {
		return err
	}
	for _, set := range []string{SetDev, SetHoldout} {
		half := slices.DeleteFunc(slices.Clone(rows), func(r Row) bool { return SetOf(r.Scenario) != set })
		if len(half) == 0 || len(half) == len(rows) {
			continue
		}
		if err := writeTotals(w, set, half); err != nil {
			return err
		}
	}
	return nil
}

// ownNeeds is a row's places filled of those its own needs ask for
// ("2/3"; "-" when it names none), with the needs nobody can serve and
// why places were missed (Missed: "1/3, 2 unread").
func ownNeeds(f Fit) string {
	if f.Places == 0 && f.Lacking == 0 {
		return "-"
	}
	out := fmt.Sprintf("%d/%d", f.Filled, f.Places)
	if f.Lacking > 0 {
		out += fmt.Sprintf(" +%d lacking", f.Lacking)
	}
	for _, m := range []struct {
		n    int
		word string
	}{{f.Missed.Unread, "unread"}, {f.Missed.Scarce, "scarce"}, {f.Missed.LeftOut, "left out"}, {f.Missed.Unoffered, "unoffered"}} {
		if m.n > 0 {
			out += fmt.Sprintf(", %d %s", m.n, m.word)
		}
	}
	return out
}

// writeTotals prints the totals of rows under a heading (none for the
// whole run).
func writeTotals(w io.Writer, heading string, rows []Row) error {
	t := Sum(rows)
	if heading != "" {
		heading = "\n" + heading + ":"
	}
	_, err := fmt.Fprintf(w, "%s\n%d scenarios, %d ended as expected%s; %d agreed; unclear or impossible rejected: %d of %d\n"+
		"negotiated: coverage %.1f%%, padding %d, irrelevant assignees %d of %d (%.1f%%), stability %.1f%%\n"+
		"own needs:  coverage %.1f%% (%d of %d places; %d needs nobody in the network serves), city misses %d, assignees asked for by no need %d of %d\n"+
		"            places missed: %d of needs not read, %d more than the network holds, %d of people who offered and were left out, %d that too few offered for\n"+
		"baseline:   coverage %.1f%% (%.1f%% without the assignees who declined or withdrew when asked), padding %d, stability %.1f%% (no offers, nobody confirmed)\n",
		heading, t.Scenarios, t.Expected, t.otherwiseText(), t.Agreed, t.UnclearRejected, t.Unclear, t.Coverage*100, t.Padding, t.Irrelevant, t.Assignees,
		t.IrrelevantShare*100, t.Stability*100, t.TruthCoverage*100, t.Truth.Filled, t.Truth.Places, t.Truth.Lacking, t.Truth.CityMisses,
		t.Truth.Unasked, t.Assignees, t.Truth.Missed.Unread, t.Truth.Missed.Scarce, t.Truth.Missed.LeftOut, t.Truth.Missed.Unoffered,
		t.BaselineCoverage*100, t.BaselineKept*100, t.BaselinePadding, t.BaselineStability*100)
	return err
}
