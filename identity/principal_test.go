package identity_test

import (
	"context"
	"strings"
	"testing"

	"github.com/towow/towow/identity"
)

func TestCheckLocalName(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"ascii", "alice", true},
		{"han", "张三", true},
		{"punctuation inside", "a.b-c_d", true},
		{"digit first", "7up", true},
		{"punctuation last", "x-", true},
		{"64 chars", strings.Repeat("a", identity.MaxNameLen), true},
		{"64 multibyte chars", strings.Repeat("张", identity.MaxNameLen), true},
		{"empty", "", false},
		{"leading dash", "-x", false},
		{"leading dot", ".x", false},
		{"leading underscore", "_x", false},
		{"space", "a b", false},
		{"at sign", "a@b", false},
		{"colon", "a:b", false},
		{"slash", "a/b", false},
		{"65 chars", strings.Repeat("a", identity.MaxNameLen+1), false},
		{"65 multibyte chars", strings.Repeat("张", identity.MaxNameLen+1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := identity.CheckLocalName(tt.in)
			if tt.ok && msg != "" {
				t.Errorf("CheckLocalName(%q) = %q, want ok", tt.in, msg)
			}
			if !tt.ok && msg == "" {
				t.Errorf("CheckLocalName(%q) = ok, want a complaint", tt.in)
			}
		})
	}
}

func TestActor(t *testing.T) {
	tests := []struct {
		name string
		p    identity.Principal
		want string
	}{
		{"user", identity.User("alice", "Alice"), "user:alice"},
		{"issuer user", identity.User("42@id.example.com", ""), "user:42@id.example.com"},
		{"agent", identity.Agent("bot-1"), "agent:bot-1"},
		{"admin", identity.Admin(), "admin"},
		{"system", identity.System(), "system"},
		{"anonymous", identity.Principal{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Actor(); got != tt.want {
				t.Errorf("Actor() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPrincipalKinds(t *testing.T) {
	tests := []struct {
		name                   string
		p                      identity.Principal
		anonymous, user, admin bool
	}{
		{"user", identity.User("alice", ""), false, true, false},
		{"agent", identity.Agent("bot"), false, false, false},
		{"admin", identity.Admin(), false, false, true},
		{"system", identity.System(), false, false, false},
		{"anonymous", identity.Principal{}, true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Anonymous(); got != tt.anonymous {
				t.Errorf("Anonymous() = %v, want %v", got, tt.anonymous)
			}
			if got := tt.p.IsUser(); got != tt.user {
				t.Errorf("IsUser() = %v, want %v", got, tt.user)
			}
			if got := tt.p.IsAdmin(); got != tt.admin {
				t.Errorf("IsAdmin() = %v, want %v", got, tt.admin)
			}
		})
	}
}

func TestUserName(t *testing.T) {
	tests := []struct {
		name     string
		id, disp string
		want     identity.Principal
	}{
		{"with name", "alice", "Alice", identity.Principal{Kind: identity.KindUser, ID: "alice", Name: "Alice"}},
		{"name falls back to id", "alice", "", identity.Principal{Kind: identity.KindUser, ID: "alice", Name: "alice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := identity.User(tt.id, tt.disp); got != tt.want {
				t.Errorf("User(%q, %q) = %+v, want %+v", tt.id, tt.disp, got, tt.want)
			}
		})
	}
}

func TestWithFrom(t *testing.T) {
	tests := []struct {
		name string
		ctx  context.Context
		want identity.Principal
	}{
		{"nothing", context.Background(), identity.System()},
		{"anonymous", identity.With(context.Background(), identity.Principal{}), identity.System()},
		{"user", identity.With(context.Background(), identity.User("alice", "Alice")), identity.User("alice", "Alice")},
		{"agent", identity.With(context.Background(), identity.Agent("bot")), identity.Agent("bot")},
		{"admin", identity.With(context.Background(), identity.Admin()), identity.Admin()},
		{"system", identity.With(context.Background(), identity.System()), identity.System()},
		{"innermost wins", identity.With(identity.With(context.Background(), identity.Admin()), identity.Agent("bot")), identity.Agent("bot")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := identity.From(tt.ctx); got != tt.want {
				t.Errorf("From() = %+v, want %+v", got, tt.want)
			}
		})
	}
}
