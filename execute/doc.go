// Package execute runs ToWow's agreed plans: the workflow executor and the
// conversation agent, as River jobs over the event store, and the workflow
// commands (decisions, canvas batches, approvals, an external agent's task
// report, messages to the conversation agent).
//
// An agreed negotiation tree becomes a draft workflow in the commit that
// completes it (package negotiate); decisions on it go through the
// validators (workflow.Workflow.Decide), whose ruling is itself
// an event; once executed, its nodes run as River jobs in topological
// order, independent branches in parallel.
//
// A node runs in three jobs: start (records the attempt: towow.node.started,
// with its deadline), effect (does the work of that attempt and records its
// outcome) and timeout (fails the attempt at its deadline). An http node's
// effect is the one with an outside effect: its job, retried by River after
// a crash or an error once the request may have gone out, records the
// attempt as interrupted instead of sending again, and the node's next
// recorded attempt sends it; so each recorded attempt POSTs at most once.
// Every start job is enqueued in the commit that makes its node ready,
// every effect and timeout job in the commit that starts the attempt.
//
// The conversation agent (a ReAct loop) runs one job per step of a turn. A
// step asks the conversation prompt (outside any transaction) what to do
// next, given the workflow as it is, the earlier turns and this turn's
// steps; then, in one commit, it runs the action (a decision goes through
// the validators: its ruling and effects are in the same commit), records
// the step with what it observed, and enqueues the next step, or records
// the reply that ends the turn. A step retried after a crash asks again
// only when its commit did not happen: the step number is checked against
// the log in the commit.
//
// One file per job kind holds its arguments (XArgs, whose Kind string is
// stored in river_job rows and never changes) and its worker (XWorker):
// start_node.go, node_effect.go, node_timeout.go, converse.go.
package execute
