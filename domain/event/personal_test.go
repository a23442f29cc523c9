package event_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/event/eventtest"
	"github.com/towow/towow/domain/negotiation"
)

// TestSealPersonalSealsOnlyTaggedTexts: the tagged texts of a payload,
// at any depth (a proposal's assignments, a profile's capabilities map),
// are replaced by what the seal returns; ids and tags stay as they were.
func TestSealPersonalSealsOnlyTaggedTexts(t *testing.T) {
	p := &negotiation.ProposalFinalized{ChannelID: "collab-1", DemandID: "d-1", FinalProposal: negotiation.Proposal{
		Summary: "北京 AI 聚会", Assignments: []negotiation.Assignment{{AgentID: "user_agent_bob", DisplayName: "Bob 王博", Role: "场地提供者", Responsibility: "提供会议室"}}}}
	var seen []string
	err := event.SealPersonal(p, func(s string) (string, error) {
		seen = append(seen, s)
		return "sealed(" + s + ")", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a := p.FinalProposal.Assignments[0]
	if p.FinalProposal.Summary != "sealed(北京 AI 聚会)" || a.DisplayName != "sealed(Bob 王博)" || a.Responsibility != "sealed(提供会议室)" {
		t.Fatalf("texts: %+v", p.FinalProposal)
	}
	if p.ChannelID != "collab-1" || a.AgentID != "user_agent_bob" || a.Role != "场地提供者" {
		t.Fatalf("ids and roles changed: %+v", p)
	}
	if len(seen) != 3 {
		t.Fatalf("sealed %q; want the 3 non-empty texts", seen)
	}
	prof := &negotiation.AgentRegistered{AgentID: "a-1", Profile: negotiation.AgentProfile{AgentID: "a-1", UserName: "王博",
		Tags: []string{"场地提供"}, Capabilities: map[string]string{"场地": "望京30人会议室"}}}
	if err := event.SealPersonal(prof, func(s string) (string, error) { return "x", nil }); err != nil {
		t.Fatal(err)
	}
	if prof.Profile.Capabilities["场地"] != "x" || prof.Profile.Tags[0] != "场地提供" || prof.Profile.UserName != "x" {
		t.Fatalf("profile: %+v", prof.Profile)
	}
}

// TestEveryPayloadSealsSomethingOrNothingPersonal: sealing every sample
// payload leaves its JSON valid and never touches an id field (a field
// named *_id or *_ids keeps its value), so folds and read models still
// find what they join on.
func TestEveryPayloadSealsSomethingOrNothingPersonal(t *testing.T) {
	for _, sample := range eventtest.Payloads {
		typ, v, data, err := event.EncodePayload(sample)
		if err != nil {
			t.Fatal(err)
		}
		p, err := event.DecodePayload(typ, v, data) // a copy: the samples are shared
		if err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(p)
		if err := event.SealPersonal(p, func(s string) (string, error) { return "SEALED", nil }); err != nil {
			t.Fatal(err)
		}
		after, _ := json.Marshal(p)
		var b, a map[string]any
		if json.Unmarshal(before, &b) != nil || json.Unmarshal(after, &a) != nil {
			t.Fatalf("%s: not JSON after sealing", p.EventType())
		}
		for k, v := range b {
			if strings.HasSuffix(k, "_id") && a[k] != v {
				t.Errorf("%s: %s changed from %v to %v", p.EventType(), k, v, a[k])
			}
		}
		if event.HasPersonal(p) != strings.Contains(string(after), "SEALED") {
			t.Errorf("%s: HasPersonal %v, sealed %s", p.EventType(), event.HasPersonal(p), after)
		}
	}
}

// TestClipSealed: a summary clips a sealed text by marking the length in
// it (applied once revealed); a text around a sealed one is left whole.
func TestClipSealed(t *testing.T) {
	const env = "{{towow:p1:0123456789abcdef0123456789abcdef:AAAA}}"
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{env, "{{towow:p1:0123456789abcdef0123456789abcdef:AAAA~40}}"},
		{"{{towow:p1:0123456789abcdef0123456789abcdef:AAAA~60}}", "{{towow:p1:0123456789abcdef0123456789abcdef:AAAA~40}}"},
		{"改写自：" + env, "改写自：" + env},
	} {
		if got := negotiation.ClipText(tc.in, 40); got != tc.want {
			t.Errorf("ClipText(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}
