package negotiation

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
)

func testProfile(id string, mode AgentMode) AgentProfile {
	return AgentProfile{AgentID: id, UserName: "Ext", ProfileSummary: "北京的场地方", Location: "北京",
		Tags: []string{"场地"}, Capabilities: map[string]string{"场地": "50人会议室"}, Interests: []string{"AI"},
		Availability: "周末", Mode: mode}
}

// TestAgentDecisions: given the agent's events, when a command, then the
// events it decides or the error code (and no events).
func TestAgentDecisions(t *testing.T) {
	ext := testProfile("user_agent_ext", AgentModeExternal)
	twin := testProfile("user_agent_twin", AgentModeTwin)
	hash := strings.Repeat("ab", 32)
	renamed := ext
	renamed.AgentID = "user_agent_other"
	changed := ext
	changed.Location = "上海"
	spaced := ext
	spaced.UserName = "  Ext  "
	bad := ext
	bad.Tags = nil

	registered := []event.Payload{&AgentRegistered{AgentID: ext.AgentID, Profile: ext}}
	deactivated := append(registered[:1:1], &AgentDeactivated{AgentID: ext.AgentID})
	twinRegistered := []event.Payload{&AgentRegistered{AgentID: twin.AgentID, Profile: twin}}

	tests := []struct {
		name  string
		given []event.Payload
		when  func(a *AgentState) ([]event.Payload, error)
		then  []event.Payload
		err   *event.Error
	}{
		{"register", nil, func(a *AgentState) ([]event.Payload, error) { return a.Register(ext, "api", "") },
			[]event.Payload{&AgentRegistered{AgentID: ext.AgentID, Profile: ext, Source: "api"}}, nil},
		{"register normalizes", nil, func(a *AgentState) ([]event.Payload, error) { return a.Register(spaced, "api", "") },
			[]event.Payload{&AgentRegistered{AgentID: ext.AgentID, Profile: ext, Source: "api"}}, nil},
		{"register with a token", nil, func(a *AgentState) ([]event.Payload, error) { return a.Register(ext, "api", hash) },
			[]event.Payload{&AgentRegistered{AgentID: ext.AgentID, Profile: ext, Source: "api"},
				&AgentTokenIssued{AgentID: ext.AgentID, TokenSHA256: hash}}, nil},
		{"register a twin with a token", nil, func(a *AgentState) ([]event.Payload, error) { return a.Register(twin, "api", hash) },
			nil, ErrAgentNotExternal},
		{"register twice", registered, func(a *AgentState) ([]event.Payload, error) { return a.Register(ext, "api", "") },
			nil, ErrAgentExists},
		{"register invalid", nil, func(a *AgentState) ([]event.Payload, error) { return a.Register(bad, "api", "") },
			nil, ErrAgentInvalid},
		{"update", registered, func(a *AgentState) ([]event.Payload, error) { return a.Update(changed) },
			[]event.Payload{&AgentUpdated{AgentID: ext.AgentID, Profile: changed}}, nil},
		{"update unchanged", registered, func(a *AgentState) ([]event.Payload, error) { return a.Update(spaced) }, nil, nil},
		{"update unknown", nil, func(a *AgentState) ([]event.Payload, error) { return a.Update(ext) }, nil, ErrNotFound},
		{"update renames", registered, func(a *AgentState) ([]event.Payload, error) { return a.Update(renamed) }, nil, ErrAgentInvalid},
		{"update invalid", registered, func(a *AgentState) ([]event.Payload, error) { return a.Update(bad) }, nil, ErrAgentInvalid},
		{"deactivate", registered, func(a *AgentState) ([]event.Payload, error) { return a.Deactivate("left") },
			[]event.Payload{&AgentDeactivated{AgentID: ext.AgentID, Reason: "left"}}, nil},
		{"deactivate twice", deactivated, func(a *AgentState) ([]event.Payload, error) { return a.Deactivate("") }, nil, ErrAgentState},
		{"deactivate unknown", nil, func(a *AgentState) ([]event.Payload, error) { return a.Deactivate("") }, nil, ErrNotFound},
		{"reactivate", deactivated, func(a *AgentState) ([]event.Payload, error) { return a.Reactivate() },
			[]event.Payload{&AgentReactivated{AgentID: ext.AgentID}}, nil},
		{"reactivate active", registered, func(a *AgentState) ([]event.Payload, error) { return a.Reactivate() }, nil, ErrAgentState},
		{"issue token", registered, func(a *AgentState) ([]event.Payload, error) { return a.IssueToken(hash) },
			[]event.Payload{&AgentTokenIssued{AgentID: ext.AgentID, TokenSHA256: hash}}, nil},
		{"issue token to a twin", twinRegistered, func(a *AgentState) ([]event.Payload, error) { return a.IssueToken(hash) },
			nil, ErrAgentNotExternal},
		{"issue token when deactivated", deactivated, func(a *AgentState) ([]event.Payload, error) { return a.IssueToken(hash) },
			nil, ErrAgentState},
		{"issue a malformed hash", registered, func(a *AgentState) ([]event.Payload, error) { return a.IssueToken("abc") },
			nil, ErrAgentInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &AgentState{}
			for _, e := range tt.given {
				a.Apply(e)
			}
			got, err := tt.when(a)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || got != nil {
					t.Fatalf("got %v, %v; want no events and %s", got, err, tt.err.Code)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.then) {
				t.Fatalf("got %#v, %v; want %#v", got, err, tt.then)
			}
		})
	}
}

func TestAgentFold(t *testing.T) {
	ext := testProfile("user_agent_ext", AgentModeExternal)
	a := &AgentState{}
	for _, e := range []event.Payload{&AgentRegistered{AgentID: ext.AgentID, Profile: ext},
		&AgentTokenIssued{AgentID: ext.AgentID, TokenSHA256: "h1"}, &AgentDeactivated{AgentID: ext.AgentID},
		&AgentTokenIssued{AgentID: ext.AgentID, TokenSHA256: "h2"}} {
		a.Apply(e)
	}
	if !a.Exists() || a.Active || a.TokenSHA256 != "h2" {
		t.Fatalf("folded %+v", a)
	}
	a.Apply(&AgentReactivated{AgentID: ext.AgentID})
	if !a.Active {
		t.Fatal("reactivated agent is not active")
	}
}
