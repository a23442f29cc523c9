// Package llm is the LLM layer of ToWow: eleven prompts (the nine of the
// design, 001 §3.3 and 004, and the task and conversation prompts of the
// workflow, issue 13),
// the providers that answer them, and the [Client] that wraps every call
// with a timeout, a circuit breaker, reply parsing and a deterministic
// fallback per prompt (001 §6.2.1).
//
// # Providers
//
// A [Provider] turns one [Request] (system prompt, rendered prompt, typed
// input) into raw reply text. [NewAnthropic] talks to the Anthropic
// Messages API, [NewOpenAI] to any OpenAI-compatible chat-completions
// server (OpenAI, Ollama, vLLM, llama.cpp); the offline builtin brain lives
// in llm/builtin. Providers never fall back by themselves.
//
// # Client
//
// [Client] exposes one method per prompt (Understand, Filter, Offer,
// Aggregate, Feedback, Adjust, Gaps, Recursion, Compromise, Task,
// Converse). Each method
//
//  1. renders the prompt's embedded text/template (prompts/*.tmpl, in
//     Chinese) from the typed input;
//  2. calls the provider with a per-call timeout ([Config].Timeout), through
//     one gobreaker circuit breaker shared by all prompts;
//  3. extracts the first JSON object of the reply (plain, fenced or inside
//     prose), decodes it leniently into the prompt's reply shape
//     ([UnderstandReply], [FilterReply], … [ConverseReply], declared once
//     for the parsers and the builtin brain) and validates it into the typed
//     result (unknown agent ids dropped, enums normalised, numbers clamped);
//     prompts 1, 3, 5, 10 and 11 give the domain's own
//     [domain.Understanding], [domain.OfferAnswer], [domain.FeedbackAnswer],
//     [domain.TaskAnswer] and [domain.AgentStep];
//  4. on any failure — provider error, timeout, open breaker, a reply that
//     does not parse or validate — returns the prompt's fallback result,
//     built deterministically from the input alone.
//
// A method returns a non-nil error only when the caller's context is done
// (so that a job stops and is retried); an LLM failure is never an error.
// Every call returns a [domain.LLMCall] record (prompt key, provider, model,
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
