package agents

import (
	"time"

	"github.com/riverqueue/river"
)

// Job arguments, one type per step. Kinds are stable names: they are stored
// in River's job table.

type understandArgs struct {
	DemandID string `json:"demand_id"`
}

func (understandArgs) Kind() string { return "towow.understand_demand" }

type filterArgs struct {
	DemandID string `json:"demand_id"`
}

func (filterArgs) Kind() string { return "towow.filter_candidates" }

type broadcastArgs struct {
	ChannelID string `json:"channel_id"`
}

func (broadcastArgs) Kind() string { return "towow.broadcast" }

// twinOffersArgs runs the offers (prompt 3) of every twin invited to a
// channel: their LLM calls run concurrently inside the job.
type twinOffersArgs struct {
	ChannelID string `json:"channel_id"`
}

func (twinOffersArgs) Kind() string { return "towow.twin_offers" }

type offerTimeoutArgs struct {
	ChannelID string    `json:"channel_id"`
	Deadline  time.Time `json:"deadline"`
}

func (offerTimeoutArgs) Kind() string { return "towow.offer_timeout" }

type aggregateArgs struct {
	ChannelID string `json:"channel_id"`
}

func (aggregateArgs) Kind() string { return "towow.aggregate" }

// twinFeedbackArgs runs the feedback (prompt 5) of every twin in a round.
type twinFeedbackArgs struct {
	ChannelID string `json:"channel_id"`
	Round     int    `json:"round"`
}

func (twinFeedbackArgs) Kind() string { return "towow.twin_feedback" }

type feedbackTimeoutArgs struct {
	ChannelID string    `json:"channel_id"`
	Round     int       `json:"round"`
	Deadline  time.Time `json:"deadline"`
}

func (feedbackTimeoutArgs) Kind() string { return "towow.feedback_timeout" }

type adjustArgs struct {
	ChannelID string `json:"channel_id"`
	Round     int    `json:"round"`
}

func (adjustArgs) Kind() string { return "towow.adjust_proposal" }

type forceFinalizeArgs struct {
	ChannelID string `json:"channel_id"`
}

func (forceFinalizeArgs) Kind() string { return "towow.force_finalize" }

type gapsArgs struct {
	ChannelID string `json:"channel_id"`
}

func (gapsArgs) Kind() string { return "towow.identify_gaps" }

type recursionArgs struct {
	ChannelID string `json:"channel_id"`
}

func (recursionArgs) Kind() string { return "towow.decide_recursion" }

type notifyParentArgs struct {
	ParentChannelID string `json:"parent_channel_id"`
	SubChannelID    string `json:"sub_channel_id"`
	SubDemandID     string `json:"sub_demand_id"`
}

func (notifyParentArgs) Kind() string { return "towow.notify_parent" }

type demandStuckArgs struct {
	DemandID string    `json:"demand_id"`
	Deadline time.Time `json:"deadline"`
}

func (demandStuckArgs) Kind() string { return "towow.demand_stuck_check" }

type stuckArgs struct {
	ChannelID string    `json:"channel_id"`
	Deadline  time.Time `json:"deadline"`
}

func (stuckArgs) Kind() string { return "towow.stuck_check" }

// job is a follow-up job to insert in a step's transaction.
type job struct {
	args  river.JobArgs
	at    time.Time // zero: run now
	queue string    // "" is River's default queue
}

// queueTimeouts runs the timeout jobs, so that their waits never take a
// worker a negotiation step needs.
const queueTimeouts = "timeouts"

// deadlined schedules a timeout job: River's scheduler promotes scheduled
// jobs every few seconds, so the job is scheduled waitWindow before its
// deadline and waits out the rest itself (see Engine.waitUntil), on the
// timeouts queue.
func deadlined(args river.JobArgs, deadline time.Time) job {
	return job{args: args, at: deadline.Add(-waitWindow), queue: queueTimeouts}
}
