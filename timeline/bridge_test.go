package timeline

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/event/eventtest"
	"github.com/towow/towow/domain/negotiation"
)

// TestBridgeRoutes: the bridge's mapping is the prototype's, every prototype
// name resolves through the alias table to a registered type, and each
// route's data is built for a sample of that type (no route is dead).
func TestBridgeRoutes(t *testing.T) {
	want := []string{"channel_created", "channel_status", "channel_completed", "channel_failed", "agent_response",
		"agent_feedback", "negotiation_progress", "proposal_sent", "subnet_created", "channel_completed"}
	routes := BridgeRoutes()
	var names []string
	for _, r := range routes {
		names = append(names, r.Event)
		if _, ok := event.Spec(r.Type); !ok {
			t.Errorf("route %q → %q: not a registered event type", r.From, r.Type)
		}
	}
	if !slices.Equal(names, want) {
		t.Fatalf("bridge events %v, want %v", names, want)
	}
	byType := map[event.EventType]event.Payload{}
	for _, p := range eventtest.Payloads {
		byType[p.EventType()] = p
	}
	for _, r := range routes {
		p, ok := byType[r.Type]
		if !ok {
			t.Fatalf("no sample of %s", r.Type)
		}
		found := false
		for _, f := range NewBridge().Frames(p) {
			found = found || f.Event == r.Event
		}
		if !found {
			t.Errorf("route %q (%s → %s) gives no frame for a sample", r.From, r.Type, r.Event)
		}
	}
	routes[0].Event = "changed"
	if BridgeRoutes()[0].Event != "channel_created" {
		t.Error("BridgeRoutes does not return a copy")
	}
}

