// Package identity says who is asking: the principal of a request (a
// signed-in user, an external agent, the operator, or the system itself),
// carried in the request's context, and the tokens that prove a user's
// identity: OpenID Connect ID tokens verified against the issuer's
// discovery document and keys, or, with no issuer configured (local mode),
// tokens this server signs with a key kept in its data folder. The console's
// session cookie is such a server-signed token.
package identity

import (
	"context"
	"strings"
	"unicode"
)

// Kind is what sort of principal a request acts as.
type Kind string

// The kinds of principal.
const (
	// KindUser is a person signed in with a user token or session.
	KindUser Kind = "user"
	// KindAgent is an external agent, with its own agent token.
	KindAgent Kind = "agent"
	// KindAdmin is the operator, with the admin token.
	KindAdmin Kind = "admin"
	// KindSystem is the server's own work: negotiation steps, timeouts,
	// workflow execution (a River job acts for no request).
	KindSystem Kind = "system"
)

// Principal is who a request or a write acts as.
type Principal struct {
	// Kind is the sort of principal; the zero Principal is anonymous.
	Kind Kind
	// ID is the user id (a local name, or "<sub>@<issuer host>") or the
	// agent id; empty for the admin and the system.
	ID string
	// Name is the user's display name (from the token's claims).
	Name string
}

// User is the principal of a signed-in user.
func User(id, name string) Principal {
	if name == "" {
		name = id
	}
	return Principal{Kind: KindUser, ID: id, Name: name}
}

// Agent is the principal of an external agent.
func Agent(id string) Principal { return Principal{Kind: KindAgent, ID: id} }

// Admin is the operator's principal.
func Admin() Principal { return Principal{Kind: KindAdmin} }

// System is the server's own principal.
func System() Principal { return Principal{Kind: KindSystem} }

// Anonymous reports whether p is no one (no credentials).
func (p Principal) Anonymous() bool { return p.Kind == "" }

// IsUser reports whether p is a signed-in user.
func (p Principal) IsUser() bool { return p.Kind == KindUser }

// IsAdmin reports whether p is the operator.
func (p Principal) IsAdmin() bool { return p.Kind == KindAdmin }

// Actor is how an event's metadata records p: "user:<id>", "agent:<id>",
// "admin" or "system" ("" when anonymous).
func (p Principal) Actor() string {
	switch p.Kind {
	case KindUser, KindAgent:
		return string(p.Kind) + ":" + p.ID
	default:
		return string(p.Kind)
	}
}

type principalKey struct{}

// With returns ctx carrying p: the write side stamps it on the events the
// request's command records.
func With(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// From returns the principal ctx carries; the system's when none (a River
// job, a command-line tool acting on the database directly).
func From(ctx context.Context) Principal {
	if p, ok := ctx.Value(principalKey{}).(Principal); ok && !p.Anonymous() {
		return p
	}
	return System()
}

// OperatorUser is the user the operator (admin token) acts as when it
// names no one: a name no one can sign in with.
const OperatorUser = "admin"

// MaxNameLen is the longest local user name, in characters.
const MaxNameLen = 64

// CheckLocalName says what is wrong with a local-mode user name ("" when
// nothing): 1 to 64 letters, digits, '.', '_' or '-', starting with a
// letter or digit. It is the user id, so it never holds '@' (an issuer's
// users are "<sub>@<host>") or ':' (actors are "user:<id>").
func CheckLocalName(name string) string {
	n := 0
	for i, r := range name {
		n++
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case i > 0 && strings.ContainsRune("._-", r):
		default:
			return "a name is letters, digits, '.', '_' and '-', starting with a letter or digit"
		}
	}
	switch {
	case name == OperatorUser:
		return "the name admin is the operator's"
	case n == 0:
		return "a name is needed"
	case n > MaxNameLen:
		return "a name is at most 64 characters"
	}
	return ""
}
