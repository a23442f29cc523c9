// Package directory is ToWow's agent directory: the agents folded from
// their streams (towow.agent.*) with their profiles, whether each may be
// invited, whether each is online and the hashes of the external agents'
// API tokens ([Directory]); the agent index the filter's SQL stage reads
// ([Directory.SyncIndex]); the agent streams' share of the unit of work
// ([Writer]); and the directory's commands — register, update, deactivate
// and reactivate agents, issue and check their tokens ([Commands]). It
// draws the tokens (the edges' job, never the domain's) and returns the
// plain results declared in domain.
package directory
