package event

import "fmt"

// Error is a domain error with a stable TOWOW_* code. Decide
// functions return these; the API maps the code to an HTTP status.
// errors.Is matches two *Error values with the same Code, so callers test
// against the sentinels below whatever the message says.
type Error struct {
	Code    string
	Message string
	// Recoverable (可恢复) is set on a failure a negotiation records:
	// whether the user can get what they asked for by trying again
	// (resubmit, clarify, wait for the provider). It is copied into the
	// failure's towow.error.occurred.
	Recoverable bool
}

// Error renders the code first, then the message.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Errorf returns an *Error with sentinel's code and a specific message.
func Errorf(sentinel *Error, format string, args ...any) *Error {
	return &Error{Code: sentinel.Code, Message: fmt.Sprintf(format, args...)}
}
