package api

import (
	"testing"
	"time"

	"github.com/towow/towow/identity"
)

// TestLimiterBuckets: each principal has a bucket of its own; in local
// mode a person's address has one too (a new name from it shares it); the
// operator and anonymous requests are not limited; sign-ins are bounded
// per address.
func TestLimiterBuckets(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	l := newLimiter(Limits{RequestsPerSecond: 1, Burst: 2}, nil)
	l.now = func() time.Time { return at }
	alice, bob := identity.User("alice", ""), identity.User("bob", "")
	for _, tc := range []struct {
		name   string
		p      identity.Principal
		byName bool
		passes bool
	}{
		{"alice 1", alice, false, true},
		{"alice 2", alice, false, true},
		{"alice 3: over the burst", alice, false, false},
		{"bob with an issuer: his own bucket", bob, false, true},
		{"bob in local mode: his and the address's buckets", bob, true, true},
		{"carol in local mode: the address's second", identity.User("carol", ""), true, true},
		{"dave in local mode: the address is spent", identity.User("dave", ""), true, false},
		{"the operator", identity.Admin(), true, true},
		{"an agent", identity.Agent("a1"), true, true},
		{"anonymous", identity.Principal{}, true, true},
	} {
		if wait := l.request(tc.p, "10.0.0.1", tc.byName); (wait == 0) != tc.passes {
			t.Errorf("%s: wait %s", tc.name, wait)
		}
	}
	at = at.Add(time.Second) // one token back
	if l.request(alice, "10.0.0.1", false) != 0 || l.request(alice, "10.0.0.1", false) == 0 {
		t.Error("a second later: one more request, not two")
	}
	for i := range signInsPerHour {
		if l.signIn("10.0.0.2") != 0 {
			t.Fatalf("sign-in %d refused", i)
		}
	}
	if wait := l.signIn("10.0.0.2"); wait < 2*time.Minute {
		t.Errorf("sign-in past the hour's: wait %s", wait)
	}
	if l.signIn("10.0.0.3") != 0 {
		t.Error("another address's sign-in refused")
	}
}
