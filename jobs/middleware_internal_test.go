package jobs

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// waitingErr is an error that says when to try again.
type waitingErr time.Duration

func (e waitingErr) Error() string             { return "unavailable" }
func (e waitingErr) RetryAfter() time.Duration { return time.Duration(e) }

// TestWaitFor: a step's error with a positive RetryAfter, also wrapped,
// snoozes the job for it; any other error does not.
func TestWaitFor(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want time.Duration
		ok   bool
	}{
		{"none", nil, 0, false},
		{"a plain error", errors.New("x"), 0, false},
		{"retry after 3 s", waitingErr(3 * time.Second), 3 * time.Second, true},
		{"wrapped", fmt.Errorf("step: %w", waitingErr(time.Second)), time.Second, true},
		{"no wait", waitingErr(0), 0, false},
	}
	for _, tc := range tests {
		if got, ok := waitFor(tc.err); got != tc.want || ok != tc.ok {
			t.Errorf("%s: %s %v, want %s %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
