package projections_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	evt "github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/projections"
)

// TestSQLRebuildEqualsFold appends hand-built events of every shape the
// demands, channels, agents, quality and workflows models fold — payloads as Go
// writes them and as it would never write them (fields absent or null,
// omitempty zero values, null list elements, odd times, duplicates, events
// before the row they update exists, force-finalized channels, agent
// updates and (de)activations), some carrying an LLM call in their
// metadata — in random order over a few streams, with finished, running
// and sub-negotiations (qualityTrees) and workflow streams
// (workflowStreams) woven in, then checks that every read
// model's SQL rebuild (RebuildUpTo) gives exactly the rows of the live
// event-by-event fold.
func TestSQLRebuildEqualsFold(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			pool := dbtest.New(t)
			s := eventstore.New(pool, eventstore.Options{})
			ctx := context.Background()
			g := gen{rng: rand.New(rand.NewPCG(seed, 77)), llm: rand.New(rand.NewPCG(seed, 78))}
			// Finished negotiations for the quality model (the random
			// events end few root negotiations), woven into the random
			// ones by a source of their own.
			trees := append(qualityTrees(fmt.Sprint(seed), "u1"), qualityTrees(fmt.Sprint(seed)+"b", "u2")...)
			weave := rand.New(rand.NewPCG(seed, 79))
			// Workflow streams for the workflows model, woven in by a
			// source of their own too.
			flows := workflowStreams(rand.New(rand.NewPCG(seed, 80)), fmt.Sprint(seed))
			weaveFlows := rand.New(rand.NewPCG(seed, 81))
			for i := range 400 {
				for len(trees) > 0 && weave.IntN(400-i) < len(trees) {
					appendScripted(t, s, trees[:1])
					trees = trees[1:]
				}
				for len(flows) > 0 && weaveFlows.IntN(400-i) < len(flows) {
					appendScripted(t, s, flows[:1])
					flows = flows[1:]
				}
				typ, payload, md := g.event()
				body, err := json.Marshal(payload)
				if err != nil {
					t.Fatal(err)
				}
				ev := eventstore.EventData{Type: typ, Payload: body, Metadata: md}
				if _, err := s.Append(ctx, fmt.Sprintf("t-%d", i%9), eventstore.AnyVersion, ev); err != nil {
					t.Fatal(err)
				}
			}
			appendScripted(t, s, trees)
			appendScripted(t, s, flows)
			r := projections.NewRunner(pool, s, nil, nil)
			for _, m := range projections.All() {
				d, ok := m.(interface{ Model() projections.Model })
				if _, sql := m.(projections.SQLRebuilder); !sql || !ok || d.Model().Rebuild == nil {
					t.Fatalf("%s has no SQL rebuild", m.Name())
				}
				if _, err := r.CatchUp(ctx, m); err != nil {
					t.Fatalf("live fold of %s: %v", m.Name(), err)
				}
				live, err := m.Checksum(ctx, pool)
				if err != nil {
					t.Fatal(err)
				}
				liveRows := tableRows(t, pool, m.Name())
				if live.Rows == 0 {
					t.Fatalf("%s: no rows folded", m.Name())
				}
				if _, err := r.Rebuild(ctx, m); err != nil {
					t.Fatal(err)
				}
				rebuilt, err := m.Checksum(ctx, pool)
				if err != nil {
					t.Fatal(err)
				}
				if rebuilt != live {
					t.Errorf("%s: SQL rebuild %+v, live fold %+v", m.Name(), rebuilt, live)
					got := tableRows(t, pool, m.Name())
					for _, row := range liveRows {
						if !slices.Contains(got, row) {
							t.Errorf("live fold only: %s", row)
						}
					}
					for _, row := range got {
						if !slices.Contains(liveRows, row) {
							t.Errorf("SQL rebuild only: %s", row)
						}
					}
				}
			}
		})
	}
}

// tableRows returns the rows of a model's tables as text, to show how a
// rebuild differs.
func tableRows(t *testing.T, pool *pgxpool.Pool, model string) []string {
	t.Helper()
	tables := map[string][]string{"streams": {"streams"}, "demands": {"demands"}, "agents": {"agents", "agent_invitations"},
		"channels": {"channels", "channel_proposals", "channel_offers", "channel_feedback"}, "llm_calls": {"llm_calls"},
		"quality": {"negotiation_quality", "negotiation_quality_places"}, "workflows": {"workflows", "workflow_open_nodes"}}[model]
	var out []string
	for _, table := range tables {
		rows, err := pool.Query(context.Background(), "SELECT '"+table+" ' || t::text FROM "+table+" t")
		if err != nil {
			t.Fatal(err)
		}
		texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, texts...)
	}
	return out
}

