package eventstore

import (
	"errors"
	"fmt"
)

// ErrVersionConflict is matched (errors.Is) by every *VersionConflictError.
var ErrVersionConflict = errors.New("stream version conflict")

// ErrInvalidEvent is matched (errors.Is) by every *InvalidEventError.
var ErrInvalidEvent = errors.New("invalid event")

// ErrEventIDReused is returned when an append reuses event ids that are
// stored in another stream, under another type, or only for part of the
// batch. Nothing is written.
var ErrEventIDReused = errors.New("event id already used by a different event")

// VersionConflictError reports that a stream was not at the expected version.
// Nothing was written.
type VersionConflictError struct {
	StreamID string
	Expected ExpectedVersion
	Actual   int64 // the stream's current version; 0 means it does not exist
}

func (e *VersionConflictError) Error() string {
	return fmt.Sprintf("stream %q: expected version %s, actual %d", e.StreamID, e.Expected, e.Actual)
}

// Is makes errors.Is(err, ErrVersionConflict) true.
func (e *VersionConflictError) Is(target error) bool { return target == ErrVersionConflict }

// InvalidEventError reports an event rejected before reaching the database.
type InvalidEventError struct {
	Index  int // position of the event in the append call, -1 for the call itself
	Reason string
}

func (e *InvalidEventError) Error() string {
	if e.Index < 0 {
		return "invalid append: " + e.Reason
	}
	return fmt.Sprintf("invalid event #%d: %s", e.Index, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidEvent) true.
func (e *InvalidEventError) Is(target error) bool { return target == ErrInvalidEvent }
