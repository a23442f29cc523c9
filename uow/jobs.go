package uow

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/jobs"
)

// Job is a follow-up job to insert in a commit's transaction.
type Job struct {
	Args  river.JobArgs
	At    time.Time // zero: run now
	Queue string    // "" is River's default queue
}

// waitWindow is how close to its deadline a timeout job is scheduled; it
// exceeds River's scheduler interval (5 s), and the job waits out the rest.
const waitWindow = 6 * time.Second

// Deadlined schedules a timeout job: River's scheduler promotes scheduled
// jobs every few seconds, so the job is scheduled waitWindow before its
// deadline and waits out the rest itself (see WaitUntil), on the
// timeouts queue.
func Deadlined(args river.JobArgs, deadline time.Time) Job {
	return Job{Args: args, At: deadline.Add(-waitWindow), Queue: jobs.QueueTimeouts}
}

// WaitUntil blocks until deadline when it is within waitWindow, or snoozes
// the job until closer to it.
func (u *UnitOfWork) WaitUntil(ctx context.Context, deadline time.Time) error {
	remaining := deadline.Sub(u.cfg.Now())
	switch {
	case remaining <= 0:
		return nil
	case remaining > waitWindow:
		return river.JobSnooze(remaining - waitWindow/2)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(remaining):
		return nil
	}
}

// JobError turns a step's error into what River should do with the job:
// a domain error will not go away by retrying, so the job is cancelled
// (and logged); anything else (database, context) is retried.
func (u *UnitOfWork) JobError(ctx context.Context, step string, err error) error {
	var de *event.Error
	if errors.As(err, &de) {
		u.log.ErrorContext(ctx, "step refused by the domain; job cancelled", "step", step, "err", err)
		return river.JobCancel(err)
	}
	return err
}

// Meta is the metadata of a step's events.
func Meta(root, actor, causation string) event.Metadata {
	return event.Metadata{CorrelationID: root, Actor: actor, CausationID: causation}
}

// Causation is the causation id of the events a job writes.
func Causation(kind string, jobID int64) string { return fmt.Sprintf("job:%s:%d", kind, jobID) }

// NewID draws an id: prefix and n random bytes in hex (the commands draw
// ids; the domain never does).
func NewID(prefix string, n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("%sid: %w", prefix, err)
	}
	return prefix + hex.EncodeToString(b), nil
}
