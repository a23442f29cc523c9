package workflow

import (
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
)

// TaskStatus is how a task's assignee reports on it.
type TaskStatus string

// Task statuses.
const (
	// TaskDone: the assignee did its part.
	TaskDone TaskStatus = "done"
	// TaskProblem: the assignee could not; Problem says why.
	TaskProblem TaskStatus = "problem"
)

// TaskAnswer is an assignee's report on a workflow task: its
// twin's answer to the task prompt, or an external agent's over the API.
// A done task needs a summary of what was done, a problem a reason.
type TaskAnswer struct {
	Status  TaskStatus `json:"status" enum:"done,problem"`
	Summary string     `json:"summary" required:"false" maxLength:"2000" doc:"what was done (required for done)"`
	Problem string     `json:"problem,omitempty" maxLength:"2000" doc:"why it could not be done (required for problem)"`
}

// Valid checks the answer's shape.
func (a TaskAnswer) Valid() error {
	switch {
	case a.Status != TaskDone && a.Status != TaskProblem:
		return event.Errorf(negotiation.ErrInvalidAnswer, "task status %q is neither done nor problem", a.Status)
	case a.Status == TaskDone && a.Summary == "":
		return event.Errorf(negotiation.ErrInvalidAnswer, "a done task needs a summary")
	case a.Status == TaskProblem && a.Problem == "":
		return event.Errorf(negotiation.ErrInvalidAnswer, "a task with a problem needs the problem")
	}
	return nil
}
