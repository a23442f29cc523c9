package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/bench"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/projections"
)

// getJSON GETs path and decodes the body into v, returning the status.
func (a *testAPI) getJSON(t *testing.T, path string, v any) int {
	t.Helper()
	resp, err := http.Get(a.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %d, body not JSON: %v", path, resp.StatusCode, err)
	}
	return resp.StatusCode
}

type demandPage struct {
	Demands    []projections.DemandView `json:"demands"`
	NextCursor int64                    `json:"next_cursor"`
}

type demandOne struct {
	projections.DemandView
	SubNegotiations []projections.DemandView `json:"sub_negotiations"`
}

// TestDemandViewsAndRebuild runs randomized negotiations through the API,
// reads them back through the demand read model (list with filters and
// pages, get with sub-negotiations, read-your-writes), then rebuilds every
// read model from the log and proves it row-for-row identical to the one
// built live.
func TestDemandViewsAndRebuild(t *testing.T) {
	a := newAPI(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 4))
	users := map[string][]string{} // user → demand ids, oldest first
	var last int64
	for i := range 6 {
		user := fmt.Sprintf("user-%d", i%2)
		id, _ := a.submitAs(t, user, bench.SampleDemands[r.IntN(len(bench.SampleDemands))])
		users[user] = append(users[user], id)
		msgs := a.follow(t, id, 0, false, func(ms []message) bool { return len(ms) > 0 && rootDone(ms[len(ms)-1], id) })
		last = max(last, msgs[len(msgs)-1].id)
	}

	// Every root demand, paged two at a time, newest first.
	var all []projections.DemandView
	cursor := int64(0)
	for page := 0; ; page++ {
		var p demandPage
		path := fmt.Sprintf("/api/v1/demands?limit=2&min_cursor=%d", last)
		if cursor > 0 {
			path += fmt.Sprintf("&cursor=%d", cursor)
		}
		if st := a.getJSON(t, path, &p); st != 200 {
			t.Fatalf("GET %s: %d", path, st)
		}
		all = append(all, p.Demands...)
		if p.NextCursor == 0 || page > 10 {
			break
		}
		cursor = p.NextCursor
	}
	if len(all) != 6 {
		t.Fatalf("listed %d root demands, submitted 6", len(all))
	}
	if !slices.IsSortedFunc(all, func(x, y projections.DemandView) int { return int(y.Cursor - x.Cursor) }) {
		t.Fatal("demands not newest first")
	}
	for user, ids := range users {
		var p demandPage
		a.getJSON(t, "/api/v1/demands?user_id="+user, &p)
		var got []string
		for _, d := range p.Demands {
			got = append(got, d.DemandID)
		}
		slices.Reverse(got)
		if !slices.Equal(got, ids) {
			t.Errorf("user %s: listed %v, submitted %v", user, got, ids)
		}
	}
	for _, status := range []string{"completed", "failed"} {
		var p demandPage
		a.getJSON(t, "/api/v1/demands?include_sub=true&status="+status, &p)
		for _, d := range p.Demands {
			if d.Status != status {
				t.Errorf("status=%s listed %s in %s", status, d.DemandID, d.Status)
			}
		}
	}

	// One demand in full: understanding, channel, outcome, sub-negotiations.
	for _, d := range all {
		var one demandOne
		if st := a.getJSON(t, "/api/v1/demands/"+d.DemandID, &one); st != 200 {
			t.Fatalf("get %s: %d", d.DemandID, st)
		}
		if one.ChannelID != negotiation.ChannelIDFor(d.DemandID) || one.Understanding == nil || len(one.Understanding.CapabilityTags) == 0 || one.Outcome == "" ||
			one.Status == "processing" || (one.Outcome == "finalized" && (one.FinalProposal == nil || len(one.FinalProposal.Assignments) == 0)) {
			t.Errorf("demand %s incomplete: %+v", d.DemandID, one.DemandView)
		}
		for _, sub := range one.SubNegotiations {
			if sub.ParentDemandID != d.DemandID || sub.RootDemandID != d.DemandID || sub.Depth != 1 {
				t.Errorf("sub-negotiation %+v of %s", sub, d.DemandID)
			}
		}
	}

	// Each root channel through the channels read model, checked against
	// the log itself.
	for _, d := range all {
		if d.ChannelID != "" { // a demand with no candidates never opens one
			a.checkChannel(t, d.ChannelID, d.Outcome)
		}
	}

	// Read-your-writes: with the submit's cursor the new demand is there.
	id, _ := a.submit(t, "杭州的创业团队需要一位UI设计师和一位后端开发，做一个小程序")
	var evs []message
	evs = a.follow(t, id, 0, false, func(ms []message) bool { return len(ms) > 0 })
	var fresh demandOne
	if st := a.getJSON(t, fmt.Sprintf("/api/v1/demands/%s?min_cursor=%d", id, evs[0].id), &fresh); st != 200 || fresh.DemandID != id {
		t.Fatalf("read-your-writes: %d %+v", st, fresh)
	}
	a.follow(t, id, 0, false, func(ms []message) bool { return len(ms) > 0 && rootDone(ms[len(ms)-1], id) })

	// Rebuild every read model while the live runners keep running: the
	// result must equal the live build row for row.
	for _, m := range projections.All() {
		quietBy := time.Now().Add(30 * time.Second) // late timeouts settle well before
		for {
			head, err := a.store.HeadPosition(ctx)
			if err != nil {
				t.Fatal(err)
			}
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err = a.runner.WaitFor(wctx, head, m.Name())
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			live, err := m.Checksum(ctx, a.pool)
			if err != nil {
				t.Fatal(err)
			}
			res, err := a.runner.Rebuild(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			after, err := a.store.HeadPosition(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if (res.Position != head || after != head) && time.Now().Before(quietBy) {
				// An event arrived in between (a late timeout, under a
				// loaded machine several): compare again once it is quiet.
				time.Sleep(50 * time.Millisecond)
				continue
			}
			rebuilt, err := m.Checksum(ctx, a.pool)
			if err != nil {
				t.Fatal(err)
			}
			if live.Rows == 0 || live != rebuilt {
				t.Fatalf("%s: live %+v, rebuilt %+v", m.Name(), live, rebuilt)
			}
			t.Logf("%s: %d rows, %d events folded in %s", m.Name(), live.Rows, res.Events, res.Elapsed)
			break
		}
	}
}

// checkChannel compares a channel's read-model endpoints with its events.
func (a *testAPI) checkChannel(t *testing.T, channelID, outcome string) {
	t.Helper()
	evs, err := a.store.ReadStream(context.Background(), negotiation.ChannelStream(channelID), 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	count := map[event.EventType]int{}
	var upTo int64 // the channel's last event: every read below waits for it
	for _, e := range evs {
		count[e.Type]++
		upTo = max(upTo, e.Position)
	}
	at := fmt.Sprintf("min_cursor=%d", upTo)
	var c struct {
		projections.ChannelView
		SubChannels []string `json:"sub_channels"`
	}
	if st := a.getJSON(t, "/api/v1/channels/"+channelID+"?"+at, &c); st != 200 {
		t.Fatalf("get channel %s: %d", channelID, st)
	}
	if c.SubChannels == nil || len(c.SubChannels) != count[negotiation.EventSubnetTriggered] {
		t.Errorf("channel %s: sub_channels %v; the log triggered %d", channelID, c.SubChannels, count[negotiation.EventSubnetTriggered])
	}
	for _, sub := range c.SubChannels {
		var child projections.ChannelView
		if a.getJSON(t, "/api/v1/channels/"+sub+"?"+at, &child); child.ParentChannelID != channelID {
			t.Errorf("sub-channel %s of %s names parent %q", sub, channelID, child.ParentChannelID)
		}
	}
	if c.Status != outcome || c.ProposalVersion != count[negotiation.EventProposalDistributed] || len(c.Invited) == 0 {
		t.Errorf("channel %s: %+v; want status %s, %d proposals", channelID, c, outcome, count[negotiation.EventProposalDistributed])
	}
	var props struct{ Proposals []projections.ProposalView }
	a.getJSON(t, "/api/v1/channels/"+channelID+"/proposals?"+at, &props)
	for i, p := range props.Proposals {
		if p.Version != i+1 || p.Proposal.Summary == "" {
			t.Errorf("channel %s proposal %d: %+v", channelID, i, p)
		}
	}
	var offers struct{ Offers []projections.OfferView }
	a.getJSON(t, "/api/v1/channels/"+channelID+"/offers?"+at, &offers)
	var fb struct{ Feedback []projections.FeedbackView }
	a.getJSON(t, "/api/v1/channels/"+channelID+"/feedback?"+at, &fb)
	var fb1 struct{ Feedback []projections.FeedbackView }
	a.getJSON(t, "/api/v1/channels/"+channelID+"/feedback?proposal_version=1&"+at, &fb1)
	if len(props.Proposals) != count[negotiation.EventProposalDistributed] || len(offers.Offers) != count[negotiation.EventOfferSubmitted] ||
		len(fb.Feedback) != count[negotiation.EventProposalFeedback] || len(fb1.Feedback) == 0 || len(fb1.Feedback) > len(fb.Feedback) {
		t.Errorf("channel %s: %d proposals, %d offers, %d feedback (%d on v1); the log has %v", channelID,
			len(props.Proposals), len(offers.Offers), len(fb.Feedback), len(fb1.Feedback), count)
	}
	var parts struct{ Participants []api.Participant }
	a.getJSON(t, "/api/v1/channels/"+channelID+"/participants?"+at, &parts)
	inFinal := 0
	for _, p := range parts.Participants {
		if p.InFinal {
			inFinal++
		}
	}
	if len(parts.Participants) != len(c.Invited) || inFinal != len(c.Participants) {
		t.Errorf("channel %s participants %+v; invited %v, final %v", channelID, parts.Participants, c.Invited, c.Participants)
	}
}

// TestMinCursorBehind: a min_cursor the read model cannot reach is a 503
// with TOWOW_READMODEL_001 after the 5 s bound, not a hang.
func TestMinCursorBehind(t *testing.T) {
	a := newAPI(t)
	var p struct{ Code string }
	start := time.Now()
	if st := a.getJSON(t, "/api/v1/demands?min_cursor=9007199254740991", &p); st != 503 || p.Code != "TOWOW_READMODEL_001" {
		t.Fatalf("%d %+v", st, p)
	}
	if waited := time.Since(start); waited < 4*time.Second {
		t.Fatalf("answered after %s, before the read model could have caught up", waited)
	}
}
