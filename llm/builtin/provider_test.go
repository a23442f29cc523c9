package builtin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/llm"
)

func TestProviderIdentity(t *testing.T) {
	p := New()
	if p.Name() != "builtin" || p.Model() != "towow-builtin-v1" {
		t.Fatalf("Name, Model = %q, %q", p.Name(), p.Model())
	}
	resp, err := p.Complete(context.Background(), llm.Request{Key: llm.PromptUnderstand,
		Prompt: "请理解这个需求", Input: &llm.UnderstandInput{RawInput: "我想在北京办一场AI主题聚会，需要场地和嘉宾"}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Model != "towow-builtin-v1" || resp.InputTokens <= 0 || resp.OutputTokens <= 0 {
		t.Errorf("response = %+v", resp)
	}
	if resp.OutputTokens != estimateTokens(resp.Text) {
		t.Errorf("OutputTokens = %d, want %d", resp.OutputTokens, estimateTokens(resp.Text))
	}
}

func TestCompleteHonoursContext(t *testing.T) {
	req := llm.Request{Key: llm.PromptUnderstand, Input: &llm.UnderstandInput{RawInput: "需要场地"}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New().Complete(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := NewWithLatency(time.Hour).Complete(ctx, req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline during latency: err = %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("Complete did not return at the deadline")
	}
	resp, err := NewWithLatency(time.Millisecond).Complete(context.Background(), req)
	if err != nil || resp.Text == "" {
		t.Errorf("with latency: %v %q", err, resp.Text)
	}
}

// TestLatencySpread: the simulated latency stays within [d/2, 3d/2) and
// differs between answers, so agents asked at once answer apart.
func TestLatencySpread(t *testing.T) {
	p := NewWithLatency(time.Second).(*Provider)
	seen := map[time.Duration]bool{}
	for i := range 50 {
		w := p.wait(fmt.Sprintf(`{"agent":"a%d","decision":"participate"}`, i))
		if w < 500*time.Millisecond || w >= 1500*time.Millisecond {
			t.Fatalf("wait %s outside [0.5s, 1.5s)", w)
		}
		seen[w] = true
	}
	if len(seen) < 25 {
		t.Fatalf("only %d distinct waits for 50 answers", len(seen))
	}
	if New().(*Provider).wait("x") != 0 {
		t.Fatal("New waits")
	}
}

func TestCompleteRejectsBadRequests(t *testing.T) {
	p := New()
	var nilFilter *llm.FilterInput
	for _, req := range []llm.Request{
		{Key: "no_such_prompt", Input: &llm.UnderstandInput{}},
		{Key: llm.PromptFilter},
		{Key: llm.PromptFilter, Input: nilFilter},
		{Key: llm.PromptOffer, Input: &llm.FilterInput{}},
		{Key: llm.PromptGaps, Input: "gap"},
	} {
		if _, err := p.Complete(context.Background(), req); err == nil || !strings.HasPrefix(err.Error(), "builtin: ") {
			t.Errorf("%s with %T: err = %v", req.Key, req.Input, err)
		}
	}
}

func TestCompleteAcceptsValueInput(t *testing.T) {
	in := llm.UnderstandInput{RawInput: "需要一个摄影师"}
	a, err := New().Complete(context.Background(), llm.Request{Key: llm.PromptUnderstand, Input: &in})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New().Complete(context.Background(), llm.Request{Key: llm.PromptUnderstand, Input: in})
	if err != nil {
		t.Fatal(err)
	}
	if a.Text != b.Text {
		t.Errorf("value and pointer inputs differ:\n%s\n%s", a.Text, b.Text)
	}
}

// TestEveryPromptAnswered: each prompt the llm package defines has exactly
// one answer registered against it, and no answer is registered for a key
// the llm package does not define.
func TestEveryPromptAnswered(t *testing.T) {
	keys := llm.PromptKeys()
	for _, k := range keys {
		if answers[k] == nil {
			t.Errorf("no answer registered for %s", k)
		}
	}
	if len(answers) != len(keys) {
		t.Errorf("%d answers registered for %d prompts", len(answers), len(keys))
	}
	defer func() {
		if recover() == nil {
			t.Error("a second answer to the same prompt was accepted")
		}
	}()
	register(llm.Gaps, gaps)
}
