package event_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

func TestDecodeUnknownEventType(t *testing.T) {
	for _, typ := range []event.EventType{"towow.demand.exploded", "channel.created", ""} {
		_, err := event.DecodePayload(typ, 1, []byte(`{}`))
		if !errors.Is(err, event.ErrUnknownEventType) {
			t.Fatalf("DecodePayload(%q) error = %v, want ErrUnknownEventType", typ, err)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", typ)) {
			t.Errorf("error %q does not name the type", err)
		}
		checkErrorStyle(t, err)
	}
}

func TestDecodeUnknownSchemaVersion(t *testing.T) {
	for _, v := range []int{0, -1, 2, 99} {
		_, err := event.DecodePayload(negotiation.EventDemandSubmitted, v, []byte(`{"demand_id":"d-1"}`))
		if !errors.Is(err, event.ErrUnknownSchemaVersion) {
			t.Fatalf("v%d: error = %v, want ErrUnknownSchemaVersion", v, err)
		}
		msg := err.Error()
		for _, want := range []string{string(negotiation.EventDemandSubmitted), fmt.Sprintf("version %d", v), "known versions: 1"} {
			if !strings.Contains(msg, want) {
				t.Errorf("error %q does not contain %q", msg, want)
			}
		}
		checkErrorStyle(t, err)
	}
}

func TestDecodeRejectsInvalidJSON(t *testing.T) {
	tests := []struct {
		name, data string
	}{
		{"array", `[]`},
		{"number", `1`},
		{"null", `null`},
		{"string", `"x"`},
		{"bool", `true`},
		{"empty", ``},
		{"blank", " \n\t"},
		{"truncated", `{"demand_id":`},
		{"unknown field", `{"demand_id":"d-1","surprise":true}`},
		{"unknown nested field", `{"demand_id":"d-1","deep_understanding":{"mood":"x"}}`},
		{"wrong field type", `{"demand_id":1}`},
		{"wrong nested type", `{"deep_understanding":[]}`},
		{"trailing object", `{"demand_id":"d-1"}{}`},
		{"trailing garbage", `{"demand_id":"d-1"} x`},
		{"trailing brace", `{"demand_id":"d-1"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := event.DecodePayload(negotiation.EventDemandSubmitted, 1, []byte(tt.data))
			if !errors.Is(err, event.ErrInvalidPayload) {
				t.Fatalf("DecodePayload(%q) = %#v, %v; want ErrInvalidPayload", tt.data, p, err)
			}
			if p != nil {
				t.Errorf("payload %#v returned with an error", p)
			}
			checkErrorStyle(t, err)
		})
	}
}

func TestDecodeAcceptsWhitespaceAndMissingOptionalFields(t *testing.T) {
	p, err := event.DecodePayload(negotiation.EventDemandSubmitted, 1, []byte(" {\"demand_id\":\"d-1\",\"user_id\":\"u\",\"raw_input\":\"hi\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := &negotiation.DemandSubmitted{DemandID: "d-1", UserID: "u", RawInput: "hi"}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got %#v, want %#v", p, want)
	}
}

func TestEncodeOmitsEmptyOptionalFields(t *testing.T) {
	_, _, data, err := event.EncodePayload(&negotiation.NegotiationFailed{ChannelID: "c", DemandID: "d", Reason: negotiation.FailureStuckTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"channel_id":"c","demand_id":"d","reason":"stuck_timeout"}`; string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
}

// foreignPayload is a payload type the catalog does not know.
type foreignPayload struct{ X int }

func (*foreignPayload) EventType() event.EventType { return "towow.foreign.happened" }

// impostorPayload claims a registered type but is not its registered struct.
type impostorPayload struct{ DemandID string }

func (*impostorPayload) EventType() event.EventType { return negotiation.EventDemandSubmitted }

func TestEncodeErrors(t *testing.T) {
	tests := []struct {
		name string
		p    event.Payload
		want error
	}{
		{"nil interface", nil, event.ErrInvalidPayload},
		{"nil pointer", (*negotiation.DemandSubmitted)(nil), event.ErrInvalidPayload},
		{"unregistered type", &foreignPayload{X: 1}, event.ErrUnknownEventType},
		{"wrong struct for type", &impostorPayload{DemandID: "d"}, event.ErrInvalidPayload},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, v, data, err := event.EncodePayload(tt.p)
			if !errors.Is(err, tt.want) {
				t.Fatalf("EncodePayload error = %v, want %v", err, tt.want)
			}
			if typ != "" || v != 0 || data != nil {
				t.Errorf("EncodePayload returned %q, %d, %s with an error", typ, v, data)
			}
			checkErrorStyle(t, err)
		})
	}
}