// TestBridgeFrames folds a small negotiation through the bridge: the frame
// names and data of each event, negotiation_progress counting offers
// against the agents asked, and no frame for events without a bridge
// counterpart.
func TestBridgeFrames(t *testing.T) {
	const ch, d = "collab-1", "d-1"
	understood := &negotiation.DemandUnderstood{DemandID: d, SurfaceDemand: "办聚会", Confidence: negotiation.ConfidenceHigh}
	prop := negotiation.Proposal{ProposalID: "p1", DemandID: d, Version: 1, Summary: "方案"}
	tests := []struct {
		name string
		in   event.Payload
		want []string // "event data-as-JSON"
	}{
		{"the understanding: folded, no frame", understood, nil},
		{"channel created", &negotiation.ChannelCreated{ChannelID: ch, DemandID: d, InvitedAgents: []string{"a1", "a2"},
			Candidates: []negotiation.Candidate{{AgentID: "a1", Reason: "r1"}, {AgentID: "a2", Reason: "r2"}}},
			[]string{`channel_created {"demand_id":"d-1","channel_id":"collab-1","candidates":[{"agent_id":"a1","reason":"r1"},{"agent_id":"a2","reason":"r2"}],"analysis":{"demand_id":"d-1","surface_demand":"办聚会","capability_tags":null,"confidence":"high"},"depth":0}`}},
		{"status", &negotiation.ChannelStatusChanged{ChannelID: ch, OldStatus: negotiation.ChannelStatusCreated, NewStatus: negotiation.ChannelStatusBroadcasting, Reason: "start"},
			[]string{`channel_status {"channel_id":"collab-1","old_status":"created","new_status":"broadcasting","reason":"start"}`}},
		{"an invitation: folded, no frame", &negotiation.ChannelInviteSent{ChannelID: ch, AgentID: "a3"}, nil},
		{"an offer", &negotiation.OfferSubmitted{ChannelID: ch, Offer: negotiation.Offer{AgentID: "a1", DemandID: d,
			OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionParticipate, Contribution: "场地"}}},
			[]string{`agent_response {"agent_id":"a1","channel_id":"collab-1","response_type":"proposal","content":"场地","decision":"participate"}`,
				`negotiation_progress {"channel_id":"collab-1","agent_id":"a1","progress":"1/3"}`}},
		{"a decline", &negotiation.OfferSubmitted{ChannelID: ch, Offer: negotiation.Offer{AgentID: "a2", DemandID: d,
			OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionDecline, DeclineReason: "没空"}}},
			[]string{`agent_response {"agent_id":"a2","channel_id":"collab-1","response_type":"decline","content":"没空","decision":"decline"}`,
				`negotiation_progress {"channel_id":"collab-1","agent_id":"a2","progress":"2/3"}`}},
		{"the same agent again is not counted twice", &negotiation.OfferSubmitted{ChannelID: ch, Offer: negotiation.Offer{AgentID: "a2", DemandID: d,
			OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionDecline, DeclineReason: "没空"}}},
			[]string{`agent_response {"agent_id":"a2","channel_id":"collab-1","response_type":"decline","content":"没空","decision":"decline"}`,
				`negotiation_progress {"channel_id":"collab-1","agent_id":"a2","progress":"2/3"}`}},
		{"the offer timeout: no frame", &negotiation.OfferTimeout{ChannelID: ch, DemandID: d, OffersCount: 2}, nil},
		{"proposal distributed", &negotiation.ProposalDistributed{ChannelID: ch, DemandID: d, Proposal: prop, Round: 1},
			[]string{`proposal_sent {"channel_id":"collab-1","proposal":` + mustJSON(t, prop) + `,"round":1}`}},
		{"feedback accept", &negotiation.ProposalFeedback{ChannelID: ch, DemandID: d, AgentID: "a1", Round: 1,
			FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackAccept, Reasoning: "好"}},
			[]string{`agent_feedback {"agent_id":"a1","channel_id":"collab-1","accepted":true,"reason":"好","feedback_type":"accept","round":1}`}},
		{"feedback negotiate", &negotiation.ProposalFeedback{ChannelID: ch, DemandID: d, AgentID: "a3", Round: 1,
			FeedbackAnswer: negotiation.FeedbackAnswer{FeedbackType: negotiation.FeedbackNegotiate, Reasoning: "改时间"}},
			[]string{`agent_feedback {"agent_id":"a3","channel_id":"collab-1","accepted":false,"reason":"改时间","feedback_type":"negotiate","round":1}`}},
		{"the evaluation: no frame", &negotiation.FeedbackEvaluated{ChannelID: ch, Round: 1}, nil},
		{"finalized", &negotiation.ProposalFinalized{ChannelID: ch, DemandID: d, FinalProposal: prop, Participants: []string{"a1"}},
			[]string{`channel_completed {"channel_id":"collab-1","final_proposal":` + mustJSON(t, prop) + `,"participants":["a1"],"force_finalized":false}`}},
		{"force-finalized", &negotiation.NegotiationForceFinalized{ChannelID: ch, DemandID: d, FinalProposal: prop,
			ConfirmedParticipants: []string{"a1"}, OptionalParticipants: []string{"a3"}},
			[]string{`channel_completed {"channel_id":"collab-1","final_proposal":` + mustJSON(t, prop) + `,"participants":["a1"],"force_finalized":true,"optional_participants":["a3"]}`}},
		{"failed", &negotiation.NegotiationFailed{ChannelID: ch, DemandID: d, Reason: negotiation.FailureLowAcceptance},
			[]string{`channel_failed {"channel_id":"collab-1","reason":"low_acceptance"}`}},
		{"a sub-negotiation", &negotiation.SubnetTriggered{ParentChannelID: ch, ParentDemandID: d, SubDemandID: "d-2", SubChannelID: "collab-2",
			GapType: "摄影师", RecursionDepth: 1},
			[]string{`subnet_created {"channel_id":"collab-1","gaps":["摄影师"],"depth":1,"sub_channel_id":"collab-2","sub_demand_id":"d-2"}`}},
		{"the sub-channel's own progress starts at 0 of its own", &negotiation.OfferSubmitted{ChannelID: "collab-2", Offer: negotiation.Offer{AgentID: "a9",
			OfferAnswer: negotiation.OfferAnswer{Decision: negotiation.OfferDecisionParticipate, Contribution: "拍照"}}},
			[]string{`agent_response {"agent_id":"a9","channel_id":"collab-2","response_type":"proposal","content":"拍照","decision":"participate"}`,
				`negotiation_progress {"channel_id":"collab-2","agent_id":"a9","progress":"1/1"}`}},
		{"completed: no frame (channel_completed came with the finalization)", &negotiation.NegotiationCompleted{ChannelID: ch, DemandID: d,
			Status: negotiation.ChannelStatusFinalized}, nil},
	}
	b := NewBridge() // one fold across the cases, in order
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range b.Frames(tc.in) {
				got = append(got, f.Event+" "+mustJSON(t, f.Data))
				i := slices.IndexFunc(BridgeEvents, func(e BridgeFrame) bool { return e.Event == f.Event })
				if i < 0 || reflect.TypeOf(BridgeEvents[i].Data) != reflect.TypeOf(f.Data) {
					t.Errorf("%s carries a %T, not the type BridgeEvents gives it", f.Event, f.Data)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("frames\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBridgeEventsCoverRoutes: every bridge event a route names has its
// data type in BridgeEvents, and BridgeEvents names no other.
func TestBridgeEventsCoverRoutes(t *testing.T) {
	routed := map[string]bool{}
	for _, r := range BridgeRoutes() {
		routed[r.Event] = true
	}
	for _, e := range BridgeEvents {
		if !routed[e.Event] {
			t.Errorf("BridgeEvents names %s, which no route gives", e.Event)
		}
		delete(routed, e.Event)
	}
	for name := range routed {
		t.Errorf("the routes give %s, which BridgeEvents lacks", name)
	}
}
