// Package uow is ToWow's one unit of work: every write — a command, a
// River step — goes through [UnitOfWork.Commit]:
//
//  1. lock the streams the decision is about (transaction-scoped, in
//     sorted order), so this process's own steps on one stream queue
//     instead of conflicting;
//  2. load them through the transaction ([UnitOfWork.Fold], through a cache
//     of decoded events: a stream only grows, so a load reads only what is
//     new) and decide;
//  3. lock any other stream the decision appends to, before the first
//     write (a transaction holds the log's readers back from its first
//     write on, so it must not wait after it), in the same order;
//  4. insert the follow-up jobs ([Job], InsertTx in the same transaction)
//     and append the events with the expected version read in step 2; on a
//     version conflict, load and decide again.
//
// An LLM call is never made inside a commit: a step calls it first, and the
// call record goes into the metadata of the event its answer produced
// ([Append].Call), so a replay never calls the LLM. After the commit an
// Observe hook sees the events (metrics).
//
// The package knows no process: the negotiation, the workflow execution,
// presence, forks and the agent directory each decide through it. One rule
// of the negotiation context is still written here, in encode: an agent's
// own events (offer, feedback, withdrawal) name the agent as actor and carry
// its LLM call, and a twins' stage's channel events are the ChannelAdmin's.
package uow
