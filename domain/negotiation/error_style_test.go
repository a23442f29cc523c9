package negotiation

import (
	"testing"
	"unicode"
)

// checkErrorStyle fails t if err's message does not start in lowercase.
func checkErrorStyle(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || unicode.IsUpper(rune(msg[0])) {
		t.Errorf("error message %q should start in lowercase", msg)
	}
}
