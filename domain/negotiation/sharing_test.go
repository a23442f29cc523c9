package negotiation

import (
	"errors"
	"reflect"
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestSharing: given the sharing stream's events, when the owner shares
// or unshares, then these events (or this refusal).
func TestSharing(t *testing.T) {
	added := func(user string, r Role) event.Payload {
		return &CollaboratorAdded{DemandID: "d-1", UserID: user, Role: r}
	}
	removed := func(user string) event.Payload { return &CollaboratorRemoved{DemandID: "d-1", UserID: user} }
	share := func(user string, r Role) func(*Sharing) ([]event.Payload, error) {
		return func(s *Sharing) ([]event.Payload, error) { return s.Share("d-1", "alice", user, r) }
	}
	unshare := func(user string) func(*Sharing) ([]event.Payload, error) {
		return func(s *Sharing) ([]event.Payload, error) { return s.Unshare("d-1", user), nil }
	}
	long := string(make([]rune, MaxUserIDLen+1))
	tests := []struct {
		name  string
		given []event.Payload
		when  func(*Sharing) ([]event.Payload, error)
		then  []event.Payload
		err   *event.Error
	}{
		{"a viewer", nil, share("bob", RoleViewer), []event.Payload{added("bob", RoleViewer)}, nil},
		{"an editor", nil, share("bob", RoleEditor), []event.Payload{added("bob", RoleEditor)}, nil},
		{"the same role again: nothing", []event.Payload{added("bob", RoleViewer)}, share("bob", RoleViewer), nil, nil},
		{"a new role", []event.Payload{added("bob", RoleViewer)}, share("bob", RoleEditor), []event.Payload{added("bob", RoleEditor)}, nil},
		{"again after removal", []event.Payload{added("bob", RoleViewer), removed("bob")}, share("bob", RoleViewer), []event.Payload{added("bob", RoleViewer)}, nil},
		{"an unknown role", nil, share("bob", "owner"), nil, ErrShareInvalid},
		{"the owner", nil, share("alice", RoleEditor), nil, ErrShareInvalid},
		{"no user", nil, share("", RoleEditor), nil, ErrShareInvalid},
		{"a user id too long", nil, share(long, RoleEditor), nil, ErrShareInvalid},
		{"unshare", []event.Payload{added("bob", RoleEditor)}, unshare("bob"), []event.Payload{removed("bob")}, nil},
		{"unshare a stranger: nothing", []event.Payload{added("bob", RoleEditor)}, unshare("carol"), nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s Sharing
			for _, e := range tc.given {
				s.Apply(e)
			}
			got, err := tc.when(&s)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || got != nil {
					t.Fatalf("got %v %v, want %v", got, err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.then) {
				t.Fatalf("got %v %v, want %v", got, err, tc.then)
			}
		})
	}
}

// TestRoleAllows: viewers read; editors read and edit.
func TestRoleAllows(t *testing.T) {
	for _, tc := range []struct {
		r          Role
		read, edit bool
	}{{RoleViewer, true, false}, {RoleEditor, true, true}, {"", false, false}, {"owner", false, false}} {
		if tc.r.Allows(false) != tc.read || tc.r.Allows(true) != tc.edit {
			t.Errorf("%q: read %v edit %v", tc.r, tc.r.Allows(false), tc.r.Allows(true))
		}
	}
}

// TestFitTreeBudget: sub-negotiations are kept while what is left of the
// tree's budget pays for them, and the hold says why the rest were not.
func TestFitTreeBudget(t *testing.T) {
	three := []SubnetPlan{{GapType: "a"}, {GapType: "b"}, {GapType: "c"}}
	for _, tc := range []struct {
		name                    string
		per, spent, limit, kept int
		held                    bool
	}{
		{"no budget", 1000, 50_000, 0, 3, false},
		{"room for all", 1000, 7000, 10_000, 3, false},
		{"room for two", 1000, 7500, 10_000, 2, true},
		{"room for none", 1000, 9500, 10_000, 0, true},
		{"spent beyond it", 1000, 20_000, 10_000, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, hold := FitTreeBudget(three, tc.per, tc.spent, tc.limit)
			if len(kept) != tc.kept || (hold != nil) != tc.held {
				t.Fatalf("kept %d hold %+v", len(kept), hold)
			}
			if hold != nil && (hold.Asked != 3 || hold.Kept != tc.kept || hold.Spent != tc.spent || hold.Limit != tc.limit || hold.PerSubnet != tc.per) {
				t.Fatalf("hold %+v", hold)
			}
		})
	}
}
