// Package presence keeps the external agents' presence: an agent's first
// contact (a request its own token authenticates) writes towow.agent.online
// on its stream, and a periodic check writes towow.agent.offline for an
// online agent silent for Config.OfflineAfter. The contacts themselves are
// too frequent for the log: each is an upsert of agent_contacts
// (queries/agent_contacts.sql), at most one write per agent per
// contactThrottle. Both events go through the one unit of work, whose
// decision folds the agent's stream under its lock, so two processes never
// both write one (the second sees the agent already online, or already
// offline). A contact racing the check at the very end of the window may see
// the agent taken offline; its next request brings it online again.
package presence
