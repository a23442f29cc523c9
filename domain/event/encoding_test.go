package event_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/event/eventtest"
	"github.com/towow/towow/domain/negotiation"
)

var updatePayloads = flag.Bool("update", false, "rewrite testdata/payloads.golden")

// payloadsGolden holds the encoding of every sample payload, one event type
// line and one JSON line each. Stored events, the read models' rebuilds
// (which compare payloads as stored) and every consumer of the event
// stream depend on these bytes: a change to the payload structs that
// changes them (a field renamed, moved, or losing or gaining omitempty)
// must be a new schema version, never an edit of this file.
const payloadsGolden = "testdata/payloads.golden"

func TestSamplePayloadEncodingIsStable(t *testing.T) {
	var b bytes.Buffer
	for _, p := range eventtest.Payloads {
		typ, _, data, err := event.EncodePayload(p)
		if err != nil {
			t.Fatalf("%s: %v", p.EventType(), err)
		}
		fmt.Fprintf(&b, "%s\n%s\n", typ, data)
	}
	if *updatePayloads {
		if err := os.WriteFile(payloadsGolden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(payloadsGolden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		got, wantLines := bytes.Split(b.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range min(len(got), len(wantLines)) {
			if !bytes.Equal(got[i], wantLines[i]) {
				t.Fatalf("line %d of %s differs:\ngot  %s\nwant %s", i+1, payloadsGolden, got[i], wantLines[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", payloadsGolden, len(got), len(wantLines))
	}
}

// The answer payloads with their optional fields empty: which fields are
// omitted and which are written empty is part of the stored shape.
func TestAnswerPayloadEncodingWithEmptyFields(t *testing.T) {
	tests := []struct {
		name string
		p    event.Payload
		want string
	}{
		{"decline without contribution", declineOffer(),
			`{"channel_id":"c","agent_id":"a","demand_id":"d","decision":"decline","contribution":"","decline_reason":"busy"}`},
		{"accept without reasoning", acceptFeedback(),
			`{"channel_id":"c","demand_id":"d","agent_id":"a","proposal_version":1,"feedback_type":"accept","reasoning":""}`},
		{"understood without deep understanding or context", &negotiation.DemandUnderstood{DemandID: "d", SurfaceDemand: "s"},
			`{"demand_id":"d","surface_demand":"s","capability_tags":null,"confidence":""}`},
		{"understood with empty deep understanding and context", &negotiation.DemandUnderstood{DemandID: "d", SurfaceDemand: "s",
			CapabilityTags: []string{"x"}, Confidence: negotiation.ConfidenceHigh, DeepUnderstanding: &negotiation.DeepUnderstanding{}, Context: &negotiation.DemandContext{}},
			`{"demand_id":"d","surface_demand":"s","capability_tags":["x"],"confidence":"high","deep_understanding":{},"context":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, data, err := event.EncodePayload(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.want {
				t.Errorf("got  %s\nwant %s", data, tt.want)
			}
		})
	}
}

func declineOffer() *negotiation.OfferSubmitted {
	return &negotiation.OfferSubmitted{ChannelID: "c", Offer: negotiation.Offer{AgentID: "a", DemandID: "d",
		OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionDecline, DeclineReason: "busy"}}}
}

func acceptFeedback() *negotiation.ProposalFeedback {
	return &negotiation.ProposalFeedback{ChannelID: "c", DemandID: "d", AgentID: "a", ProposalVersion: 1,
		FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackAccept}}
}