func TestUpcasting(t *testing.T) {
	// Pretend DemandRejected is at v3: v1 called the reason "why", v2 had an
	// extra "code" field that v3 dropped.
	spec, _ := event.Spec(negotiation.EventDemandRejected)
	spec.SchemaVersion = 3
	spec.Upcasters = map[int]event.Upcaster{
		1: func(b []byte) ([]byte, error) {
			return bytes.Replace(b, []byte(`"why"`), []byte(`"reason"`), 1), nil
		},
		2: func(b []byte) ([]byte, error) {
			return bytes.Replace(b, []byte(`,"code":7`), nil, 1), nil
		},
	}
	event.RegisterForTest(t, spec)

	want := &negotiation.DemandRejected{DemandID: "d-1", Reason: "no_suitable_agents"}
	tests := []struct {
		version int
		data    string
	}{
		{1, `{"demand_id":"d-1","why":"no_suitable_agents"}`},
		{2, `{"demand_id":"d-1","reason":"no_suitable_agents","code":7}`},
		{3, `{"demand_id":"d-1","reason":"no_suitable_agents"}`},
	}
	for _, tt := range tests {
		got, err := event.DecodePayload(negotiation.EventDemandRejected, tt.version, []byte(tt.data))
		if err != nil {
			t.Fatalf("v%d: %v", tt.version, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("v%d: got %#v, want %#v", tt.version, got, want)
		}
	}
	if _, v, _, _ := event.EncodePayload(want); v != 3 {
		t.Errorf("EncodePayload version = %d, want 3", v)
	}
	_, err := event.DecodePayload(negotiation.EventDemandRejected, 4, []byte(`{}`))
	if !errors.Is(err, event.ErrUnknownSchemaVersion) || !strings.Contains(err.Error(), "known versions: 1, 2, 3") {
		t.Errorf("v4: error = %v, want ErrUnknownSchemaVersion listing 1, 2, 3", err)
	}
}

func TestUpcastingGapsAndFailures(t *testing.T) {
	boom := errors.New("boom")
	spec, _ := event.Spec(negotiation.EventDemandRejected)
	spec.SchemaVersion = 3
	spec.Upcasters = map[int]event.Upcaster{ // no upcaster from v1: v1 is unknown
		2: func([]byte) ([]byte, error) { return nil, boom },
	}
	event.RegisterForTest(t, spec)

	if got := spec.KnownVersions(); !reflect.DeepEqual(got, []int{2, 3}) {
		t.Errorf("KnownVersions() = %v, want [2 3]", got)
	}
	if _, err := event.DecodePayload(negotiation.EventDemandRejected, 1, []byte(`{}`)); !errors.Is(err, event.ErrUnknownSchemaVersion) {
		t.Errorf("v1: error = %v, want ErrUnknownSchemaVersion", err)
	}
	_, err := event.DecodePayload(negotiation.EventDemandRejected, 2, []byte(`{}`))
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "from v2 to v3") {
		t.Errorf("v2: error = %v, want the upcaster's error with context", err)
	}
}

func TestCheckSpecRejectsBadUpcasters(t *testing.T) {
	spec, _ := event.Spec(negotiation.EventDemandRejected)
	spec.Upcasters = map[int]event.Upcaster{1: func(b []byte) ([]byte, error) { return b, nil }}
	if err := event.CheckSpec(spec); err == nil {
		t.Error("checkSpec accepted an upcaster from the current version")
	}
}

func TestSpecAndCatalogReturnCopies(t *testing.T) {
	spec, _ := event.Spec(negotiation.EventDemandRejected)
	spec.SchemaVersion = 42
	if again, _ := event.Spec(negotiation.EventDemandRejected); again.SchemaVersion != 1 {
		t.Error("modifying a returned spec changed the registry")
	}
	if _, ok := event.Spec("towow.nothing.here"); ok {
		t.Error("Spec found an unregistered type")
	}
}

func TestActors(t *testing.T) {
	if got := event.AgentActor("bob"); got != "agent:bob" {
		t.Errorf("AgentActor = %q", got)
	}
	if got := event.UserActor("alice"); got != "user:alice" {
		t.Errorf("UserActor = %q", got)
	}
}

// checkErrorStyle fails t if err's message does not start in lowercase.
func checkErrorStyle(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || unicode.IsUpper(rune(msg[0])) {
		t.Errorf("error message %q should start in lowercase", msg)
	}
}
