package bench

import (
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
)

// stageCalls are the model calls of one channel of a negotiation tree, by
// stage, as its events recorded them (1 for a stage whose calls run at
// once, such as the twins' offers).
type stageCalls struct {
	understand, filter int
	offers, aggregate  int
	feedbackRounds     map[int]bool
	adjust, compromise int
	gaps, recursion    int
	subs               []string // sub-channels, in trigger order
}

// CriticalCalls is the least number of model calls, one after another,
// that the dependency graph of the negotiation tree in evs (its events, in
// log order) allows; the root channel's id is rootChannelID. Each stage
// waits only for its inputs: a root demand is understood, then filtered; a
// sub-demand is understood and filtered at once; the twins' offers are
// one stage; after them, the rounds (aggregation, then each round's
// feedback and the next round's adjustment, and a compromise) run beside
// the gap analysis, the recursion decision and the sub-negotiations it
// starts, each of those a tree of its own. A stage the tree made no call
// for counts nothing. Times the model latency, it is the shortest time to
// agreement the design allows that tree.
func CriticalCalls(evs []eventstore.RecordedEvent, rootChannelID string) int {
	channels := map[string]*stageCalls{}
	byDemand := map[string]*stageCalls{}
	demand := func(id string) *stageCalls {
		if s := byDemand[id]; s != nil {
			return s
		}
		s := &stageCalls{feedbackRounds: map[int]bool{}}
		byDemand[id] = s
		return s
	}
	for _, ev := range evs {
		p, err := ev.Decode()
		if err != nil {
			continue
		}
		if c, ok := p.(*negotiation.ChannelCreated); ok {
			channels[c.ChannelID] = demand(c.DemandID)
			if c.ParentChannel != "" {
				if parent := channels[c.ParentChannel]; parent != nil {
					parent.subs = append(parent.subs, c.ChannelID)
				}
			}
		}
		call := ev.Metadata.LLMCall
		if call == nil {
			continue
		}
		var s *stageCalls
		switch x := p.(type) {
		case *negotiation.DemandUnderstood:
			s = demand(x.DemandID)
		case *negotiation.FilterCompleted:
			s = demand(x.DemandID)
		default:
			s = channels[channelOf(p)]
		}
		if s == nil {
			continue
		}
		switch llm.PromptKey(call.PromptKey) {
		case llm.PromptUnderstand:
			s.understand = 1
		case llm.PromptFilter:
			s.filter = 1
		case llm.PromptOffer:
			s.offers = 1
		case llm.PromptAggregate:
			s.aggregate = 1
		case llm.PromptFeedback:
			if f, ok := p.(*negotiation.ProposalFeedback); ok {
				s.feedbackRounds[f.Round] = true
			}
		case llm.PromptAdjust:
			s.adjust++
		case llm.PromptCompromise:
			s.compromise++
		case llm.PromptGaps:
			s.gaps = 1
		case llm.PromptRecursion:
			s.recursion = 1
		}
	}
	var path func(id string, root bool) int
	path = func(id string, root bool) int {
		s := channels[id]
		if s == nil {
			return 0
		}
		pre := max(s.understand, s.filter)
		if root {
			pre = s.understand + s.filter
		}
		rounds := s.aggregate + len(s.feedbackRounds) + s.adjust + s.compromise
		sub := 0
		for _, c := range s.subs {
			sub = max(sub, path(c, false))
		}
		return pre + s.offers + max(rounds, s.gaps+s.recursion+sub)
	}
	return path(rootChannelID, true)
}

// channelOf is the channel an event of a channel stream belongs to.
func channelOf(p any) string {
	switch x := p.(type) {
	case *negotiation.OfferSubmitted:
		return x.ChannelID
	case *negotiation.ProposalDistributed:
		return x.ChannelID
	case *negotiation.ProposalFeedback:
		return x.ChannelID
	case *negotiation.GapIdentified:
		return x.ChannelID
	case *negotiation.SubnetTriggered:
		return x.ParentChannelID
	case *negotiation.SubnetDeclined:
		return x.ChannelID
	case *negotiation.NegotiationCompleted:
		return x.ChannelID
	case *negotiation.NegotiationFailed:
		return x.ChannelID
	case *negotiation.NegotiationForceFinalized:
		return x.ChannelID
	}
	return ""
}
