package api_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/projections"
)

// TestExternalAgentNegotiation drives negotiations wholly through the API:
// only external agents are registered (by the admin API), each answers
// from its inbox with its own token, and the answers steer each branch of
// the round's acceptance thresholds: all accept → finalized; no accept → failed; half accept
// then all → a second round, then finalized; half accept every round →
// force-finalized after the last round with confirmed and optional
// participants. On the way, each refused answer (not invited, duplicate,
// wrong round, closed round) is checked to write nothing.
func TestExternalAgentNegotiation(t *testing.T) {
	a := newAPIWith(t, dbtest.NewURL(t), apiOptions{profiles: []negotiation.AgentProfile{},
		rules: negotiation.Rules{MaxRounds: 2, OfferTimeoutSeconds: 300, FeedbackTimeoutSeconds: 300, StuckTimeoutSeconds: 900, MaxDepth: 0}})
	var bulk struct{ Tokens map[string]string }
	var profiles []negotiation.AgentProfile
	for i := range 5 {
		profiles = append(profiles, externalProfile(fmt.Sprintf("user_agent_ext%d", i+1), fmt.Sprintf("外部%d号", i+1), "场地提供", "活动策划"))
	}
	outsider := externalProfile("user_agent_outsider", "外人", "财务")
	outsider.Location, outsider.Interests, outsider.Capabilities = "成都", []string{"烹饪"}, nil
	outsider.ProfileSummary = "成都的会计，做账和报税。"
	profiles = append(profiles, outsider)
	if st, p := a.do(t, "POST", "/api/v1/agents/bulk", testAdminToken, profiles, &bulk); st != 200 || len(bulk.Tokens) != 6 {
		t.Fatalf("bulk: %d %+v", st, p)
	}

	tests := []struct {
		name string
		// accepts says how many of n participants accept in round r.
		accepts   func(n, round int) int
		status    string
		rounds    int
		confirmed bool
	}{
		{"finalized", func(n, _ int) int { return n }, "finalized", 1, false},
		{"failed", func(int, int) int { return 0 }, "failed", 1, false}, // nobody accepts, all withdraw
		{"next round then finalized", func(n, r int) int {
			if r == 1 {
				return (n + 1) / 2
			}
			return n
		}, "finalized", 2, false},
		{"force-finalized", func(n, _ int) int { return (n + 1) / 2 }, "force_finalized", 2, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Five planners: every willing agent takes a place (none stands by
			// as an alternate), so all five answer every round.
			demandID, channelID := a.submit(t, "我想在北京办一场AI主题聚会，需要5位活动策划")
			ch := a.driveExternal(t, bulk.Tokens, demandID, channelID, tc.accepts)
			if ch.Status != tc.status || ch.RoundsTaken != tc.rounds && tc.status != "failed" {
				t.Fatalf("channel %s: status %s after %d rounds, want %s after %d", channelID, ch.Status, ch.RoundsTaken, tc.status, tc.rounds)
			}
			if tc.name == "finalized" {
				a.runExternalWorkflow(t, bulk.Tokens, demandID)
			}
			if tc.confirmed {
				c, err := a.engineChannel(t, channelID)
				if err != nil {
					t.Fatal(err)
				}
				n := len(c.Candidates)
				if len(c.Confirmed) != (n+1)/2 || len(c.Optional) != n-(n+1)/2 {
					t.Fatalf("force-finalized: confirmed %v optional %v of %d", c.Confirmed, c.Optional, n)
				}
			}
			// History: every invited agent has this channel with its offer
			// and one feedback per round.
			var hist api.AgentHistoryOutput
			a.getJSON(t, fmt.Sprintf("/api/v1/agents/%s/history?min_cursor=%d", ch.Invited[0], ch.LastPosition), &hist.Body)
			if len(hist.Body.Participations) == 0 || hist.Body.Participations[0].ChannelID != channelID ||
				hist.Body.Participations[0].Offer == nil || len(hist.Body.Participations[0].Feedback) == 0 {
				t.Fatalf("history of %s: %+v", ch.Invited[0], hist.Body)
			}
		})
	}

	// Notices: each external agent was told of its invitations, of the
	// proposals to review and of the plans it is part of, in its own
	// inbox, so it need not poll.
	kinds := map[string]bool{}
	for deadline := time.Now().Add(10 * time.Second); len(kinds) < 3 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var notes api.NoticesOutput
		if st, p := a.do(t, "GET", "/api/v1/notices?limit=200", bulk.Tokens["user_agent_ext1"], nil, &notes.Body); st != 200 {
			t.Fatalf("the agent's notices: %d %+v", st, p)
		}
		for _, n := range notes.Body.Notices {
			if n.Recipient != "agent:user_agent_ext1" {
				t.Fatalf("another's notice in its inbox: %+v", n)
			}
			kinds[string(n.Kind)] = true
		}
	}
	if !kinds["agent.invited"] || !kinds["proposal.review"] || !kinds["plan.final"] {
		t.Fatalf("the agent's notice kinds: %v", kinds)
	}

	// Statistics: every invitation, offer and feedback counted.
	var ag projections.AgentView
	a.getJSON(t, fmt.Sprintf("/api/v1/agents/user_agent_ext1?min_cursor=%d", a.headPosition(t)), &ag)
	if ag.Stats.Invitations != len(tests) || ag.Stats.OffersParticipate != len(tests) ||
		ag.Stats.FeedbackAccept+ag.Stats.FeedbackNegotiate != 1+2+2 || ag.Stats.FeedbackWithdraw != 1 {
		t.Fatalf("stats of user_agent_ext1: %+v", ag.Stats)
	}
}

