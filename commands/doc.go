// Package commands is ToWow's command side: what a user, an operator or an
// external agent asks the system to do — submit a demand, answer as an
// external agent, manage the agent directory — validated by the domain and
// written through the engine's one unit of work (agents.Engine's Decide*
// methods: lock the streams, reload, decide, enqueue the follow-up jobs,
// append, in one transaction). It draws the ids and tokens (the edges' job,
// never the domain's) and returns the plain results declared in domain.
//
// The River workers that carry a negotiation on after a command are in
// package agents; the HTTP surface (package api) reaches this package only
// through an interface it declares.
package commands
