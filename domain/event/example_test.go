package event_test

import (
	"errors"
	"fmt"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

func ExampleEncodePayload() {
	typ, version, data, err := event.EncodePayload(&negotiation.FeedbackEvaluated{
		ChannelID:  "collab-abc12345",
		Accepts:    4,
		Rejects:    0,
		Negotiates: 1,
		AcceptRate: 0.8,
		Round:      2,
		Decision:   negotiation.RoundFinalize,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	meta := event.Metadata{
		CorrelationID: "d-abc12345",
		Actor:         event.ActorChannelAdmin,
		SchemaVersion: version,
	}
	fmt.Println(typ, meta.SchemaVersion)
	fmt.Println(string(data))
	// Output:
	// towow.feedback.evaluated 1
	// {"channel_id":"collab-abc12345","accepts":4,"rejects":0,"negotiates":1,"accept_rate":0.8,"round":2,"decision":"finalize"}
}

func ExampleDecodePayload() {
	data := []byte(`{"channel_id":"collab-abc12345","demand_id":"d-abc12345","round":2,"max_rounds":5}`)
	p, err := event.DecodePayload(negotiation.EventNegotiationRoundStarted, 1, data)
	if err != nil {
		fmt.Println(err)
		return
	}
	switch p := p.(type) {
	case *negotiation.NegotiationRoundStarted:
		fmt.Printf("round %d of %d in %s\n", p.Round, p.MaxRounds, p.ChannelID)
	}

	_, err = event.DecodePayload(negotiation.EventNegotiationRoundStarted, 1, []byte(`{"round":2,"colour":"red"}`))
	fmt.Println(errors.Is(err, event.ErrInvalidPayload))

	_, err = event.DecodePayload(negotiation.EventNegotiationRoundStarted, 7, data)
	fmt.Println(err)
	// Output:
	// round 2 of 5 in collab-abc12345
	// true
	// domain: decode towow.negotiation.round_started payload: unknown schema version 7 (known versions: 1)
}

func ExampleCatalog() {
	for _, s := range event.Catalog()[:3] {
		fmt.Printf("%s v%d: %s\n", s.Type, s.SchemaVersion, s.Summary)
	}
	// Output:
	// towow.agent.deactivated v1: An agent was deactivated and is no longer invited.
	// towow.agent.offline v1: An agent went offline.
	// towow.agent.online v1: An agent came online.
}