// gen makes random events over a few ids, so that events meet: duplicates,
// updates before and after the row exists, agents named before and after
// their registration. llm draws the LLM calls of the metadata (its own
// source, so rng gives the same events as before calls were added).
type gen struct{ rng, llm *rand.Rand }

type obj = map[string]any

func (g gen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g gen) chance(n int) bool        { return g.rng.IntN(n) == 0 }

func (g gen) demandID() string  { return g.pick("d1", "d2", "d3", "d4") }
func (g gen) channelID() string { return g.pick("c1", "c2", "c3", "c4", "") }
func (g gen) agentID() string   { return g.pick("a1", "a2", "a3", "a4", "a5", "") }

// put sets o[k] = v, or leaves k out, or sets it to null (a JSON null
// decodes to the zero value in Go).
func (g gen) put(o obj, k string, v any) {
	switch g.rng.IntN(8) {
	case 0: // absent
	case 1:
		o[k] = nil
	default:
		o[k] = v
	}
}

// text is a string field's value: sometimes empty.
func (g gen) text(s string) string {
	if g.chance(4) {
		return ""
	}
	return s
}

// list is a []string field's value: empty, with a null element, a
// duplicate, or agent ids.
func (g gen) list() any {
	switch g.rng.IntN(6) {
	case 0:
		return []any{}
	case 1:
		return []any{g.agentID(), nil}
	case 2:
		a := g.agentID()
		return []any{a, a}
	default:
		n := 1 + g.rng.IntN(3)
		out := make([]any, n)
		for i := range out {
			out[i] = g.agentID()
		}
		return out
	}
}

func (g gen) metadata() evt.Metadata {
	md := evt.Metadata{}
	if !g.chance(3) {
		md.CorrelationID = g.demandID()
	}
	switch g.rng.IntN(3) {
	case 0:
		md.Actor = evt.ActorSystem
	case 1:
		md.Actor = evt.AgentActor(g.agentID())
	}
	if g.llm.IntN(3) == 0 {
		md.LLMCall = g.llmCall()
	}
	return md
}

// llmCall is a call record, sometimes with its optional fields zero.
func (g gen) llmCall() *evt.LLMCall {
	c := &evt.LLMCall{PromptKey: "response_generation", Provider: "scripted", Model: "m-1",
		LatencyMS: g.llm.Int64N(5000), InputTokens: g.llm.IntN(900), OutputTokens: g.llm.IntN(300),
		Outcome: evt.LLMOutcomeOK}
	switch g.llm.IntN(4) {
	case 0:
		c.Outcome, c.FallbackUsed, c.Error, c.OutputTokens = evt.LLMOutcomeTimeout, true, "context deadline exceeded", 0
	case 1:
		c.Model, c.InputTokens, c.OutputTokens, c.LatencyMS = "", 0, 0, 0
	case 2:
		c.Attempts = []evt.LLMAttempt{{Outcome: evt.LLMOutcomeParseError, Error: "invalid reply: \"x\"", LatencyMS: 12},
			{Outcome: evt.LLMOutcomeError, Error: "503"}, {Outcome: evt.LLMOutcomeOK, LatencyMS: 40}}
	}
	return c
}

