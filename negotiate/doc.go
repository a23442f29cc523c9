// Package negotiate runs ToWow's negotiation: the Coordinator, ChannelAdmin
// and UserAgent (twin) steps as River jobs over the event store, and the
// commands that start or answer a negotiation (a user's demand, an external
// agent's offer and feedback).
//
// Every step follows the same shape:
//
//  1. load the demand or channel by folding its stream; if the step is no
//     longer needed (done already, wrong round, terminal state) finish
//     without writing, so retried and duplicated jobs are harmless;
//  2. call the LLM, outside any transaction (the call record, including
//     whether a fallback answered, goes into the metadata of the event the
//     answer produced, so a replay never calls the LLM);
//  3. in one transaction (package uow): insert the follow-up jobs and
//     append the events with the expected version read in step 1; on a
//     version conflict reload and decide again with the same LLM answer.
//
// Follow-up jobs are derived from the events a step appends (reactions.go),
// in one place: e.g. towow.aggregation.started enqueues the aggregate step,
// towow.proposal.distributed enqueues the round's twin-feedback job plus its
// feedback timeout. The twins of a stage answer inside one job whose LLM
// calls run concurrently; the answers are committed as they arrive, several
// to a transaction when several are ready (twin.go). Timeouts are jobs whose
// deadline is in their arguments, on a queue of their own; they check the
// state, wait until the deadline and check again.
//
// One file per job kind holds its arguments (XArgs, whose Kind string is
// stored in river_job rows and never changes) and its worker (XWorker):
// understand.go and filter.go (the Coordinator), broadcast.go,
// aggregate.go, adjust.go, force_finalize.go, gaps.go, recursion.go,
// notify_parent.go and the timeouts and stuck checks (the ChannelAdmin),
// twin_offers.go and twin_feedback.go (the twins). Commands (commands.go)
// write through the same unit of work, so a command's events set off their
// follow-up jobs exactly as a step's do; agents whose profile says mode
// "external" get no twin: their offers and feedback arrive as commands.
// When a root channel completes with an agreed plan, its draft workflow is
// appended in the same commit (package execute runs it).
package negotiate
