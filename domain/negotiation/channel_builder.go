package negotiation

import (
	"slices"

	"github.com/towow/towow/domain/event"
)

// builder collects a decision's events while tracking the status they lead
// to, so a decision can chain several transitions and have each checked
// against the state machine.
type builder struct {
	c      *Channel
	status ChannelStatus
	events []event.Payload
	err    error
}

// build starts the events of a decision on c.
func build(c *Channel) *builder { return &builder{c: c, status: c.Status} }

// add appends events (none once an error occurred).
func (b *builder) add(p ...event.Payload) *builder {
	if b.err == nil {
		b.events = append(b.events, p...)
	}
	return b
}

// to appends the move to status s, for reason; a move the state machine
// does not allow is an ErrInvalidTransition.
func (b *builder) to(s ChannelStatus, reason string) *builder {
	if b.err != nil {
		return b
	}
	if !CanTransition(b.status, s) {
		b.err = event.Errorf(ErrInvalidTransition, "channel %s cannot go from %s to %s", b.c.ID, b.status, s)
		return b
	}
	b.events = append(b.events, &ChannelStatusChanged{ChannelID: b.c.ID, OldStatus: b.status, NewStatus: s, Reason: reason})
	b.status = s
	return b
}

// done returns the events collected, or the first error. A negotiation
// completed by them closes its channel: towow.channel.closed follows every
// towow.negotiation.completed, with the terminal status and, for a
// failure, its reason.
func (b *builder) done() ([]event.Payload, error) {
	if b.err != nil {
		return nil, b.err
	}
	for i := 0; i < len(b.events); i++ {
		nc, ok := b.events[i].(*NegotiationCompleted)
		if !ok {
			continue
		}
		reason := string(nc.Status)
		for _, e := range b.events {
			if f, ok := e.(*NegotiationFailed); ok {
				reason = string(f.Reason)
			}
		}
		b.events = slices.Insert(b.events, i+1, event.Payload(&ChannelClosed{ChannelID: nc.ChannelID, Status: nc.Status, Reason: reason}))
		i++
	}
	return b.events, nil
}

// fail ends the channel with f, coded code (its towow.error.occurred says
// message), and completes it.
func (b *builder) fail(code *event.Error, f *NegotiationFailed, message string) ([]event.Payload, error) {
	return b.failInto(code, f, message).done()
}

// failInto adds the failure f coded code, its towow.error.occurred, the
// move to failed and the completion.
func (b *builder) failInto(code *event.Error, f *NegotiationFailed, message string) *builder {
	c := b.c
	return b.add(failed(code, f, message)...).to(ChannelStatusFailed, string(f.Reason)).
		add(&NegotiationCompleted{ChannelID: c.ID, DemandID: c.DemandID, Status: ChannelStatusFailed,
			FinalProposal: f.LastProposal, RoundsTaken: c.Round})
}