// proposal is a negotiation.Proposal as Go encodes it, then randomly mutated
// into shapes Go decodes to the same struct but never writes.
func (g gen) proposal() any {
	p := negotiation.Proposal{ProposalID: "prop-1", DemandID: g.demandID(), Version: 1 + g.rng.IntN(3),
		Type: negotiation.ProposalType(g.pick("normal", "compromise")), Summary: "s", Objective: "o",
		Assignments: []negotiation.Assignment{{AgentID: g.agentID(), DisplayName: "n", Role: "r", Responsibility: "x",
			Dependencies: []string{"a1"}, Notes: "note", ConditionsAccepted: g.chance(2)}, {AgentID: "a2", Role: "r2"}},
		Timeline:  &negotiation.Timeline{StartDate: "soon", Milestones: []negotiation.Milestone{{Name: "m", Date: "d", Deliverable: "x"}}},
		Rationale: "why", Gaps: []string{"g"}, Confidence: negotiation.ConfidenceHigh, OpenQuestions: []string{"q"},
		Compromises: []negotiation.Compromise{{Issue: "i", Resolution: "r", Rationale: "w"}}, Unresolved: []string{"u"},
		Suggestions: []string{"s"}, AdjustmentSummary: &negotiation.AdjustmentSummary{Round: 2,
			ChangesMade:       []negotiation.ProposalChange{{Aspect: "a", Before: "b", After: "c", Reason: "r"}},
			RequestsAddressed: []string{"x"}, RequestsDeclined: []negotiation.DeclinedRequest{{Request: "q", Reason: "r"}}},
		CreatedAt: time.Date(2026, 5, 1, 10, 0, 0, 500_000_000, time.UTC)}
	if g.chance(4) {
		return p // as Go writes it
	}
	var o obj
	b, _ := json.Marshal(p)
	_ = json.Unmarshal(b, &o)
	for range 1 + g.rng.IntN(4) {
		g.mutateProposal(o)
	}
	return o
}

func (g gen) mutateProposal(o obj) {
	keys := []string{"proposal_id", "demand_id", "version", "type", "summary", "objective", "assignments", "timeline",
		"rationale", "gaps", "confidence", "open_questions", "compromises", "unresolved", "suggestions",
		"adjustment_summary", "created_at"}
	k := keys[g.rng.IntN(len(keys))]
	switch g.rng.IntN(4) {
	case 0:
		delete(o, k)
	case 1:
		o[k] = nil
	case 2: // the zero value, which omitempty leaves out
		switch k {
		case "version":
			o[k] = 0
		case "assignments", "gaps", "open_questions", "compromises", "unresolved", "suggestions":
			o[k] = []any{}
		case "timeline", "adjustment_summary":
			o[k] = obj{}
		case "created_at":
			o[k] = g.pick("0001-01-01T00:00:00Z", "2026-05-01T10:00:00.500000000+00:00", "2026-05-01T18:00:00+08:00",
				"2026-05-01T10:00:00.000Z")
		default:
			o[k] = ""
		}
	default: // inside the nested lists and objects
		if as, ok := o["assignments"].([]any); ok && len(as) > 0 {
			if g.chance(3) {
				as[0] = nil
			} else if a, ok := as[len(as)-1].(obj); ok {
				g.put(a, g.pick("agent_id", "display_name", "role", "responsibility", "notes", "conditions_accepted"), "")
				if _, ok := a["conditions_accepted"].(string); ok {
					a["conditions_accepted"] = false
				}
				g.put(a, "dependencies", []any{nil})
			}
		}
		if tl, ok := o["timeline"].(obj); ok {
			g.put(tl, "milestones", []any{obj{"name": "m"}, nil})
		}
		if s, ok := o["adjustment_summary"].(obj); ok {
			g.put(s, "changes_made", []any{obj{"aspect": "a", "before": nil}})
			g.put(s, "requests_addressed", []any{})
			g.put(s, "requests_declined", []any{nil})
		}
		if cs, ok := o["compromises"].([]any); ok && len(cs) > 0 {
			cs[0] = obj{"issue": "only"}
		}
		g.put(o, "gaps", []any{"g", nil})
	}
}

// profile is a negotiation.AgentProfile as Go encodes it, or mutated.
func (g gen) profile() any {
	p := negotiation.AgentProfile{AgentID: g.agentID(), UserName: g.text("Bob"), ProfileSummary: "sum", Location: g.text("Paris"),
		Tags: []string{"t1", "t2"}, Capabilities: map[string]string{"k": "v"}, Interests: []string{"i"},
		Availability: "weekends", Mode: negotiation.AgentMode(g.pick("", "twin", "external"))}
	if g.chance(3) {
		return p
	}
	var o obj
	b, _ := json.Marshal(p)
	_ = json.Unmarshal(b, &o)
	for range 1 + g.rng.IntN(3) {
		k := g.pick("agent_id", "user_name", "profile_summary", "location", "tags", "capabilities", "interests",
			"availability", "mode")
		switch g.rng.IntN(4) {
		case 0:
			delete(o, k)
		case 1:
			o[k] = nil
		case 2:
			switch k {
			case "tags", "interests":
				o[k] = []any{}
			case "capabilities":
				o[k] = obj{}
			default:
				o[k] = ""
			}
		default:
			switch k {
			case "tags", "interests":
				o[k] = []any{"x", nil}
			case "capabilities":
				o[k] = obj{"k": nil, "j": "w"}
			case "mode":
				o[k] = "external"
			}
		}
	}
	return o
}

