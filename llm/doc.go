// Package llm is the LLM layer of ToWow: eleven prompts (nine for the
// negotiation, one for a workflow task, one for the conversation agent),
// the providers that answer them, and [Call], which runs a prompt through a
// [Client] with a timeout, a circuit breaker, reply parsing and a
// deterministic fallback per prompt.
//
// # Prompts
//
// Each prompt is one [Prompt] value in one file, prompt_<name>.go:
// [Understand], [Filter], [Offer], [Aggregate], [Feedback], [Adjust],
// [Gaps], [Recursion], [Compromise], [Task] and [Converse]. The file holds
// the prompt whole: its key, its system prompt, its text/template (in
// Chinese), its completion budget, its input type, the shape of its reply
// (declared once, for the parser and the builtin brain), how a reply is
// validated into the result and the fallback result. What several prompts
// share stays shared: the lenient JSON types and reply decoding (flex.go),
// enum normalisation (enums.go), the proposal shape of prompts 4, 6 and 9
// (proposal.go) and the template functions (template.go).
//
// # Providers
//
// A [Provider] turns one [Request] (system prompt, rendered prompt, typed
// input) into raw reply text. [NewAnthropic] talks to the Anthropic
// Messages API, [NewOpenAI] to any OpenAI-compatible chat-completions
// server (OpenAI, Ollama, vLLM, llama.cpp); the offline builtin brain lives
// in llm/builtin and registers an answer against each prompt value.
// Providers never fall back by themselves.
//
// # Calls
//
// [Call] (ctx, client, prompt, input) is the one path of every prompt:
//
//  1. renders the prompt's template from the typed input;
//  2. calls the provider with a per-call timeout ([Config].Timeout), through
//     one gobreaker circuit breaker shared by all prompts;
//  3. extracts the first JSON object of the reply (plain, fenced or inside
//     prose), decodes it leniently into the prompt's reply shape
//     ([UnderstandReply], [FilterReply], … [ConverseReply]) and validates it
//     into the typed result (unknown agent ids dropped, enums normalised,
//     numbers clamped); prompts 1, 3, 5, 10 and 11 give the domain's own
//     [negotiation.Understanding], [negotiation.OfferAnswer], [negotiation.FeedbackAnswer],
//     [workflow.TaskAnswer] and [workflow.AgentStep];
//  4. on any failure — provider error, timeout, open breaker, a reply that
//     does not parse or validate — returns the prompt's fallback result,
//     built deterministically from the input alone.
//
// Call returns a non-nil error only when the caller's context is done
// (so that a job stops and is retried); an LLM failure is never an error.
// Every call returns a [event.LLMCall] record (prompt key, provider, model,
// latency, tokens, outcome, whether the fallback was used) to be stored with
// the event the result produces, so that a replay never calls the LLM again.
//
// # Circuit breaker
//
// The breaker opens after [Config].FailureThreshold consecutive failures,
// stays open for [Config].RecoveryTimeout, then lets exactly one probe
// through (half-open): a success closes it, a failure opens it again.
// Failures are provider errors, timeouts and replies that fail to parse or
// validate (a model that keeps answering garbage is as useless as one that
// is down, and costs latency and tokens on every call). A call abandoned
// because the caller's context was cancelled or expired counts neither as a
// success nor as a failure.
package llm
