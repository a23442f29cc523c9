package negotiation

import "github.com/towow/towow/domain/event"

// TreeEnd folds the events of one negotiation tree (one correlation id,
// in log order) into whether the tree has ended: its root demand ended and
// so did every demand of the tree, the sub-demands its sub-negotiations
// submitted included. A demand ends with its channel's
// towow.negotiation.completed (the channel reached a terminal status and
// every sub-negotiation it spawned ended), or, when it never had a
// channel, with a towow.negotiation.failed that names no channel (rejected,
// nobody matched, stuck before filtering). A root channel completed while
// a sub-negotiation it gave up on still runs (the stuck deadline) has not
// ended its tree: that sub-negotiation's own end does. The tree's outcome
// is its root's.
type TreeEnd struct {
	root      string
	open      map[string]bool // demands submitted that have not ended
	rootEnded bool
	status    ChannelStatus
	reason    FailureReason // the root's last failure
}

// TreeEndTypes are the event types [TreeEnd.Apply] reads; every other
// event leaves it as it is, so a reader may fold only these.
var TreeEndTypes = []event.EventType{EventDemandSubmitted, EventNegotiationFailed, EventNegotiationCompleted}

// NewTreeEnd is the fold of the tree whose root demand is rootDemandID,
// before any of its events.
func NewTreeEnd(rootDemandID string) *TreeEnd {
	return &TreeEnd{root: rootDemandID, open: map[string]bool{}}
}

// Apply folds one event of the tree.
func (t *TreeEnd) Apply(p event.Payload) {
	switch e := p.(type) {
	case *DemandSubmitted:
		t.open[e.DemandID] = true
	case *NegotiationFailed:
		if e.DemandID == t.root {
			t.reason = e.Reason
		}
		if e.ChannelID == "" { // a channel's failure ends nothing until its completion
			t.end(e.DemandID, ChannelStatusFailed)
		}
	case *NegotiationCompleted:
		t.end(e.DemandID, e.Status)
	}
}

// end records that the demand ended in status.
func (t *TreeEnd) end(demandID string, status ChannelStatus) {
	delete(t.open, demandID)
	if demandID == t.root {
		t.rootEnded, t.status = true, status
	}
}

// Ended reports whether the root and every demand of the tree ended.
func (t *TreeEnd) Ended() bool { return t.rootEnded && len(t.open) == 0 }

// Outcome is how the root ended: the terminal status of its channel
// (finalized, force_finalized or failed), or failed when it failed before
// it had a channel; with a failure, its reason (empty otherwise). Empty
// until the root ended.
func (t *TreeEnd) Outcome() (ChannelStatus, FailureReason) {
	if !t.rootEnded {
		return "", ""
	}
	if t.status != ChannelStatusFailed {
		return t.status, ""
	}
	return t.status, t.reason
}
