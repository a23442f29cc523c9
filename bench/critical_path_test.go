package bench

import (
	"encoding/json"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
)

// recorded is p as the store would return it, in stream, with the LLM
// call of prompt key when key is not empty.
func recorded(t *testing.T, stream string, p event.Payload, key llm.PromptKey) eventstore.RecordedEvent {
	t.Helper()
	typ, v, data, err := event.EncodePayload(p)
	if err != nil {
		t.Fatal(err)
	}
	ev := eventstore.RecordedEvent{StreamID: stream, Type: typ, Payload: data, Metadata: event.Metadata{SchemaVersion: v}}
	if key != "" {
		ev.Metadata.LLMCall = &event.LLMCall{PromptKey: string(key)}
	}
	return ev
}

// TestCriticalCalls: the least chain of model calls is the root's
// understanding and filtering, its offers, then the longer of its rounds
// and its gap analysis with the sub-negotiations that follows it, a
// sub-demand's understanding and filtering counting once.
func TestCriticalCalls(t *testing.T) {
	// channel builds the calls of one channel: its demand's
	// understanding and filtering, offers, rounds (each a feedback, each
	// after the first an adjustment) and, with gaps, a recursion decision.
	channel := func(demand, ch, parent string, rounds int, gaps bool) []event.Payload {
		evs := []event.Payload{
			&negotiation.DemandUnderstood{DemandID: demand},
			&negotiation.FilterCompleted{DemandID: demand},
			&negotiation.ChannelCreated{ChannelID: ch, DemandID: demand, ParentChannel: parent},
			&negotiation.OfferSubmitted{ChannelID: ch}, &negotiation.OfferSubmitted{ChannelID: ch},
			&negotiation.ProposalDistributed{ChannelID: ch, Round: 1},
		}
		for r := 1; r <= rounds; r++ {
			if r > 1 {
				evs = append(evs, &negotiation.ProposalDistributed{ChannelID: ch, Round: r})
			}
			evs = append(evs, &negotiation.ProposalFeedback{ChannelID: ch, Round: r}, &negotiation.ProposalFeedback{ChannelID: ch, Round: r})
		}
		if gaps {
			evs = append(evs, &negotiation.GapIdentified{ChannelID: ch}, &negotiation.SubnetDeclined{ChannelID: ch})
		}
		return evs
	}
	key := func(p event.Payload) llm.PromptKey {
		switch x := p.(type) {
		case *negotiation.DemandUnderstood:
			return llm.PromptUnderstand
		case *negotiation.FilterCompleted:
			return llm.PromptFilter
		case *negotiation.OfferSubmitted:
			return llm.PromptOffer
		case *negotiation.ProposalDistributed:
			if x.Round == 1 {
				return llm.PromptAggregate
			}
			return llm.PromptAdjust
		case *negotiation.ProposalFeedback:
			return llm.PromptFeedback
		case *negotiation.GapIdentified:
			return llm.PromptGaps
		case *negotiation.SubnetDeclined, *negotiation.SubnetTriggered:
			return llm.PromptRecursion
		}
		return ""
	}
	// streamOf is the stream the engine appends p to.
	streamOf := func(p event.Payload) string {
		switch x := p.(type) {
		case *negotiation.DemandUnderstood:
			return negotiation.DemandStream(x.DemandID)
		case *negotiation.FilterCompleted:
			return negotiation.DemandStream(x.DemandID)
		case *negotiation.SubnetTriggered:
			return negotiation.ChannelStream(x.ParentChannelID)
		}
		var c struct {
			ChannelID string `json:"channel_id"`
		}
		_, _, data, _ := event.EncodePayload(p)
		_ = json.Unmarshal(data, &c)
		return negotiation.ChannelStream(c.ChannelID)
	}
	tests := []struct {
		name string
		evs  []event.Payload
		want int
	}{
		{name: "one round, no gaps", evs: channel("d-a", "collab-a", "", 1, false), want: 5},                   // U F O A FB
		{name: "three rounds outlast the gap analysis", evs: channel("d-a", "collab-a", "", 3, true), want: 9}, // U F O + A FB Adj FB Adj FB
		{name: "a sub-negotiation outlasts the rounds", evs: append(append(
			channel("d-a", "collab-a", "", 1, false),
			&negotiation.GapIdentified{ChannelID: "collab-a"},
			&negotiation.SubnetTriggered{ParentChannelID: "collab-a", SubChannelID: "collab-a-1"}),
			channel("d-a-1", "collab-a-1", "collab-a", 2, false)...),
			want: 3 + 2 + 1 + 1 + 4}, // U F O, G R, sub (U‖F) O, A FB Adj FB
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var evs []eventstore.RecordedEvent
			for _, p := range tc.evs {
				evs = append(evs, recorded(t, streamOf(p), p, key(p)))
			}
			if got := CriticalCalls(evs, "collab-a"); got != tc.want {
				t.Errorf("critical calls %d, want %d", got, tc.want)
			}
		})
	}
}
