package llm

import (
	"context"
	"reflect"
	"testing"

	"github.com/towow/towow/domain/event"
)

// promptCase is what the tests know of one prompt: its sample input, a
// well-formed reply to it and the invariants of its result, with the typed
// prompt behind them.
type promptCase struct {
	sample   func() any // a pointer to a fresh sample input
	good     string     // a reply that parses
	invoke   func(ctx context.Context, c *Client, in any) (any, event.LLMCall, error)
	fallback func(in any) any
	// check parses text and checks the result's invariants; it returns
	// the problems, or the parse error as one problem.
	check func(text string, in any) []string
}

// caseOf is the case of prompt p.
func caseOf[In, Reply, Out any](p *Prompt[In, Reply, Out], sample func() In, good string,
	check func(*In, Out) problems) promptCase {
	return promptCase{
		sample: func() any {
			in := sample()
			return &in
		},
		good: good,
		invoke: func(ctx context.Context, c *Client, in any) (any, event.LLMCall, error) {
			return ret(Call(ctx, c, p, *in.(*In)))
		},
		fallback: func(in any) any { return p.fallback(in.(*In)) },
		check: func(text string, in any) []string {
			out, err := p.parse(text, in.(*In))
			if err != nil {
				return []string{"parse: " + err.Error()}
			}
			return check(in.(*In), out)
		},
	}
}

// cases are the test cases of the prompts, by key: every prompt has one.
var cases = map[PromptKey]promptCase{
	PromptUnderstand: caseOf(Understand, sampleUnderstandInput, replyUnderstand, checkUnderstanding),
	PromptFilter:     caseOf(Filter, sampleFilterInput, replyFilter, checkFilter),
	PromptOffer:      caseOf(Offer, sampleOfferInput, replyOffer, checkOffer),
	PromptAggregate:  caseOf(Aggregate, sampleAggregateInput, replyAggregate, checkAggregate),
	PromptFeedback:   caseOf(Feedback, sampleFeedbackInput, replyFeedback, checkFeedback),
	PromptAdjust:     caseOf(Adjust, sampleAdjustInput, replyAdjust, checkAdjust),
	PromptGaps:       caseOf(Gaps, sampleGapInput, replyGaps, checkGaps),
	PromptRecursion:  caseOf(Recursion, sampleRecursionInput, replyRecursion, checkRecursion),
	PromptCompromise: caseOf(Compromise, sampleCompromiseInput, replyCompromise, checkCompromise),
	PromptTask:       caseOf(Task, sampleTaskInput, replyTask, checkTask),
	PromptConverse:   caseOf(Converse, sampleConverseInput, replyConverse, checkConverse),
}

// caseFor returns the case of key; an unknown key or a prompt without a
// case is a test bug.
func caseFor(key PromptKey) promptCase {
	c, ok := cases[key]
	if !ok {
		panic("no test case for prompt " + string(key))
	}
	return c
}

// sampleInput returns a pointer to the sample input of key.
func sampleInput(key PromptKey) any { return caseFor(key).sample() }

// goodReply returns the well-formed reply of key.
func goodReply(key PromptKey) string { return cases[key].good }

// invoke calls the prompt of key with its sample input.
func invoke(ctx context.Context, c *Client, key PromptKey) (any, event.LLMCall, error) {
	pc := caseFor(key)
	return pc.invoke(ctx, c, pc.sample())
}

// fallbackFor returns the fallback result of key for its sample input.
func fallbackFor(key PromptKey) any {
	pc := caseFor(key)
	return pc.fallback(pc.sample())
}

// parseAndCheck parses text with key's parser and checks the invariants;
// it returns the problems, or the parse error as one problem.
func parseAndCheck(key PromptKey, text string, in any) []string {
	return caseFor(key).check(text, in)
}

// keyOf maps an input pointer to its prompt key.
func keyOf(in any) PromptKey {
	for key, pc := range cases {
		if reflect.TypeOf(pc.sample()) == reflect.TypeOf(in) {
			return key
		}
	}
	return ""
}

// TestEveryPromptHasACase: the tests cover every prompt the package
// defines, and no case names a prompt that is not defined.
func TestEveryPromptHasACase(t *testing.T) {
	for _, key := range PromptKeys() {
		if _, ok := cases[key]; !ok {
			t.Errorf("prompt %s has no test case", key)
		}
	}
	if len(cases) != len(PromptKeys()) {
		t.Errorf("%d test cases for %d prompts", len(cases), len(PromptKeys()))
	}
}
