package llm

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// TestPromptGolden renders each prompt from its sample input and compares
// it (with its system prompt) with testdata/golden/<key>.txt.
func TestPromptGolden(t *testing.T) {
	for _, key := range PromptKeys() {
		t.Run(string(key), func(t *testing.T) {
			prompt, err := render(key, sampleInput(key))
			if err != nil {
				t.Fatal(err)
			}
			got := "SYSTEM: " + specOf(key).system + "\n\n" + prompt
			path := filepath.Join("testdata", "golden", string(key)+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestPromptGolden -update ./llm)", err)
			}
			if got != string(want) {
				t.Errorf("prompt %s differs from %s (run with -update after checking the diff):\n%s", key, path, got)
			}
		})
	}
}

func TestPromptsComplete(t *testing.T) {
	for _, key := range PromptKeys() {
		s := specOf(key)
		if s.system == "" || s.maxTokens <= 0 || strings.Contains(s.system, "\n") {
			t.Errorf("spec of %s = %+v", key, s)
		}
		prompt, err := render(key, sampleInput(key))
		if err != nil {
			t.Fatal(err)
		}
		// Each prompt ends with its JSON output schema.
		if !strings.Contains(prompt, "```json\n{") || strings.Contains(prompt, "<no value>") {
			t.Errorf("prompt %s lacks its output schema or has a missing value", key)
		}
		if strings.Contains(prompt, `\u003c`) {
			t.Errorf("prompt %s escapes HTML characters", key)
		}
	}
	if n := len(PromptKeys()); n != 11 {
		t.Errorf("%d prompts defined, want 11", n)
	}
	for _, key := range PromptKeys() {
		if name := specOf(key).templateName; name != string(key)+".tmpl" {
			t.Errorf("template of %s is named %q", key, name)
		}
	}
}

func TestRenderZeroInputs(t *testing.T) {
	for _, in := range []any{&UnderstandInput{}, &FilterInput{}, &OfferInput{}, &AggregateInput{}, &FeedbackInput{},
		&AdjustInput{}, &GapInput{}, &RecursionInput{}, &CompromiseInput{}, &TaskInput{}, &ConverseInput{}} {
		key := keyOf(in)
		if _, err := render(key, in); err != nil {
			t.Errorf("render %s with a zero input: %v", key, err)
		}
	}
}

// render renders the prompt of key for in (a pointer to its input type).
func render(key PromptKey, in any) (string, error) {
	p, ok := prompts[key].(promptOf)
	if !ok {
		return "", fmt.Errorf("no prompt %s", key)
	}
	return p.renderAny(in)
}

// specOf is the fixed part of the request of the prompt of key (zero for
// an unknown key).
func specOf(key PromptKey) promptSpec {
	if p, ok := prompts[key].(promptOf); ok {
		return p.spec()
	}
	return promptSpec{}
}

// TestDefineRefusesADuplicateKey: two prompts cannot share a key (their
// fallbacks, records and reused answers would mix), and the refusal
// leaves the defined prompt in place.
func TestDefineRefusesADuplicateKey(t *testing.T) {
	before := prompts[PromptGaps]
	defer func() {
		if recover() == nil {
			t.Error("a second prompt with the key gap_identify was defined")
		}
		if prompts[PromptGaps] != before {
			t.Error("the refused prompt replaced the defined one")
		}
	}()
	define(Prompt[GapInput, GapsReply, GapResult]{key: PromptGaps, template: "x"})
}
