package negotiation

import "slices"

// TaskKind is what an external agent is asked for in a channel.
type TaskKind string

// Task kinds.
const (
	// TaskOffer: submit an offer (the channel collects offers and the agent
	// has not answered).
	TaskOffer TaskKind = "offer"
	// TaskFeedback: answer the proposal of the current round.
	TaskFeedback TaskKind = "feedback"
)

// AgentTask is one thing an agent is asked for now in a channel.
type AgentTask struct {
	Kind TaskKind
	// Round is, for feedback, the round the answer must name.
	Round int
	// Proposal is, for feedback, the proposal under review.
	Proposal *Proposal
	// Reason is, for an offer, why the agent was chosen.
	Reason string
}

// OpenTaskFor returns what agentID is asked for in the channel now, and
// false when nothing: a task is open exactly while the channel would accept
// the answer (an offer while offers are collected and the agent was invited
// and has not offered; feedback while the round's proposal is out and the
// agent is a round member that has not answered).
func (c *Channel) OpenTaskFor(agentID string) (AgentTask, bool) {
	switch {
	case c.Status == ChannelStatusCollecting && slices.Contains(c.MissingOffers(), agentID):
		t := AgentTask{Kind: TaskOffer}
		for _, cand := range c.Candidates {
			if cand.AgentID == agentID {
				t.Reason = cand.Reason
			}
		}
		return t, true
	case c.AwaitingFeedback() && slices.Contains(c.MissingFeedback(), agentID):
		return AgentTask{Kind: TaskFeedback, Round: c.Round, Proposal: c.Proposal}, true
	}
	return AgentTask{}, false
}
