// Package erasure is the record of erasures, pure: a person's data
// erased on request (their personal texts crypto-shredded) is itself an
// event, which names the destroyed keys and nothing of the person.
package erasure

import "github.com/towow/towow/domain/event"

// EventErased: a data subject's personal texts were erased, by destroying
// the keys they were sealed with; on the Stream stream.
const EventErased event.EventType = "towow.personal.erased"

// Stream is the stream of every erasure.
const Stream = "erasures"

// Erased is the payload of [EventErased]. It holds no personal data: the
// keys' ids are random, and who asked is the event's principal.
type Erased struct {
	ErasureID string `json:"erasure_id"`
	// KeyIDs are the destroyed data keys (32 hex digits each).
	KeyIDs []string `json:"key_ids"`
	// Subjects is how many data subjects were erased: the person's own,
	// and one per negotiation tree or workflow they started.
	Subjects int `json:"subjects"`
}

// EventType implements [event.Payload].
func (*Erased) EventType() event.EventType { return EventErased }

func init() {
	event.Register(
		event.NewSpec[Erased]("A person's personal texts were erased: the keys they were sealed with were destroyed."),
	)
}
