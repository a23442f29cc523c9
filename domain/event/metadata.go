package event

// Metadata travels with every stored event.
type Metadata struct {
	// CorrelationID is the root demand id of the negotiation tree: every
	// event of a demand and of its sub-negotiations shares it.
	CorrelationID string `json:"correlation_id,omitempty"`
	// CausationID is the id of the event or command that caused this one.
	CausationID string `json:"causation_id,omitempty"`
	// Actor is who produced the event: [ActorCoordinator],
	// [ActorChannelAdmin], [ActorSystem], [AgentActor] or [UserActor].
	Actor string `json:"actor,omitempty"`
	// Principal is who the request that recorded the event was
	// authenticated as: "user:<id>", "agent:<id>", "admin", or "system"
	// for the server's own steps (a job, a timeout). Empty in events
	// recorded before principals were (they read as the system's).
	Principal string `json:"principal,omitempty"`
	// SchemaVersion is the schema version of the payload, as returned by
	// [EncodePayload] and expected by [DecodePayload].
	SchemaVersion int `json:"schema_version"`
	// LLMCall records the LLM call whose result this event carries, so a
	// replay never calls the LLM again. Nil for events no LLM produced.
	LLMCall *LLMCall `json:"llm_call,omitempty"`
	// TraceParent is the W3C traceparent of the negotiation tree's root
	// (the span that submitted the root demand, e.g. its HTTP request),
	// carried by every event of the tree when tracing is on, so that a step
	// run later, by any process, joins the tree's one trace. Empty when the
	// tree was started without tracing; a fork is a tree of its own.
	TraceParent string `json:"traceparent,omitempty"`
}

// LLMCall is the record of one LLM call, kept in the metadata of the
// event its answer produced so a replay never calls the model: which prompt,
// which provider and model, how long, how many tokens, how it ended and
// whether the prompt's fallback answer was used instead of the model's.
type LLMCall struct {
	PromptKey    string `json:"prompt_key"`
	Provider     string `json:"provider"`
	Model        string `json:"model,omitempty"`
	LatencyMS    int64  `json:"latency_ms"`
	InputTokens  int    `json:"input_tokens,omitempty"`
	OutputTokens int    `json:"output_tokens,omitempty"`
	// Outcome is one of the LLMOutcome constants.
	Outcome      string `json:"outcome" enum:"ok,error,timeout,breaker_open,parse_error"`
	FallbackUsed bool   `json:"fallback_used"`
	Error        string `json:"error,omitempty"`
	// Reused says the answer was taken from an earlier recorded call
	// with the same input instead of asking the provider (a fork replays
	// the answers its change does not affect): no provider call, no
	// tokens spent.
	Reused bool `json:"reused,omitempty"`
	// InputHash identifies the call's input: SHA-256 over the prompt key,
	// the configured model and the input as JSON (llm.InputHash), so a
	// later call with the same input can reuse Answer.
	InputHash string `json:"input_hash,omitempty"`
	// Answer is the model's raw answer that the parser read, also one
	// that did not parse (empty when no answer came).
	Answer string `json:"answer,omitempty" personal:"true"`
	// Attempts are the call's attempts when it took more than one: each
	// transport retry (a 5xx, a 429, a timeout, a dropped connection) and
	// each reply asked again because it did not parse or validate, in
	// order, the last being the call's outcome.
	Attempts []LLMAttempt `json:"attempts,omitempty"`
}

// LLMAttempt is one attempt of an LLM call.
type LLMAttempt struct {
	// Outcome is one of the LLMOutcome constants.
	Outcome   string `json:"outcome" enum:"ok,error,timeout,breaker_open,parse_error"`
	Error     string `json:"error,omitempty"`
	LatencyMS int64  `json:"latency_ms"`
}

// LLM call outcomes.
const (
	LLMOutcomeOK          = "ok"           // the model answered and the answer parsed
	LLMOutcomeError       = "error"        // the call failed (network, HTTP status, ...)
	LLMOutcomeTimeout     = "timeout"      // the call exceeded LLM_TIMEOUT
	LLMOutcomeBreakerOpen = "breaker_open" // the circuit breaker refused the call
	LLMOutcomeParseError  = "parse_error"  // the answer did not parse or validate
)

// Well-known actors.
const (
	ActorCoordinator  = "coordinator"
	ActorChannelAdmin = "channel_admin"
	ActorSystem       = "system"
	// ActorConversation is the conversation agent, who decides
	// on workflows for the person it talks to.
	ActorConversation = "conversation_agent"
)

// AgentActor returns the actor name of a user agent: "agent:<id>".
func AgentActor(agentID string) string { return "agent:" + agentID }

// UserActor returns the actor name of a human user: "user:<id>".
func UserActor(userID string) string { return "user:" + userID }
