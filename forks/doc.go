// Package forks replays negotiations with a change. A fork copies a negotiation tree's events up to a
// cursor under the ids of a new tree (every id of a tree carries its root
// demand's id, so the copy is a replacement of that part), records
// towow.negotiation.forked with its change, applies the change, and
// enqueues every step the copied events set off: each step looks at the
// state it finds and does nothing when its phase has passed (as any
// retried step must), so the fork goes on from wherever the original was.
// Every step of the fork asks for reuse of the original's LLM answers
// (Forks.Middleware): a call whose input is the original's, ids aside, takes
// the recorded answer; what the change touched asks the provider.
package forks
