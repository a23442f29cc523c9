package projections_test

import (
	"context"
	"log/slog"
	"maps"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/internal/schema"
	"github.com/towow/towow/projections"
	"github.com/towow/towow/quality"
)

// scripted is one event of a hand-built negotiation: its stream and event.
type scripted struct {
	stream string
	ev     eventstore.EventData
}

// qualityTrees builds, for suffix s, the negotiations of every shape the
// quality model meets, with their agents' registrations (ids ending in s):
//   - d-a<s>, agreed: two needs (photographer ×1, caterer ×2), a
//     sub-negotiation that places a second caterer, LLM calls in the
//     metadata, and after the completion an update of the photographer's
//     tags (which must not change the row: tags as of the completion);
//   - d-r<s>, rejected (then failed, as the engine writes it);
//   - d-f<s>, failed, then completed force-finalized (scored again);
//   - d-n<s>, not a root (its submission names a parent): no row;
//   - d-o<s>, still running: no row.
func qualityTrees(s, user string) []scripted {
	var out []scripted
	add := func(stream, root string, p event.Payload, call *event.LLMCall) {
		md := event.Metadata{CorrelationID: root, Actor: event.ActorSystem, LLMCall: call}
		ev, err := eventstore.NewEvent(uuid.New(), p, md)
		if err != nil {
			panic(err)
		}
		out = append(out, scripted{stream, ev})
	}
	call := func(in, out int, fallback bool) *event.LLMCall {
		return &event.LLMCall{PromptKey: "p", Provider: "scripted", LatencyMS: 10, InputTokens: in, OutputTokens: out,
			Outcome: event.LLMOutcomeOK, FallbackUsed: fallback}
	}
	photo, cook, music, helper := "ph"+s, "ck"+s, "mu"+s, "hp"+s
	for _, a := range []struct {
		id   string
		tags []string
	}{{photo, []string{"photo"}}, {cook, []string{"catering"}}, {music, []string{"music"}}} {
		add(negotiation.AgentStream(a.id), "", &negotiation.AgentRegistered{AgentID: a.id,
			Profile: negotiation.AgentProfile{AgentID: a.id, UserName: a.id, Tags: a.tags}}, nil)
	}

	// d-a: agreed, with a sub-negotiation.
	root := "d-a" + s
	ch, sub, subCh := negotiation.ChannelIDFor(root), "d-a"+s+"-sub", "collab-a"+s+"-sub"
	needs := []negotiation.Need{{Role: "photographer", CapabilityTags: []string{"photo"}, Count: 1},
		{Role: "caterer", CapabilityTags: []string{"catering"}, Count: 2}}
	add(negotiation.DemandStream(root), root, &negotiation.DemandSubmitted{DemandID: root, UserID: user, RawInput: "a wedding"}, nil)
	add(negotiation.DemandStream(root), root, &negotiation.DemandUnderstood{DemandID: root, SurfaceDemand: "wedding", Needs: needs,
		Confidence: negotiation.ConfidenceHigh}, call(100, 20, false))
	add(negotiation.DemandStream(root), root, &negotiation.FilterCompleted{DemandID: root, ChannelID: ch, CandidatesCount: 3,
		Candidates: []negotiation.Candidate{{AgentID: photo, RelevanceScore: 90}, {AgentID: cook, RelevanceScore: 60}, {AgentID: music, RelevanceScore: 30}}},
		call(200, 30, true))
	add(negotiation.ChannelStream(ch), root, &negotiation.ChannelCreated{ChannelID: ch, DemandID: root, ParticipantsCount: 3,
		InvitedAgents: []string{photo, cook, music}, RootDemandID: root}, nil)
	add(negotiation.ChannelStream(ch), root, &negotiation.OfferSubmitted{ChannelID: ch, Offer: negotiation.Offer{AgentID: photo, DemandID: root,
		OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionParticipate, Contribution: "photos"}}}, call(50, 10, false))
	add(negotiation.ChannelStream(ch), root, &negotiation.OfferSubmitted{ChannelID: ch, Offer: negotiation.Offer{AgentID: cook, DemandID: root,
		OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionConditional, Contribution: "food", Conditions: []string{"a kitchen"}}}},
		call(50, 10, false))
	add(negotiation.ChannelStream(ch), root, &negotiation.SubnetTriggered{ParentChannelID: ch, ParentDemandID: root, SubDemandID: sub,
		SubChannelID: subCh, GapType: "caterer", RecursionDepth: 1}, nil)
	add(negotiation.DemandStream(sub), root, &negotiation.DemandSubmitted{DemandID: sub, UserID: user, RawInput: "a caterer",
		RootDemandID: root, ParentDemandID: root, ParentChannelID: ch, RecursionDepth: 1}, nil)
	add(negotiation.DemandStream(sub), root, &negotiation.DemandUnderstood{DemandID: sub, SurfaceDemand: "caterer",
		Needs: []negotiation.Need{{Role: "caterer", CapabilityTags: []string{"catering"}, Count: 1}}}, call(80, 15, false))
	add(negotiation.ChannelStream(subCh), root, &negotiation.ChannelCreated{ChannelID: subCh, DemandID: sub, ParticipantsCount: 1,
		InvitedAgents: []string{helper}, ParentChannel: ch, RootDemandID: root, RecursionDepth: 1}, nil)
	subPlan := negotiation.Proposal{DemandID: sub, Version: 1, Summary: "sub",
		Assignments: []negotiation.Assignment{{AgentID: helper, Role: "caterer", Need: "caterer"}}}
	add(negotiation.ChannelStream(subCh), root, &negotiation.ProposalFinalized{ChannelID: subCh, DemandID: sub, FinalProposal: subPlan,
		ParticipantsCount: 1, RoundsTaken: 1}, nil)
	add(negotiation.ChannelStream(subCh), root, &negotiation.NegotiationCompleted{ChannelID: subCh, DemandID: sub,
		Status: negotiation.ChannelStatusFinalized, FinalProposal: &subPlan, RoundsTaken: 1}, nil)
	for _, a := range []string{photo, cook} {
		add(negotiation.ChannelStream(ch), root, &negotiation.ProposalFeedback{ChannelID: ch, DemandID: root, AgentID: a, ProposalVersion: 1,
			Round: 1, FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackAccept}}, call(40, 5, false))
	}
	add(negotiation.ChannelStream(ch), root, &negotiation.FeedbackEvaluated{ChannelID: ch, Accepts: 2, AcceptRate: 1, Round: 2}, nil)
	plan := negotiation.Proposal{DemandID: root, Version: 2, Summary: "plan", Assignments: []negotiation.Assignment{
		{AgentID: photo, Role: "photographer", Need: "photographer"},
		{AgentID: cook, Role: "caterer", Need: "caterer", ConditionsAccepted: true}}}
	add(negotiation.ChannelStream(ch), root, &negotiation.ProposalFinalized{ChannelID: ch, DemandID: root, FinalProposal: plan,
		ParticipantsCount: 2, RoundsTaken: 2, Participants: []string{photo, cook}}, nil)
	merged := plan
	merged.Assignments = append(slices.Clone(plan.Assignments),
		negotiation.Assignment{AgentID: helper, Role: "caterer", Need: "caterer", SubChannelID: subCh})
	add(negotiation.ChannelStream(ch), root, &negotiation.NegotiationCompleted{ChannelID: ch, DemandID: root, Status: negotiation.ChannelStatusFinalized,
		FinalProposal: &plan, RoundsTaken: 2, MergedPlan: &merged}, nil)
	add(negotiation.AgentStream(photo), "", &negotiation.AgentUpdated{AgentID: photo,
		Profile: negotiation.AgentProfile{AgentID: photo, UserName: photo, Tags: []string{"painting"}}}, nil)

	// d-r: rejected.
	root = "d-r" + s
	add(negotiation.DemandStream(root), root, &negotiation.DemandSubmitted{DemandID: root, UserID: user, RawInput: "x"}, nil)
	add(negotiation.DemandStream(root), root, &negotiation.DemandRejected{DemandID: root, Reason: "unclear"}, call(30, 5, false))
	add(negotiation.DemandStream(root), root, &negotiation.NegotiationFailed{DemandID: root, Reason: "unclear"}, nil)

	// d-f: failed, then completed force-finalized.
	root = "d-f" + s
	ch = negotiation.ChannelIDFor(root)
	add(negotiation.DemandStream(root), root, &negotiation.DemandSubmitted{DemandID: root, UserID: user, RawInput: "music"}, nil)
	add(negotiation.DemandStream(root), root, &negotiation.DemandUnderstood{DemandID: root, SurfaceDemand: "music",
		Needs: []negotiation.Need{{Role: "musician", CapabilityTags: []string{"music"}, Count: 1}}}, nil)
	add(negotiation.ChannelStream(ch), root, &negotiation.ChannelCreated{ChannelID: ch, DemandID: root, ParticipantsCount: 2,
		InvitedAgents: []string{music, photo}, RootDemandID: root}, nil)
	add(negotiation.ChannelStream(ch), root, &negotiation.NegotiationFailed{ChannelID: ch, DemandID: root, Reason: "low_acceptance"}, nil)
	forced := negotiation.Proposal{DemandID: root, Version: 1, Summary: "forced",
		Assignments: []negotiation.Assignment{{AgentID: music, Role: "musician", Need: "musician"}}}
	add(negotiation.ChannelStream(ch), root, &negotiation.FeedbackEvaluated{ChannelID: ch, Accepts: 1, Rejects: 1, AcceptRate: 0.5, Round: 5}, nil)
	add(negotiation.ChannelStream(ch), root, &negotiation.NegotiationForceFinalized{ChannelID: ch, DemandID: root, FinalProposal: forced,
		ConfirmedParticipants: []string{music}, RoundsTaken: 5, AcceptRate: 0.5}, nil)
	add(negotiation.ChannelStream(ch), root, &negotiation.NegotiationCompleted{ChannelID: ch, DemandID: root,
		Status: negotiation.ChannelStatusForceFinalized, FinalProposal: &forced, RoundsTaken: 5}, nil)

	// d-n: a tree whose first submission names a parent: not a root.
	root = "d-n" + s
	add(negotiation.DemandStream(root), root, &negotiation.DemandSubmitted{DemandID: root, UserID: user, RawInput: "sub",
		ParentDemandID: "d-elsewhere", RootDemandID: "d-elsewhere"}, nil)
	add(negotiation.DemandStream(root), root, &negotiation.NegotiationFailed{DemandID: root, Reason: "no_candidates"}, nil)

	// d-o: still running.
	root = "d-o" + s
	add(negotiation.DemandStream(root), root, &negotiation.DemandSubmitted{DemandID: root, UserID: user, RawInput: "open"}, nil)
	return out
}