func (g gen) event() (evt.EventType, obj, evt.Metadata) {
	o := obj{}
	var t evt.EventType
	switch g.rng.IntN(20) {
	case 0:
		t = negotiation.EventDemandSubmitted
		o["demand_id"] = g.demandID()
		g.put(o, "user_id", g.text("u1"))
		g.put(o, "raw_input", "need a venue")
		g.put(o, "root_demand_id", g.text(g.demandID()))
		g.put(o, "parent_demand_id", g.text(g.demandID()))
		g.put(o, "parent_channel_id", g.text(g.channelID()))
		g.put(o, "recursion_depth", g.rng.IntN(2))
	case 1:
		t = negotiation.EventDemandUnderstood
		o["demand_id"] = g.demandID()
		o["surface_demand"] = "venue"
		g.put(o, "capability_tags", g.list())
		o["confidence"] = "high"
	case 2:
		t = negotiation.EventDemandAccepted
		o["demand_id"] = g.demandID()
		g.put(o, "channel_id", g.channelID())
		o["candidate_count"] = 2
	case 3:
		t = negotiation.EventNegotiationCompleted
		g.put(o, "channel_id", g.channelID())
		o["demand_id"] = g.demandID()
		g.put(o, "status", g.pick("finalized", "force_finalized", "failed", ""))
		g.put(o, "final_proposal", g.proposal())
		g.put(o, "merged_plan", g.proposal())
		g.put(o, "rounds_taken", g.rng.IntN(3))
	case 4:
		t = negotiation.EventNegotiationFailed
		g.put(o, "channel_id", g.channelID())
		o["demand_id"] = g.demandID()
		g.put(o, "reason", g.pick("low_acceptance", "no_candidates", ""))
		g.put(o, "error_code", g.text("TOWOW_FILTER_001"))
	case 5, 6:
		t = negotiation.EventChannelCreated
		o["channel_id"] = g.channelID()
		g.put(o, "demand_id", g.demandID())
		o["participants_count"] = 2
		g.put(o, "invited_agents", g.list())
		g.put(o, "parent_channel", g.text(g.channelID()))
		g.put(o, "root_demand_id", g.text(g.demandID()))
		g.put(o, "recursion_depth", g.rng.IntN(2))
	case 7:
		t = negotiation.EventChannelStatusChanged
		o["channel_id"] = g.channelID()
		o["old_status"] = "created"
		g.put(o, "new_status", g.pick("collecting", "negotiating", ""))
	case 8:
		t = negotiation.EventProposalDistributed
		o["channel_id"] = g.channelID()
		o["demand_id"] = g.demandID()
		g.put(o, "proposal", g.proposal())
		g.put(o, "round", 1+g.rng.IntN(3))
	case 9, 10:
		t = negotiation.EventProposalFeedback
		o["channel_id"] = g.channelID()
		o["demand_id"] = g.demandID()
		o["agent_id"] = g.agentID()
		g.put(o, "proposal_version", 1+g.rng.IntN(2))
		g.put(o, "round", g.rng.IntN(3))
		g.put(o, "feedback_type", g.pick("accept", "negotiate", "withdraw", "reject"))
		o["reasoning"] = g.text("ok")
		g.put(o, "adjustment_request", g.text("more"))
		g.put(o, "concerns", g.list())
	case 11:
		t = negotiation.EventProposalFinalized
		o["channel_id"] = g.channelID()
		o["demand_id"] = g.demandID()
		g.put(o, "final_proposal", g.proposal())
		o["participants_count"] = 2
		g.put(o, "rounds_taken", g.rng.IntN(3))
		g.put(o, "participants", g.list())
	case 12:
		t = negotiation.EventNegotiationForceFinalized
		o["channel_id"] = g.channelID()
		o["demand_id"] = g.demandID()
		g.put(o, "final_proposal", g.proposal())
		g.put(o, "confirmed_participants", g.list())
		g.put(o, "optional_participants", g.list())
		g.put(o, "rounds_taken", g.rng.IntN(6))
		o["accept_rate"] = 0.6
	case 13, 14:
		t = negotiation.EventOfferSubmitted
		o["channel_id"] = g.channelID()
		o["agent_id"] = g.agentID()
		o["demand_id"] = g.demandID()
		g.put(o, "display_name", g.text("Bob"))
		g.put(o, "decision", g.pick("participate", "conditional", "decline", ""))
		g.put(o, "contribution", "venue")
		g.put(o, "conditions", g.list())
		g.put(o, "reasoning", g.text("fits"))
		g.put(o, "decline_reason", g.text("busy"))
		g.put(o, "confidence", g.rng.IntN(100))
	case 15:
		t = negotiation.EventAgentRegistered
		o["agent_id"] = g.agentID()
		g.put(o, "profile", g.profile())
	case 16:
		t = negotiation.EventAgentUpdated
		o["agent_id"] = g.agentID()
		g.put(o, "profile", g.profile())
	case 17:
		t = negotiation.EventChannelInviteSent // a fork's add_agent
		o["channel_id"] = g.channelID()
		g.put(o, "agent_id", g.agentID())
		g.put(o, "demand_id", g.demandID())
		g.put(o, "display_name", g.text("Bob"))
		o["demand_summary"] = "venue"
	case 18:
		t = negotiation.EventNegotiationForked
		o["demand_id"] = g.demandID()
		g.put(o, "forked_from", g.text(g.demandID()))
		o["at"] = 12
	default:
		t = evt.EventType(g.pick(string(negotiation.EventAgentDeactivated), string(negotiation.EventAgentReactivated),
			string(negotiation.EventAgentTokenIssued), string(negotiation.EventAgentOnline), string(negotiation.EventAgentOffline)))
		o["agent_id"] = g.agentID()
		switch t {
		case negotiation.EventAgentTokenIssued:
			o["token_sha256"] = "abc"
		case negotiation.EventAgentOnline:
			o["agent_type"] = "user_agent"
			g.put(o, "capabilities", g.list())
		case negotiation.EventAgentOffline:
			g.put(o, "reason", g.text("silent for 5m0s"))
		}
	}
	return t, o, g.metadata()
}