// engineChannel folds a channel from its events.
func (a *testAPI) engineChannel(t *testing.T, channelID string) (*negotiation.Channel, error) {
	t.Helper()
	evs, err := a.store.ReadStream(context.Background(), negotiation.ChannelStream(channelID), 1, eventstore.MaxReadLimit)
	if err != nil {
		return nil, err
	}
	c := &negotiation.Channel{}
	for _, e := range evs {
		p, err := e.Decode()
		if err != nil {
			return nil, err
		}
		c.Apply(p)
	}
	return c, nil
}

// driveExternal answers every task of the external agents from their
// inboxes until the demand ends: each offers to participate; in round r,
// the first accepts(n, r) participants accept and the others negotiate. The
// first time it sees each kind of task it also tries the refused variants.
func (a *testAPI) driveExternal(t *testing.T, tokens map[string]string, demandID, channelID string,
	accepts func(n, round int) int) projections.ChannelView {
	t.Helper()
	checkedOffer, checkedFeedback := false, false
	for range 600 {
		var d demandOne
		st, _ := a.do(t, "GET", "/api/v1/demands/"+demandID, "", nil, &d)
		if st == 200 && d.Status != "processing" {
			var ch projections.ChannelView
			a.getJSON(t, fmt.Sprintf("/api/v1/channels/%s?min_cursor=%d", channelID, d.LastPosition), &ch)
			// After the end: a late feedback is refused.
			for id, tok := range tokens {
				if !slices.Contains(ch.Invited, id) {
					continue
				}
				st, p := a.do(t, "POST", "/api/v1/channels/"+channelID+"/feedback", tok,
					map[string]any{"round": max(ch.CurrentRound, 1), "feedback_type": "accept"}, nil)
				if st != 409 && st != 422 {
					t.Fatalf("feedback after the end: %d %+v", st, p)
				}
				break
			}
			return ch
		}
		progressed := false
		for id, tok := range tokens {
			var inbox api.InboxOutput
			if st, p := a.do(t, "GET", "/api/v1/agent/inbox", tok, nil, &inbox.Body); st != 200 {
				t.Fatalf("inbox of %s: %d %+v", id, st, p)
			}
			for _, task := range inbox.Body.Tasks {
				if task.ChannelID != channelID {
					continue
				}
				progressed = true
				path := "/api/v1/channels/" + channelID
				switch task.Kind {
				case "offer":
					st, p := a.do(t, "POST", path+"/offers", tok, map[string]any{"decision": "participate", "contribution": "场地和嘉宾", "confidence": 80}, nil)
					if st != 201 {
						t.Fatalf("offer of %s: %d %+v", id, st, p)
					}
					if !checkedOffer {
						checkedOffer = true
						a.expectRefused(t, "second offer", "POST", path+"/offers", tok, map[string]any{"decision": "participate", "contribution": "再来"}, 409, "TOWOW_CHANNEL_006")
						c, err := a.engineChannel(t, channelID)
						if err != nil {
							t.Fatal(err)
						}
						if out := outsiderOf(tokens, c); out != "" {
							a.expectRefused(t, "not invited", "POST", path+"/offers", tokens[out], map[string]any{"decision": "participate", "contribution": "x"}, 422, "TOWOW_CHANNEL_004")
						}
						if missing := c.MissingOffers(); len(missing) > 0 {
							a.expectRefused(t, "conditional without conditions", "POST", path+"/offers", tokens[missing[0]],
								map[string]any{"decision": "conditional", "contribution": "x"}, 422, "TOWOW_CHANNEL_008")
						}
					}
				case "feedback":
					c, err := a.engineChannel(t, channelID)
					if err != nil {
						t.Fatal(err)
					}
					members := c.RoundMembers()
					slices.Sort(members)
					kind := "negotiate"
					if slices.Index(members, id) < accepts(len(members), task.Round) {
						kind = "accept"
					} else if accepts(len(members), task.Round) == 0 {
						kind = "withdraw" // a round nobody is against does not fail (it asks for changes)
					}
					if !checkedFeedback {
						a.expectRefused(t, "wrong round", "POST", path+"/feedback", tok, map[string]any{"round": task.Round + 1, "feedback_type": "accept"}, 409, "TOWOW_PROPOSAL_005")
						if out := outsiderOf(tokens, c); out != "" {
							a.expectRefused(t, "not a participant", "POST", path+"/feedback", tokens[out], map[string]any{"round": task.Round, "feedback_type": "accept"}, 422, "TOWOW_CHANNEL_005")
						}
					}
					st, p := a.do(t, "POST", path+"/feedback", tok, map[string]any{"round": task.Round, "feedback_type": kind,
						"reasoning": "测试", "adjustment_request": "时间改到周日"}, nil)
					if st != 201 {
						t.Fatalf("feedback of %s: %d %+v", id, st, p)
					}
					if !checkedFeedback && len(c.MissingFeedback()) > 1 { // the round stays open for a second answer
						checkedFeedback = true
						a.expectRefused(t, "second feedback", "POST", path+"/feedback", tok, map[string]any{"round": task.Round, "feedback_type": "accept"}, 409, "TOWOW_CHANNEL_006")
					}
				}
			}
		}
		if !progressed {
			waitShort()
		}
	}
	t.Fatalf("demand %s did not end", demandID)
	return projections.ChannelView{}
}

