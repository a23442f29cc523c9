package event

// Payload is the typed body of one event.
//
// Every payload type of the catalog implements Payload on its pointer
// (*DemandSubmitted, *OfferSubmitted, ...): [DecodePayload] returns such a
// pointer, so type switches over payloads use pointer cases.
type Payload interface {
	// EventType returns the type of the event this payload belongs to.
	EventType() EventType
}