// TestSQLRebuildSchemaVersions: the SQL rebuilds read payloads as stored,
// so every type they fold must still be at the schema version they know.
func TestSQLRebuildSchemaVersions(t *testing.T) {
	for _, m := range projections.All() {
		typed, ok := m.(projections.Typed)
		if _, sql := m.(projections.SQLRebuilder); !sql || !ok {
			continue
		}
		for _, typ := range typed.Types() {
			spec, _ := evt.Spec(typ)
			if spec.SchemaVersion != 1 || !slices.Equal(spec.KnownVersions(), []int{1}) {
				t.Errorf("%s: %s is at schema version %d: update the model's SQL rebuild (queries/) and sqlPayloadVersion",
					m.Name(), typ, spec.SchemaVersion)
			}
		}
	}
}

// TestModelsDeclared: every read model is one complete declaration, and
// its methods are the declaration's.
func TestModelsDeclared(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range projections.All() {
		d, ok := m.(interface{ Model() projections.Model })
		if !ok {
			t.Fatalf("%s is not declared by a Model", m.Name())
		}
		decl := d.Model()
		if decl.Name == "" || decl.Apply == nil || decl.Reset == nil || decl.Rebuild == nil || decl.Checksum == nil {
			t.Errorf("%s: incomplete declaration %+v", m.Name(), decl)
		}
		if m.Name() != decl.Name || seen[decl.Name] {
			t.Errorf("read model %q (declared %q) is not unique", m.Name(), decl.Name)
		}
		seen[decl.Name] = true
		if typed, ok := m.(projections.Typed); !ok || !slices.Equal(typed.Types(), decl.Types) {
			t.Errorf("%s: Types() differs from its declaration", decl.Name)
		}
		if by, ok := projections.ByName(decl.Name); !ok || by != m {
			t.Errorf("ByName(%q) = %v, %v", decl.Name, by, ok)
		}
	}
}
