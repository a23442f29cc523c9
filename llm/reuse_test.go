package llm

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
)

// recordedCalls is a test Recorded: answers by input hash, counting the
// lookups.
type recordedCalls struct {
	answers map[string]string
	err     error
	asked   []string
}

func (r *recordedCalls) Answer(_ context.Context, _ PromptKey, hash string) (string, bool, error) {
	r.asked = append(r.asked, hash)
	a, ok := r.answers[hash]
	return a, ok, r.err
}

// TestClientReuse: under WithReuse, a call whose input (rewritten) hashes
// to a recorded call takes that answer with no provider call, recorded as
// reused with the same result a provider call gives (one that does not
// parse falls back again); an unknown input or a lookup that fails asks
// the provider.
func TestClientReuse(t *testing.T) {
	for _, key := range PromptKeys() {
		t.Run(string(key), func(t *testing.T) {
			p := &scripted{fn: answer}
			c := newTestClient(p, Config{})
			want, first, err := invoke(context.Background(), c, key)
			if err != nil || first.InputHash == "" || first.Answer != goodReply(key) || first.Reused {
				t.Fatalf("a provider call: %+v %v", first, err)
			}
			rec := &recordedCalls{answers: map[string]string{first.InputHash: first.Answer}}
			p.set(func(context.Context, Request) (Response, error) {
				t.Error("the provider was called for an input with a recorded answer")
				return Response{}, errors.New("no")
			})
			got, again, err := invoke(WithReuse(context.Background(), rec, nil), c, key)
			if err != nil || !again.Reused || again.Outcome != event.LLMOutcomeOK || again.InputTokens != 0 ||
				again.Answer != first.Answer || again.InputHash != first.InputHash || !reflect.DeepEqual(got, want) {
				t.Fatalf("reused: %+v (%v), result equal: %v", again, err, reflect.DeepEqual(got, want))
			}
			if p.count() != 1 || len(rec.asked) != 1 {
				t.Fatalf("%d provider calls, %d lookups", p.count(), len(rec.asked))
			}

			// A recorded answer that did not parse falls back again, as
			// the original did, without a provider call.
			_, garbled, err := invoke(WithReuse(context.Background(), &recordedCalls{answers: map[string]string{first.InputHash: "我不知道"}}, nil), c, key)
			if err != nil || !garbled.Reused || !garbled.FallbackUsed || garbled.Outcome != event.LLMOutcomeParseError || p.count() != 1 {
				t.Fatalf("garbled: %+v %v, %d provider calls", garbled, err, p.count())
			}

			// Nothing recorded, a failed lookup: the provider answers.
			p.set(answer)
			for name, r := range map[string]*recordedCalls{
				"unknown":  {answers: map[string]string{}},
				"db fails": {answers: map[string]string{first.InputHash: first.Answer}, err: errors.New("db down")},
			} {
				before := p.count()
				_, asked, err := invoke(WithReuse(context.Background(), r, nil), c, key)
				if err != nil || asked.Reused || p.count() != before+1 || asked.Answer != goodReply(key) {
					t.Fatalf("%s: %+v %v, %d provider calls", name, asked, err, p.count()-before)
				}
			}
		})
	}
}

// TestClientReuseRewrites: a fork's input names its own ids; the rewrite
// maps them to the original's before the lookup, while the record keeps
// the hash of the fork's own input (a fork of the fork finds it).
func TestClientReuseRewrites(t *testing.T) {
	p := &scripted{fn: answer}
	c := newTestClient(p, Config{})
	in := sampleOfferInput()
	in.RawInput += " d-orig"
	forked := in
	forked.RawInput = strings.ReplaceAll(in.RawInput, "d-orig", "d-fork")
	_, orig, _ := Call(context.Background(), c, Offer, in)
	rec := &recordedCalls{answers: map[string]string{orig.InputHash: orig.Answer}}
	calls := p.count()
	ctx := WithReuse(context.Background(), rec, func(s string) string { return strings.ReplaceAll(s, "d-fork", "d-orig") })
	_, got, err := Call(ctx, c, Offer, forked)
	if err != nil || !got.Reused || p.count() != calls || got.InputHash == orig.InputHash ||
		got.InputHash != InputHash(PromptOffer, "script-1", renderedInput(t, PromptOffer, &forked)) {
		t.Fatalf("fork: %+v %v, %d provider calls", got, err, p.count()-calls)
	}
	// Without the rewrite the fork's input is new: the provider answers.
	if _, got, _ = Call(WithReuse(context.Background(), rec, nil), c, Offer, forked); got.Reused || p.count() != calls+1 {
		t.Fatalf("without the rewrite: %+v", got)
	}
}

// renderedInput is what the model reads for a call of key with in.
func renderedInput(t *testing.T, key PromptKey, in any) []byte {
	t.Helper()
	prompt, err := render(key, in)
	if err != nil {
		t.Fatal(err)
	}
	return promptInput(specOf(key).system, prompt)
}
