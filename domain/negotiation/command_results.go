package negotiation

// What the command side answers. The commands run at the edges (they draw
// ids and tokens and write the log); these are the plain results they
// return, declared here so that every caller — the API, the CLI, the
// benchmarks — shares one shape without depending on the implementation.

// DemandSubmission is the result of submitting a demand.
type DemandSubmission struct {
	DemandID  string
	ChannelID string // the channel the demand will get
	// Position is the global position of the submitted event: reads that
	// must see it wait for the read models to reach it.
	Position int64
}

// AgentChange is the result of an agent directory command.
type AgentChange struct {
	Agent AgentState
	// Position is the last global position written; 0 when the command
	// changed nothing (an update to the same profile).
	Position int64
	// Token is the new API token, when the command issued one. It is shown
	// this once: only its SHA-256 is stored.
	Token string
}

// ProfilesRegistered counts what registering a set of profiles did.
type ProfilesRegistered struct {
	Registered, Updated, Unchanged int
	// Position is the last global position written (0: nothing written).
	Position int64
	// Tokens are the API tokens issued to newly registered external agents
	// (agent id → token), when asked for: shown once, never stored.
	Tokens map[string]string
}
