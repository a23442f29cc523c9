// Package agents runs ToWow's negotiation: the Coordinator, ChannelAdmin and
// UserAgent steps of the design (001 §2.3) as River jobs over the event
// store.
//
// Every step follows the same shape (ARCHITECTURE.md §5):
//
//  1. load the demand or channel by folding its stream; if the step is no
//     longer needed (done already, wrong round, terminal state) finish
//     without writing, so retried and duplicated jobs are harmless;
//  2. call the LLM, outside any transaction (the call record, including
//     whether a fallback answered, goes into the metadata of the event the
//     answer produced, so a replay never calls the LLM);
//  3. in one transaction: insert the follow-up jobs and append the events
//     with the expected version read in step 1; on a version conflict reload
//     and decide again with the same LLM answer.
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
// Each step takes a transaction-scoped lock on the streams it decides on
// and reloads them inside the transaction, so the engine's own steps on one
// channel queue instead of conflicting; the expected-version check still
// guards against any other writer. Decoded events are cached per stream
// (cache.go): a stream only grows, so a load reads only what is new.
//
// The same unit of work (engine.go's commit: lock the streams, reload,
// decide, insert the follow-up jobs, append) is the only way anything
// writes: the command side (package commands: a user's demand, an external
// agent's answers, the agent directory's writes) goes through
// [Engine.DecideDemand], [Engine.DecideChannel], [Engine.DecideAgent] and
// [Engine.DecideAgents], so a command's events set off their follow-up jobs
// exactly as a step's do. Agents whose profile says mode "external" get no
// twin: their offers and feedback arrive as such commands.
//
// Files: coordinator.go (understanding and filtering), channel_admin.go
// (the ChannelAdmin's steps: broadcast, aggregate, rounds, force-finalize,
// gaps, sub-negotiations, stuck checks), twin.go (the twins' offers and
// feedback), reactions.go (which jobs follow which events), jobs.go and
// workers.go (River's job kinds and workers), directory.go (the agents a
// step may invite, folded from the agent streams).
package agents
