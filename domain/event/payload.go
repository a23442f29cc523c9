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

// Ender is a payload after which the work on some streams is done: the
// streams it names take no more decisions, so a cache of decoded events
// may forget them (a later read, e.g. a stuck check, reads them again from
// the store).
type Ender interface {
	// EndedStreams returns the streams this event ends.
	EndedStreams() []string
}
