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
	// Each event counts for the stream it is in: a demand's, or a
	// channel's (a channel shares its demand's count).
	byStream := map[string]*stageCalls{}
	stages := func(stream string) *stageCalls {
		if s := byStream[stream]; s != nil {
			return s
		}
		s := &stageCalls{feedbackRounds: map[int]bool{}}
		byStream[stream] = s
		return s
	}
	for _, ev := range evs {
		if ev.Type != negotiation.EventChannelCreated && ev.Metadata.LLMCall == nil {
			continue
		}
		p, err := ev.Decode()
		if err != nil {
			continue
		}
		if c, ok := p.(*negotiation.ChannelCreated); ok {
			byStream[ev.StreamID] = stages(negotiation.DemandStream(c.DemandID))
			if c.ParentChannel != "" {
				parent := stages(negotiation.ChannelStream(c.ParentChannel))
				parent.subs = append(parent.subs, c.ChannelID)
			}
			continue
		}
		s := stages(ev.StreamID)
		switch llm.PromptKey(ev.Metadata.LLMCall.PromptKey) {
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
		s := byStream[negotiation.ChannelStream(id)]
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
