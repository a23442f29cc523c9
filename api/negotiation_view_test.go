package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/negotiation"
)

// TestNegotiationView reads negotiation trees through GET
// /api/v1/negotiations/{demand_id}/view: a finalized tree with a
// sub-negotiation shows every channel as the domain folds it (candidates
// with their reasons and scores, offers, the latest proposal and its
// feedback, the outcome, the gaps and the sub-negotiation filling one, the
// merged plan), as of its cursor; at an earlier cursor it is the tree as it
// was then; a sub-demand's view is its own sub-tree; a rejected demand
// shows its questions and its failure's suggestion; an unknown demand, or
// one not submitted yet at the cursor, is 404.
func TestNegotiationView(t *testing.T) {
	a := newAPI(t)
	// The builtin brain finds a gap in this one and opens a sub-negotiation.
	id, channelID := a.submit(t, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	msgs := a.follow(t, id, 0, false, func([]message) bool { return false })
	last := msgs[len(msgs)-1].id

	var v api.NegotiationView
	if st, p := a.do(t, http.MethodGet, "/api/v1/negotiations/"+id+"/view", "", nil, &v); st != http.StatusOK {
		t.Fatalf("view: %d %+v", st, p)
	}
	if v.DemandID != id || v.RootDemandID != id || v.ChannelID != channelID || v.Cursor < last || v.RawInput == "" ||
		v.Understanding == nil || len(v.Understanding.CapabilityTags) == 0 || v.Rejection != nil || v.Failure != nil || v.Fork != nil {
		t.Fatalf("the demand's view: %+v (stream ended at %d)", v, last)
	}
	if len(v.Channels) < 2 || v.Channels[0].ChannelID != channelID {
		t.Fatalf("channels %+v: want the root's first and a sub-negotiation", v.Channels)
	}
	byID := map[string]api.NegotiationChannel{}
	for _, c := range v.Channels {
		byID[c.ChannelID] = c
		a.checkViewChannel(t, v, c)
	}
	root := v.Channels[0]
	if !root.Completed || root.MergedPlan == nil || len(root.Gaps) == 0 {
		t.Fatalf("root channel: completed %v, merged plan %v, gaps %+v", root.Completed, root.MergedPlan, root.Gaps)
	}
	filled := 0
	for _, g := range root.Gaps {
		if g.GapType == "" || g.Reason == "" {
			t.Errorf("gap %+v", g)
		}
		if g.SubChannelID == "" {
			continue
		}
		filled++
		sub, ok := byID[g.SubChannelID]
		if !ok || sub.ParentChannelID != channelID || sub.Depth != 1 || sub.DemandID != g.SubDemandID || !sub.Completed {
			t.Errorf("gap %s: sub-negotiation %+v", g.GapType, sub)
		}
	}
	if filled == 0 {
		t.Fatalf("no gap names its sub-negotiation: %+v", root.Gaps)
	}
	for _, c := range root.Candidates {
		if v.Names[c.AgentID] == "" {
			t.Errorf("no name for candidate %s", c.AgentID)
		}
	}

	// A sub-demand's view is its own sub-tree.
	subID := root.Gaps[slices.IndexFunc(root.Gaps, func(g api.NegotiationGap) bool { return g.SubChannelID != "" })].SubDemandID
	var sv api.NegotiationView
	if st, p := a.do(t, http.MethodGet, "/api/v1/negotiations/"+subID+"/view", "", nil, &sv); st != http.StatusOK ||
		sv.RootDemandID != id || len(sv.Channels) == 0 || sv.Channels[0].ChannelID != sv.ChannelID || sv.Channels[0].Depth != 1 {
		t.Fatalf("sub-demand %s's view: %d %+v %+v", subID, st, p, sv)
	}

	// At the first proposal: round 1, v1 under review, nothing ended, no
	// sub-negotiation yet.
	first := msgs[slices.IndexFunc(msgs, func(m message) bool { return m.ev.EventType == string(negotiation.EventProposalDistributed) })].id
	var early api.NegotiationView
	a.do(t, http.MethodGet, fmt.Sprintf("/api/v1/negotiations/%s/view?at=%d", id, first), "", nil, &early)
	if r := early.Channels; early.Cursor != first || len(r) != 1 || r[0].Proposal == nil || r[0].Proposal.Version != 1 ||
		r[0].ProposalRound != 1 || r[0].Round != 1 || r[0].Outcome != nil || r[0].Completed || len(r[0].Feedback) != 0 {
		t.Fatalf("the view at the first proposal (%d): %+v", first, early)
	}

	// A rejected demand: its questions, and its failure's suggestion.
	x, _ := a.submit(t, "x")
	a.follow(t, x, 0, false, failedWithCode)
	var xv api.NegotiationView
	a.do(t, http.MethodGet, "/api/v1/negotiations/"+x+"/view", "", nil, &xv)
	if r := xv.Rejection; r == nil || r.Reason != negotiation.RejectUnclear || len(r.Questions) == 0 || r.Suggestion == "" ||
		xv.Failure == nil || xv.Failure.Reason != negotiation.FailureDemandRejected || xv.Failure.Suggestion == "" ||
		xv.ChannelID != "" || len(xv.Channels) != 0 || xv.Names == nil {
		t.Fatalf("the rejected demand's view: %+v", xv)
	}

	// Unknown, or not yet submitted at the cursor: 404.
	if st, p := a.do(t, http.MethodGet, "/api/v1/negotiations/d-000000000000/view", "", nil, nil); st != http.StatusNotFound || p.Code == "" {
		t.Fatalf("unknown demand: %d %+v", st, p)
	}
	if st, _ := a.do(t, http.MethodGet, fmt.Sprintf("/api/v1/negotiations/%s/view?at=%d", x, first), "", nil, nil); st != http.StatusNotFound {
		t.Fatalf("a demand before its submission: %d", st)
	}
}

// checkViewChannel checks one channel of a view against the channel the
// domain folds from its stream.
func (a *testAPI) checkViewChannel(t *testing.T, v api.NegotiationView, c api.NegotiationChannel) {
	t.Helper()
	want, err := a.engineChannel(t, c.ChannelID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != want.Status || c.Round != want.Round || c.MaxRounds != want.Rules.MaxRounds || c.Completed != want.Completed ||
		len(c.Candidates) != len(want.Candidates) || len(c.Offers) != len(want.Offers) || c.Proposal == nil ||
		c.Proposal.Version != want.Proposal.Version || c.ProposalRound != want.Round {
		t.Errorf("channel %s: %+v\nthe domain's fold: status %s round %d", c.ChannelID, c, want.Status, want.Round)
	}
	for _, cand := range c.Candidates {
		if cand.Reason == "" || cand.RelevanceScore <= 0 {
			t.Errorf("channel %s: candidate %+v without its reason or score", c.ChannelID, cand)
		}
	}
	for _, o := range c.Offers {
		if o.Decision == "" || !want.Invited(o.AgentID) {
			t.Errorf("channel %s: offer %+v", c.ChannelID, o)
		}
	}
	if len(c.Feedback) == 0 {
		t.Errorf("channel %s: no feedback on v%d", c.ChannelID, c.Proposal.Version)
	}
	for _, f := range c.Feedback {
		if f.ProposalVersion != c.Proposal.Version || f.FeedbackType == "" || f.Actor == "" {
			t.Errorf("channel %s: feedback %+v", c.ChannelID, f)
		}
	}
	o := c.Outcome
	if o == nil || o.Kind != string(c.Status) || o.Proposal == nil || o.Rounds != want.RoundsTaken ||
		(o.Kind == string(negotiation.ChannelStatusFinalized) && len(o.Participants) == 0) {
		t.Errorf("channel %s (%s): outcome %+v", c.ChannelID, c.Status, o)
	}
	if v.Names == nil {
		t.Errorf("no names")
	}
}