// appendScripted appends the events, each to its stream.
func appendScripted(t *testing.T, s *eventstore.Store, evs []scripted) {
	t.Helper()
	for _, e := range evs {
		if _, err := s.Append(context.Background(), e.stream, eventstore.AnyVersion, e.ev); err != nil {
			t.Fatal(err)
		}
	}
}

// TestQualityModel folds hand-built negotiations (qualityTrees) live and
// checks the rows against quality.Score and the cases the model must tell
// apart, then the read side's summary: every ended root negotiation of the
// filter counted and averaged (quality.Mean), running ones counted, limit
// bounding only the reports.
func TestQualityModel(t *testing.T) {
	pool, s := scoredQualityTrees(t)
	ctx := context.Background()
	all, err := projections.SummarizeQuality(ctx, pool, projections.QualityFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]quality.Report{}
	for _, rep := range all.Reports {
		byID[rep.DemandID] = rep
	}
	if len(all.Reports) != 6 || all.Demands != 8 || all.Final != 6 || all.Rejected != 2 || all.Agreed != 4 {
		t.Fatalf("summary of everything: demands %d final %d rejected %d agreed %d, %d reports %v",
			all.Demands, all.Final, all.Rejected, all.Agreed, len(all.Reports), slices.Sorted(maps.Keys(byID)))
	}
	for _, id := range []string{"d-n1", "d-o1", "d-a1-sub"} {
		if _, ok := byID[id]; ok {
			t.Errorf("%s has a row", id)
		}
	}
	if all.Reports[0].DemandID != "d-f2" || all.Reports[5].DemandID != "d-a1" {
		t.Errorf("reports not newest first: %s ... %s", all.Reports[0].DemandID, all.Reports[5].DemandID)
	}

	// The agreed tree, scored as of its completion: the photographer's
	// tags then (photo) make it relevant; the later update does not count.
	a := byID["d-a1"]
	tags := map[string][]string{"ph1": {"photo"}, "ck1": {"catering"}, "mu1": {"music"}}
	want := quality.Score("d-a1", treeEvents(t, s, "d-a1", "d-a1", negotiation.EventNegotiationCompleted), func(id string) []string { return tags[id] })
	if !a.Final || a.Status != "finalized" || a.Root != want.Root || a.Tree != want.Tree {
		t.Fatalf("d-a1: %+v\nwant %+v", a, want)
	}
	if a.Root.Relevance != 1 || a.Root.NeedCoverage != 0.667 || a.Tree.NeedCoverage != 1 || a.Tree.Assignees != 3 ||
		a.Tree.Relevance != 0.667 || a.Root.LLM.Calls != 6 || a.Tree.LLM.Calls != 7 || a.Tree.LLM.Fallbacks != 1 || a.Root.Rounds != 2 {
		t.Fatalf("d-a1 scores: root %+v tree %+v", a.Root, a.Tree)
	}
	if f := byID["d-f1"]; f.Status != "force_finalized" || f.Root.Assignees != 1 || f.Root.Rounds != 5 {
		t.Fatalf("d-f1 (failed, then completed): %+v", f)
	}
	if rj := byID["d-r1"]; rj.Status != "rejected" || !rj.Final || rj.Root.LLM.Calls != 1 {
		t.Fatalf("d-r1: %+v", rj)
	}
	if p := all.Placed; len(p) != 8 || p["ph1"] != 1 || p["ck1"] != 1 || p["hp1"] != 1 || p["mu1"] != 1 || p["mu2"] != 1 {
		t.Fatalf("places %v", p)
	}
	// ph, ck, hp: 1 each in d-a; mu: 1 in d-f; the photographer of d-f
	// invited, 0 there: per suffix 4 agents with 1 place each.
	if g := quality.Gini([]int{1, 1, 1, 1, 1, 1, 1, 1}); all.FairnessGini != g {
		t.Fatalf("gini %v, want %v", all.FairnessGini, g)
	}

	// The means are quality.Mean's over the agreed rows.
	var roots, trees []quality.Scores
	for _, rep := range all.Reports {
		if rep.Status == "finalized" || rep.Status == "force_finalized" {
			roots, trees = append(roots, rep.Root), append(trees, rep.Tree)
		}
	}
	for _, c := range []struct {
		name      string
		got, want quality.Scores
	}{{"root", all.Root, quality.Mean(roots)}, {"tree", all.Tree, quality.Mean(trees)}} {
		if !sameMean(c.got, c.want) {
			t.Errorf("%s mean %+v, quality.Mean %+v", c.name, c.got, c.want)
		}
	}

	// Filters: a user, a time range (submitted_at), and limit bounding
	// only the reports.
	tests := []struct {
		name                           string
		f                              projections.QualityFilter
		demands, final, agreed, listed int
	}{
		{"user", projections.QualityFilter{UserID: "u2"}, 4, 3, 2, 3},
		{"limit 1", projections.QualityFilter{Limit: 1}, 8, 6, 4, 1},
		{"user, limit 1", projections.QualityFilter{UserID: "u1", Limit: 1}, 4, 3, 2, 1},
		{"nobody", projections.QualityFilter{UserID: "nobody"}, 0, 0, 0, 0},
		{"since the second set", projections.QualityFilter{Since: submittedAt(t, s, "d-a2")}, 4, 3, 2, 3},
		{"until the second set", projections.QualityFilter{Until: submittedAt(t, s, "d-a2")}, 4, 3, 2, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := projections.SummarizeQuality(ctx, pool, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if got.Demands != tt.demands || got.Final != tt.final || got.Agreed != tt.agreed || len(got.Reports) != tt.listed {
				t.Fatalf("demands %d final %d agreed %d reports %d, want %d %d %d %d", got.Demands, got.Final, got.Agreed,
					len(got.Reports), tt.demands, tt.final, tt.agreed, tt.listed)
			}
			if tt.agreed > 0 && (got.Root.Assignees == 0 || got.Tree.NeedCoverage == 0) {
				t.Fatalf("no means: %+v", got)
			}
		})
	}
}

