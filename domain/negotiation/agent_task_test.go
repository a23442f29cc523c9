package negotiation

import "testing"

// TestOpenTaskFor: an external agent's inbox lists a task exactly while
// the channel would accept the answer.
func TestOpenTaskFor(t *testing.T) {
	rules := DefaultRules()
	P, D := OfferDecisionParticipate, OfferDecisionDecline
	tests := []struct {
		name   string
		given  *given
		agent  string
		want   TaskKind // "" for none
		round  int
		reason string
	}{
		{name: "created, not yet broadcast", given: newGiven(3, rules), agent: "a1"},
		{name: "collecting: invited and silent", given: newGiven(3, rules).collecting(), agent: "a1", want: TaskOffer, reason: "match"},
		{name: "collecting: not invited", given: newGiven(3, rules).collecting(), agent: "a9"},
		{name: "collecting: already offered", given: newGiven(3, rules).collecting().offers(P), agent: "a1"},
		{name: "collecting: another still silent", given: newGiven(3, rules).collecting().offers(P), agent: "a2", want: TaskOffer, reason: "match"},
		{name: "offers closed, proposal awaited", given: newGiven(3, rules).collecting().offers(P, D, P), agent: "a1"},
		{name: "proposal out: round member", given: newGiven(3, rules).collecting().offers(P, D, P).proposed(), agent: "a3", want: TaskFeedback, round: 1},
		{name: "proposal out: declined, not a member", given: newGiven(3, rules).collecting().offers(P, D, P).proposed(), agent: "a2"},
		{name: "proposal out: member that answered", given: newGiven(3, rules).collecting().offers(P, D, P).proposed().feedback(FeedbackAccept), agent: "a1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := fold(tc.given.events...)
			task, open := c.OpenTaskFor(tc.agent)
			if open != (tc.want != "") || task.Kind != tc.want || task.Round != tc.round || task.Reason != tc.reason {
				t.Fatalf("status %s: got %+v open=%v, want kind %q round %d reason %q", c.Status, task, open, tc.want, tc.round, tc.reason)
			}
			if tc.want == TaskFeedback && (task.Proposal == nil || task.Proposal != c.Proposal) {
				t.Fatalf("feedback task without the proposal under review: %+v", task)
			}
		})
	}
}
