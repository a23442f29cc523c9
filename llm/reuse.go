package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

// Reuse of recorded answers: every call's record carries a hash of its
// input (prompt key, model, input) and the answer the parser
// read, so a fork of a negotiation can take the answer of a recorded call
// whose input did not change instead of asking the provider again.

// InputHash is the hash a call's record carries: SHA-256 over the prompt
// key, the provider's configured model and the input the model reads (the
// system prompt and the rendered prompt: promptInput), in hex.
func InputHash(key PromptKey, model string, input []byte) string {
	h := sha256.New()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write([]byte(model))
	h.Write([]byte{0})
	h.Write(input)
	return hex.EncodeToString(h.Sum(nil))
}

// Recorded finds the answer of an earlier call by its input hash.
type Recorded interface {
	// Answer returns the raw answer recorded for a call of key with
	// inputHash; ok is false when there is none.
	Answer(ctx context.Context, key PromptKey, inputHash string) (answer string, ok bool, err error)
}

// reuse is what WithReuse puts in a context.
type reuse struct {
	from    Recorded
	rewrite func(input string) string
}

type reuseKey struct{}

// WithReuse makes calls under ctx look for a recorded answer first: the
// call's input (its system and rendered prompt), passed through rewrite (a fork maps its own ids to
// the original's; nil: unchanged), is hashed with InputHash and looked up
// in from. A recorded answer that parses is the call's result, recorded
// with Reused set and no provider call; anything else asks the provider
// as usual.
func WithReuse(ctx context.Context, from Recorded, rewrite func(input string) string) context.Context {
	return context.WithValue(ctx, reuseKey{}, reuse{from: from, rewrite: rewrite})
}

// reuseOf returns the reuse set on ctx.
func reuseOf(ctx context.Context) (reuse, bool) {
	r, ok := ctx.Value(reuseKey{}).(reuse)
	return r, ok && r.from != nil
}

// recordedAnswer looks up the answer recorded for input (promptInput,
// whose InputHash is hash) under ctx's reuse, if any.
func (c *Client) recordedAnswer(ctx context.Context, key PromptKey, input []byte, hash string) (string, bool) {
	r, ok := reuseOf(ctx)
	if !ok || input == nil {
		return "", false
	}
	if r.rewrite != nil { // the original tree's ids: its own input's hash
		hash = InputHash(key, c.provider.Model(), []byte(r.rewrite(string(input))))
	}
	answer, ok, err := r.from.Answer(ctx, key, hash)
	if err != nil {
		c.log.WarnContext(ctx, "recorded llm answer unavailable, asking the provider", "prompt_key", key, "error", err)
		return "", false
	}
	return answer, ok && answer != ""
}

// promptInput is what the model reads for a call: the system prompt and
// the rendered prompt.
func promptInput(system, prompt string) []byte {
	return []byte(system + "\x00" + prompt)
}