// scoredQualityTrees appends two users' sets of quality trees to a fresh
// database and has the demands and quality models catch up with them.
func scoredQualityTrees(t *testing.T) (*pgxpool.Pool, *eventstore.Store) {
	t.Helper()
	pool := dbtest.New(t)
	s := eventstore.New(pool, eventstore.Options{})
	appendScripted(t, s, qualityTrees("1", "u1"))
	appendScripted(t, s, qualityTrees("2", "u2"))
	r := projections.NewRunner(pool, s, nil, nil)
	for _, m := range []projections.ReadModel{projections.Demands{}, projections.Quality{}} {
		if _, err := r.CatchUp(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	return pool, s
}

// TestQualityRowsScoredBefore: rows the model wrote before quality scores
// counted irrelevant assignees get the count from what they hold when the
// schema is upgraded (migration 00020), the same as scoring them again.
func TestQualityRowsScoredBefore(t *testing.T) {
	pool, _ := scoredQualityTrees(t)
	ctx := context.Background()
	reports := func() map[string]quality.Report {
		all, err := projections.SummarizeQuality(ctx, pool, projections.QualityFilter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]quality.Report{}
		for _, rep := range all.Reports {
			out[rep.DemandID] = rep
		}
		return out
	}
	scored := reports()
	irrelevant := 0
	for _, rep := range scored {
		irrelevant += rep.Root.IrrelevantAssignees + rep.Tree.IrrelevantAssignees
	}
	if irrelevant == 0 {
		t.Fatalf("no irrelevant assignee in the trees, nothing to derive: %+v", scored)
	}
	m, err := schema.New(pool, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	// Roll back to just before the migration that derives the count: the
	// rows as the model wrote them before.
	for applied := true; applied; {
		sts, err := m.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		applied = slices.ContainsFunc(sts, func(s schema.Status) bool {
			return s.Component == "towow" && s.Version == 20 && s.Applied
		})
		if applied {
			if err := m.Down(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	var keyed int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM negotiation_quality WHERE root ? 'irrelevant_assignees' OR tree ? 'irrelevant_assignees'`).Scan(&keyed); err != nil || keyed != 0 {
		t.Fatalf("rolled back: %d rows still count irrelevant assignees (%v)", keyed, err)
	}
	if err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	got := reports()
	for id, want := range scored {
		if g := got[id]; g.Root != want.Root || g.Tree != want.Tree {
			t.Errorf("%s upgraded: root %+v tree %+v\nscored: root %+v tree %+v", id, g.Root, g.Tree, want.Root, want.Tree)
		}
	}
}

// sameMean compares a summary's means with quality.Mean's: the sums
// exactly, the averages to their rounding unit (SQL averages exactly; Go
// adds up x/n, which may round a tie the other way).
func sameMean(a, b quality.Scores) bool {
	near := func(x, y, unit float64) bool { return math.Abs(x-y) <= unit+1e-9 }
	return a.Needs == b.Needs && a.Places == b.Places && a.Assignees == b.Assignees && a.Padding == b.Padding && a.LLM == b.LLM &&
		a.IrrelevantAssignees == b.IrrelevantAssignees &&
		near(a.NeedCoverage, b.NeedCoverage, 0.001) && near(a.Relevance, b.Relevance, 0.001) &&
		near(a.FinalAcceptRate, b.FinalAcceptRate, 0.001) && near(a.Stability, b.Stability, 0.001) &&
		near(a.WelfareUtilitarian, b.WelfareUtilitarian, 0.001) && near(a.WelfareNash, b.WelfareNash, 0.001) &&
		near(float64(a.Rounds), float64(b.Rounds), 1) && near(float64(a.TimeToAgreementMS), float64(b.TimeToAgreementMS), 1)
}

// treeEvents reads root's tree up to its last event of type end (of
// demand demandID, or its root channel), as quality.Read would.
func treeEvents(t *testing.T, s *eventstore.Store, root, demandID string, end event.EventType) []quality.Event {
	t.Helper()
	evs, err := quality.Read(context.Background(), s, root)
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	for i, e := range evs {
		if c, ok := e.Payload.(*negotiation.NegotiationCompleted); ok && end == negotiation.EventNegotiationCompleted && c.DemandID == demandID {
			last = i
		}
	}
	if last < 0 {
		t.Fatalf("no %s in %s", end, root)
	}
	return evs[:last+1]
}

// submittedAt is the time of a demand's submission.
func submittedAt(t *testing.T, s *eventstore.Store, demandID string) time.Time {
	t.Helper()
	evs, err := s.ReadStream(context.Background(), negotiation.DemandStream(demandID), 1, 1)
	if err != nil || len(evs) != 1 {
		t.Fatalf("submission of %s: %v", demandID, err)
	}
	return evs[0].RecordedAt
}
