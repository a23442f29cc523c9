package negotiate_test

import (
	"context"
	"testing"
	"time"

	"github.com/towow/towow/bench"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/writetest"
)

// TestDesignFieldsEndToEnd: every field the prompts output is parsed and
// reaches the log in builtin-LLM negotiations — success criteria
// and risks on every proposal, conditions_accepted that is not always
// true, the gap analysis and descriptions, prompt 8's conditions with the
// cost estimate it was shown, proposed changes on negotiate feedback,
// urgency on the broadcast. (The invitations, channel.closed and
// total_duration_seconds are checked on every channel of every harness
// test by checkChannel.)
func TestDesignFieldsEndToEnd(t *testing.T) {
	h := writetest.New(t, writetest.Opts{})
	ctx := context.Background()
	var ids []string
	for _, text := range append(bench.SampleDemands, "明天就要办一场20人的读书会，很急，需要场地和主持人") {
		sub, err := h.C.SubmitDemand(ctx, "u1", text)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sub.DemandID)
	}
	seen := map[string]int{}
	for _, id := range ids {
		h.Wait(id, 2*time.Minute)
		h.Check(id)
		for _, e := range h.Events(id) {
			p, err := e.Decode()
			if err != nil {
				t.Fatal(err)
			}
			switch ev := p.(type) {
			case *negotiation.DemandBroadcast:
				seen["urgency "+string(ev.Urgency)]++
			case *negotiation.ProposalDistributed:
				if ev.Proposal.Type == negotiation.ProposalTypeCompromise {
					continue
				}
				if len(ev.Proposal.SuccessCriteria) == 0 || len(ev.Proposal.Risks) == 0 {
					t.Errorf("%s: proposal v%d without success criteria or risks", e.StreamID, ev.Proposal.Version)
				}
				for _, a := range ev.Proposal.Assignments {
					if a.ConditionsAccepted {
						seen["conditions accepted"]++
					} else {
						seen["conditions not accepted"]++
					}
				}
				if len(ev.Proposal.OpenQuestions) > 0 {
					seen["open questions"]++
				}
			case *negotiation.ProposalFeedback:
				if ev.FeedbackType == negotiation.FeedbackNegotiate && e.Metadata.LLMCall != nil && !e.Metadata.LLMCall.FallbackUsed {
					if len(ev.ProposedChanges) == 0 {
						t.Errorf("%s: negotiate feedback of %s without proposed changes", e.StreamID, ev.AgentID)
					}
					seen["proposed changes"]++
				}
			case *negotiation.GapIdentified:
				if ev.Analysis == "" {
					t.Errorf("%s: gaps without analysis", e.StreamID)
				}
				for _, g := range ev.Gaps {
					if g.Description == "" {
						t.Errorf("%s: gap %s without description", e.StreamID, g.GapType)
					}
				}
				seen["gaps"]++
			case *negotiation.SubnetTriggered:
				d := ev.Decision
				if d == nil || !d.ShouldRecurse || len(d.Conditions) != 3 || d.EstimatedCost == nil || d.EstimatedCost.Tokens <= 0 {
					t.Errorf("%s: sub-negotiation with recursion decision %+v", e.StreamID, d)
				}
				seen["recursion decision"]++
			}
		}
	}
	t.Logf("seen: %v", seen)
	for _, k := range []string{"urgency normal", "urgency high", "conditions accepted", "conditions not accepted", "open questions",
		"proposed changes", "gaps", "recursion decision"} {
		if seen[k] == 0 {
			t.Errorf("no %s in %d negotiations", k, len(ids))
		}
	}
}
