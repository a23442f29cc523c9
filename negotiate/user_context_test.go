package negotiate_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/writetest"
)

// TestUserContext: prompt 1 of a user's second demand carries the first
// one's text, outcome and agreed roles (user_context), and the builtin
// brain's understanding shows it; a user's first demand, and another
// user's, carry none. A fork of the second demand before its
// understanding builds the same context (a demand the user submitted after
// it is not in it), so prompt 1 reuses the recorded answer.
func TestUserContext(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]*llm.UnderstandInput{} // by raw input, in call order
	s := writetest.NewScripted()
	s.Understand = func(in *llm.UnderstandInput) string {
		mu.Lock()
		defer mu.Unlock()
		cp := *in
		seen[in.RawInput] = append(seen[in.RawInput], &cp)
		return "" // the builtin brain answers
	}
	inputOf := func(raw string) *llm.UnderstandInput {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(seen[raw]) != 1 {
			t.Fatalf("prompt 1 asked %d times for %q", len(seen[raw]), raw)
		}
		return seen[raw][0]
	}
	h := writetest.New(t, writetest.Opts{Provider: s})
	ctx := context.Background()
	run := func(user, text string) string {
		t.Helper()
		sub, err := h.C.SubmitDemand(ctx, user, text)
		if err != nil {
			t.Fatal(err)
		}
		h.Wait(sub.DemandID, 60*time.Second)
		return sub.DemandID
	}

	const second = "上海周末想组织一次亲子读书会，需要场地和会讲故事的志愿者"
	const later = "杭州的创业团队需要一位UI设计师和一位后端开发，做一个小程序"
	first := run("u_ctx", writetest.SampleDemand)
	run("u_other", "找一位会拍活动照片的摄影师")
	secondID := run("u_ctx", second)

	if in := inputOf(writetest.SampleDemand); in.UserContext != nil {
		t.Fatalf("a user's first demand has a user context: %+v", in.UserContext)
	}
	if in := inputOf("找一位会拍活动照片的摄影师"); in.UserContext != nil {
		t.Fatalf("another user's first demand has a user context: %+v", in.UserContext)
	}
	plan, status := writetest.RootPlan(t, h.Events(first), first)
	want := llm.EarlierDemand{Text: writetest.SampleDemand, Outcome: string(status)}
	if plan != nil && status != negotiation.ChannelStatusFailed {
		for _, a := range plan.Assignments {
			if !strings.Contains(strings.Join(want.Roles, "\x00")+"\x00", a.Role+"\x00") {
				want.Roles = append(want.Roles, a.Role)
			}
		}
	}
	wantCtx := &llm.UserContext{EarlierDemands: []llm.EarlierDemand{want}}
	if got := inputOf(second).UserContext; !reflect.DeepEqual(got, wantCtx) {
		t.Fatalf("the second demand's user context:\n got %+v\nwant %+v", got, wantCtx)
	}
	understood := understoodOf(t, h, secondID)
	note := "延续用户之前的做法：「" + writetest.SampleDemand + "」"
	if status == negotiation.ChannelStatusFailed {
		note = "用户之前提过：「" + writetest.SampleDemand + "」"
	}
	if !strings.Contains(strings.Join(understood.DeepUnderstanding.LikelyPreferences, "|"), note) {
		t.Fatalf("the builtin understanding does not use the history (%q): %+v", note, understood.DeepUnderstanding)
	}

	// A demand submitted later, then a fork of the second at its
	// submission: the fork's prompt 1 is the original's, answered from the
	// record.
	run("u_ctx", later)
	if in := inputOf(later); len(in.UserContext.EarlierDemands) != 2 || in.UserContext.EarlierDemands[0].Text != second {
		t.Fatalf("the third demand's user context: %+v", in.UserContext)
	}
	at := writetest.FirstOf(t, h.Events(secondID), negotiation.EventDemandSubmitted, negotiation.DemandStream(secondID))
	fork, _, err := h.C.Fork(ctx, secondID, at, negotiation.ForkChange{Type: negotiation.ForkNoChange})
	if err != nil {
		t.Fatal(err)
	}
	h.Wait(fork, 60*time.Second)
	if n := len(seen[second]); n != 1 {
		t.Fatalf("the fork asked prompt 1 again (%d calls): its user context differs from the original's", n)
	}
	var call *event.LLMCall
	var forkedAt, understoodAt int64
	for _, e := range h.Events(fork) {
		switch e.Type {
		case negotiation.EventNegotiationForked:
			forkedAt = e.Position
		case negotiation.EventDemandUnderstood:
			call, understoodAt = e.Metadata.LLMCall, e.Position
		}
	}
	if call == nil || !call.Reused || understoodAt <= forkedAt {
		t.Fatalf("the fork's understanding (at %d, forked at %d): %+v, want the fork's own step with a reused call", understoodAt, forkedAt, call)
	}
	if got := understoodOf(t, h, fork); !reflect.DeepEqual(got.DeepUnderstanding, understood.DeepUnderstanding) {
		t.Fatalf("the fork understood %+v; the original %+v", got.DeepUnderstanding, understood.DeepUnderstanding)
	}
	h.Check(secondID)
}

// understoodOf is a demand's towow.demand.understood.
func understoodOf(t *testing.T, h *writetest.Harness, demandID string) *negotiation.DemandUnderstood {
	t.Helper()
	for _, e := range h.Events(demandID) {
		if e.Type == negotiation.EventDemandUnderstood && e.StreamID == negotiation.DemandStream(demandID) {
			p, err := e.Decode()
			if err != nil {
				t.Fatal(err)
			}
			return p.(*negotiation.DemandUnderstood)
		}
	}
	t.Fatalf("demand %s was not understood", demandID)
	return nil
}
