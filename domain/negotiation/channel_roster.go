package negotiation

import "slices"

// roster is who a channel invited, under which names, what each offered
// and who withdrew since: the people side of a channel. A Channel embeds
// it.
type roster struct {
	Candidates     []Candidate      // invited agents, in invitation order
	invited        map[string]bool  // agent id → invited
	Offers         map[string]Offer // agent id → offer
	OfferOrder     []string         // agent ids in the order their offers arrived
	names          map[string]string
	OffersTimedOut bool
	Withdrawn      map[string]bool
}

// open starts the roster of a channel created with candidates.
func (r *roster) open(candidates []Candidate) {
	r.Candidates = candidates
	r.invited, r.names = map[string]bool{}, map[string]string{}
	for _, cand := range candidates {
		r.invited[cand.AgentID] = true
		r.names[cand.AgentID] = cand.DisplayName
	}
	r.Offers, r.Withdrawn = map[string]Offer{}, map[string]bool{}
}

// invite adds a candidate invited after the channel opened (a fork's
// add_agent); the invitations of the candidates the channel was created
// with change nothing.
func (r *roster) invite(e *ChannelInviteSent) {
	if r.invited == nil || r.invited[e.AgentID] {
		return
	}
	r.Candidates = append(slices.Clip(r.Candidates), Candidate{AgentID: e.AgentID, DisplayName: e.DisplayName, Reason: e.Reason})
	r.invited[e.AgentID] = true
	if e.DisplayName != "" {
		r.names[e.AgentID] = e.DisplayName
	}
}

// offered records an offer, and the name its agent gave (if any).
func (r *roster) offered(o Offer, displayName string) {
	r.Offers[o.AgentID] = o
	r.OfferOrder = append(r.OfferOrder, o.AgentID)
	if displayName != "" {
		r.names[o.AgentID] = displayName
	}
}

// DisplayName is the agent's display name as known to the channel.
func (r *roster) DisplayName(agentID string) string {
	if n := r.names[agentID]; n != "" {
		return n
	}
	return agentID
}

// Candidate is the agent's invitation: why it was chosen and how well it
// fits; false if the channel did not invite it.
func (r *roster) Candidate(agentID string) (Candidate, bool) {
	for _, cand := range r.Candidates {
		if cand.AgentID == agentID {
			return cand, true
		}
	}
	return Candidate{}, false
}

// Invited reports whether the agent was invited.
func (r *roster) Invited(agentID string) bool { return r.invited[agentID] }

// MissingOffers lists invited agents that have not offered, in invitation
// order.
func (r *roster) MissingOffers() []string {
	var out []string
	for _, cand := range r.Candidates {
		if _, ok := r.Offers[cand.AgentID]; !ok {
			out = append(out, cand.AgentID)
		}
	}
	return out
}

// Willing are the agents whose offer was participate or conditional,
// withdrawn or not, in offer order: once the offers are closed, a fixed
// list whatever the rounds did since.
func (r *roster) Willing() []string {
	var out []string
	for _, id := range r.OfferOrder {
		if r.Offers[id].Decision.Participates() {
			out = append(out, id)
		}
	}
	return out
}

// ActiveParticipants are the agents whose offer was participate or
// conditional and who have not withdrawn, in offer order.
func (r *roster) ActiveParticipants() []string {
	var out []string
	for _, id := range r.OfferOrder {
		o := r.Offers[id]
		if (o.Decision == OfferDecisionParticipate || o.Decision == OfferDecisionConditional) && !r.Withdrawn[id] {
			out = append(out, id)
		}
	}
	return out
}