// outsiderOf returns an agent with a token that the channel did not invite
// ("" if every one was invited).
func outsiderOf(tokens map[string]string, c *negotiation.Channel) string {
	for id := range tokens {
		if !c.Invited(id) {
			return id
		}
	}
	return ""
}

// expectRefused sends a request that must be refused with status and code
// (status 0: any 4xx) and checks that the log did not grow.
func (a *testAPI) expectRefused(t *testing.T, name, method, path, token string, body any, status int, code string) {
	t.Helper()
	head := a.headPosition(t)
	st, p := a.do(t, method, path, token, body, nil)
	if (status == 0 && (st < 400 || st >= 500)) || (status != 0 && (st != status || p.Code != code)) {
		t.Fatalf("%s: %d %+v, want %d %s", name, st, p, status, code)
	}
	// Other writers (the engine) may append meanwhile; none of those
	// events may be this agent's answer.
	evs, err := a.store.ReadAll(context.Background(), head, eventstore.Filter{Types: []event.EventType{
		negotiation.EventOfferSubmitted, negotiation.EventProposalFeedback}}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 0 {
		t.Fatalf("%s: refused, yet %d answers were written", name, len(evs))
	}
}

// TestExternalAgentDeadlines: an offer after the offer window closed and a
// feedback after its round timed out are refused (409) and write nothing;
// the feedback nobody gave by the round's deadline counts as accept,
// recorded as system.
func TestExternalAgentDeadlines(t *testing.T) {
	a := newAPIWith(t, dbtest.NewURL(t), apiOptions{profiles: []negotiation.AgentProfile{},
		rules: negotiation.Rules{MaxRounds: 2, OfferTimeoutSeconds: 2, FeedbackTimeoutSeconds: 2, StuckTimeoutSeconds: 900, MaxDepth: 0}})
	var bulk struct{ Tokens map[string]string }
	var profiles []negotiation.AgentProfile
	for i := range 3 {
		profiles = append(profiles, externalProfile(fmt.Sprintf("user_agent_ext%d", i+1), fmt.Sprintf("外部%d号", i+1), "场地提供", "活动策划"))
	}
	if st, p := a.do(t, "POST", "/api/v1/agents/bulk", testAdminToken, profiles, &bulk); st != 200 || len(bulk.Tokens) != 3 {
		t.Fatalf("bulk: %d %+v", st, p)
	}
	demandID, channelID := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	path := "/api/v1/channels/" + channelID
	var c *negotiation.Channel
	for range 400 { // the broadcast
		var err error
		if c, err = a.engineChannel(t, channelID); err != nil {
			t.Fatal(err)
		}
		if c.Status == negotiation.ChannelStatusCollecting {
			break
		}
		waitShort()
	}
	invited := c.MissingOffers()
	slices.Sort(invited)
	if len(invited) < 2 {
		t.Fatalf("invited %v; the test needs two external agents", invited)
	}
	late := invited[len(invited)-1]
	for _, id := range invited[:len(invited)-1] { // in time (or, on a slow machine, already late)
		st, p := a.do(t, "POST", path+"/offers", bulk.Tokens[id], map[string]any{"decision": "participate", "contribution": "场地"}, nil)
		if st != 201 && p.Code != "TOWOW_CHANNEL_007" {
			t.Fatalf("offer of %s: %d %+v", id, st, p)
		}
	}
	for range 400 { // the offer window closes
		c, _ = a.engineChannel(t, channelID)
		if c.Status != negotiation.ChannelStatusCollecting {
			break
		}
		waitShort()
	}
	a.expectRefused(t, "offer after the deadline", "POST", path+"/offers", bulk.Tokens[late],
		map[string]any{"decision": "participate", "contribution": "迟到的场地"}, 409, "TOWOW_CHANNEL_007")

	// Nobody answers the proposal: the round times out, the missing
	// feedback counts as accept, and a feedback after that is refused.
	var d demandOne
	for range 600 {
		if st, _ := a.do(t, "GET", "/api/v1/demands/"+demandID, "", nil, &d); st == 200 && d.Status != "processing" {
			break
		}
		waitShort()
	}
	c, _ = a.engineChannel(t, channelID)
	if c.Round == 0 {
		t.Skipf("no offer arrived in time on this machine (status %s); the feedback deadline was not reached", c.Status)
	}
	if c.Status != negotiation.ChannelStatusFinalized {
		t.Fatalf("channel %s after a silent round: %s, want finalized (missing feedback counts as accept)", channelID, c.Status)
	}
	var fb struct {
		Feedback []projections.FeedbackView `json:"feedback"`
	}
	a.getJSON(t, fmt.Sprintf("%s/feedback?min_cursor=%d", path, d.LastPosition), &fb)
	if len(fb.Feedback) == 0 {
		t.Fatal("no feedback recorded for the silent round")
	}
	for _, f := range fb.Feedback {
		if f.Actor != event.ActorSystem || f.FeedbackType != "accept" {
			t.Fatalf("timed-out feedback %+v, want accept by system", f)
		}
	}
	member := fb.Feedback[0].AgentID
	var stats projections.AgentView
	a.getJSON(t, fmt.Sprintf("/api/v1/agents/%s?min_cursor=%d", member, d.LastPosition), &stats)
	if stats.Stats.FeedbackTimedOut != 1 || stats.Stats.FeedbackAccept != 0 {
		t.Fatalf("stats of %s after a timed-out round: %+v, want 1 timed out, 0 accepted", member, stats.Stats)
	}
	st, p := a.do(t, "POST", path+"/feedback", bulk.Tokens[member], map[string]any{"round": 1, "feedback_type": "negotiate"}, nil)
	if st != 409 || (p.Code != "TOWOW_PROPOSAL_006" && p.Code != "TOWOW_PROPOSAL_005" && p.Code != "TOWOW_CHANNEL_006") {
		t.Fatalf("feedback after the round closed: %d %+v", st, p)
	}
}

// runExternalWorkflow executes the workflow of an agreement between
// external agents: each finds its running task in its inbox and reports
// it done with its token (a report by another agent is refused first);
// the workflow completes.
func (a *testAPI) runExternalWorkflow(t *testing.T, tokens map[string]string, demandID string) {
	t.Helper()
	id := workflow.WorkflowIDFor(demandID)
	var w api.WorkflowView
	if st, p := a.do(t, "GET", "/api/v1/workflows/"+id, "", nil, &w); st != 200 || w.Status != workflow.WorkflowStatusDraft {
		t.Fatalf("workflow: %d %+v %+v", st, p, w)
	}
	if st, p := a.do(t, "POST", "/api/v1/workflows/"+id+"/decisions", "", map[string]any{"decision_type": "execute_workflow",
		"base_version": w.Version}, nil); st != 200 {
		t.Fatalf("execute: %d %+v", st, p)
	}
	checked := false
	for range 600 {
		a.do(t, "GET", "/api/v1/workflows/"+id, "", nil, &w)
		if w.Status != workflow.WorkflowStatusRunning {
			break
		}
		for agent, tok := range tokens {
			var inbox api.InboxOutput
			if st, p := a.do(t, "GET", "/api/v1/agent/inbox", tok, nil, &inbox.Body); st != 200 {
				t.Fatalf("inbox of %s: %d %+v", agent, st, p)
			}
			for _, task := range inbox.Body.Tasks {
				if task.Kind != "task" || task.WorkflowID != id {
					continue
				}
				path := "/api/v1/workflows/" + id + "/nodes/" + task.Node.ID + "/report"
				if !checked {
					checked = true
					for other, otherTok := range tokens {
						if other != agent {
							a.expectRefused(t, "someone else's task", "POST", path, otherTok, map[string]string{"status": "done", "summary": "x"}, 422, "TOWOW_WORKFLOW_003")
							break
						}
					}
				}
				if st, p := a.do(t, "POST", path, tok, map[string]string{"status": "done", "summary": "已完成 " + task.Node.Title}, nil); st != 200 {
					t.Fatalf("report of %s: %d %+v", agent, st, p)
				}
			}
		}
		waitShort()
	}
	if w.Status != workflow.WorkflowStatusCompleted || !checked {
		t.Fatalf("workflow %s (a task seen in an inbox: %v)", w.Status, checked)
	}
}
