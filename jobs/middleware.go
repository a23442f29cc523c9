package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/towow/towow/internal/logctx"
)

// step runs around every job this process works: the job's log attributes
// go into its context, so every record the step logs through it can be
// found by job, demand, channel or workflow; a step that failed because
// something it needs is unavailable for a while (an error with a
// RetryAfter, such as the LLM provider's outage) is snoozed for that long,
// which does not count as an attempt; at debug level it logs how long the
// job waited and ran.
func (r *Runner) step(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	start := time.Now()
	ctx = logctx.With(ctx, jobAttrs(job)...)
	err := doInner(ctx)
	if wait, ok := waitFor(err); ok {
		err = river.JobSnooze(wait)
	}
	if r.log.Enabled(ctx, slog.LevelDebug) {
		r.log.DebugContext(ctx, "step", "attempt", job.Attempt,
			"queued", start.Sub(job.ScheduledAt).Round(time.Microsecond), "ran", time.Since(start).Round(time.Microsecond), "err", err)
	}
	return err
}

// jobAttrs are the log attributes of a step: its job and the demand or
// channel it works on (every step's arguments name one of them), so every
// record the step logs through its context can be found by demand or
// channel.
func jobAttrs(job *rivertype.JobRow) []slog.Attr {
	attrs := []slog.Attr{slog.String("job_kind", job.Kind), slog.Int64("job_id", job.ID)}
	var ids struct {
		DemandID   string `json:"demand_id"`
		ChannelID  string `json:"channel_id"`
		WorkflowID string `json:"workflow_id"`
		NodeID     string `json:"node_id"`
		MessageID  string `json:"message_id"`
		Round      int    `json:"round"`
	}
	if json.Unmarshal(job.EncodedArgs, &ids) != nil {
		return attrs
	}
	if ids.DemandID != "" {
		attrs = append(attrs, slog.String("demand_id", ids.DemandID))
	}
	if ids.ChannelID != "" {
		attrs = append(attrs, slog.String("channel_id", ids.ChannelID))
	}
	if ids.WorkflowID != "" {
		attrs = append(attrs, slog.String("workflow_id", ids.WorkflowID))
	}
	if ids.MessageID != "" {
		attrs = append(attrs, slog.String("message_id", ids.MessageID))
	}
	if ids.NodeID != "" {
		attrs = append(attrs, slog.String("node_id", ids.NodeID))
	}
	if ids.Round > 0 {
		attrs = append(attrs, slog.Int("round", ids.Round))
	}
	return attrs
}

// retryAfter is an error that says when to try again.
type retryAfter interface {
	error
	RetryAfter() time.Duration
}

// waitFor reports how long to snooze a step that failed with err: ok when
// err (or an error it wraps) has a positive RetryAfter.
func waitFor(err error) (time.Duration, bool) {
	var ra retryAfter
	if err == nil || !errors.As(err, &ra) || ra.RetryAfter() <= 0 {
		return 0, false
	}
	return ra.RetryAfter(), true
}
