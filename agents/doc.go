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
// Agents whose profile says mode "external" get no twin: their offers and
// feedback arrive through [Engine.SubmitOffer] and [Engine.SubmitFeedback].
package agents
